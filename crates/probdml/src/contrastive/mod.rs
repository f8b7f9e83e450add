//! The contrastive loss, its vMF likelihood, and minibatch rescaling (LAM App.
//! A, B, D).
//!
//! # Pairs and targets
//!
//! Pairs are **ordered** and include the trivial pairs (i, i): P = {(i, j) : c_i = c_j},
//! |P| = Σ_c |C_c|², N = the rest, |N| = n² − |P| ([`pair_counts`]). On the unit sphere
//! ½d_ij² = 1 − z_iᵀz_j (LAM eq. (41)), so one Gram matrix gives every distance.
//!
//! # Three loss forms ([`loss`], [`LossForm`])
//!
//! * **S** (the derivation's): ℓ⁺ = ½d², ℓ⁻ = ½(m² − d²)₊. Every case is t·½d² plus a constant
//!   (t = 1/|P|, −1/|N| inside the margin, 0 outside: [`pair_targets`]), LAM App. B.
//! * **H** (Hadsell et al., LAM eq. (1)): ℓ⁺ = ½d², ℓ⁻ = ½(m − d)₊².
//! * **L** (the reference training code): ℓ⁺ = d, ℓ⁻ = (m − d)₊.
//!
//! # The vMF likelihood (LAM App. D)
//!
//! [`negative_log_likelihood`] = [`loss`] (form S) + [`likelihood_constant`], with the
//! constant in closed form (corrected for m < 2, see [`likelihood_constant`]);
//! the gradients agree. Form H has no such equivalence: NLL − L_H = c + κ_N Σ_N d(2 − d) at
//! m = 2, which depends on Z. The class likelihood of eq. (48) is a vMF with the summed natural
//! parameter ([`class_likelihood`]).
//!
//! # Minibatches (LAM App. B.1)
//!
//! [`rescaled_loss`], [`rescaled_gradient`] and [`rescaled_targets`] weight a batch's positives
//! by 1/|B_P| and its negatives by 1/|B_N|: unbiased for L, ∇L and ∇²L
//! ([`squared_distance_hessian`]), proved by enumerating every batch
//! ([`exact::batch_expectation`]).
//!
//! # Input checks
//!
//! Rows must be unit vectors by the rule of the whole crate: within
//! [`vmf::unit_norm_tolerance`](crate::vmf::unit_norm_tolerance)`(dim)` = (dim + 4)·2⁻²⁴, so
//! rows normalised in `f32` (PyTorch's `F.normalize`) pass at any dimension, and renormalised in
//! `f64` beyond [`vmf::renormalisation_threshold`](crate::vmf::renormalisation_threshold)`(dim)`
//! (both twins then work on the same unit rows). Labels, one per row with at least two classes,
//! may be of any integer type ([`IntoLabels`](crate::IntoLabels): `&[i64]` as PyTorch gives
//! them, `&[usize]`, …); a negative label is refused at its index. The margin is finite and
//! positive. Errors name the argument and, for an element, its index.
#![cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
#[cfg(feature = "reference")]
pub use probdml_reference::contrastive::exact;

mod gram;
pub(crate) use probdml_core::contrastive::input;
mod likelihood;
mod loss;
mod pairs;
mod rescaling;

#[allow(deprecated)]
pub use input::UNIT_NORM_TOLERANCE;
pub use input::{ClassLikelihood, LossForm, PairBatch, PairCounts, PairTarget};
pub use likelihood::{class_likelihood, likelihood_constant, negative_log_likelihood};
pub use loss::{loss, loss_gradient, squared_distance_hessian};
pub use pairs::{hard_negatives, pair_counts, pair_targets};
pub use rescaling::{rescaled_gradient, rescaled_loss, rescaled_targets};
