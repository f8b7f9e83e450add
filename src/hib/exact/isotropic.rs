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
//! the bracket `½ ln(2/π) − ln 2 + ln(1 + e^{−2y})`. Then
//!
//! `p = ∫_0^∞ sigmoid(−a √(c + s t²) + b) · 2t f_X(t²) dt`,
//!
//! a log-concave integrand (the log-sigmoid of a concave function, times the non-central χ
//! density) integrated by [`super::log_concave`]. The Bessel function is the chapter-01 fast
//! kernel, verified to `4·10⁻¹⁵` against its 256-bit reference, far inside this chapter's budget.

use crate::error::Result;
use crate::hib::exact::difference::DifferenceLaw;
use crate::hib::exact::log_concave;
use crate::hib::logistic::log_sigmoid;
use crate::special::double_double::DoubleDouble;
use crate::special::log_bessel_i_scaled;

/// `g(ν/2 − 1, y) − y` (see the module docs), for `y ≥ 0`.
fn scaled_bessel_minus_argument(nu: usize, y: f64) -> f64 {
    if nu == 1 {
        0.5 * (2.0 / std::f64::consts::PI).ln() - std::f64::consts::LN_2 + (-2.0 * y).exp().ln_1p()
    } else {
        let order = DoubleDouble::from_f64(nu as f64 / 2.0 - 1.0);
        log_bessel_i_scaled(order, y).add_f64(-y).to_f64()
    }
}

/// `ln` of the density of `t = √X`, `X ~ χ'²_ν(λ)`, at `t ≥ 0`.
pub(crate) fn ln_noncentral_chi_density(nu: usize, sqrt_lambda: f64, t: f64) -> f64 {
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
pub(crate) fn ln_match_probability(law: &DifferenceLaw, s: f64, a: f64, b: f64) -> Result<f64> {
    let nu = law.random_dim();
    let lambda: f64 = law.shifts.iter().map(|m| m * m).sum();
    let sqrt_lambda = lambda.sqrt();
    let c = law.offset;
    let ell = |t: f64| {
        log_sigmoid(-a * (c + s * t * t).sqrt() + b) + ln_noncentral_chi_density(nu, sqrt_lambda, t)
    };
    // The sigmoid's threshold ‖Δ‖ = b/a, where a steep sigmoid changes the scale of ℓ.
    let threshold = if b > 0.0 && (b / a).powi(2) > c {
        (((b / a).powi(2) - c) / s).sqrt()
    } else {
        f64::NAN
    };
    let upper = sqrt_lambda + (nu as f64).sqrt() + 10.0;
    log_concave::ln_integral(ell, upper, &[threshold])
}
