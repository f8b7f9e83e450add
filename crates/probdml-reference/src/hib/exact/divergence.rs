//! `KL(N(μ, diag σ²) ‖ N(0, I))` by quadrature of its definition.

use crate::error::Result;
use crate::hib::checks;
use crate::quadrature::{integrate, Tolerance};

/// `KL(N(μ, diag σ²) ‖ N(0, I))` as `Σ_k ∫ f_k ln(f_k/φ)`, each coordinate integrated by
/// adaptive quadrature in the standardised variable `t = (x − μ)/σ`: the reference for
/// `hib::kl_to_standard_normal`, sharing no algebra with
/// its closed form. A zero variance gives `+∞` (a point mass).
///
/// # Formula
///
/// $$ \operatorname{KL} = \sum_k \int_{-\infty}^{\infty} \varphi(t) \Big[ -\tfrac12 \ln \sigma_k^2 - \tfrac{t^2}{2} + \tfrac{(\mu_k + \sigma_k t)^2}{2} \Big] dt $$
///
/// # Errors
///
/// As `hib::kl_to_standard_normal`, plus
/// [`Error::NoConvergence`](crate::Error::NoConvergence) if a quadrature fails.
///
/// # Examples
///
/// ```
/// use probdml::hib;
/// let exact = hib::exact::kl_to_standard_normal(&[0.5, -1.0], &[0.25, 2.0])?;
/// let fast = hib::kl_to_standard_normal(&[0.5, -1.0], &[0.25, 2.0])?;
/// assert!((exact - fast).abs() < 1e-12);
/// # Ok::<(), probdml::Error>(())
/// ```
///
/// Cited: HIB eq. (8).
pub fn kl_to_standard_normal(mu: &[f64], var: &[f64]) -> Result<f64> {
    checks::gaussian("mu", mu, "var", var)?;
    let (mean, variance) = (mu, var);
    let ln_sqrt_2pi = 0.5 * (2.0 * std::f64::consts::PI).ln();
    let mut total = 0.0;
    for (&mu, &var) in mean.iter().zip(variance) {
        if var == 0.0 {
            return Ok(f64::INFINITY);
        }
        let sd = var.sqrt();
        let ln_var = var.ln();
        let integrand = |t: f64| {
            let x = mu + sd * t;
            (-0.5 * t * t - ln_sqrt_2pi).exp() * (-0.5 * ln_var - 0.5 * t * t + 0.5 * x * x)
        };
        // The integrand cancels where KL is tiny; rounding of its terms is at the scale below.
        let scale = 1.0 + ln_var.abs() + mu * mu + var;
        let tol = Tolerance {
            absolute: 1e-13 * scale,
            relative: 1e-13,
        };
        total += integrate(integrand, f64::NEG_INFINITY, f64::INFINITY, tol)?.value;
    }
    Ok(total)
}
