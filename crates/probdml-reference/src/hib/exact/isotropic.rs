//! The isotropic route: when every random coordinate of `Δ` has the same variance `s`,
//! `‖Δ‖² = c + s X` with `X ~ χ'²_ν(λ)`, a non-central χ² with `ν` degrees of freedom and
//! non-centrality `λ = Σ δ_k²/s`, whose density is known in closed form:
//!
//! `f_X(x) = ½ e^{−(x+λ)/2} (x/λ)^{ν/4−1/2} I_{ν/2−1}(√(λx))`.
//!
//! With `t = √X` (which removes the `x^{−1/2}` singularity at `ν = 1`) and the scaled Bessel
//! logarithm `g(μ, y) = ln I_μ(y) − μ ln y` (chapter 01), the density of `t` is
//!
//! `2t f_X(t²) = exp(−(t − √λ)²/2 + (ν−1) ln t + [g(ν/2 − 1, √λ t) − √λ t])`,
//!
//! where the bracket is formed in double-double (`g ≈ y` for large `y = √λ t`, so the
//! difference would otherwise lose `ε·λ`). For `ν = 1`, `I_{−1/2}(y) = √(2/(πy)) cosh y` gives
//! the bracket `½ ln(2/π) − ln 2 + ln(1 + e^{−2y})`; at `y = 0` (a central χ², or `t = 0`) the
//! bracket is its limit `g(μ, 0) = −μ ln 2 − ln Γ(μ + 1)` (A&S 9.6.7). Then
//!
//! `p = ∫_0^∞ sigmoid(−a √(c + s t²) + b) · 2t f_X(t²) dt`,
//!
//! a log-concave integrand (the log-sigmoid of a concave function, times the non-central χ
//! density) integrated by [`super::log_concave`]. `ln I_μ` never comes from the fast kernels of
//! chapter 01: up to `y = max(20, μ²/4)` it is the 256-bit power series
//! ([`crate::special::exact::log_bessel_i_dd`]); beyond, where the series would need `~19√y`
//! big-float terms per point (and stops at `y = 10⁸`), it is the integral
//! `e^{−y} I_μ(y) = (1/π)∫_0^π e^{−2y sin²(θ/2)} cos(μθ) dθ` (A&S 9.6.20) by adaptive
//! quadrature (relative 10⁻¹²). Its cosine costs at most a factor `e^{μ²/(2y)} ≤ e²` to
//! cancellation there, and
//! the second term of 9.6.20, `−(sin μπ/π)∫_0^∞ e^{−y(1+cosh t)−μt} dt`, is below `e^{−2y}`,
//! under `3·10⁻¹⁵` of the first for `y ≥ 20`, so it is left out.

use crate::error::Result;
use crate::hib::exact::difference::DifferenceLaw;
use crate::hib::exact::log_concave;
use crate::hib::exact::logistic::log_sigmoid;
use std::f64::consts::PI;

use crate::quadrature::{integrate_breakpoints, Tolerance};
use crate::special::exact::log_bessel_i_dd;

/// `ln Γ(μ + 1)` for `μ = ν/2 − 1`, `ν ≥ 2`: a factorial or a half-integer Gamma,
/// `Γ(m + ½) = √π Π_{k<m} (k + ½)`, summed as logarithms.
fn ln_gamma_of_order_plus_one(nu: usize) -> f64 {
    if nu.is_multiple_of(2) {
        // Γ(ν/2) = (ν/2 − 1)!
        (1..nu / 2).map(|k| (k as f64).ln()).sum()
    } else {
        // Γ(ν/2) = Γ(m + ½) with m = (ν − 1)/2.
        0.5 * std::f64::consts::PI.ln()
            + (0..(nu - 1) / 2)
                .map(|k| (k as f64 + 0.5).ln())
                .sum::<f64>()
    }
}

/// `g(ν/2 − 1, y) − y` (see the module docs), for `y ≥ 0`.
fn scaled_bessel_minus_argument(nu: usize, y: f64) -> f64 {
    if nu == 1 {
        return 0.5 * (2.0 / std::f64::consts::PI).ln() - std::f64::consts::LN_2
            + (-2.0 * y).exp().ln_1p();
    }
    let order = nu as f64 / 2.0 - 1.0;
    if y == 0.0 {
        return -order * std::f64::consts::LN_2 - ln_gamma_of_order_plus_one(nu);
    }
    if y > series_limit(order) {
        return ln_scaled_bessel_by_integral(order, y) - order * y.ln();
    }
    // ln I ≈ y − ½ ln(2πy) for large y: `hi − y` is exact there (Sterbenz), and `lo` keeps
    // the digits of the series that `hi` alone rounds away.
    let (hi, lo) = log_bessel_i_dd(order, y);
    ((hi - y) + lo) - order * y.ln()
}

/// Where the 256-bit series hands over to the integral (see the module docs).
fn series_limit(order: f64) -> f64 {
    (order * order / 4.0).max(20.0)
}

/// `ln(e^{−y} I_μ(y))` for `y > series_limit(μ)` from A&S 9.6.20, with `θ = u/√y` so that the
/// peak at `θ = 0` (width `1/√y`) spans `u ∈ [0, ~10]`; the integrand is below `e^{−800}` past
/// `u = 40`. NaN if the quadrature fails.
fn ln_scaled_bessel_by_integral(order: f64, y: f64) -> f64 {
    let root = y.sqrt();
    let upper = (PI * root).min(40.0);
    let integrand = |u: f64| {
        let half = (u / (2.0 * root)).sin();
        (-2.0 * y * half * half).exp() * (order * u / root).cos()
    };
    let mut points: Vec<f64> = [0.0, 2.0, 5.0, 10.0, 20.0]
        .into_iter()
        .filter(|&p| p < upper)
        .collect();
    points.push(upper);
    match integrate_breakpoints(integrand, &points, Tolerance::relative(1e-12)) {
        Ok(estimate) if estimate.value > 0.0 => (estimate.value / (PI * root)).ln(),
        _ => f64::NAN,
    }
}

/// `ln` of the density of `t = √X`, `X ~ χ'²_ν(λ)`, at `t ≥ 0`.
#[doc(hidden)]
pub fn log_noncentral_chi_density(nu: usize, sqrt_lambda: f64, t: f64) -> f64 {
    let power = if nu == 1 {
        0.0
    } else {
        (nu as f64 - 1.0) * t.ln()
    };
    -0.5 * (t - sqrt_lambda) * (t - sqrt_lambda)
        + power
        + scaled_bessel_minus_argument(nu, sqrt_lambda * t)
}

/// `ln E sigmoid(−a‖Δ‖ + b)` for an isotropic law with common variance `s` (at least one
/// random coordinate).
#[doc(hidden)]
pub fn log_match_probability(law: &DifferenceLaw, s: f64, a: f64, b: f64) -> Result<f64> {
    let nu = law.random_dim();
    let lambda: f64 = law.shifts.iter().map(|m| m * m).sum();
    let sqrt_lambda = lambda.sqrt();
    let c = law.offset;
    let ell = |t: f64| {
        log_sigmoid(-a * (c + s * t * t).sqrt() + b)
            + log_noncentral_chi_density(nu, sqrt_lambda, t)
    };
    // The sigmoid's threshold ‖Δ‖ = b/a, where a steep sigmoid changes the scale of ℓ.
    let threshold = if b > 0.0 && (b / a).powi(2) > c {
        (((b / a).powi(2) - c) / s).sqrt()
    } else {
        f64::NAN
    };
    let upper = sqrt_lambda + (nu as f64).sqrt() + 10.0;
    log_concave::log_integral(ell, upper, &[threshold])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past the handover the integral agrees with the 256-bit series it replaces (`ln(e^{−y}I)`
    /// to 10⁻¹² absolute), for integer and half-integer orders.
    #[test]
    fn integral_route_matches_the_series_past_the_handover() {
        for order in [0.0, 0.5, 1.0, 7.5, 31.0, 63.0] {
            let limit = series_limit(order);
            for y in [limit * 1.01, limit * 3.0, 2e3] {
                let (hi, lo) = log_bessel_i_dd(order, y);
                let series = (hi - y) + lo;
                let integral = ln_scaled_bessel_by_integral(order, y);
                assert!(
                    (integral - series).abs() <= 1e-12,
                    "μ = {order}, y = {y}: {integral} vs {series}"
                );
            }
        }
    }
}
