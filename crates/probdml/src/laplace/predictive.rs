//! The vMF predictive summary of a Laplace last layer (LAM App. C and E).

use super::check_finite_elements;
use crate::error::{require_sphere_dim, Error, Result};
use crate::vmf;

/// What [`predictive_summary`] returns: the fitted vMF's mean direction and LAM's uncertainty.
#[derive(Debug, Clone, PartialEq)]
pub struct PredictiveSummary {
    /// μ̂ = Σ_s z_s/‖Σ_s z_s‖, a unit vector of length M (chapter 02's
    /// [`mean_resultant`](crate::vmf::mean_resultant)).
    pub direction: Vec<f64>,
    /// 1/κ̂ with Banerjee's κ̂₀ ([`kappa_sra`](crate::vmf::kappa_sra)`(M, R̄, 0)`): 0 when every
    /// sampled embedding coincides, +∞ when Σ_s z_s is (numerically) orthogonal to everything.
    pub inverse_kappa: f64,
}

/// Pushes S sampled last layers through one feature vector, normalises, and fits a vMF.
///
/// `weight_samples` holds S row-major M×F matrices W_s back to back (S·M·F values, e.g. S draws
/// of [`sample_posterior`](super::sample_posterior)); `features` is x ∈ ℝ^F. The embeddings are
/// z_s = W_s x/‖W_s x‖; μ̂ comes from [`vmf::mean_resultant`] and κ̂ is Banerjee's
/// `kappa_sra(M, R̄, 0)`. The only change to the chapter-02 route is how 1 − R̄² is formed:
/// not as 1 − R̄·R̄ (which cancels as the samples concentrate) but as the spread of the samples
/// about the first one, which is exactly 0 when all samples coincide.
///
/// # Formula
///
/// With d_s = z_s − z_1 and unit z_s, ‖z̄‖² = 1 − (mean_s‖d_s‖² − ‖mean_s d_s‖²), so
///
/// $$ 1 - \bar R^2 = \frac1S\sum_s \lVert d_s\rVert^2 - \Big\lVert \frac1S\sum_s d_s\Big\rVert^2,
///    \qquad \frac{1}{\hat\kappa_0} = \frac{1-\bar R^2}{\bar R\\,(M - \bar R^2)} $$
///
/// (LAM App. C: "sample S networks, embed, fit a vMF, report 1/κ̂"; App. E: the samples come
/// from the Laplace posterior of the last layer.)
///
/// # Errors
///
/// * [`Error::InvalidDimension`] naming `dim` if M < 2;
/// * [`Error::TooFew`] naming `features` if F = 0, or `weight_samples` if S = 0;
/// * [`Error::RaggedRows`] naming `weight_samples` if its length is not a multiple of M·F;
/// * [`Error::NotFiniteElement`] naming `weight_samples` or `features` for a NaN or ∞;
/// * [`Error::Undefined`] naming `weight_samples` if some W_s x = 0 (no direction);
/// * the errors of [`vmf::mean_resultant`] if Σ_s z_s = 0.
///
/// # Examples
///
/// ```
/// use probdml::laplace::predictive_summary;
/// // M = 2, F = 1, x = 1: two samples W = (1, 0)ᵀ and (0, 1)ᵀ → z = e₁, e₂.
/// let p = predictive_summary(&[1.0, 0.0, 0.0, 1.0], 2, &[1.0]).unwrap();
/// let s = 0.5_f64.sqrt();
/// assert!((p.direction[0] - s).abs() < 1e-15 && (p.direction[1] - s).abs() < 1e-15);
/// // R̄² = ½: 1/κ̂₀ = ½ / (√½ · (2 − ½)) = √2/3.
/// assert!((p.inverse_kappa - 2.0_f64.sqrt() / 3.0).abs() < 1e-15);
/// // Identical samples: no uncertainty at all.
/// let q = predictive_summary(&[3.0, 4.0, 3.0, 4.0], 2, &[2.0]).unwrap();
/// assert_eq!(q.inverse_kappa, 0.0);
/// assert!((q.direction[0] - 0.6).abs() < 1e-15 && (q.direction[1] - 0.8).abs() < 1e-15);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn predictive_summary(
    weight_samples: &[f64],
    dim: usize,
    features: &[f64],
) -> Result<PredictiveSummary> {
    let m = require_sphere_dim("dim", dim)?;
    let f = features.len();
    if f == 0 {
        return Err(Error::TooFew {
            arg: "features",
            min: 1,
            got: 0,
        });
    }
    if weight_samples.is_empty() {
        return Err(Error::TooFew {
            arg: "weight_samples",
            min: 1,
            got: 0,
        });
    }
    let width = m * f;
    if !weight_samples.len().is_multiple_of(width) {
        return Err(Error::RaggedRows {
            arg: "weight_samples",
            len: weight_samples.len(),
            dim: width,
        });
    }
    check_finite_elements("features", features)?;
    check_finite_elements("weight_samples", weight_samples)?;
    let s = weight_samples.len() / width;

    let mut embeddings = Vec::with_capacity(s * m);
    for w in weight_samples.chunks_exact(width) {
        let start = embeddings.len();
        embeddings.extend(
            w.chunks_exact(f)
                .map(|row| row.iter().zip(features).map(|(a, b)| a * b).sum::<f64>()),
        );
        let y = &mut embeddings[start..];
        let r = y.iter().map(|v| v * v).sum::<f64>().sqrt();
        if r == 0.0 || !r.is_finite() {
            return Err(Error::Undefined {
                arg: "weight_samples",
                quantity: "the normalised embedding W_s x / ‖W_s x‖",
                reason: "a sampled raw output W_s x is zero (or overflows)",
            });
        }
        y.iter_mut().for_each(|v| *v /= r);
    }
    let direction = vmf::mean_resultant(&embeddings, m)?.direction;
    let spread = one_minus_rbar_squared(&embeddings, m, s);
    let inverse_kappa = if spread == 0.0 {
        0.0
    } else {
        let rbar2 = 1.0 - spread;
        let rbar = rbar2.sqrt();
        if rbar == 0.0 {
            f64::INFINITY
        } else {
            spread / (rbar * (m as f64 - rbar2))
        }
    };
    Ok(PredictiveSummary {
        direction,
        inverse_kappa,
    })
}

/// 1 − R̄² = mean‖d_s‖² − ‖mean d_s‖², d_s = z_s − z_1, clamped to [0, 1]. Preconditions:
/// `s ≥ 1` unit rows of width `m`.
fn one_minus_rbar_squared(embeddings: &[f64], m: usize, s: usize) -> f64 {
    let first = &embeddings[..m];
    let mut mean_d = vec![0.0; m];
    let mut mean_sq = 0.0;
    for z in embeddings.chunks_exact(m) {
        for ((acc, a), b) in mean_d.iter_mut().zip(z).zip(first) {
            let d = a - b;
            *acc += d;
            mean_sq += d * d;
        }
    }
    let n = s as f64;
    let centre: f64 = mean_d.iter().map(|d| (d / n) * (d / n)).sum();
    (mean_sq / n - centre).clamp(0.0, 1.0)
}
