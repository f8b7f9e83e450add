//! Estimating the concentration κ from the mean resultant length `R̄` (LAM App. C; Sra 2012).
//!
//! The maximum-likelihood κ solves `A_M(κ) = R̄` (Sra 2012, eq. 4). `A_M` is increasing from
//! `A_M(0) = 0` to `1`, so the root is unique. Two numerical facts shape the code:
//!
//! * **Near `R̄ → 1` the equation is solved in complement form**, `1 − A_M(κ) = 1 − R̄`. For
//!   `R̄ > ½` the right side is exact (Sterbenz) and the left side is computed without
//!   cancellation ([`mean_resultant_length_complement`](super::mean_resultant_length_complement)),
//!   so `R̄ = 1 − 10⁻¹²` still pins κ to ~15 digits. In the plain form, `fl(A_M(κ))` is constant
//!   on κ-intervals of relative width `2⁻⁵³·2κ/(M−1)`, i.e. `10⁻⁴` there.
//! * **The Newton slope `A_M'(κ) = 1 − A² − (M−1)A/κ`** is taken from the same
//!   cancellation-free expansion when κ is large (see `complement.rs`), because the three terms
//!   of the Riccati form, each `~(M−1)/κ`, cancel down to `(M−1)/(2κ²)`.
//!
//! Banerjee et al. (2005, eq. 4.4) start from `κ₀ = R̄(M − R̄²)/(1 − R̄²)`, evaluated as
//! `R̄(M − R̄²)/((1 − R̄)(1 + R̄))` (no cancellation in `1 − R̄²`). Sra (2012, eqs. 5–6) then
//! takes one or two Newton steps on `A_M(κ) − R̄`; LAM uses `κ₀` itself.

use super::complement::complement_and_slope;
use super::mean_resultant_length::mean_resultant_length_kernel;
use crate::error::{require_finite, require_sphere_dim, Error, Result};

/// Validates `(dim, rbar)` for the κ estimators.
#[inline(always)]
pub(crate) fn check_rbar(dim: usize, rbar: f64) -> Result<()> {
    require_sphere_dim("dim", dim)?;
    require_finite("rbar", rbar)?;
    if (0.0..1.0).contains(&rbar) {
        Ok(())
    } else {
        Err(Error::OutOfDomain {
            arg: "rbar",
            value: rbar,
            rule: "must satisfy 0 <= rbar < 1",
        })
    }
}

/// Banerjee's approximation `κ₀ = R̄(M − R̄²)/((1 − R̄)(1 + R̄))`.
#[inline(always)]
pub(crate) fn banerjee(dim: usize, rbar: f64) -> f64 {
    let m = dim as f64;
    rbar * (m - rbar * rbar) / ((1.0 - rbar) * (1.0 + rbar))
}

/// The estimating equation as an increasing residual `g(κ)` with its slope `g'(κ) = A_M'(κ)`
/// and curvature `g''(κ) = A_M''(κ)`: `g = A_M(κ) − R̄` for `R̄ ≤ ½`,
/// `g = (1 − R̄) − (1 − A_M(κ))` for `R̄ > ½`.
pub(crate) trait Residual {
    fn eval(&self, kappa: f64) -> (f64, f64, f64);
}

/// The residual built on the fast `A_M` and the fast complement.
struct FastResidual {
    dim: usize,
    rbar: f64,
}

/// `A_M''(κ)` from `A = A_M(κ)` and `s = A_M'(κ)`: differentiating the Riccati equation
/// `A' = 1 − A² − (M−1)A/κ` once more gives `A'' = −2As − (M−1)(κs − A)/κ²`.
///
/// Only Halley's correction uses it, so its cancellation (the two terms, each `~(M−1)/κ²`,
/// cancel to `~(M−1)/κ³` at large κ: a relative error `~κ·2⁻⁵³`) costs nothing but, beyond
/// `κ ~ 10¹²`, the cubic order; the stopping rule of [`solve_increasing`] holds for Newton.
#[inline(always)]
fn curvature(dim: usize, kappa: f64, a: f64, slope: f64) -> f64 {
    -2.0 * a * slope - (dim as f64 - 1.0) * (kappa * slope - a) / (kappa * kappa)
}

impl Residual for FastResidual {
    #[inline(always)]
    fn eval(&self, kappa: f64) -> (f64, f64, f64) {
        if self.rbar <= 0.5 {
            let a = mean_resultant_length_kernel(self.dim, kappa);
            let (g, slope) = residual_from_ratio(self.dim, self.rbar, kappa, a);
            (g, slope, curvature(self.dim, kappa, a, slope))
        } else {
            let (delta, slope) = complement_and_slope(self.dim, kappa);
            let curv = curvature(self.dim, kappa, 1.0 - delta, slope);
            (residual_from_complement(self.rbar, delta), slope, curv)
        }
    }
}

/// `(A − R̄, A')` for `R̄ ≤ ½` from `A = A_M(κ)`, with the Riccati slope `A' = 1 − A² − (M−1)A/κ`
/// (no cancellation to fear where `A ≲ ½`).
#[inline(always)]
pub(crate) fn residual_from_ratio(dim: usize, rbar: f64, kappa: f64, a: f64) -> (f64, f64) {
    let slope = (1.0 - a) * (1.0 + a) - (dim as f64 - 1.0) * a / kappa;
    (a - rbar, slope)
}

/// `(1 − R̄) − (1 − A)` for `R̄ > ½`, where `1 − R̄` is exact (Sterbenz).
#[inline(always)]
pub(crate) fn residual_from_complement(rbar: f64, delta: f64) -> f64 {
    (1.0 - rbar) - delta
}

/// Safeguarded Halley on an increasing residual, started at `start > 0`, run to the resolution
/// of `f64`.
///
/// Each evaluation narrows a bracket `(lo, hi)` (from `(0, ∞)`: `g < 0` raises `lo`, `g > 0`
/// lowers `hi`) and proposes Halley's step `(g/g')/(1 − gg''/(2g'²))`, or Newton's `g/g'` where
/// the correction factor leaves `[⅔, 2]` (far from the root, or `g''` not finite). A proposal
/// outside the bracket is replaced by the bracket's geometric mean (doubling or halving while
/// one side is open). The solve stops, without evaluating again, once an accepted step is at
/// most `10⁻⁹κ`: the error left is then of order the step squared even for Newton
/// (`|κg''/2g'| ≲ 1` for `A_M`), below `2⁻⁵³`. From Banerjee's start (within 4 % for `M = 3`,
/// 1.2·10⁻³ for `M = 128`: chapter 02's table) that is three evaluations for `M = 3` and two
/// for `M ≥ 128` (counted by a test below).
#[inline(always)]
pub(crate) fn solve_increasing<R: Residual>(residual: &R, start: f64) -> Result<f64> {
    const METHOD: &str = "kappa_mle (safeguarded Halley)";
    const MAX_ITERATIONS: usize = 2200;
    let (mut lo, mut hi) = (0.0_f64, f64::INFINITY);
    let mut x = start;
    for iteration in 1..=MAX_ITERATIONS {
        let (g, dg, ddg) = residual.eval(x);
        if g == 0.0 {
            return Ok(x);
        }
        if g < 0.0 {
            lo = x;
        } else if g > 0.0 {
            hi = x;
        } else {
            // NaN: the count says where, not the cap.
            return Err(Error::NoConvergence {
                method: METHOD,
                iterations: iteration,
            });
        }
        let newton = g / dg;
        let t = g * ddg / (2.0 * dg * dg);
        let step = if t.abs() <= 0.5 {
            newton / (1.0 - t)
        } else {
            newton
        };
        let proposal = x - step;
        let next = if dg > 0.0 && proposal > lo && proposal < hi {
            if step.abs() <= 1e-9 * proposal {
                return Ok(proposal);
            }
            proposal
        } else if hi.is_infinite() {
            2.0 * x
        } else if lo == 0.0 {
            0.5 * x
        } else {
            (lo * hi).sqrt()
        };
        if next == x {
            // lo and hi are adjacent floats: the root is resolved.
            return Ok(x);
        }
        if next == 0.0 || !next.is_finite() {
            return Err(Error::NoConvergence {
                method: METHOD,
                iterations: iteration,
            });
        }
        x = next;
    }
    Err(Error::NoConvergence {
        method: METHOD,
        iterations: MAX_ITERATIONS,
    })
}

/// Banerjee's start plus `newton_steps` of Sra's Newton iteration on a residual.
#[inline(always)]
pub(crate) fn sra_iterate<R: Residual>(residual: &R, start: f64, newton_steps: usize) -> f64 {
    let mut kappa = start;
    for _ in 0..newton_steps {
        let (g, slope, _) = residual.eval(kappa);
        match sra_step(kappa, g, slope) {
            Some(next) => kappa = next,
            None => break,
        }
    }
    kappa
}

/// One of Sra's Newton steps from `kappa` with residual `g` and slope `slope`, or `None` where
/// the iteration stops: at a root, or where the slope is not a positive finite number.
#[inline(always)]
pub(crate) fn sra_step(kappa: f64, g: f64, slope: f64) -> Option<f64> {
    if g == 0.0 || slope.is_nan() || slope <= 0.0 || !slope.is_finite() {
        return None;
    }
    let next = kappa - g / slope;
    // A Newton step from above can overshoot past 0 only when κ₀ is far too large, which
    // does not happen from Banerjee's start; keep κ positive regardless.
    Some(if next > 0.0 { next } else { 0.5 * kappa })
}

/// The maximum-likelihood concentration: the root `κ̂` of `A_M(κ) = R̄`.
///
/// # Formula
///
/// $$ \hat\kappa = A_M^{-1}(\bar R),\qquad A_M(\kappa) = \frac{I_{M/2}(\kappa)}{I_{M/2-1}(\kappa)} $$
///
/// (Sra 2012, eq. 4; LAM App. C). Solved by safeguarded Halley iteration to the resolution of `f64`; for
/// `R̄ > ½` in the complement form `1 − A_M(κ) = 1 − R̄` (see the module docs). `R̄ = 0` gives
/// `κ̂ = 0` (the uniform law).
///
/// # Errors
///
/// * [`Error::InvalidDimension`] if `dim < 2`;
/// * [`Error::NotFinite`] if `rbar` is NaN or infinite;
/// * [`Error::OutOfDomain`] if `rbar ∉ [0, 1)` (`R̄ = 1` would be `κ = ∞`);
/// * [`Error::NoConvergence`] never on the documented domain.
///
/// # Examples
///
/// ```
/// use probdml::vmf::kappa_mle;
/// // M = 3: A_3(κ) = coth κ − 1/κ; at κ = 2 that is 0.5373147207275480.
/// let k = 2.0_f64;
/// let rbar = 1.0 / k.tanh() - 1.0 / k;
/// assert!((kappa_mle(3, rbar).unwrap() - 2.0).abs() < 1e-13);
/// // Near R̄ = 1: 1 − A_3(κ) = 1/κ (to e^{−2κ}), so R̄ = 1 − 10⁻¹² gives κ = 10¹².
/// let k = kappa_mle(3, 1.0 - 1e-12).unwrap();
/// assert!((k / (1.0 / (1.0 - (1.0 - 1e-12_f64))) - 1.0).abs() < 1e-14);
/// assert_eq!(kappa_mle(10, 0.0).unwrap(), 0.0);
/// assert!(kappa_mle(10, 1.0).is_err() && kappa_mle(10, f64::NAN).is_err());
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn kappa_mle(dim: usize, rbar: f64) -> Result<f64> {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || {
            check_rbar(dim, rbar)?;
            kappa_mle_kernel(dim, rbar)
        },
    )
}

/// [`kappa_mle`] after its input check, without the run-time choice of instruction set.
#[inline(always)]
pub(crate) fn kappa_mle_kernel(dim: usize, rbar: f64) -> Result<f64> {
    if rbar == 0.0 {
        return Ok(0.0);
    }
    solve_increasing(&FastResidual { dim, rbar }, banerjee(dim, rbar))
}

/// Banerjee's approximation followed by `newton_steps` of Sra's Newton iteration.
///
/// # Formula
///
/// $$ \kappa_0 = \frac{\bar R (M - \bar R^2)}{(1-\bar R)(1+\bar R)},\qquad
///    \kappa_{t+1} = \kappa_t - \frac{A_M(\kappa_t) - \bar R}{1 - A_M(\kappa_t)^2 - \frac{M-1}{\kappa_t}A_M(\kappa_t)} $$
///
/// (Banerjee et al. 2005, eq. 4.4; Sra 2012, eqs. 5–6; LAM App. C). `newton_steps = 0` is
/// Banerjee's `κ₀`, which LAM uses; 1 and 2 are Sra's `κ̂₁`, `κ̂₂`. For `R̄ > ½` the numerator
/// is evaluated as `(1 − R̄) − (1 − A_M(κ_t))` and the denominator from the
/// cancellation-free slope (module docs), which is the same number computed without losing
/// its digits.
///
/// Accuracy against [`kappa_mle`] (`proofs/vmf_kappa.rs`, worst case over
/// `R̄ ∈ [10⁻⁶, 1 − 10⁻¹²]`): two steps are within `10⁻¹⁰` relative for `M ≥ 45`, but not in
/// low dimension, where Banerjee's start is poor — `2.7·10⁻⁵` at `M = 2`, `4·10⁻⁸` at
/// `M = 10`, `1.1·10⁻¹⁰` at `M = 43` (the worst case decays like `M⁻⁴`). Four steps are within
/// `10⁻¹⁰` for every `M ≥ 2`.
///
/// # Errors
///
/// As [`kappa_mle`].
///
/// # Examples
///
/// ```
/// use probdml::vmf::{kappa_mle, kappa_sra};
/// let rbar = 0.9_f64;
/// let banerjee = kappa_sra(512, rbar, 0).unwrap();
/// assert!((banerjee - 0.9 * (512.0 - 0.81) / 0.19).abs() < 1e-10);
/// let mle = kappa_mle(512, rbar).unwrap();
/// let two = kappa_sra(512, rbar, 2).unwrap();
/// assert!((two - mle).abs() <= 1e-10 * mle);
/// // In low dimension two steps are not enough for 10⁻¹⁰; four are.
/// let (mle, two, four) = (kappa_mle(2, 0.87).unwrap(), kappa_sra(2, 0.87, 2).unwrap(), kappa_sra(2, 0.87, 4).unwrap());
/// assert!((two - mle).abs() > 1e-6 * mle && (four - mle).abs() <= 1e-10 * mle);
/// assert_eq!(kappa_sra(10, 0.0, 2).unwrap(), 0.0);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn kappa_sra(dim: usize, rbar: f64, newton_steps: usize) -> Result<f64> {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || {
            check_rbar(dim, rbar)?;
            Ok(kappa_sra_kernel(dim, rbar, newton_steps))
        },
    )
}

/// [`kappa_sra`] after its input check, without the run-time choice of instruction set.
#[inline(always)]
pub(crate) fn kappa_sra_kernel(dim: usize, rbar: f64, newton_steps: usize) -> f64 {
    if rbar == 0.0 {
        return 0.0;
    }
    sra_iterate(
        &FastResidual { dim, rbar },
        banerjee(dim, rbar),
        newton_steps,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A residual of one sign everywhere: the solve must give up with the count of its steps,
    /// not loop or panic: halvings for `g = 1` (every Newton step `κ − 1` leaves the bracket
    /// `(0, κ)`; 1 → 2⁻¹⁰⁷⁴ → 0: 1075), unit Newton steps up to the cap for `g = −1` (2200), and at once for a NaN residual (1).
    struct Constant(f64);

    impl Residual for Constant {
        fn eval(&self, _kappa: f64) -> (f64, f64, f64) {
            (self.0, 1.0, 0.0)
        }
    }

    /// Counts the evaluations of the residual it wraps.
    struct Counting {
        inner: FastResidual,
        count: std::cell::Cell<usize>,
    }

    impl Residual for Counting {
        fn eval(&self, kappa: f64) -> (f64, f64, f64) {
            self.count.set(self.count.get() + 1);
            self.inner.eval(kappa)
        }
    }

    /// The cost [`solve_increasing`] documents, counted: from Banerjee's start, at most two
    /// evaluations of `A_M` for `M ≥ 128` and three for `M = 3`, over `R̄` from `10⁻⁶` to
    /// `1 − 10⁻¹²`. A wrong curvature (Halley's factor) or a stopping rule that re-evaluates
    /// costs an evaluation more and fails here, though the root found is the same.
    #[test]
    fn halley_takes_the_documented_number_of_evaluations() {
        for (dim, most) in [(3usize, 3usize), (128, 2), (512, 2), (2048, 2)] {
            let mut worst = (0, 0.0);
            for i in 0..=400 {
                let t = i as f64 / 400.0;
                let rbar = if t < 0.5 {
                    10f64.powf(-6.0 + 11.4 * t) // 10⁻⁶ … 0.5
                } else {
                    1.0 - 10f64.powf(-0.3 - 23.4 * (t - 0.5)) // 0.5 … 1 − 10⁻¹²
                };
                let counting = Counting {
                    inner: FastResidual { dim, rbar },
                    count: std::cell::Cell::new(0),
                };
                solve_increasing(&counting, banerjee(dim, rbar)).unwrap();
                if counting.count.get() > worst.0 {
                    worst = (counting.count.get(), rbar);
                }
            }
            println!(
                "M = {dim}: at most {} evaluations (R̄ = {})",
                worst.0, worst.1
            );
            assert!(
                worst.0 <= most,
                "M = {dim}: {} evaluations at R̄ = {}",
                worst.0,
                worst.1
            );
        }
    }

    #[test]
    fn a_residual_without_a_root_is_an_error_with_the_bracket_count() {
        for (sign, count) in [(1.0, 1075), (-1.0, 2200), (f64::NAN, 1)] {
            match solve_increasing(&Constant(sign), 1.0) {
                Err(Error::NoConvergence { iterations, .. }) => {
                    assert_eq!(iterations, count, "residual {sign}")
                }
                other => panic!("residual {sign}: {other:?}"),
            }
        }
    }
}
