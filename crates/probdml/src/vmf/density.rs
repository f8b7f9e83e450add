//! The vMF log density `ln f(x; μ, κ) = ln C_M(κ) + κ μᵀx` and the unit-vector checks shared by
//! every checked vMF entry point.

use super::input::check_density_args;
use super::log_norm_const;
use crate::compensated::dot_lanes;
use crate::error::Result;

/// The log density of `vMF(μ, κ)` on `S^{M−1}` at `x`.
///
/// # Formula
///
/// $$ \ln f(x;\mu,\kappa) = \ln C_M(\kappa) + \kappa\\,\mu^\top x,\qquad
///    C_M(\kappa) = \frac{\kappa^{M/2-1}}{(2\pi)^{M/2} I_{M/2-1}(\kappa)} $$
///
/// (LAM eq. (3); nivMF eq. (1)). The normaliser comes from
/// [`log_norm_const`](super::log_norm_const); the dot product uses four independent
/// accumulators (error `≤ γ_{⌈M/4⌉+2}`, Higham §3.1), which keeps the sum within the
/// `4·10⁻¹⁵` budget of the registry even at `M = 2048`, `κ = 10⁵`.
///
/// # Errors
///
/// * [`Error::InvalidDimension`](crate::Error::InvalidDimension) if `len(μ) < 2`;
/// * [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if `len(x) ≠ len(μ)`;
/// * [`Error::NotFinite`](crate::Error::NotFinite) / [`Error::OutOfDomain`](crate::Error::OutOfDomain) if `κ` is NaN, infinite or negative, or an
///   entry of `x` or `μ` is not finite;
/// * [`Error::NotUnitVector`](crate::Error::NotUnitVector) if `|‖x‖ − 1|` or `|‖μ‖ − 1|` exceeds
///   [`unit_norm_tolerance`](super::unit_norm_tolerance)`(M)`.
///
/// # Examples
///
/// ```
/// use probdml::vmf::log_density;
/// use std::f64::consts::PI;
/// // M = 3 has C_3(κ) = κ / (4π sinh κ).
/// let (mu, x) = ([0.0, 0.0, 1.0], [0.6, 0.0, 0.8]);
/// let kappa = 2.0_f64;
/// let want = (kappa / (4.0 * PI * kappa.sinh())).ln() + kappa * 0.8;
/// assert!((log_density(&x, &mu, kappa).unwrap() - want).abs() < 1e-14);
/// // κ = 0 is the uniform density 1/(4π).
/// assert!((log_density(&x, &mu, 0.0).unwrap() + (4.0 * PI).ln()).abs() < 1e-15);
/// assert!(log_density(&[1.0, 1.0, 0.0], &mu, 1.0).is_err());
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn log_density(x: &[f64], mu: &[f64], kappa: f64) -> Result<f64> {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || {
            let (dim, x, mu) = check_density_args(x, mu, kappa)?;
            Ok(log_norm_const(dim, kappa) + kappa * dot_lanes(&mu, &x))
        },
    )
}
