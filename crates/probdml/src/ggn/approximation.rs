//! The positive / fixed / full approximations (LAM eqs. 7–9, App. F) and the per-point weights
//! that decide whether "fixed" is PSD (the corrected Prop. F.3).

use super::{check_pairs, Approximation};
use crate::contrastive::PairTarget;
use crate::error::{Error, Result};

/// Applies an approximation to one pair's output Hessian (row-major (2M)×(2M) over the pair's
/// two outputs), in place.
///
/// * [`Approximation::Positive`]: zero when `target < 0` (negatives dropped);
/// * [`Approximation::Fixed`]: the cross blocks H_ij, H_ji set to zero;
/// * [`Approximation::Full`]: unchanged (its ReLU acts on the summed diagonal, not per pair).
///
/// # Errors
///
/// The length is not (2M)² for some M ≥ 1, or `target` is not finite.
pub fn apply_approximation(
    pair_hessian: &mut [f64],
    target: f64,
    approximation: Approximation,
) -> Result<()> {
    crate::error::require_finite("target", target)?;
    let n = (pair_hessian.len() as f64).sqrt().round() as usize;
    if n == 0 || n * n != pair_hessian.len() || !n.is_multiple_of(2) {
        return Err(Error::DimensionMismatch {
            arg: "pair_hessian",
            expected: 4 * (n / 2).max(1) * (n / 2).max(1),
            got: pair_hessian.len(),
        });
    }
    let m = n / 2;
    match approximation {
        Approximation::Positive if target < 0.0 => pair_hessian.iter_mut().for_each(|h| *h = 0.0),
        Approximation::Fixed => {
            for a in 0..m {
                for b in 0..m {
                    pair_hessian[a * n + m + b] = 0.0;
                    pair_hessian[(m + a) * n + b] = 0.0;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// The per-point weights w_i of the "fixed" Euclidean GGN, H_θ = Σ_i w_i J_iᵀJ_i.
///
/// # Formula
///
/// Each ordered pair (i, j) with target t contributes t·J_iᵀJ_i + t·J_jᵀJ_j, so
///
/// $$ w_i = \sum_j t_{ij} + \sum_j t_{ji}
///    = 2\left(\frac{\lvert\lbrace j : (i,j)\in P\rbrace\rvert}{|P|} - \frac{\lvert\lbrace j : (i,j)\in N,\ d_{ij}<m\rbrace\rvert}{|N|}\right) $$
///
/// for the symmetric pair sets of [`crate::contrastive::pair_targets`] (trivial pairs counted).
/// LAM Prop. F.3 claims H_θ ⪰ 0 always; it holds when every w_i ≥ 0 and fails otherwise
/// (labels [0, 1, 1, 1] with all negatives inside the margin give w_0 = −0.8).
///
/// # Errors
///
/// A pair index ≥ `n`, or a non-finite target.
///
/// # Examples
///
/// ```
/// use probdml::contrastive::pair_targets;
/// use probdml::ggn::fixed_weights;
/// // Four points on the circle at 0°, 60°, 120°, 180° − ε: every negative inside margin 2.
/// let z: Vec<f64> = [0.0f64, 1.0, 2.0, 2.99]
///     .iter()
///     .flat_map(|k| [(k * std::f64::consts::PI / 3.0).cos(), (k * std::f64::consts::PI / 3.0).sin()])
///     .collect();
/// let pairs = pair_targets(&z, 2, &[0, 1, 1, 1], 2.0).unwrap();
/// let w = fixed_weights(&pairs, 4).unwrap();
/// assert!((w[0] + 0.8).abs() < 1e-15);          // 2(1/10 − 3/6)
/// assert!((w[1] - 4.0 / 15.0).abs() < 1e-15);   // 2(3/10 − 1/6)
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn fixed_weights(pairs: &[PairTarget], n: usize) -> Result<Vec<f64>> {
    check_pairs(pairs, n)?;
    let mut w = vec![0.0; n];
    for p in pairs {
        w[p.i] += p.target;
        w[p.j] += p.target;
    }
    Ok(w)
}
