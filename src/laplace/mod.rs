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

pub mod exact;
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

use crate::error::{require_finite, Error, Result};

/// σ_prior² must be finite and > 0.
pub(crate) fn check_prior_variance(prior_var: f64) -> Result<f64> {
    require_finite("prior_var", prior_var)?;
    if prior_var > 0.0 {
        Ok(prior_var)
    } else {
        Err(Error::OutOfDomain {
            arg: "prior_var",
            value: prior_var,
            rule: "the prior variance must be > 0",
        })
    }
}

/// δ must be finite and > 0.
pub(crate) fn check_prior_precision(prior_precision: f64) -> Result<f64> {
    require_finite("prior_precision", prior_precision)?;
    if prior_precision > 0.0 {
        Ok(prior_precision)
    } else {
        Err(Error::OutOfDomain {
            arg: "prior_precision",
            value: prior_precision,
            rule: "a prior precision must be > 0",
        })
    }
}

/// β must be finite and ≥ 0.
pub(crate) fn check_beta(beta: f64) -> Result<f64> {
    require_finite("beta", beta)?;
    if beta >= 0.0 {
        Ok(beta)
    } else {
        Err(Error::OutOfDomain {
            arg: "beta",
            value: beta,
            rule: "the tempering beta must be >= 0",
        })
    }
}

/// Every element finite.
pub(crate) fn check_finite_elements(arg: &'static str, values: &[f64]) -> Result<()> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(Error::NotFiniteElement {
            arg,
            index,
            value: values[index],
        }),
        None => Ok(()),
    }
}

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

/// `got == expected` or a [`Error::DimensionMismatch`] naming `arg`.
pub(crate) fn check_len(arg: &'static str, expected: usize, got: usize) -> Result<()> {
    if got == expected {
        Ok(())
    } else {
        Err(Error::DimensionMismatch { arg, expected, got })
    }
}
