//! The inputs of the GGN functions, shared by the fast code and its exact twins: where the loss
//! is cut ([`Split`]), which PSD approximation ([`Approximation`]), and the checks of a
//! last-layer problem, of pair targets, raw outputs and pairs of points. Both twins refuse the
//! same inputs with the same error.

use crate::contrastive::input::PairTarget;
#[doc(hidden)]
pub use crate::error::require_finite_entries as check_finite_slice;
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
#[doc(hidden)]
pub fn check_last_layer_shapes(
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
#[doc(hidden)]
pub fn check_last_layer(
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
#[doc(hidden)]
pub fn check_pairs(pairs: &[PairTarget], n: usize) -> Result<()> {
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

/// The error for y_i = 0, where z = y/‖y‖ is undefined.
#[doc(hidden)]
pub fn zero_output() -> Error {
    Error::Undefined {
        arg: "weights",
        quantity: "the normalised embedding y/‖y‖",
        reason: "a raw output y_i = W x_i has zero norm",
    }
}

/// Checks one raw output vector: finite and non-zero.
#[doc(hidden)]
pub fn check_raw_output(arg: &'static str, y: &[f64]) -> Result<f64> {
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

#[doc(hidden)]
pub fn check_pair_points(a: &[f64], b: &[f64]) -> Result<usize> {
    if a.is_empty() {
        return Err(Error::TooFew {
            arg: "z_i",
            min: 1,
            got: 0,
        });
    }
    if a.len() != b.len() {
        return Err(Error::DimensionMismatch {
            arg: "z_j",
            expected: a.len(),
            got: b.len(),
        });
    }
    check_finite_slice("z_i", a)?;
    check_finite_slice("z_j", b)?;
    Ok(a.len())
}
