//! Adaptive numerical integration on the real line: the reference tool of the `exact` twins.
//!
//! `integrate(f, a, b, tol)` returns `∫_a^b f(x) dx` with an error estimate, for finite or
//! infinite `a`, `b`; `integrate_breakpoints` takes the points where `f` has a kink, a peak or a
//! change of scale, so that no panel straddles them.
//!
//! # Method
//!
//! * **Rule.** The 21-point Gauss–Kronrod rule with its embedded 10-point Gauss rule (QUADPACK
//!   `qk21`), exact for polynomials of degree 31; see `kronrod.rs`.
//! * **Adaptivity.** Global: all panels are kept in a heap by error estimate, the worst is
//!   bisected, and the loop stops when the summed estimate is at most
//!   `max(absolute, relative·|I|)` (see `adaptive.rs`).
//! * **Infinite ranges.** `x = a + t/(1 − t)` maps `[a, ∞)` to `t ∈ [0, 1)`; `(−∞, ∞)` is split
//!   at 0 (or at the breakpoints); see `interval_map.rs`.
//!
//! Each panel's error estimate never falls below `50ε·∫|f|` on it, the level at which rounding of
//! the 21 evaluations dominates; a tolerance below that floor is not met and the call returns
//! [`Error::NoConvergence`] rather than pretend. Callers that
//! integrate a cancelling sum should scale by `∫|f|`, which [`Estimate::absolute`] reports.
//!
//! # Why hand-written
//!
//! The Rust quadrature crates either integrate on a fixed error target with no estimate returned,
//! use double-exponential rules that need analytic continuation up to the endpoints (the
//! characteristic-function integrands of chapter 05 and the sphere marginals of chapter 06 have
//! kinks and steep interior peaks that breakpoints handle better), or pull in GSL through C. The
//! driver and rule are ~200 lines, all checked by the tests below and in `kronrod.rs`.
//! `vmf::exact` keeps its own log-space Gauss–Legendre integrator because its integrands overflow
//! `f64` unless evaluated relative to their peak, and its samplers invert the kept panels.

mod adaptive;
mod interval_map;
mod kronrod;

use crate::error::{require_finite, Error, Result};
use interval_map::Segment;

/// The accuracy asked of an integral: the estimate of `|∫f − value|` must be at most
/// `max(absolute, relative·|value|)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerance {
    /// Absolute error target (≥ 0).
    pub absolute: f64,
    /// Relative error target (≥ 0). At least one of the two must be positive.
    pub relative: f64,
}

impl Tolerance {
    /// A purely relative target.
    pub const fn relative(relative: f64) -> Self {
        Self {
            absolute: 0.0,
            relative,
        }
    }

    /// A purely absolute target.
    pub const fn absolute(absolute: f64) -> Self {
        Self {
            absolute,
            relative: 0.0,
        }
    }

    fn validate(&self) -> Result<()> {
        for (arg, value) in [
            ("tol.absolute", self.absolute),
            ("tol.relative", self.relative),
        ] {
            require_finite(arg, value)?;
            if value < 0.0 {
                return Err(Error::OutOfDomain {
                    arg,
                    value,
                    rule: "an error target must be >= 0",
                });
            }
        }
        if self.absolute == 0.0 && self.relative == 0.0 {
            return Err(Error::OutOfDomain {
                arg: "tol",
                value: 0.0,
                rule: "at least one of the absolute and relative targets must be positive",
            });
        }
        Ok(())
    }
}

/// The result of an integration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The integral.
    pub value: f64,
    /// The estimated absolute error (the sum of the panels' estimates).
    pub abs_error: f64,
    /// `∫|f|` as estimated on the final panels — the scale of rounding errors in `value`.
    pub absolute: f64,
    /// Number of integrand evaluations.
    pub evaluations: usize,
    /// Number of panels at the end.
    pub panels: usize,
}

/// Most panels one integral may use before the call fails with `NoConvergence`.
pub const MAX_PANELS: usize = 20_000;

/// `∫_a^b f(x) dx` by adaptive Gauss–Kronrod (G10K21).
///
/// `a` and `b` may be infinite (`a = −∞`, `b = +∞`); `a > b` gives `−∫_b^a`.
///
/// # Errors
///
/// NaN bounds, an invalid tolerance, a NaN or infinite integrand value, or no convergence within
/// [`MAX_PANELS`] panels.
///
/// # Examples
///
/// ```
/// use probdml::quadrature::{integrate, Tolerance};
/// // ∫_0^∞ e^{−x²} dx = √π/2.
/// let est = integrate(|x: f64| (-x * x).exp(), 0.0, f64::INFINITY, Tolerance::relative(1e-13))
///     .unwrap();
/// assert!((est.value - std::f64::consts::PI.sqrt() / 2.0).abs() < 1e-14);
/// ```
pub fn integrate<F: FnMut(f64) -> f64>(f: F, a: f64, b: f64, tol: Tolerance) -> Result<Estimate> {
    integrate_breakpoints(f, &[a, b], tol)
}

/// `∫ f` over `[points[0], points[last]]`, never letting a panel straddle an interior point.
///
/// `points` must be sorted (non-decreasing) with at least two entries; only the first may be
/// `−∞` and only the last `+∞`. Put breakpoints at kinks, peaks and changes of scale of `f`.
///
/// # Errors
///
/// As [`integrate`], plus unsorted, NaN or misplaced infinite points.
///
/// # Examples
///
/// ```
/// use probdml::quadrature::{integrate_breakpoints, Tolerance};
/// // A kink at x = 1: ∫_0^3 |x − 1| dx = 1/2 + 2.
/// let est = integrate_breakpoints(|x: f64| (x - 1.0).abs(), &[0.0, 1.0, 3.0],
///     Tolerance::relative(1e-13)).unwrap();
/// assert!((est.value - 2.5).abs() < 1e-14);
/// ```
pub fn integrate_breakpoints<F: FnMut(f64) -> f64>(
    mut f: F,
    points: &[f64],
    tol: Tolerance,
) -> Result<Estimate> {
    tol.validate()?;
    if points.len() < 2 {
        return Err(Error::TooFew {
            arg: "points",
            min: 2,
            got: points.len(),
        });
    }
    if points.iter().any(|p| p.is_nan()) {
        let index = points.iter().position(|p| p.is_nan()).unwrap_or(0);
        return Err(Error::NotFiniteElement {
            arg: "points",
            index,
            value: f64::NAN,
        });
    }
    let (first, last) = (points[0], points[points.len() - 1]);
    if points.len() == 2 && first > last {
        let est = integrate_breakpoints(f, &[last, first], tol)?;
        return Ok(Estimate {
            value: -est.value,
            ..est
        });
    }
    for pair in points.windows(2) {
        if pair[1] < pair[0] {
            return Err(Error::OutOfDomain {
                arg: "points",
                value: pair[1],
                rule: "breakpoints must be sorted in non-decreasing order",
            });
        }
    }
    for (index, &p) in points.iter().enumerate() {
        let allowed = (index == 0 && p == f64::NEG_INFINITY)
            || (index == points.len() - 1 && p == f64::INFINITY);
        if p.is_infinite() && !allowed {
            return Err(Error::NotFiniteElement {
                arg: "points",
                index,
                value: p,
            });
        }
    }
    let mut segments: Vec<(Segment, f64, f64)> = Vec::with_capacity(points.len() + 1);
    let mut interior: Vec<f64> = points.to_vec();
    // (−∞, +∞) with no finite point: split at 0.
    if interior.len() == 2 && first == f64::NEG_INFINITY && last == f64::INFINITY {
        interior = vec![first, 0.0, last];
    }
    let n = interior.len();
    for (index, pair) in interior.windows(2).enumerate() {
        let (lo, hi) = (pair[0], pair[1]);
        if index == 0 && lo == f64::NEG_INFINITY {
            segments.push((Segment::LowerHalfLine { b: hi }, 0.0, 1.0));
        } else if index == n - 2 && hi == f64::INFINITY {
            segments.push((Segment::UpperHalfLine { a: lo }, 0.0, 1.0));
        } else {
            segments.push((Segment::Finite, lo, hi));
        }
    }
    let (absolute, relative) = (tol.absolute, tol.relative);
    let outcome = adaptive::integrate_segments(
        &mut f,
        &segments,
        |value| absolute.max(relative * value.abs()),
        MAX_PANELS,
    )?;
    Ok(Estimate {
        value: outcome.value,
        abs_error: outcome.error,
        absolute: outcome.absolute,
        evaluations: outcome.evaluations,
        panels: outcome.panels,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    fn rel(x: f64, y: f64) -> f64 {
        (x - y).abs() / y.abs()
    }

    #[test]
    fn closed_forms_on_finite_and_infinite_ranges() {
        let t = Tolerance::relative(1e-13);
        // ∫_0^π sin = 2.
        let e = integrate(f64::sin, 0.0, PI, t).unwrap();
        assert!(rel(e.value, 2.0) < 1e-14, "{e:?}");
        // ∫_{−∞}^{∞} e^{−x²/2} = √(2π).
        let e = integrate(
            |x: f64| (-0.5 * x * x).exp(),
            f64::NEG_INFINITY,
            f64::INFINITY,
            t,
        )
        .unwrap();
        assert!(rel(e.value, (2.0 * PI).sqrt()) < 1e-13, "{e:?}");
        // ∫_1^∞ x^{−2} = 1 (algebraic decay).
        let e = integrate(|x: f64| 1.0 / (x * x), 1.0, f64::INFINITY, t).unwrap();
        assert!(rel(e.value, 1.0) < 1e-13, "{e:?}");
        // ∫_{−∞}^{0} e^{x} = 1.
        let e = integrate(f64::exp, f64::NEG_INFINITY, 0.0, t).unwrap();
        assert!(rel(e.value, 1.0) < 1e-13, "{e:?}");
        // An integrable endpoint singularity: ∫_0^1 x^{−1/2} = 2.
        let e = integrate(
            |x: f64| 1.0 / x.sqrt(),
            0.0,
            1.0,
            Tolerance::relative(1e-10),
        )
        .unwrap();
        assert!(rel(e.value, 2.0) < 1e-10, "{e:?}");
        // A sharp interior peak found by adaptivity: ∫ 1/(1 + 10⁶(x − 0.3)²) on [0, 1].
        let c: f64 = 1e3;
        let exact = ((0.7 * c).atan() + (0.3 * c).atan()) / c;
        let e = integrate(|x: f64| 1.0 / (1.0 + (c * (x - 0.3)).powi(2)), 0.0, 1.0, t).unwrap();
        assert!(rel(e.value, exact) < 1e-13, "{e:?}");
        // Reversed bounds.
        let e = integrate(f64::sin, PI, 0.0, t).unwrap();
        assert!(rel(e.value, -2.0) < 1e-14);
    }

    #[test]
    fn the_error_estimate_bounds_the_true_error() {
        // Oscillatory integrand: ∫_0^{20} cos(x²)… compare with a tight run.
        let f = |x: f64| (x * x).cos() * (-0.1 * x).exp();
        let tight = integrate(f, 0.0, 20.0, Tolerance::absolute(1e-12)).unwrap();
        for target in [1e-4, 1e-7, 1e-10] {
            let e = integrate(f, 0.0, 20.0, Tolerance::absolute(target)).unwrap();
            assert!(e.abs_error <= target);
            assert!((e.value - tight.value).abs() <= e.abs_error + tight.abs_error);
        }
    }

    #[test]
    fn bad_input_is_an_error_naming_the_argument() {
        let t = Tolerance::relative(1e-10);
        let err = integrate(|x: f64| x, f64::NAN, 1.0, t).unwrap_err();
        assert!(err.to_string().contains("points"), "{err}");
        let err = integrate(|x: f64| x, 0.0, 1.0, Tolerance::relative(-1.0)).unwrap_err();
        assert!(err.to_string().contains("tol.relative"), "{err}");
        let err = integrate(|x: f64| x, 0.0, 1.0, Tolerance::relative(0.0)).unwrap_err();
        assert!(err.to_string().contains("tol"), "{err}");
        let err = integrate(|x: f64| 1.0 / x, -1.0, 1.0, t).unwrap_err();
        assert!(err.to_string().contains('f'), "{err}");
        let err = integrate_breakpoints(|x: f64| x, &[0.0, 2.0, 1.0], t).unwrap_err();
        assert!(err.to_string().contains("sorted"), "{err}");
        let err = integrate_breakpoints(|x: f64| x, &[0.0, f64::INFINITY, 1.0], t).unwrap_err();
        assert!(err.to_string().contains("points"), "{err}");
        // A tolerance below the rounding floor fails honestly instead of looping.
        let err = integrate(|x: f64| 1.0 + x, 0.0, 1.0, Tolerance::relative(1e-20)).unwrap_err();
        assert!(matches!(err, Error::NoConvergence { .. }), "{err}");
    }
}
