//! Reference vMF log density: the exact normaliser plus a compensated dot product.

use super::log_norm_const;
use crate::compensated::{dot2, two_prod, Neumaier};
use crate::error::Result;
use crate::vmf::input::check_density_args;

/// Reference twin of `crate::vmf::log_density`.
///
/// # Formula
///
/// $$ \ln f(x;\mu,\kappa) = \ln C_M(\kappa) + \kappa\\,\mu^\top x $$
///
/// with `ln C_M` from [`log_norm_const`](super::log_norm_const) (arbitrary-precision Bessel
/// series), `μᵀx` by the Ogita–Rump–Oishi `Dot2` (as if in twice the working precision), and
/// the final sum `ln C + κ·μᵀx` formed from an exact product and a compensated addition, so the
/// result carries one rounding beyond those of its inputs.
///
/// # Errors
///
/// Exactly those of `crate::vmf::log_density`.
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::log_density;
/// use std::f64::consts::PI;
/// let (mu, x) = ([1.0, 0.0], [0.0, 1.0]);
/// // M = 2, x ⟂ μ: ln f = ln C_2(κ) = −ln(2π I_0(κ)); I_0(1) = 1.2660658777520083.
/// let want = -(2.0 * PI * 1.266_065_877_752_008_3_f64).ln();
/// assert!((log_density(&x, &mu, 1.0).unwrap() - want).abs() < 1e-15);
/// ```
pub fn log_density(x: &[f64], mu: &[f64], kappa: f64) -> Result<f64> {
    let (dim, x, mu) = check_density_args(x, mu, kappa)?;
    let (p, e) = two_prod(kappa, dot2(&mu, &x));
    let mut acc = Neumaier::new();
    acc.add(log_norm_const(dim, kappa));
    acc.add_pair((p, e));
    Ok(acc.total())
}
