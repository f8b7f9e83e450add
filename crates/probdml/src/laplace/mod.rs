//! Laplace approximation of the last layer: post-hoc and online (Monte Carlo EM), diagonal
//! Gaussian sampling and the vMF predictive summary (LAM App. E).
//!
//! # Derivation
//!
//! The Laplace approximation replaces the posterior over the parameters θ by a Gaussian at a
//! mode θ*, with precision the curvature of the negative log posterior there:
//!
//! * **post-hoc** ([`posthoc_precision`]): Λ = β·H_θ(θ*) + σ_prior⁻²·I, with β the tempering of
//!   LAM Table 4 (default 1) and H_θ the (ReLU-clamped) GGN of chapter 04
//!   ([`crate::ggn::last_layer_ggn_diagonal`]); the posterior is N(θ*, Λ⁻¹);
//! * **online** ([`online_update`], LAM App. E): keep q_t = N(θ_t, Λ_t⁻¹), draw S samples
//!   θ_s ~ q_t, step θ_{t+1} = θ_t − λ·mean_s ∇L(θ_s) and
//!   Λ_{t+1} = (1 − α)Λ_t + mean_s ReLU(H_θ(θ_s)) — a memory factor 1 − α (0.999 in the
//!   reference configurations), started from Λ₀ = σ_prior⁻²·I ([`prior_precision`]);
//! * **sampling** ([`sample_posterior`]): θ = μ + Λ^{−½} z with z ~ N(0, I), elementwise for a
//!   diagonal Λ; the exact twin ([`exact::sample_posterior`]) takes a dense Λ = LLᵀ (Cholesky,
//!   `faer`) and solves Lᵀ(θ − μ) = z, which has covariance L⁻ᵀL⁻¹ = Λ⁻¹;
//! * **predictive** ([`predictive_summary`], LAM App. C/E): push S sampled last layers W_s
//!   through the features x, normalise z_s = W_s x/‖W_s x‖, fit a vMF (chapter 02) and report
//!   the mean direction μ̂ and the uncertainty 1/κ̂;
//! * **evidence** ([`log_marginal_likelihood`], [`optimal_prior_precision`]): the Laplace
//!   approximation of ln p(D | δ) for the prior N(0, δ⁻¹I), maximised over δ by MacKay's fixed
//!   point γ(δ) = δ‖θ*‖² (the prior precision chosen by the data, not by hand);
//! * **output variance** ([`output_variance`]): tr Cov(y) of the raw output y = Wx + b, the
//!   posterior's spread before normalisation, in closed form (an OOD score that the vMF fit of
//!   the normalised samples dilutes with 1/‖y‖²).
//!
//! The fast twins are diagonal (O(P) per call, P = M·F parameters); the exact twins in
//! [`exact`] are dense (O(P²) memory, O(P³) Cholesky) and agree with the fast ones when the
//! Hessian is diagonal (`proofs/laplace_posterior.rs`).
#![cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]

pub(crate) use probdml_core::laplace::input;
#[cfg(feature = "reference")]
pub use probdml_reference::laplace::exact;
mod marginal_likelihood;
mod online;
mod output_variance;
mod posterior;
mod predictive;
mod sampler;

pub use marginal_likelihood::{log_marginal_likelihood, optimal_prior_precision};
pub use online::online_update;
pub use output_variance::output_variance;
pub use posterior::{posthoc_precision, prior_precision};
pub use predictive::{predictive_summary, PredictiveSummary};
pub use sampler::sample_posterior;

use crate::error::{Error, Result};
pub(crate) use input::{
    check_beta, check_finite_elements, check_len, check_prior_precision, check_prior_variance,
};

/// Every element finite and > 0 (a diagonal precision).
pub(crate) fn check_positive_elements(arg: &'static str, values: &[f64]) -> Result<()> {
    check_finite_elements(arg, values)?;
    match values.iter().position(|&v| v <= 0.0) {
        Some(index) => Err(Error::OutOfDomainElement {
            arg,
            index,
            value: values[index],
            rule: "a precision must be > 0 (the Gaussian N(mean, precision⁻¹))",
        }),
        None => Ok(()),
    }
}
