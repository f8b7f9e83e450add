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

mod approximation;
mod arccos;
mod bias;
mod diagonal;
mod euclidean;
pub mod exact;

pub use approximation::{apply_approximation, fixed_weights};
pub use arccos::{arccos_output_gradient, arccos_output_hessian};
pub use bias::last_layer_ggn_diagonal_with_bias;
pub use diagonal::{last_layer_ggn_diagonal, last_layer_ggn_diagonals, GgnDiagonals};
pub use euclidean::{euclidean_output_gradient, euclidean_output_hessian, normalisation_jacobian};

use crate::contrastive::PairTarget;
use crate::error::{Error, Result};

/// Where the GGN cuts the loss from the model (book chapter 04).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Split {
    /// Model = normalise ∘ g (output z on the sphere), loss (t/2)‖z_i − z_j‖².
    Euclidean,
    /// Model = g (raw output y), loss t(1 − ŷ_iᵀŷ_j).
    Arccos,
}

/// The three approximations of LAM eqs. (7)–(9) that aim at a PSD curvature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Approximation {
    /// Positive pairs only (negatives dropped).
    Positive,
    /// All pairs, cross blocks H_ij dropped (stop-gradient on the other point).
    Fixed,
    /// All pairs and blocks; the diagonal of the summed H_θ is clamped at 0 (ReLU).
    Full,
}

impl Split {
    /// Both splits, for loops over the six combinations.
    pub const ALL: [Split; 2] = [Split::Euclidean, Split::Arccos];
}

impl Approximation {
    /// All three approximations.
    pub const ALL: [Approximation; 3] = [
        Approximation::Positive,
        Approximation::Fixed,
        Approximation::Full,
    ];
}

/// Validates the shapes, finiteness and pair indices of a last-layer problem and returns
/// (M, B): `weights` is M×F, `features` is B×F, every pair index is < B, every target finite.
pub(crate) fn check_last_layer_shapes(
    weights: &[f64],
    features: &[f64],
    n_features: usize,
    pairs: &[PairTarget],
) -> Result<(usize, usize)> {
    if n_features == 0 {
        return Err(Error::InvalidDimension {
            arg: "n_features",
            dim: 0,
            rule: "the last layer needs at least one input feature",
        });
    }
    if weights.is_empty() || !weights.len().is_multiple_of(n_features) {
        return Err(Error::RaggedRows {
            arg: "weights",
            len: weights.len(),
            dim: n_features,
        });
    }
    if !features.len().is_multiple_of(n_features) {
        return Err(Error::RaggedRows {
            arg: "features",
            len: features.len(),
            dim: n_features,
        });
    }
    let (m, b) = (weights.len() / n_features, features.len() / n_features);
    check_finite_slice("weights", weights)?;
    check_finite_slice("features", features)?;
    check_pairs(pairs, b)?;
    Ok((m, b))
}

/// Validates a last-layer problem and returns (B, M): the checks of
/// [`check_last_layer_shapes`], and every raw output y_i = W x_i non-zero.
pub(crate) fn check_last_layer(
    weights: &[f64],
    features: &[f64],
    n_features: usize,
    pairs: &[PairTarget],
) -> Result<(usize, usize)> {
    let (m, b) = check_last_layer_shapes(weights, features, n_features, pairs)?;
    for i in 0..b {
        let x = &features[i * n_features..(i + 1) * n_features];
        let norm_sq: f64 = (0..m)
            .map(|k| {
                let yk: f64 = weights[k * n_features..(k + 1) * n_features]
                    .iter()
                    .zip(x)
                    .map(|(w, x)| w * x)
                    .sum();
                yk * yk
            })
            .sum();
        if norm_sq.is_nan() || norm_sq <= 0.0 {
            return Err(zero_output());
        }
    }
    Ok((b, m))
}

/// Pair indices inside `0..n` and finite targets.
pub(crate) fn check_pairs(pairs: &[PairTarget], n: usize) -> Result<()> {
    for (position, p) in pairs.iter().enumerate() {
        for index in [p.i, p.j] {
            if index >= n {
                return Err(Error::IndexOutOfRange {
                    arg: "pairs",
                    position,
                    index,
                    target: "batch of embeddings",
                    len: n,
                });
            }
        }
        if !p.target.is_finite() {
            return Err(Error::NotFiniteElement {
                arg: "pairs.target",
                index: position,
                value: p.target,
            });
        }
    }
    Ok(())
}

pub(crate) use crate::error::require_finite_entries as check_finite_slice;

/// The error for y_i = 0, where z = y/‖y‖ is undefined.
pub(crate) fn zero_output() -> Error {
    Error::Undefined {
        arg: "weights",
        quantity: "the normalised embedding y/‖y‖",
        reason: "a raw output y_i = W x_i has zero norm",
    }
}

/// Checks one raw output vector: finite and non-zero.
pub(crate) fn check_raw_output(arg: &'static str, y: &[f64]) -> Result<f64> {
    check_finite_slice(arg, y)?;
    let r = y.iter().map(|v| v * v).sum::<f64>().sqrt();
    if r > 0.0 {
        Ok(r)
    } else {
        Err(Error::Undefined {
            arg,
            quantity: "the normalised embedding y/‖y‖",
            reason: "the raw output has zero norm",
        })
    }
}
