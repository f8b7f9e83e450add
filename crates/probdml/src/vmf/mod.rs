//! The von Mises–Fisher distribution on `S^{M−1}` (book chapters 01–02).
//!
//! The fast twins live here; the references, with the same signatures, under [`exact`].
//!
//! # The density and its normaliser
//!
//! `vMF(μ, κ)` has density `f(x) = C_M(κ) e^{κμᵀx}` w.r.t. the surface measure of `S^{M−1}`,
//! with `C_M(κ) = κ^{M/2−1}/((2π)^{M/2} I_{M/2−1}(κ))` ([`log_norm_const`]). Everything is done
//! in log space ([`log_density`]): `I_{M/2−1}(κ)` itself leaves the `f64` range at `M = 512`.
//!
//! # One-dimensional reduction
//!
//! `f` depends on `x` only through `t = μᵀx = cos θ`. Slicing the sphere at height `t` gives
//! a sphere `S^{M−2}` of radius `sin θ`, so every expectation is a 1-D integral:
//!
//! `E h(μᵀX) = |S^{M−2}| C_M(κ) ∫_0^π h(cos θ) e^{κ cos θ} sin^{M−2} θ dθ`.
//!
//! This is how every reference in [`exact`] works (by adaptive quadrature in `θ`, where the
//! integrand is smooth for all `M ≥ 2`), and it gives the closed forms:
//!
//! * **mean**: `E X = A_M(κ) μ` with `A_M = −d ln C_M/dκ = I_{M/2}/I_{M/2−1}`
//!   ([`mean_resultant_length`], and its cancellation-free complement
//!   [`mean_resultant_length_complement`]);
//! * **entropy**: `H = −E ln f = −ln C_M(κ) − κ A_M(κ)` ([`entropy`]);
//! * **KL to the uniform law** `u = 1/|S^{M−1}|`: `KL = E ln f − ln u = ln C_M(κ) + κA_M(κ) +
//!   ln|S^{M−1}|` ([`kl_to_uniform`], [`log_sphere_area`]). It is `≥ 0` and `≈ κ²/(2M)` as
//!   `κ → 0`, where it is summed from a series instead of as a difference of large numbers.
//!   The BTL listing's `κ − D ln 2` is not this quantity (it is negative for `κ < D ln 2`).
//!
//! # Sampling (Wood 1994)
//!
//! Draw `w = μᵀX` from its marginal `∝ e^{κw}(1 − w²)^{(M−3)/2}` by Wood's rejection sampler,
//! then `X = Q(w, √(1−w²) v)` with `v` uniform on `S^{M−2}` and `Q` a Householder reflection
//! taking `e₁` to `μ` ([`VonMisesFisher`]). The reference [`exact::VonMisesFisher`] inverts the
//! numerically integrated CDF of `θ` instead.
//!
//! # Estimating κ (LAM App. C; Sra 2012)
//!
//! From unit vectors `x₁…x_n` ([`mean_resultant`]): `μ̂ = Σx/‖Σx‖`, `R̄ = ‖Σx‖/n`. The MLE
//! solves `A_M(κ) = R̄` ([`kappa_mle`]); the log-likelihood `n(ln C_M(κ) + κR̄)` is concave in
//! κ because `A_M' = Var[μᵀX] > 0`. Banerjee's closed-form start and Sra's Newton steps are
//! [`kappa_sra`]; LAM's uncertainty `1/κ̂₀` is [`lam_uncertainty`]. Near `R̄ → 1` both
//! estimators work with `1 − A_M(κ) = 1 − R̄`, which `f64` still resolves.
//!
//! # Input checks
//!
//! Raw `f64` kernels ([`log_norm_const`], [`entropy`], [`kl_to_uniform`], …) return NaN
//! outside their domain. Checked entry points return [`crate::Result`]: a unit vector must
//! satisfy `|‖v‖ − 1| ≤` [`unit_norm_tolerance`]`(M) = (M + 4)·2⁻²⁴`, so that embeddings
//! normalised in `f32` and cast to `f64` pass; a vector further than
//! [`renormalisation_threshold`]`(M) = 10⁻¹²√M` from the sphere is renormalised in `f64`
//! first, and the result is the one at `v/‖v‖`.
#![cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub mod checked;
#[cfg(feature = "reference")]
pub use probdml_reference::vmf::exact;

mod bregman;
mod complement;
mod density;
mod distribution;
mod entropy;
mod householder;
pub(crate) use probdml_core::vmf::input;
mod kappa;
mod kappa_batch;
mod kl;
mod mean_resultant;
mod mean_resultant_length;
mod mean_resultant_length_batch;
mod normaliser;
mod normaliser_batch;
mod ppk;
mod sampler;
mod sphere_area;
mod wood;

// `A_M/κ` and `A_M'` for the ProxyNCA++ gradients of `nivmf`.
pub(crate) use bregman::{
    mean_resultant_over_kappa, mean_resultant_over_kappa_batch, mean_resultant_slope,
};
pub(crate) use complement::complement_and_slope;
pub use complement::mean_resultant_length_complement;
pub use density::log_density;
pub use entropy::{entropy, kl_to_uniform};
pub(crate) use input::require_unit;
pub use input::MeanResultant;
pub use input::{renormalisation_threshold, unit_norm_tolerance};
pub use kappa::{kappa_mle, kappa_sra};
pub use kappa_batch::{kappa_mle_batch, kappa_sra_batch};
pub(crate) use kl::kl_vmf_kernel;
pub use kl::{kl_vmf, kl_vmf_paper};
pub use mean_resultant::{lam_uncertainty, mean_resultant};
pub use mean_resultant_length::mean_resultant_length;
pub use mean_resultant_length_batch::mean_resultant_length_batch;
pub use normaliser::log_norm_const;
pub use normaliser_batch::log_norm_const_batch;
pub(crate) use normaliser_batch::{
    log_bessel_scaled_lanes, log_norm_const_batch_unchecked, log_norm_const_lanes,
};
pub(crate) use ppk::bhattacharyya_from_norms;
#[allow(deprecated)]
pub use ppk::log_ppk_vmf;
pub use ppk::{bhattacharyya_distance, expected_likelihood_distance, log_ppk};
pub use sampler::VonMisesFisher;
pub use sphere_area::log_sphere_area;

/// The raw kernels of this module, gathered: plain `f64` functions of `(M, κ)` that return NaN
/// outside `M ≥ 2, 0 ≤ κ < ∞` (`log_sphere_area`: outside `M ≥ 1`) instead of an error, as
/// `f64::ln` does, so that batch code can map them over arrays without a branch per element.
/// The same items are at `vmf::` (where the exact twins mirror them); their checked forms, with
/// the same names, are in [`checked`]. Every other function of `vmf` validates its input and
/// returns [`Result`](crate::Result).
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub mod kernel {
    pub use super::{
        entropy, kl_to_uniform, log_norm_const, log_sphere_area, mean_resultant_length,
        mean_resultant_length_complement,
    };
}
