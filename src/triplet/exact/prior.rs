//! `KL(N(μ, diag σ²) ‖ N(0, s²I))` by numerical integration of `∫ q ln(q/p)`, dimension by
//! dimension — the reference for [`triplet::gaussian_kl`](crate::triplet::gaussian_kl).
//!
//! Substituting `x = μ + σt` puts every dimension's integral on the standard normal:
//! `KL_d = ∫ φ(t) [ln(s/σ) + (μ + σt)²/(2s²) − t²/2] dt`, integrated by adaptive Gauss–Kronrod
//! over `(−∞, ∞)` with breakpoints at `t = 0, ±2, ±6`. No moment of the normal is used in closed
//! form.

use crate::error::{Error, Result};
use crate::quadrature::{integrate_breakpoints, Tolerance};
use crate::triplet::prior::check_posterior;

/// `1/√(2π)`.
const INV_SQRT_2PI: f64 = 0.398_942_280_401_432_7;

/// `KL(N(μ, diag σ²) ‖ N(0, s²I))`, reference implementation by quadrature.
///
/// # Formula
///
/// $$ \mathrm{KL} = \sum_d \int_{-\infty}^{\infty} \varphi(t)\Big[\ln\frac{s}{\sigma_d}
///    + \frac{(\mu_d + \sigma_d t)^2}{2s^2} - \frac{t^2}{2}\Big]\,dt $$
///
/// # Errors
///
/// As [`triplet::gaussian_kl`](crate::triplet::gaussian_kl), plus
/// [`Error::NoConvergence`] if the quadrature fails (not expected).
///
/// # Examples
///
/// ```
/// use probdml::triplet::exact::gaussian_kl;
/// assert!((gaussian_kl(&[1.0], &[2.0], 1.0).unwrap() - 0.6534264097200273).abs() < 1e-12);
/// ```
pub fn gaussian_kl(mu: &[f64], var: &[f64], prior_var: f64) -> Result<f64> {
    check_posterior(mu, var, prior_var)?;
    let mut total = 0.0;
    for (&m, &v) in mu.iter().zip(var) {
        let sigma = v.sqrt();
        let half_ln_ratio = 0.5 * (prior_var / v).ln();
        let integrand = |t: f64| {
            let x = m + sigma * t;
            INV_SQRT_2PI
                * (-0.5 * t * t).exp()
                * (half_ln_ratio + x * x / (2.0 * prior_var) - 0.5 * t * t)
        };
        let est = integrate_breakpoints(
            integrand,
            &[f64::NEG_INFINITY, -6.0, -2.0, 0.0, 2.0, 6.0, f64::INFINITY],
            Tolerance {
                absolute: 1e-300,
                relative: 1e-13,
            },
        )
        .map_err(|_| Error::NoConvergence {
            method: "Gauss–Kronrod quadrature of the Gaussian KL",
            iterations: crate::quadrature::MAX_PANELS,
        })?;
        total += est.value;
    }
    Ok(total)
}
