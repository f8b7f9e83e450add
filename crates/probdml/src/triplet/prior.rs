//! Priors, KL terms and the ELBO of the Bayesian triplet loss (BTL §3.2–3.3, eq. (13)).
//!
//! * **Gaussian prior** `N(0, (1/D)·I)` ("implicit ℓ₂ normalisation"): for `x` from it,
//!   `‖x‖² = χ²_D/D`, so `E‖x‖² = 1` and `Var‖x‖² = 2/D` — it concentrates on the unit sphere.
//!   With a diagonal Gaussian posterior `q = N(μ, diag σ²)` and prior `N(0, s²I)`,
//!   `KL(q ‖ p) = ½ Σ_d [σ_d²/s² + μ_d²/s² − 1 − ln(σ_d²/s²)]` ([`gaussian_kl`]).
//! * **Uniform prior on the sphere** with a vMF posterior: `KL(vMF(μ, κ) ‖ U(S^{D−1}))` from
//!   chapter 02 ([`vmf_kl`], i.e. [`crate::vmf::kl_to_uniform`]), not the listing's
//!   `κ − D ln 2`.
//! * **ELBO** of one triplet (eq. 13): `E_q[ln P(I | X, Y, Z)] − KL_a − KL_p − KL_n`, and the
//!   training loss `NLL + kl_scale·Σ KL` with `kl_scale = 10⁻⁶` in the paper
//!   ([`DEFAULT_KL_SCALE`], [`loss`], [`elbo`]).

use super::input::check_posterior;
use crate::error::{require_finite, require_nonnegative, Error, Result};
use crate::special::x_minus_ln1p;

/// The KL weight of the BTL experiments (§5: "a KL-scale factor 10⁻⁶ in all experiments").
pub const DEFAULT_KL_SCALE: f64 = 1e-6;

/// The variance `1/D` of the BTL Gaussian prior `N(0, (1/D)·I)`.
///
/// # Errors
///
/// [`Error::InvalidDimension`] for `dim = 0`.
///
/// # Examples
///
/// ```
/// assert_eq!(probdml::triplet::gaussian_prior_variance(2048).unwrap(), 1.0 / 2048.0);
/// ```
pub fn gaussian_prior_variance(dim: usize) -> Result<f64> {
    if dim == 0 {
        return Err(Error::InvalidDimension {
            arg: "dim",
            dim,
            rule: "the prior N(0, I/D) needs D >= 1",
        });
    }
    Ok(1.0 / dim as f64)
}

/// `KL(N(μ, diag σ²) ‖ N(0, s²·I))`, the Gaussian-prior term of the BTL ELBO.
///
/// # Formula
///
/// $$ \mathrm{KL} = \frac12\sum_d\Big[\frac{\mu_d^2}{s^2} + r_d - 1 - \ln r_d\Big],
///    \qquad r_d = \sigma_d^2/s^2 $$
///
/// (BTL eq. (13) with the Gaussian prior; the listing's `kl_div_gauss` for isotropic σ²). The
/// bracket `r − 1 − ln r` is formed as `t − ln1p(t)`, `t = r − 1`, by its series near `r = 1`,
/// so a posterior close to the prior keeps full relative accuracy.
///
/// # Errors
///
/// [`Error::InvalidDimension`] naming `mu` for empty input; [`Error::DimensionMismatch`] naming
/// `var`; [`Error::NotFiniteElement`] for NaN/∞ entries; [`Error::OutOfDomain`] naming `var` for
/// a variance `≤ 0` (the KL is infinite) or `prior_var` if it is not `> 0`.
///
/// # Examples
///
/// ```
/// use probdml::triplet::gaussian_kl;
/// // The posterior equal to the prior: KL = 0.
/// assert_eq!(gaussian_kl(&[0.0; 4], &[0.25; 4], 0.25).unwrap(), 0.0);
/// // One dimension, μ = 1, σ² = 2, s² = 1: ½(1 + 2 − 1 − ln 2) = 0.6534264097200273.
/// assert!((gaussian_kl(&[1.0], &[2.0], 1.0).unwrap() - 0.6534264097200273).abs() < 1e-15);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn gaussian_kl(mu: &[f64], var: &[f64], prior_var: f64) -> Result<f64> {
    check_posterior(mu, var, prior_var)?;
    let inv = 1.0 / prior_var;
    let sum: f64 = mu
        .iter()
        .zip(var)
        .map(|(m, v)| m * m * inv + x_minus_ln1p(v * inv - 1.0))
        .sum();
    Ok(0.5 * sum)
}

/// `KL(vMF(μ, κ) ‖ U(S^{D−1}))`, the uniform-prior term of the BTL ELBO with vMF posteriors.
///
/// # Formula
///
/// $$ \mathrm{KL} = \ln C_D(\kappa) + \kappa A_D(\kappa) + \ln|S^{D-1}| $$
///
/// (chapter 02, [`crate::vmf::kl_to_uniform`]); the BTL listing's `kl_div_vMF = κ − D ln 2` is
/// refuted in `proofs/vmf_density.rs`.
///
/// # Errors
///
/// [`Error::InvalidDimension`] naming `dim` for `D < 2`; [`Error::NotFinite`] or
/// [`Error::OutOfDomain`] naming `kappa` if it is not finite and `≥ 0`.
///
/// # Examples
///
/// ```
/// use probdml::triplet::vmf_kl;
/// assert_eq!(vmf_kl(3, 0.0).unwrap(), 0.0);
/// assert!(vmf_kl(2048, 1e-3).unwrap() > 0.0);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn vmf_kl(dim: usize, kappa: f64) -> Result<f64> {
    crate::error::require_sphere_dim("dim", dim)?;
    let kappa = require_nonnegative("kappa", kappa)?;
    Ok(crate::vmf::kl_to_uniform(dim, kappa))
}

/// The BTL training loss: `NLL + kl_scale·Σ KL` (listing 1, line 51).
///
/// # Formula
///
/// $$ \mathcal L = \mathrm{NLL} + \lambda_{KL}\sum_i \mathrm{KL}^{(i)},\qquad
///    \lambda_{KL} = 10^{-6} \text{ in the paper} $$
///
/// # Errors
///
/// [`Error::NotFinite`] naming `nll` or `kl_scale`, [`Error::OutOfDomain`] for a negative
/// `kl_scale`, [`Error::NotFiniteElement`] or [`Error::OutOfDomain`] naming `kl_terms` for a
/// non-finite or negative KL.
///
/// # Examples
///
/// ```
/// use probdml::triplet::{loss, DEFAULT_KL_SCALE};
/// let l = loss(0.7, &[3.0, 4.0, 5.0], DEFAULT_KL_SCALE).unwrap();
/// assert!((l - (0.7 + 12e-6)).abs() < 1e-16);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn loss(nll: f64, kl_terms: &[f64], kl_scale: f64) -> Result<f64> {
    require_finite("nll", nll)?;
    let kl_scale = require_nonnegative("kl_scale", kl_scale)?;
    Ok(nll + kl_scale * kl_sum(kl_terms)?)
}

/// The evidence lower bound of one triplet (BTL eq. (13)): `ln-likelihood − Σ KL`.
///
/// # Formula
///
/// $$ \ln P(I) \ge \mathbb E_q[\ln P(I\mid X, Y, Z)] - \mathrm{KL}(q_X\Vert p) - \mathrm{KL}(q_Y\Vert p) -
///    \mathrm{KL}(q_Z\Vert p) $$
///
/// # Errors
///
/// [`Error::NotFinite`] naming `log_likelihood` if it is NaN or `+∞` (`−∞` is allowed: an
/// impossible constraint); as [`loss`] for `kl_terms`.
///
/// # Examples
///
/// ```
/// use probdml::triplet::elbo;
/// assert_eq!(elbo(-0.5, &[0.25, 0.25]).unwrap(), -1.0);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn elbo(log_likelihood: f64, kl_terms: &[f64]) -> Result<f64> {
    if log_likelihood.is_nan() || log_likelihood == f64::INFINITY {
        return Err(Error::NotFinite {
            arg: "log_likelihood",
            value: log_likelihood,
        });
    }
    Ok(log_likelihood - kl_sum(kl_terms)?)
}

/// `Σ KL`, each finite and `≥ 0`.
fn kl_sum(kl_terms: &[f64]) -> Result<f64> {
    for (index, &v) in kl_terms.iter().enumerate() {
        if !v.is_finite() {
            return Err(Error::NotFiniteElement {
                arg: "kl_terms",
                index,
                value: v,
            });
        }
        if v < 0.0 {
            return Err(Error::OutOfDomain {
                arg: "kl_terms",
                value: v,
                rule: "a KL divergence is >= 0",
            });
        }
    }
    Ok(kl_terms.iter().sum())
}
