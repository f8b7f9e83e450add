//! Minibatch rescaling of the contrastive loss (LAM App. B.1, Definition eq. (30) and
//! Proposition B.1).
//!
//! A batch B = B_P ∪ B_N draws B_P uniformly without replacement from the positive pairs P
//! (fixed size p) and B_N from the negatives N (fixed size q), independently. The rescaled
//! targets t̃ = +1/p on B_P and −1/q on the negatives of B_N inside the margin make
//!
//! E_B[ Σ_{B_P} (1/p)·½d² + Σ_{B_N} (1/q)·½(m² − d²)₊ ] = L(θ),
//!
//! because each positive pair lies in B_P with probability p/|P| (and each negative in B_N with
//! probability q/|N|). The targets enter linearly, so the gradient and the Hessian (and every
//! GGN built from the targets, chapter 04) are unbiased too. A single global 1/|B| weight is
//! not: it is unbiased only when p/(p + q) = |P|/(|P| + |N|).

use super::gram::squared_distance_gram;
use super::input::{check_pair_batch, row, PairBatch, PairTarget};
use super::pairs::negative_inside;
use crate::error::Result;
use crate::labels::IntoLabels;

/// The rescaled targets t̃ of a batch (LAM eq. (30)): +1/|B_P| on every pair of B_P and
/// −1/|B_N| on the pairs of B_N inside the margin (the others have t̃ = 0 and are not listed).
///
/// # Errors
///
/// As [`rescaled_loss`].
///
/// # Examples
///
/// ```
/// use probdml::contrastive::{rescaled_targets, PairBatch};
/// let z = [1.0, 0.0, 0.0, 1.0, -1.0, 0.0];
/// let batch = PairBatch { positives: vec![(0, 1)], negatives: vec![(0, 2), (1, 2)] };
/// let t = rescaled_targets(&z, 2, &[0, 0, 1], 1.5, &batch).unwrap();
/// // (0, 2) is antipodal, outside m = 1.5: dropped.
/// assert_eq!(t.len(), 2);
/// assert_eq!((t[0].target, t[1].target), (1.0, -0.5));
/// ```
pub fn rescaled_targets<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    margin: f64,
    batch: &PairBatch,
) -> Result<Vec<PairTarget>> {
    let checked = check_pair_batch(z, dim, labels.into_labels(), margin, batch)?;
    Ok(targets_of_checked(&checked.z, dim, margin, batch))
}

/// The rescaled targets of a batch that [`check_pair_batch`] accepted (`z` its unit rows).
fn targets_of_checked(z: &[f64], dim: usize, margin: f64, batch: &PairBatch) -> Vec<PairTarget> {
    let t_pos = 1.0 / batch.positives.len() as f64;
    let t_neg = -1.0 / batch.negatives.len() as f64;
    let mut out: Vec<PairTarget> = batch
        .positives
        .iter()
        .map(|&(i, j)| PairTarget {
            i,
            j,
            target: t_pos,
        })
        .collect();
    for &(i, j) in &batch.negatives {
        if negative_inside(
            squared_distance_gram(row(z, dim, i), row(z, dim, j)),
            margin,
        ) {
            out.push(PairTarget {
                i,
                j,
                target: t_neg,
            });
        }
    }
    out
}

/// The rescaled minibatch estimator of the form-S loss (LAM eq. (30), Proposition B.1): an
/// unbiased estimate of [`loss`](super::loss)`(…, LossForm::Squared)` over uniformly drawn
/// batches of fixed sizes.
///
/// # Formula
///
/// $$ \hat L_B = \frac{1}{|B_P|}\sum_{(i,j)\in B_P}\tfrac12 d_{ij}^2 +
///    \frac{1}{|B_N|}\sum_{(i,j)\in B_N}\tfrac12 (m^2 - d_{ij}^2)_+,\qquad
///    \mathbb{E}_B \hat L_B = L $$
///
/// # Errors
///
/// Those of [`loss`](super::loss); [`Error::TooFew`](crate::Error::TooFew) if B_P or B_N is empty;
/// [`Error::IndexOutOfRange`](crate::Error::IndexOutOfRange) for an index ≥ n; [`Error::PairKindMismatch`](crate::Error::PairKindMismatch) if a pair of
/// `batch.positives` joins two classes or one of `batch.negatives` joins one.
///
/// # Examples
///
/// ```
/// use probdml::contrastive::{rescaled_loss, PairBatch};
/// let z = [1.0, 0.0, 0.0, 1.0, -1.0, 0.0];
/// let batch = PairBatch { positives: vec![(0, 1)], negatives: vec![(0, 2), (1, 2)] };
/// // ½·2 + ½[½(2.25 − 4)₊ + ½(2.25 − 2)] = 1 + 0.0625.
/// let value = rescaled_loss(&z, 2, &[0, 0, 1], 1.5, &batch).unwrap();
/// assert!((value - 1.0625).abs() < 1e-15);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn rescaled_loss<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    margin: f64,
    batch: &PairBatch,
) -> Result<f64> {
    let checked = check_pair_batch(z, dim, labels.into_labels(), margin, batch)?;
    let z = &*checked.z;
    let pair_d2 = |&(i, j): &(usize, usize)| squared_distance_gram(row(z, dim, i), row(z, dim, j));
    let positive: f64 = batch.positives.iter().map(|p| 0.5 * pair_d2(p)).sum();
    let negative: f64 = batch
        .negatives
        .iter()
        .map(|p| 0.5 * (margin * margin - pair_d2(p)).max(0.0))
        .sum();
    Ok(positive / batch.positives.len() as f64 + negative / batch.negatives.len() as f64)
}

/// The gradient of [`rescaled_loss`] with respect to Z (Euclidean split, as
/// [`loss_gradient`](super::loss_gradient)): Σ_{(i,j)} t̃_ij (z_i − z_j) on row i and its
/// negative on row j, over the batch's ordered pairs.
///
/// # Errors
///
/// As [`rescaled_loss`].
///
/// # Examples
///
/// ```
/// use probdml::contrastive::{rescaled_gradient, PairBatch};
/// let z = [1.0, 0.0, 0.0, 1.0, -1.0, 0.0];
/// let batch = PairBatch { positives: vec![(0, 1)], negatives: vec![(0, 2)] };
/// let g = rescaled_gradient(&z, 2, &[0, 0, 1], 1.5, &batch).unwrap();
/// assert_eq!(g, vec![1.0, -1.0, -1.0, 1.0, 0.0, 0.0]);
/// ```
pub fn rescaled_gradient<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    margin: f64,
    batch: &PairBatch,
) -> Result<Vec<f64>> {
    let checked = check_pair_batch(z, dim, labels.into_labels(), margin, batch)?;
    let z = &*checked.z;
    let targets = targets_of_checked(z, dim, margin, batch);
    let mut gradient = vec![0.0; z.len()];
    for p in targets {
        for k in 0..dim {
            let step = p.target * (z[p.i * dim + k] - z[p.j * dim + k]);
            gradient[p.i * dim + k] += step;
            gradient[p.j * dim + k] -= step;
        }
    }
    Ok(gradient)
}
