//! The predictive variance of the last layer's raw output under a diagonal Laplace posterior:
//! the posterior's spread *before* ℓ₂-normalisation, as an uncertainty score.
//!
//! # Derivation
//!
//! The last layer maps the features x ∈ ℝ^F to y = W x + b ∈ ℝ^M; the embedding is z = y/‖y‖.
//! Under the diagonal posterior θ = (W, b) ~ N(θ*, Λ⁻¹) the entries of W and b are independent,
//! so y_k = Σ_l W_kl x_l + b_k has variance Σ_l x_l²/Λ_kl + 1/Λ_{b,k} and the total predictive
//! variance of y is
//!
//!   tr Cov(y) = Σ_k Σ_l x_l²/Λ_kl + Σ_k 1/Λ_{b,k},
//!
//! exact in closed form: no samples. It is linear in the squared features weighted by the
//! posterior variances, so a feature that the training data never excited (curvature 0, posterior
//! variance the prior's) raises it in proportion to how strongly a test image excites it: the
//! posterior's own notion of novelty. With an isotropic posterior Λ = δ it is
//! M(‖x‖² + 1)/δ, a function of the feature norm alone, so anything it adds to ‖x‖ comes from
//! the curvature.
//!
//! Why a second score beside LAM's 1/κ̂ ([`predictive_summary`](super::predictive_summary)):
//! the vMF fit measures the spread of z = y/‖y‖, to first order the variance of y tangent to the
//! sphere divided by ‖y‖². That quotient mixes two things — epistemic spread of y, and a small
//! ‖y‖ (an image near the origin of the output space, ambiguous between classes) — and on
//! Fashion-MNIST vs MNIST digits the second dilutes the first (book chapter 09: the same
//! diagonal posterior separates the digits with AUROC ≈ 0.98 by tr Cov(y) and ≈ 0.8 by the
//! spread on the sphere). Retrieval and calibration still use the normalised samples; only the
//! OOD score changes.
//!
//! The exact twin [`exact::output_variance`](super::exact::output_variance) takes a dense
//! precision and computes J Λ⁻¹ Jᵀ by Cholesky, the route a Kronecker-factored or full posterior
//! would need.

use super::{check_len, check_positive_elements};
use crate::error::{Error, Result};

/// tr Cov(y) of the raw last-layer output y = W x + b under the diagonal posterior
/// N(θ*, Λ⁻¹), θ = (W, b).
///
/// `weight_precision` holds Λ for the entries of W, row-major M×F (output k, feature l at
/// k·F + l, as the GGN diagonal of [`crate::ggn`] is laid out); `bias_precision` holds Λ for b
/// (length M); `features` is x (length F).
///
/// # Formula
///
/// $$ \operatorname{tr}\operatorname{Cov}(y) = \sum_{k=1}^M \sum_{l=1}^F \frac{x_l^2}{\Lambda_{kl}} +
///    \sum_{k=1}^M \frac{1}{\Lambda_{b,k}} $$
///
/// # Errors
///
/// * [`Error::Empty`] naming `features` if F = 0 (the exact twin's error for the same input),
///   then naming `bias_precision` if M = 0;
/// * [`Error::DimensionMismatch`] naming `weight_precision` unless it has M·F entries;
/// * [`Error::NotFiniteElement`] naming `features`, and [`Error::NotFiniteElement`] or
///   [`Error::OutOfDomainElement`] (with the index) naming `weight_precision` /
///   `bias_precision` unless every precision is finite and > 0.
///
/// # Examples
///
/// ```
/// use probdml::laplace::output_variance;
/// // M = 2, F = 2, x = (1, 2): W-variances 1/Λ = (1, 1/2; 1/4, 1), b-variances (1/2, 1/4):
/// // 1·1 + 4·½ + 1·¼ + 4·1 + ½ + ¼ = 8.
/// let v = output_variance(&[1.0, 2.0, 4.0, 1.0], &[2.0, 4.0], &[1.0, 2.0]).unwrap();
/// assert!((v - 8.0).abs() < 1e-15);
/// // An isotropic posterior Λ = δ gives M(‖x‖² + 1)/δ: the feature norm and nothing else.
/// let iso = output_variance(&[4.0; 4], &[4.0; 2], &[1.0, 2.0]).unwrap();
/// assert!((iso - 2.0 * (5.0 + 1.0) / 4.0).abs() < 1e-15);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn output_variance(
    weight_precision: &[f64],
    bias_precision: &[f64],
    features: &[f64],
) -> Result<f64> {
    let (m, f) = (bias_precision.len(), features.len());
    // The same order and the same errors as the exact twin: `features` first, so that an empty
    // input fails the same way on both routes.
    if f == 0 {
        return Err(Error::Empty {
            arg: "features",
            rule: "the last layer needs at least one feature (F >= 1)",
        });
    }
    if m == 0 {
        return Err(Error::Empty {
            arg: "bias_precision",
            rule: "the last layer needs at least one output (M >= 1)",
        });
    }
    check_len("weight_precision", m * f, weight_precision.len())?;
    super::check_finite_elements("features", features)?;
    check_positive_elements("weight_precision", weight_precision)?;
    check_positive_elements("bias_precision", bias_precision)?;
    let weights: f64 = weight_precision
        .chunks_exact(f)
        .map(|row| {
            row.iter()
                .zip(features)
                .map(|(&p, &x)| x * x / p)
                .sum::<f64>()
        })
        .sum();
    let bias: f64 = bias_precision.iter().map(|&p| 1.0 / p).sum();
    Ok(weights + bias)
}
