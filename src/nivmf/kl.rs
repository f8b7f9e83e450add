//! The KL divergence between two vMFs, corrected (nivMF Supp. E; spec 06).

use super::bregman::log_partition_bregman;
use super::parameters::require_len;
use crate::compensated::dot_lanes;
use crate::error::{require_nonnegative, require_sphere_dim, Result};
use crate::vmf::{mean_resultant_length, require_unit};

/// Validates `(μ_z, κ_z, μ_p, κ_p)` and returns `M`.
pub(crate) fn check_kl_args(
    mu_z: &[f64],
    kappa_z: f64,
    mu_p: &[f64],
    kappa_p: f64,
) -> Result<usize> {
    let dim = require_sphere_dim("mu_z", mu_z.len())?;
    require_len("mu_p", mu_p, dim)?;
    require_nonnegative("kappa_z", kappa_z)?;
    require_nonnegative("kappa_p", kappa_p)?;
    require_unit("mu_z", mu_z)?;
    require_unit("mu_p", mu_p)?;
    Ok(dim)
}

/// `½‖a − b‖²`, which is `1 − aᵀb` for unit vectors, without the cancellation of `1 − aᵀb`
/// when `a ≈ b`.
pub(crate) fn half_squared_distance(a: &[f64], b: &[f64]) -> f64 {
    let mut s = [0.0_f64; 4];
    let ca = a.chunks_exact(4);
    let cb = b.chunks_exact(4);
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..4 {
            let d = x[l] - y[l];
            s[l] = d.mul_add(d, s[l]);
        }
    }
    let mut tail = 0.0;
    for (x, y) in ra.iter().zip(rb) {
        let d = x - y;
        tail = d.mul_add(d, tail);
    }
    0.5 * (((s[0] + s[1]) + (s[2] + s[3])) + tail)
}

/// `KL(vMF(μ_z, κ_z) ‖ vMF(μ_p, κ_p))` on `S^{M−1}`, with the vMF mean `A_M(κ_z)μ_z` that the
/// paper's eq. (39) drops.
///
/// # Formula
///
/// $$ \mathrm{KL}(\zeta\\,\Vert \\,\rho) = \ln C_M(\kappa_z) - \ln C_M(\kappa_p)
///    {}+ A_M(\kappa_z)\\,(\kappa_z - \kappa_p\\,\mu_p^\top\mu_z) $$
///
/// (spec 06, correcting nivMF Supp. E eq. (39), which has `κ_z − κ_p μ_pᵀμ_z` without the factor
/// `A_M(κ_z)`: it takes `E_ζ[x] = μ_z`, but the mean of a vMF is `A_M(κ_z)μ_z`). Computed as
///
/// $$ \mathrm{KL} = B(\kappa_p;\kappa_z) + A_M(\kappa_z)\\,\kappa_p\\,\tfrac12\lVert\mu_z-\mu_p\rVert^2 $$
///
/// with `B` the Bregman divergence of `Φ = −ln C_M`, a sum of two non-negative terms each
/// computed without cancellation (`B` by its integral form when `κ_z ≈ κ_p`), so that KL keeps
/// its relative accuracy when it is tiny (`κ_z ≈ κ_p` large, or `κ → 0` where
/// `KL ≈ ‖ν_z − ν_p‖²/(2M)`). `κ_p = 0` is the uniform law: the result is
/// [`vmf::kl_to_uniform`](crate::vmf::kl_to_uniform)`(M, κ_z)`. `½‖μ_z − μ_p‖²` stands for
/// `1 − μ_pᵀμ_z` (equal for unit vectors), so `KL(ζ‖ζ) = 0` exactly.
///
/// Error budget: relative `10⁻⁹` against the sphere quadrature of
/// [`exact::kl_vmf`](super::exact::kl_vmf) (`proofs/nivmf_divergences.rs`).
///
/// # Errors
///
/// * [`Error::InvalidDimension`](crate::Error::InvalidDimension) if `len(μ_z) < 2`;
/// * [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if `len(μ_p) ≠ len(μ_z)`;
/// * [`Error::NotFinite`](crate::Error::NotFinite) / [`Error::OutOfDomain`](crate::Error::OutOfDomain)
///   if a κ is NaN, infinite or negative, or an entry of a μ is not finite;
/// * [`Error::NotUnitVector`](crate::Error::NotUnitVector) if `|‖μ‖ − 1|` exceeds
///   [`vmf::unit_norm_tolerance`](crate::vmf::unit_norm_tolerance)`(M)`.
///
/// # Examples
///
/// ```
/// use probdml::nivmf::kl_vmf;
/// // The spec's refutation point: M = 3, κ_z = 5, κ_p = 2, angle 1 rad.
/// let (mu_z, mu_p) = ([1.0, 0.0, 0.0], [1f64.cos(), 1f64.sin(), 0.0]);
/// let kl = kl_vmf(&mu_z, 5.0, &mu_p, 2.0).unwrap();
/// assert!((kl - 1.033723).abs() < 1e-6);
/// // Zero iff equal; κ_p = 0 is the KL to the uniform law.
/// assert_eq!(kl_vmf(&mu_z, 5.0, &mu_z, 5.0).unwrap(), 0.0);
/// let to_uniform = probdml::vmf::kl_to_uniform(3, 5.0);
/// assert!((kl_vmf(&mu_z, 5.0, &mu_p, 0.0).unwrap() - to_uniform).abs() < 1e-14);
/// assert!(kl_vmf(&mu_z, -1.0, &mu_p, 2.0).is_err());
/// ```
pub fn kl_vmf(mu_z: &[f64], kappa_z: f64, mu_p: &[f64], kappa_p: f64) -> Result<f64> {
    let dim = check_kl_args(mu_z, kappa_z, mu_p, kappa_p)?;
    Ok(kl_vmf_kernel(
        dim,
        kappa_z,
        kappa_p,
        half_squared_distance(mu_z, mu_p),
    ))
}

/// The KL kernel from `(M, κ_z, κ_p, 1 − μ_pᵀμ_z)`; no checks.
#[inline]
pub(crate) fn kl_vmf_kernel(dim: usize, kappa_z: f64, kappa_p: f64, one_minus_cos: f64) -> f64 {
    let bregman = log_partition_bregman(dim, kappa_p, kappa_z);
    if kappa_p == 0.0 || one_minus_cos == 0.0 {
        return bregman;
    }
    bregman + mean_resultant_length(dim, kappa_z) * kappa_p * one_minus_cos
}

/// The paper's eq. (39), `ln C_M(κ_z) − ln C_M(κ_p) + κ_z − κ_p μ_pᵀμ_z`, which is **not** the
/// KL divergence (it uses `E_ζ[x] = μ_z` instead of `A_M(κ_z)μ_z`); kept to reproduce the paper
/// and for the refutation in `proofs/nivmf_divergences.rs`.
///
/// # Formula
///
/// $$ \ln C_M(\kappa_z) - \ln C_M(\kappa_p) + (\kappa_z\mu_z - \kappa_p\mu_p)^\top\mu_z $$
///
/// (nivMF Supp. E, eq. (39)).
///
/// # Errors
///
/// As [`kl_vmf`].
///
/// # Examples
///
/// ```
/// use probdml::nivmf::{kl_vmf, kl_vmf_paper};
/// let (mu_z, mu_p) = ([1.0, 0.0, 0.0], [1f64.cos(), 1f64.sin(), 0.0]);
/// // The spec's numbers: 1.817246 (eq. 39) against the true 1.033723.
/// assert!((kl_vmf_paper(&mu_z, 5.0, &mu_p, 2.0).unwrap() - 1.817246).abs() < 1e-6);
/// assert!((kl_vmf(&mu_z, 5.0, &mu_p, 2.0).unwrap() - 1.033723).abs() < 1e-6);
/// ```
pub fn kl_vmf_paper(mu_z: &[f64], kappa_z: f64, mu_p: &[f64], kappa_p: f64) -> Result<f64> {
    let dim = check_kl_args(mu_z, kappa_z, mu_p, kappa_p)?;
    let cos = dot_lanes(mu_z, mu_p);
    Ok(
        crate::vmf::log_norm_const(dim, kappa_z) - crate::vmf::log_norm_const(dim, kappa_p)
            + (kappa_z - kappa_p * cos),
    )
}
