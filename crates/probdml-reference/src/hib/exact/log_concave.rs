//! `ln ∫_0^∞ e^{ℓ(t)} dt` for a concave `ℓ` (a log-concave integrand), accurate in relative
//! terms however small the integral: every exact route of chapter 07 reduces to this.
//!
//! The maximum `t*` is found by golden-section search (exact for a unimodal function, which a
//! concave `ℓ` is), the integrand is scaled by `e^{−ℓ(t*)}` so that it peaks at 1, and the
//! adaptive Gauss–Kronrod of [`crate::quadrature`] integrates it over `[0, ∞)` with breakpoints
//! at `t* ± 2^k w`, `k ∈ {1, 3}` (`w` the width from the curvature at `t*`) and at caller-supplied points
//! (a steep sigmoid threshold), so that no panel can step over the mass.

use crate::error::{Error, Result};
use crate::quadrature::{integrate_breakpoints, Tolerance};

/// Relative accuracy asked of each 1-D integral (well under the chapter's 1e−9).
#[doc(hidden)]
pub const RELATIVE_TOLERANCE: f64 = 1e-12;

/// Golden-section search for the maximiser of a unimodal `ℓ` on `[lo, hi]`.
fn argmax(ell: &impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut x1 = hi - ratio * (hi - lo);
    let mut x2 = lo + ratio * (hi - lo);
    let (mut f1, mut f2) = (ell(x1), ell(x2));
    // The peak only places breakpoints and the scale: 10⁻⁹ of the bracket is plenty.
    let stop = 1e-9 * (hi - lo);
    for _ in 0..200 {
        if hi - lo <= stop {
            break;
        }
        if f1 < f2 {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + ratio * (hi - lo);
            f2 = ell(x2);
        } else {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - ratio * (hi - lo);
            f1 = ell(x1);
        }
    }
    let mid = 0.5 * (lo + hi);
    // The search never evaluates the bracket ends; a maximum at t = 0 is caught here.
    if ell(0.0) >= ell(mid) {
        0.0
    } else {
        mid
    }
}

/// `ln ∫_0^∞ e^{ℓ(t)} dt` for concave `ℓ` whose maximiser lies in `[0, upper]`; `extra` are
/// breakpoints where `ℓ` changes scale (ignored if not positive and finite).
#[doc(hidden)]
pub fn log_integral(ell: impl Fn(f64) -> f64, upper: f64, extra: &[f64]) -> Result<f64> {
    let peak = argmax(&ell, 0.0, upper);
    let top = ell(peak);
    if !top.is_finite() {
        return Err(Error::NoConvergence {
            method: "hib::exact peak search (the log-integrand is not finite at its maximum)",
            iterations: 200,
        });
    }
    // Width from the curvature: ℓ(t* ± w) ≈ ℓ* − ½ when ℓ is locally quadratic.
    let step = 1e-3 * peak.max(1e-3);
    let curvature = (ell(peak + step) - 2.0 * top + ell((peak - step).max(0.0))) / (step * step);
    let width = if curvature < 0.0 && curvature.is_finite() {
        (-1.0 / curvature).sqrt()
    } else {
        peak.max(1.0)
    };
    let mut points = vec![0.0];
    for k in [1, 3] {
        let d = width * 2f64.powi(k);
        points.push(peak - d);
        points.push(peak + d);
    }
    points.push(peak);
    points.extend_from_slice(extra);
    points.retain(|p| p.is_finite() && *p > 0.0);
    points.push(0.0);
    points.sort_by(f64::total_cmp);
    points.dedup();
    points.push(f64::INFINITY);
    let estimate = integrate_breakpoints(
        |t| {
            let v = ell(t) - top;
            if v.is_nan() {
                0.0
            } else {
                v.exp()
            }
        },
        &points,
        Tolerance::relative(RELATIVE_TOLERANCE),
    )?;
    Ok(top + estimate.value.ln())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaussian_and_gamma_integrals() {
        // ∫_0^∞ e^{−(t−3)²/2} dt = √(2π) Φ(3).
        let got = log_integral(|t| -0.5 * (t - 3.0) * (t - 3.0), 10.0, &[]).unwrap();
        let want = ((2.0 * std::f64::consts::PI).sqrt() * 0.998_650_101_968_369_9).ln();
        assert!((got - want).abs() < 1e-13, "{got} vs {want}");
        // A peak far out and tiny: ∫ e^{−(t−1e4)²/2 − 5000} = √(2π) e^{−5000}.
        let got = log_integral(|t| -0.5 * (t - 1e4) * (t - 1e4) - 5000.0, 2e4, &[]).unwrap();
        let want = 0.5 * (2.0 * std::f64::consts::PI).ln() - 5000.0;
        assert!((got - want).abs() < 1e-12 * 5000.0, "{got} vs {want}");
        // Maximum at the boundary: ∫_0^∞ e^{−t} = 1.
        let got = log_integral(|t| -t, 5.0, &[]).unwrap();
        assert!(got.abs() < 1e-13, "{got}");
    }
}
