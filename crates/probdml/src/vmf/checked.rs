//! The vMF scalar functions of `(M, κ)` with their domain checked: `Result` instead of NaN.
//!
//! [`vmf::log_norm_const`](super::log_norm_const) and its siblings are raw kernels (listed in
//! [`vmf::kernel`](super::kernel)): they take any `(usize, f64)` and return NaN outside
//! `M ≥ 2, 0 ≤ κ < ∞`, as `f64::ln` does, so that batch code and the Python bindings can map them
//! over arrays without a branch per element. A program that computes one value and wants to hear
//! about a bad argument calls the function of the same name here: the same value on the domain,
//! and outside it the error [`triplet::vmf_kl`](crate::triplet::vmf_kl) gives for the same
//! `(dim, kappa)`.
//!
//! ```
//! use probdml::vmf;
//! // The kernel: NaN for a negative concentration, as f64::ln(-1.0) is NaN.
//! assert!(vmf::kl_to_uniform(64, -1.0).is_nan());
//! // The checked function: an error that names the argument and the rule.
//! let err = vmf::checked::kl_to_uniform(64, -1.0).unwrap_err();
//! assert_eq!(err, probdml::triplet::vmf_kl(64, -1.0).unwrap_err());
//! assert!(err.to_string().contains("kappa"));
//! // M = 1 is not a sphere the crate's formulas cover: an error, not a silent NaN.
//! assert!(vmf::mean_resultant_length(1, 3.0).is_nan());
//! assert!(vmf::checked::mean_resultant_length(1, 3.0).is_err());
//! // On the domain, the kernel's value bit for bit.
//! assert_eq!(
//!     vmf::checked::log_norm_const(512, 50.0).unwrap(),
//!     vmf::log_norm_const(512, 50.0)
//! );
//! ```
#![cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]

use crate::error::{require_nonnegative, require_sphere_dim, Result};

/// `(dim, kappa)` on the kernels' domain: `M ≥ 2`, `κ` finite and `≥ 0`. The order of the
/// checks is [`triplet::vmf_kl`](crate::triplet::vmf_kl)'s, so both fail alike.
fn domain(dim: usize, kappa: f64) -> Result<(usize, f64)> {
    require_sphere_dim("dim", dim)?;
    Ok((dim, require_nonnegative("kappa", kappa)?))
}

/// The kernel's value, or an error naming `kappa` where the kernel gives NaN on its nominal
/// domain: `ln I_ν(κ)` overflows inside the double-double evaluation for huge `κ` (NaN from
/// `ln C_64(10²⁰⁰)` and `ln C_3(f64::MAX)` at the time of writing), and a checked function must
/// not pass that NaN on silently.
fn finite_or_error(value: f64, kappa: f64) -> Result<f64> {
    if value.is_nan() {
        Err(crate::Error::OutOfDomain {
            arg: "kappa",
            value: kappa,
            rule: "beyond the range the kernel evaluates (ln I_nu(kappa) overflows for huge kappa)",
        })
    } else {
        Ok(value)
    }
}

/// Checked [`vmf::log_norm_const`](super::log_norm_const): `ln C_M(κ)`.
///
/// # Errors
///
/// [`Error::InvalidDimension`](crate::Error::InvalidDimension) naming `dim` if `M < 2`;
/// [`Error::NotFinite`](crate::Error::NotFinite) or
/// [`Error::OutOfDomain`](crate::Error::OutOfDomain) naming `kappa` unless `0 ≤ κ < ∞`, or if
/// `κ` is so large that the kernel overflows to NaN.
pub fn log_norm_const(dim: usize, kappa: f64) -> Result<f64> {
    let (dim, kappa) = domain(dim, kappa)?;
    finite_or_error(super::log_norm_const(dim, kappa), kappa)
}

/// Checked [`vmf::mean_resultant_length`](super::mean_resultant_length): `A_M(κ)`.
///
/// # Errors
///
/// As [`log_norm_const`].
pub fn mean_resultant_length(dim: usize, kappa: f64) -> Result<f64> {
    let (dim, kappa) = domain(dim, kappa)?;
    finite_or_error(super::mean_resultant_length(dim, kappa), kappa)
}

/// Checked [`vmf::mean_resultant_length_complement`](super::mean_resultant_length_complement):
/// `1 − A_M(κ)` without cancellation.
///
/// # Errors
///
/// As [`log_norm_const`].
pub fn mean_resultant_length_complement(dim: usize, kappa: f64) -> Result<f64> {
    let (dim, kappa) = domain(dim, kappa)?;
    finite_or_error(super::mean_resultant_length_complement(dim, kappa), kappa)
}

/// Checked [`vmf::entropy`](super::entropy): the differential entropy of `vMF(μ, κ)` on
/// `S^{M−1}`.
///
/// # Errors
///
/// As [`log_norm_const`].
pub fn entropy(dim: usize, kappa: f64) -> Result<f64> {
    let (dim, kappa) = domain(dim, kappa)?;
    finite_or_error(super::entropy(dim, kappa), kappa)
}

/// Checked [`vmf::kl_to_uniform`](super::kl_to_uniform): `KL(vMF(μ, κ) ‖ U(S^{M−1}))`, the
/// same value and the same errors as [`triplet::vmf_kl`](crate::triplet::vmf_kl).
///
/// # Errors
///
/// As [`log_norm_const`].
pub fn kl_to_uniform(dim: usize, kappa: f64) -> Result<f64> {
    let (dim, kappa) = domain(dim, kappa)?;
    finite_or_error(super::kl_to_uniform(dim, kappa), kappa)
}

/// Checked [`vmf::log_sphere_area`](super::log_sphere_area): `ln |S^{M−1}|`.
///
/// # Errors
///
/// [`Error::InvalidDimension`](crate::Error::InvalidDimension) naming `dim` if `M = 0`
/// (`|S⁰| = 2` is defined, unlike the vMF on it).
pub fn log_sphere_area(dim: usize) -> Result<f64> {
    if dim == 0 {
        return Err(crate::Error::InvalidDimension {
            arg: "dim",
            dim,
            rule: "the sphere S^{M-1} needs M >= 1",
        });
    }
    Ok(super::log_sphere_area(dim))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checked_forms_return_their_kernels_bits_on_the_domain() {
        let pairs: [(fn(usize, f64) -> Result<f64>, fn(usize, f64) -> f64, &str); 5] = [
            (log_norm_const, crate::vmf::log_norm_const, "log_norm_const"),
            (
                mean_resultant_length,
                crate::vmf::mean_resultant_length,
                "mean_resultant_length",
            ),
            (
                mean_resultant_length_complement,
                crate::vmf::mean_resultant_length_complement,
                "mean_resultant_length_complement",
            ),
            (entropy, crate::vmf::entropy, "entropy"),
            (kl_to_uniform, crate::vmf::kl_to_uniform, "kl_to_uniform"),
        ];
        for (checked, kernel, name) in pairs {
            for (dim, kappa) in [(2, 0.0), (3, 0.5), (128, 50.0), (512, 1e4)] {
                let got = checked(dim, kappa).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(
                    got.to_bits(),
                    kernel(dim, kappa).to_bits(),
                    "{name}({dim}, {kappa})"
                );
            }
        }
        assert_eq!(log_sphere_area(3).unwrap(), crate::vmf::log_sphere_area(3));
    }
}
