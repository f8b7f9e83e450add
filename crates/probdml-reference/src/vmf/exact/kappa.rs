//! Reference κ estimators, written from their definitions with no code of the fast solver.
//!
//! * The MLE is the root of `A_M(κ) = R̄` (Sra 2012, eq. 4), found by **bisection**: `A_M` is
//!   increasing, so halving a bracket `[lo, hi]` with `A_M(lo) < R̄ ≤ A_M(hi)` converges to it
//!   whatever the start, with no slope and no step to get wrong. For `R̄ ≤ ½` the residual is
//!   the 256-bit series `A_M` as a double-double minus `R̄`; for `R̄ > ½` it is the complement
//!   `(1 − R̄) − (1 − A_M(κ))`, with `1 − A_M(κ) = E[2 sin²(θ/2)]` integrated by quadrature
//!   (the reference ratio is returned in `f64`, where `1 − A` is lost as `A → 1`).
//! * Sra's estimator is Banerjee's start (Banerjee et al. 2005, eq. 4.4) followed by Newton
//!   steps on `A_M(κ) − R̄` (Sra 2012, eqs. 5–6), written out here again: the slope is Sra's
//!   `1 − A² − (M−1)A/κ` on the series `A_M` for `R̄ ≤ ½`, and for `R̄ > ½`, where those three
//!   terms cancel, the same number as the variance `A_M'(κ) = Var[μᵀX]` by quadrature.

use super::marginal::CosineMarginal;
use super::mean_resultant_length_dd;
use crate::error::{require_finite, require_sphere_dim, Error, Result};

/// The input rule of both estimators: `M ≥ 2` and `0 ≤ R̄ < 1` (`R̄ = 1` would be `κ = ∞`).
fn check_rbar(dim: usize, rbar: f64) -> Result<()> {
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

/// The estimating equation as an increasing function of κ, in the form each branch resolves:
/// `A_M(κ) − R̄` for `R̄ ≤ ½` (double-double series), `(1 − R̄) − (1 − A_M(κ))` for `R̄ > ½`
/// (quadrature of the complement; `1 − R̄` is exact there by Sterbenz).
fn residual(dim: usize, rbar: f64, kappa: f64) -> f64 {
    if rbar <= 0.5 {
        let (hi, lo) = mean_resultant_length_dd(dim, kappa);
        (hi - rbar) + lo
    } else {
        match CosineMarginal::new(dim, kappa) {
            Ok(law) => (1.0 - rbar) - law.mean_complement(),
            Err(_) => f64::NAN,
        }
    }
}

/// `A_M'(κ)` for the Newton step of [`kappa_sra`]: Sra's `1 − A² − (M−1)A/κ` where it does
/// not cancel (`R̄ ≤ ½`), the variance of `μᵀX` by quadrature otherwise.
fn slope(dim: usize, rbar: f64, kappa: f64) -> f64 {
    if rbar <= 0.5 {
        let (hi, lo) = mean_resultant_length_dd(dim, kappa);
        let a = hi + lo;
        (1.0 - a) * (1.0 + a) - (dim as f64 - 1.0) * a / kappa
    } else {
        match CosineMarginal::new(dim, kappa) {
            Ok(law) => law.variance(),
            Err(_) => f64::NAN,
        }
    }
}

/// The root of the increasing `residual(dim, rbar, ·)` by bisection: bracket by doubling (or
/// halving) from κ = 1, then halve until the bracket is one ulp wide. The midpoint is the
/// geometric mean while the bracket spans more than a factor 2, so a root anywhere in
/// `[10⁻³⁰⁰, 10³⁰⁰]` costs at most ~11 + 53 evaluations.
fn bisect(dim: usize, rbar: f64) -> Result<f64> {
    const METHOD: &str = "vmf::exact::kappa_mle (bisection)";
    let g = |kappa: f64| residual(dim, rbar, kappa);
    let (mut lo, mut hi) = (1.0_f64, 1.0_f64);
    let mut steps = 0;
    let no_convergence = |iterations| Error::NoConvergence {
        method: METHOD,
        iterations,
    };
    if g(1.0) < 0.0 {
        while g(hi) < 0.0 {
            lo = hi;
            hi *= 2.0;
            steps += 1;
            if steps > 1100 || !hi.is_finite() {
                return Err(no_convergence(steps));
            }
        }
    } else {
        // `g(lo) >= 0` or NaN: halve until the residual is below 0.
        while g(lo).partial_cmp(&0.0) != Some(std::cmp::Ordering::Less) {
            hi = lo;
            lo *= 0.5;
            steps += 1;
            if steps > 1100 || lo == 0.0 {
                return Err(no_convergence(steps));
            }
        }
    }
    // Invariant: g(lo) < 0 ≤ g(hi) (NaN counts as "not below": it shrinks the bracket from
    // above, and a NaN everywhere ends in NoConvergence through `lo`).
    for _ in 0..2200 {
        let mid = if hi > 2.0 * lo {
            (lo * hi).sqrt()
        } else {
            lo + 0.5 * (hi - lo)
        };
        if mid <= lo || mid >= hi {
            return Ok(hi);
        }
        if g(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Err(no_convergence(2200))
}

/// Reference twin of `crate::vmf::kappa_mle`.
///
/// # Formula
///
/// $$ \hat\kappa = A_M^{-1}(\bar R) $$
///
/// by bisection on the 256-bit series `A_M` (`R̄ ≤ ½`) or on the quadrature of `1 − A_M`
/// (`R̄ > ½`), to a bracket one ulp wide (the upper end is returned).
///
/// # Errors
///
/// As `crate::vmf::kappa_mle`.
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::kappa_mle;
/// let k = 2.0_f64;
/// let rbar = 1.0 / k.tanh() - 1.0 / k;
/// assert!((kappa_mle(3, rbar).unwrap() - 2.0).abs() < 1e-13);
/// ```
pub fn kappa_mle(dim: usize, rbar: f64) -> Result<f64> {
    check_rbar(dim, rbar)?;
    if rbar == 0.0 {
        return Ok(0.0);
    }
    bisect(dim, rbar)
}

/// Reference twin of `crate::vmf::kappa_sra`: Banerjee's start and Sra's Newton steps on the
/// reference `A_M` and its slope.
///
/// # Formula
///
/// $$ \kappa_0 = \frac{\bar R (M - \bar R^2)}{(1-\bar R)(1+\bar R)},\qquad
///    \kappa_{t+1} = \kappa_t - \frac{A_M(\kappa_t) - \bar R}{A_M'(\kappa_t)} $$
///
/// (Banerjee et al. 2005, eq. 4.4; Sra 2012, eqs. 5–6.) A step stops the iteration when the
/// residual is exactly zero or the slope is not positive and finite; a step that would leave
/// κ ≤ 0 halves κ instead (it never happens from Banerjee's start).
///
/// # Errors
///
/// As `crate::vmf::kappa_mle`.
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::kappa_sra;
/// assert!((kappa_sra(10, 0.9, 0).unwrap() - 0.9 * 9.19 / 0.19).abs() < 1e-12);
/// ```
pub fn kappa_sra(dim: usize, rbar: f64, newton_steps: usize) -> Result<f64> {
    check_rbar(dim, rbar)?;
    if rbar == 0.0 {
        return Ok(0.0);
    }
    let m = dim as f64;
    // 1 − R̄² as (1 − R̄)(1 + R̄): exact factors, no cancellation as R̄ → 1.
    let mut kappa = rbar * (m - rbar * rbar) / ((1.0 - rbar) * (1.0 + rbar));
    for _ in 0..newton_steps {
        let g = residual(dim, rbar, kappa);
        let a_prime = slope(dim, rbar, kappa);
        if g == 0.0 || !(a_prime > 0.0 && a_prime.is_finite()) {
            break;
        }
        let next = kappa - g / a_prime;
        kappa = if next > 0.0 { next } else { 0.5 * kappa };
    }
    Ok(kappa)
}

/// Reference twin of `crate::vmf::mean_resultant_length_complement`, by quadrature.
///
/// # Formula
///
/// $$ 1 - A_M(\kappa) = \frac{\int_0^\pi 2\sin^2(\theta/2)\\, e^{\kappa\cos\theta}\sin^{M-2}\theta\\,d\theta}
///                         {\int_0^\pi e^{\kappa\cos\theta}\sin^{M-2}\theta\\,d\theta} $$
///
/// Raw kernel: NaN for `dim < 2` or `κ` negative, NaN or infinite.
///
/// # Errors
///
/// None (NaN outside the domain).
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::mean_resultant_length_complement;
/// assert!((mean_resultant_length_complement(3, 1e8) / 1e-8 - 1.0).abs() < 1e-13);
/// ```
pub fn mean_resultant_length_complement(dim: usize, kappa: f64) -> f64 {
    match CosineMarginal::new(dim, kappa) {
        Ok(law) => law.mean_complement(),
        Err(_) => f64::NAN,
    }
}
