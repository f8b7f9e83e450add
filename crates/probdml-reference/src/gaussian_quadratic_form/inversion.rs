//! Gil-Pelaez inversion of the moment generating function along a contour through the saddle
//! point (Helstrom's method), in log space.
//!
//! # The integrals
//!
//! With `M(s) = E e^{sQ₀} = e^{K₀(s)}` and a crossing point `r` of the real axis,
//!
//! ```text
//! P(Q₀ ≤ x) = (1/2πi) ∫_{r−i∞}^{r+i∞} e^{K₀(s) − s x} / (−s) ds     (s_lo < r < 0)
//! P(Q₀ > x) = (1/2πi) ∫_{r−i∞}^{r+i∞} e^{K₀(s) − s x} / s ds        (0 < r < s_hi)
//! f(x)      = (1/2πi) ∫_{r−i∞}^{r+i∞} e^{K₀(s) − s x} ds            (s_lo < r < s_hi)
//! ```
//!
//! (close the contour to the right or the left according to the sign of `Q₀ − x`: the pole of
//! `1/s` at the origin is enclosed exactly when the event holds). For `r → 0` along the
//! imaginary axis the first two are the Gil-Pelaez formula that Imhof (1961) wrote as a real
//! integral; shifting the line to the saddle point `ŝ` (`K₀'(ŝ) = x`) turns the oscillating
//! integrand into a bell of width `K₀''(ŝ)^{−1/2}` (Helstrom 1978; Daniels 1954), and factoring
//! out the real number `A = K₀(r) − r x` puts the whole computation in log space:
//!
//! `ln P = A + ln( (1/π) ∫_0^∞ Im[ e^{K₀(s(y)) − s(y) x − A} s'(y) / (±s(y)) ] dy )`,
//!
//! by the symmetry `s(−y) = conj s(y)`. The remaining integral is of order one, positive and
//! free of cancellation near the saddle, so `ln P` has the relative accuracy of the quadrature
//! however small `P` is: `e^{−2·10⁵}` (the deepest tail in the proofs) is as easy as `0.3`.
//!
//! # The contour
//!
//! `s(y) = r + i y + d·β y²`: a parabola through `r`, bending towards `Re s → d·∞` with
//! `d = sign(x − c_∞)`, where `c_∞ = 0` is the offset of `Q₀` (the limit of `K₀'(s)` as
//! `|s| → ∞`). There `|e^{−s x}| = e^{−Re(s) x}` decays like `e^{−β|x| y²}`, while on the
//! vertical line the integrand only decays like `y^{−n/2−1}` and oscillates with frequency
//! `|x|`. All singularities (the pole at 0 and the branch points `1/(2λ_k)`) lie on the real
//! axis and the parabola meets the real axis only at `r`, so by Cauchy's theorem the integral is
//! the same as on the vertical line (the arcs at infinity vanish: the integrand decays there).
//! `β` is at most `K₀''(r)/(2|x|)` (the bend adds no more decay than the saddle's own) and at most
//! `1/(2·dist)`, `dist` the distance from `r` to the nearest singularity `b` ahead of it. The
//! second bound keeps the contour from approaching any singularity: with `δ = |r − b|`,
//! `|s(y) − b|² = (δ − βy²)² + y² = δ² + y²(1 − 2δβ + β²y²) ≥ δ²`. Each factor of the integrand
//! is then at most its value at the crossing — `|1 − 2λ_k s| ≥ 1 − 2λ_k r` bounds both
//! `|1 − 2λ_k s|^{−1/2}` and `Re δ_k²λ_k s/(1 − 2λ_k s) = ½δ_k²(Re 1/w − 1) ≤ ½δ_k²(1/|w| − 1)` —
//! so `|e^{K₀(s) − s x − A}| ≤ e^{−β|x|y²} ≤ 1` all along the contour: no cancellation of large
//! values can occur, however large the non-centralities (near a branch point `e^{δ²/2w}` is
//! otherwise as large as `e^{δ²/(2|w|)}`).
//!
//! Near the mean the saddle point approaches the pole at 0; the crossing is then kept at least
//! one standard deviation's reciprocal from it (`|r| ≥ min(1/√Var, ½·|s_lo or s_hi|)`), where the
//! integrand is still smooth and the probability of order one.

use num_complex::Complex64;

use super::cumulant::{Cumulant, Expansion};
use crate::quadrature::{integrate_breakpoints, Tolerance};

/// Which integral to take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[doc(hidden)]
pub enum Kind {
    /// `P(Q₀ ≤ x)`, contour left of the origin.
    LowerTail,
    /// `P(Q₀ > x)`, contour right of the origin.
    UpperTail,
    /// The density, through the saddle point.
    Density,
}

/// Relative accuracy asked of the contour integral, then the fall-backs if rounding (an
/// oscillating remainder with `∫|f| ≫ |∫f|`) keeps the quadrature from reaching it.
const TOLERANCES: [f64; 3] = [1e-12, 1e-10, 1e-8];

/// `ln` of the integral of `kind` at `x` for `Q₀ = Σ λ_k (Z_k + δ_k)² + σZ₀` (weights scaled to
/// `max|λ| = 1`), the contour crossing the real axis at `r` (`s_lo < r < s_hi`, `r < 0` for the
/// lower tail, `r > 0` for the upper), and `(s_lo, s_hi)` the real interval of `K₀`.
#[doc(hidden)]
pub fn log_contour_integral(
    cumulant: &Cumulant,
    kind: Kind,
    x: f64,
    r: f64,
    s_lo: f64,
    s_hi: f64,
) -> f64 {
    let a = cumulant.real(r) - r * x;
    let curvature = cumulant.derivatives(r).1;
    // A normal component makes |e^{σ²s²/2}| grow like e^{σ²(Re s)²/2} along a parabola; the
    // vertical line (β = 0) then already decays like e^{−σ²y²/2}.
    let direction = if cumulant.normal_variance > 0.0 {
        0.0
    } else if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    };
    // Distance from r to the nearest singularity in the bending direction.
    let pole = if kind == Kind::Density {
        None
    } else {
        Some(0.0)
    };
    let ahead = [Some(s_lo), Some(s_hi), pole]
        .into_iter()
        .flatten()
        .filter(|&p| (p - r) * direction > 0.0)
        .map(|p| (p - r).abs())
        .fold(f64::INFINITY, f64::min);
    let beta = if direction == 0.0 {
        0.0
    } else {
        (0.5 * curvature / x.abs()).min(0.5 / ahead)
    };
    let sign = match kind {
        Kind::LowerTail => -1.0,
        Kind::UpperTail => 1.0,
        Kind::Density => 0.0,
    };
    let expansion = Expansion::new(cumulant, r);
    let integrand = |y: f64| {
        // s = r + Δ; the exponent K₀(s) − s x − A = [K₀(r + Δ) − K₀(r)] − Δ x.
        let delta = Complex64::new(direction * beta * y * y, y);
        let s = delta + r;
        let ds = Complex64::new(2.0 * direction * beta * y, 1.0);
        let e = (expansion.increment(delta) - delta * x).exp();
        let value = if kind == Kind::Density {
            e * ds
        } else {
            e * ds / (s * sign)
        };
        value.im
    };
    // Breakpoints at multiples of the bell width w = K₀''(r)^{−1/2}: panels start at the scale
    // of the peak and grow geometrically into the tail.
    let width = curvature.sqrt().recip();
    let mut points = vec![0.0];
    let mut p = 0.5 * width;
    for _ in 0..8 {
        points.push(p);
        p *= 4.0;
    }
    points.push(f64::INFINITY);
    for relative in TOLERANCES {
        if let Ok(est) = integrate_breakpoints(integrand, &points, Tolerance::relative(relative)) {
            return a + (est.value / std::f64::consts::PI).ln();
        }
    }
    // Not reached in any proof; NaN rather than an unverified number.
    f64::NAN
}
