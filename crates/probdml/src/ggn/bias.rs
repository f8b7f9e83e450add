//! The curvature of a last layer with a bias, `y = Wx + b`: the curvature the Laplace output
//! variance ([`crate::laplace::output_variance`]) needs for `b`.
//!
//! # Derivation
//!
//! `y = Wx + b = [W | b]·[x; 1]`: a bias is a weight on a constant feature 1. The Jacobian of
//! `y_k` with respect to `b_k` is the one with respect to `W_kl` at `x_l = 1`, so the GGN
//! diagonal of `[W | b]` is the last-layer GGN diagonal of the augmented weights `[W | b]`
//! (row-major `M × (F + 1)`) on the augmented features `[x; 1]`, and its last column is the
//! bias curvature. The raw outputs, and with them the output Hessians, are those of `y = Wx + b`.

use super::{last_layer_ggn_diagonal, Approximation, Split};
use crate::contrastive::PairTarget;
use crate::error::{Error, Result};

/// The GGN diagonal of a last layer `y = Wx + b`: `(weight curvature, bias curvature)`, the
/// first row-major `M × F` as [`last_layer_ggn_diagonal`] lays it out, the second of length `M`.
/// They are the `hessian_diagonal` of [`crate::laplace::posthoc_precision`] for `W` and for
/// `b`, whose precisions [`crate::laplace::output_variance`] takes.
///
/// # Formula
///
/// $$ G_{b_k} = \sum_{\text{pairs}} \big(J^\top \tilde H J\big)_{b_k b_k},
///    \qquad y = Wx + b = \begin{pmatrix} W & b \end{pmatrix} \begin{pmatrix} x \\\\ 1 \end{pmatrix} $$
///
/// (LAM App. D with the bias as the weight of a constant feature: `G_{b_k}` is the curvature
/// of the augmented weight `W_{k,F+1}` at the feature 1.)
///
/// # Errors
///
/// [`Error::DimensionMismatch`] naming `bias` unless it has one entry per row of `weights`;
/// [`Error::NotFiniteElement`] naming `bias`; otherwise as [`last_layer_ggn_diagonal`] on the
/// augmented inputs (the argument names are those of `weights`, `features`, `n_features`).
///
/// # Examples
///
/// ```
/// use probdml::contrastive::PairTarget;
/// use probdml::ggn::{last_layer_ggn_diagonal_with_bias, Approximation, Split};
/// // M = 2, F = 1: W = (1, 1)ᵀ, b = 0, x_0 = 1, x_1 = −2 → y_0 = (1, 1), y_1 = (−2, −2).
/// // Per point the coefficient t(1 − ŷ_k²)/(2‖y‖²) is 1/4 and 1/16: the weights' curvature
/// // is 1/4·1² + 1/16·2² = 1/2, the bias's 1/4 + 1/16 = 5/16.
/// let pairs = [PairTarget { i: 0, j: 1, target: 1.0 }];
/// let (w, b) = last_layer_ggn_diagonal_with_bias(
///     &[1.0, 1.0], &[0.0, 0.0], &[1.0, -2.0], 1, &pairs, Split::Euclidean, Approximation::Fixed,
/// )?;
/// assert!((w[0] - 0.5).abs() < 1e-15 && (w[1] - 0.5).abs() < 1e-15);
/// assert!((b[0] - 0.3125).abs() < 1e-15 && (b[1] - 0.3125).abs() < 1e-15);
/// # Ok::<(), probdml::Error>(())
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn last_layer_ggn_diagonal_with_bias(
    weights: &[f64],
    bias: &[f64],
    features: &[f64],
    n_features: usize,
    pairs: &[PairTarget],
    split: Split,
    approximation: Approximation,
) -> Result<(Vec<f64>, Vec<f64>)> {
    if n_features == 0 {
        return Err(Error::InvalidDimension {
            arg: "n_features",
            dim: 0,
            rule: "the last layer needs at least one feature (F >= 1)",
        });
    }
    if !weights.len().is_multiple_of(n_features) {
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
    let m = weights.len() / n_features;
    if bias.len() != m {
        return Err(Error::DimensionMismatch {
            arg: "bias",
            expected: m,
            got: bias.len(),
        });
    }
    if let Some(index) = bias.iter().position(|v| !v.is_finite()) {
        return Err(Error::NotFiniteElement {
            arg: "bias",
            index,
            value: bias[index],
        });
    }
    let width = n_features + 1;
    let augmented_weights: Vec<f64> = weights
        .chunks_exact(n_features)
        .zip(bias)
        .flat_map(|(row, &b)| row.iter().copied().chain(std::iter::once(b)))
        .collect();
    let augmented_features: Vec<f64> = features
        .chunks_exact(n_features)
        .flat_map(|x| x.iter().copied().chain(std::iter::once(1.0)))
        .collect();
    let diagonal = last_layer_ggn_diagonal(
        &augmented_weights,
        &augmented_features,
        width,
        pairs,
        split,
        approximation,
    )?;
    let mut weight_curvature = Vec::with_capacity(m * n_features);
    let mut bias_curvature = Vec::with_capacity(m);
    for row in diagonal.chunks_exact(width) {
        weight_curvature.extend_from_slice(&row[..n_features]);
        bias_curvature.push(row[n_features]);
    }
    Ok((weight_curvature, bias_curvature))
}
