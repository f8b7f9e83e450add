//! The Bayesian triplet loss (BTL, Warburg et al. 2021).
//!
//! Embeddings are random: `a ~ N(μ_a, diag σ²_a)`, `p ~ N(μ_p, diag σ²_p)`,
//! `n ~ N(μ_n, diag σ²_n)`, independent, in `ℝ^D` (the paper uses isotropic variances; diagonal
//! ones are supported). The triplet constraint holds when `τ = ‖a − p‖² − ‖a − n‖² < −m`.
//!
//! * [`Triplet`]: one triplet named by role (`anchor`, `positive`, `negative`, each a
//!   [`Gaussian`] with its `mean` and `var` named), with
//!   [`Triplet::moments`] (`E τ`, `Var τ` per dimension in a cancellation-free rearrangement of
//!   the supplement's eqs. 5, 17, 18, 26; the main text's eq. (12) has a sign error) and
//!   [`Triplet::log_likelihood`] (the paper's CLT, `ln Φ((−m − E τ)/√Var τ)`, with an `ln Φ`
//!   accurate to `z = −10⁵` ([`crate::special::log_normal_cdf`]), not the listing's
//!   `ln(Φ + 10⁻⁸)`). The six-slice [`moments`] and [`log_likelihood`] are deprecated: their
//!   arguments swap without a compile error.
//! * [`nll_gradient`]: the mean NLL of a batch of `B` triplets (row-major `B × D`) and its
//!   gradient with respect to every mean and variance, in closed form, allocation-free with
//!   [`nll_gradient_into`].
//! * [`gaussian_kl`], [`vmf_kl`], [`loss`], [`elbo`]: priors, KL terms and the ELBO (eq. 13).
//! * [`Triplets`]: a batch of triplets named by role (anchor, positive, negative, each a
//!   [`Gaussians`]), with the per-triplet [`Triplets::log_likelihood`] and the batch gradient.
//!
//! The references live in [`exact`]: the dense quadratic-form moments, the **exact** law of `τ`
//! ([`exact::tau_distribution`], a weighted sum of non-central χ²₁ terms of both signs, inverted
//! by [`crate::gaussian_quadratic_form`]) and `ln P(τ < −m)` without the CLT
//! ([`exact::log_likelihood`]), dual-number gradients, and the KL by quadrature.
#![cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
#[cfg(feature = "reference")]
pub use probdml_reference::triplet::exact;

mod batch;
use probdml_core::triplet::input;
mod likelihood;
mod moments;
mod prior;
mod triplets;

pub use batch::{nll_gradient, nll_gradient_into};
pub use input::TripletGradient;
// The six-slice forms, deprecated for one release: re-exported, not called.
#[allow(deprecated)]
pub use likelihood::log_likelihood;
#[allow(deprecated)]
pub use moments::moments;
pub use prior::{elbo, gaussian_kl, gaussian_prior_variance, loss, vmf_kl, DEFAULT_KL_SCALE};
pub use triplets::{Triplet, Triplets};
// The batch of Gaussians a `Triplets` holds, where a reader of this module looks for it.
pub use crate::gaussians::{Gaussian, Gaussians};
