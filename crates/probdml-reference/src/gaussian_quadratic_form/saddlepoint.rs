//! The saddle point `ŝ` of `e^{K₀(s) − s x}`: the root of `K₀'(ŝ) = x` on `(s_lo, s_hi)`.
//!
//! `K₀` is strictly convex on its real interval (`K₀'' > 0`, a variance), so `K₀'` is strictly
//! increasing: from `−∞` (or `0⁺` when no weight is negative and there is no normal component)
//! at `s_lo` to `+∞` (or `0⁻`) at `s_hi`. The root is found by Newton's method safeguarded by bisection on a bracket that
//! always contains it (`rtsafe`, Numerical Recipes §9.4). The saddle point only chooses where
//! the integration contour crosses the real axis: the inversion integral is exact for any
//! crossing inside the interval, so the root needs no more accuracy than a well-conditioned
//! integrand asks for, but Newton delivers full precision anyway.

use super::cumulant::Cumulant;

/// Newton–bisection iterations before giving up (bisection alone halves 1e308 to 1e-16 in
/// ~1100 steps; Newton converges in < 50 once the bracket is finite).
const MAX_ITERATIONS: usize = 400;

/// The root of `K₀'(s) = x` inside `(lo, hi)`, where `lo < hi` are finite or infinite and
/// `K₀'(lo⁺) < x < K₀'(hi⁻)` (the caller guarantees a root exists).
#[doc(hidden)]
pub fn saddle_point(cumulant: &Cumulant, x: f64, lo: f64, hi: f64) -> f64 {
    let residual = |s: f64| cumulant.derivatives(s).0 - x;
    // Make the bracket finite: step outwards geometrically from 0 (weights are scaled to
    // max |λ| = 1, so the natural scale of s is 1).
    let mut a = lo;
    let mut b = hi;
    if a == f64::NEG_INFINITY {
        let mut step = (-1.0_f64).min(0.5 * b.min(0.0) - 1.0);
        while residual(step) > 0.0 && step > -1e300 {
            b = step;
            step *= 2.0;
        }
        a = step;
    }
    if b == f64::INFINITY {
        let mut step = 1.0_f64.max(0.5 * a.max(0.0) + 1.0);
        while residual(step) < 0.0 && step < 1e300 {
            a = step;
            step *= 2.0;
        }
        b = step;
    }
    let mut s = 0.5 * (a + b);
    for _ in 0..MAX_ITERATIONS {
        let (d1, d2) = cumulant.derivatives(s);
        let f = d1 - x;
        if f == 0.0 {
            return s;
        }
        if f > 0.0 {
            b = s;
        } else {
            a = s;
        }
        let newton = s - f / d2;
        let next = if newton > a && newton < b && newton.is_finite() {
            newton
        } else {
            0.5 * (a + b)
        };
        if (next - s).abs() <= 4.0 * f64::EPSILON * s.abs().max(f64::MIN_POSITIVE) {
            return next;
        }
        s = next;
        if b - a <= 4.0 * f64::EPSILON * a.abs().max(b.abs()) {
            return s;
        }
    }
    s
}
