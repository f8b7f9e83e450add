//! Reference probability product kernel between vMFs: `ln ∫ ρ^γ ζ^γ` by sphere quadrature.

use super::kl::angle_between;
use super::log_norm_const;
use super::sphere::SpherePair;
use crate::compensated::exact::norm2;
use crate::error::{natural_norm, require_gamma, require_len, Result};
use crate::quadrature::Tolerance;

/// Reference for `nivmf::log_ppk`: the defining integral,
/// never the closed form.
///
/// # Formula
///
/// $$ \ln\mathrm{PPK}\_\gamma = \gamma\ln C_M(\kappa_z) + \gamma\ln C_M(\kappa_p)
///    {}+ \ln\int_{S^{M-1}} e^{\gamma\kappa_z\mu_z^\top x + \gamma\kappa_p\mu_p^\top x}\\,dx $$
///
/// (nivMF Supp. C eq. (23)): the integral of the product of the two *pointwise* densities, by the
/// two-coordinate reduction of [`SpherePair`] to `max(10⁻¹³, 8ε·γ(κ_z + κ_p))` relative (the
/// rounding noise of the exponent), with the pole placed at the
/// direction of `ν_z + ν_p` (where the product peaks; the integrand is evaluated from `μ_zᵀx`
/// and `μ_pᵀx`, so the value does not depend on that choice) and the normalisers from the
/// 256-bit series.
///
/// # Errors
///
/// As `nivmf::log_ppk`, plus
/// [`Error::NoConvergence`](crate::Error::NoConvergence) if the quadrature fails.
///
/// # Examples
///
/// ```
/// use probdml::nivmf::exact::log_ppk;
/// use probdml::vmf::exact::log_norm_const;
/// let want = log_norm_const(3, 3.0) + log_norm_const(3, 4.0) - log_norm_const(3, 5.0);
/// let got = log_ppk(&[3.0, 0.0, 0.0], &[0.0, 4.0, 0.0], 1.0).unwrap();
/// assert!((got - want).abs() < 1e-12);
/// ```
pub fn log_ppk(nu_z: &[f64], nu_p: &[f64], gamma: f64) -> Result<f64> {
    require_gamma(gamma)?;
    // The checks of the fast twin, in its order; the norms they return are the fast twin's
    // compensated ones, so κ is taken again in 256-bit arithmetic.
    natural_norm("nu_z", nu_z)?;
    require_len("nu_p", nu_p, nu_z.len())?;
    natural_norm("nu_p", nu_p)?;
    let (kappa_z, kappa_p) = (norm2(nu_z), norm2(nu_p));
    let dim = nu_z.len();
    let omega = if kappa_z > 0.0 && kappa_p > 0.0 {
        let mu_z: Vec<f64> = nu_z.iter().map(|v| v / kappa_z).collect();
        let mu_p: Vec<f64> = nu_p.iter().map(|v| v / kappa_p).collect();
        angle_between(&mu_z, &mu_p)
    } else {
        0.0
    };
    let sum: Vec<f64> = nu_z.iter().zip(nu_p).map(|(a, b)| a + b).collect();
    let kappa_sum = norm2(&sum);
    // The pole's angle from μ_z towards μ_p: the direction of ν_z + ν_p in their plane.
    let beta = (kappa_p * omega.sin()).atan2(kappa_z + kappa_p * omega.cos());
    let tilt = gamma * kappa_sum;
    let frame = SpherePair::new(dim, -beta, omega - beta, tilt)?;
    let (gz, gp) = (gamma * kappa_z, gamma * kappa_p);
    // The exponent γκ_z s + γκ_p t − γκ_s c vanishes where the pole is exact, but s, t, c carry
    // rounding errors of ~ε each: the integrand is noisy at the level ~ε·γ(κ_z + κ_p), below
    // which no quadrature estimate can go.
    let relative = 1e-13_f64.max(8.0 * f64::EPSILON * (gz + gp));
    let value = frame
        .integrate(
            |s, t, c| (gz * s + gp * t - tilt * c).exp(),
            Tolerance::relative(relative),
        )?
        .value;
    Ok(
        gamma * (log_norm_const(dim, kappa_z) + log_norm_const(dim, kappa_p))
            + tilt
            + frame.log_scale()
            + value.ln(),
    )
}

/// [`log_ppk`] with the exponent first: its former name and argument order.
///
/// # Errors
///
/// As [`log_ppk`].
#[deprecated(
    since = "0.2.0",
    note = "renamed `log_ppk(nu_z, nu_p, gamma)`: the data first, the parameter last, as \
            everywhere in the crate"
)]
pub fn log_ppk_vmf(gamma: f64, nu_z: &[f64], nu_p: &[f64]) -> Result<f64> {
    log_ppk(nu_z, nu_p, gamma)
}
