//! Generalised Gauss–Newton curvature of the contrastive loss: the Euclidean and Arccos splits,
//! the positive / fixed / full approximations (LAM §3, App. E, F).
//!
//! # The two splits
//!
//! The network ends in ℓ₂ normalisation, y = g_θ(x) ∈ ℝ^M, z = y/‖y‖, and the per-pair loss is
//! ℓ_t = (t/2)‖z_i − z_j‖² = t(1 − ŷ_iᵀŷ_j) with the targets t_ij of chapter 03
//! ([`crate::contrastive::pair_targets`]). The GGN Σ JᵀHJ depends on where the loss is cut:
//!
//! * [`Split::Euclidean`]: model = normalise ∘ g, output z, H = t[[I, −I], [−I, I]]
//!   ([`euclidean_output_hessian`]), J_z = (P_y/‖y‖) J_y;
//! * [`Split::Arccos`]: model = g, output y, H the Hessian of t(1 − c) in (y_i, y_j)
//!   ([`arccos_output_hessian`]).
//!
//! Both give the loss and gradient of the same function of θ; only the second-order term
//! differs. For a linear last layer y = Wx the Arccos GGN *is* the Hessian (the only
//! nonlinearity sits inside its loss); the Euclidean GGN drops the curvature of the normalisation.
//!
//! # The three approximations (LAM eqs. 7–9)
//!
//! [`Approximation::Positive`] drops the negative pairs, [`Approximation::Fixed`] drops the cross
//! blocks H_ij (a stop-gradient on the other point), [`Approximation::Full`] keeps everything and
//! clamps the diagonal of the summed H_θ at 0. Their PSD claims are Props. F.1–F.3; F.3 is false
//! for unbalanced classes (see [`fixed_weights`] and `proofs/ggn_approximations.rs`).
//!
//! # Parameters
//!
//! The last layer is y = Wx with W ∈ ℝ^{M×F} stored row-major; θ = vec(W), so parameter
//! `k·F + l` is W_kl. A bias b is the weight of a constant feature: append 1 to every x.
//!
//! The fast code is at this level; [`exact`] holds the dense reference built from hyper-dual
//! numbers and `faer`.
#![cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]

mod approximation;
mod arccos;
mod bias;
mod diagonal;
mod euclidean;
pub(crate) use probdml_core::ggn::input;
#[cfg(feature = "reference")]
pub use probdml_reference::ggn::exact;

pub use approximation::{apply_approximation, fixed_weights};
pub use arccos::{arccos_output_gradient, arccos_output_hessian};
pub use bias::last_layer_ggn_diagonal_with_bias;
pub use diagonal::{last_layer_ggn_diagonal, last_layer_ggn_diagonals, GgnDiagonals};
pub use euclidean::{euclidean_output_gradient, euclidean_output_hessian, normalisation_jacobian};
pub(crate) use input::{check_last_layer_shapes, check_pairs, check_raw_output, zero_output};
pub use input::{Approximation, Split};
