//! Reference pair sets: explicit distances, margin decided in double-double.

use super::compensated::{inside_margin, squared_distance_dd};
use crate::contrastive::input::row;
use crate::contrastive::input::{check_batch, check_margin, PairCounts, PairTarget};
use crate::error::Result;
use crate::labels::IntoLabels;

/// Whether the ordered pair (i, j) is a negative inside the margin (all negatives when m ≥ 2).
#[doc(hidden)]
pub fn is_hard_negative(
    z: &[f64],
    dim: usize,
    labels: &[usize],
    margin: f64,
    i: usize,
    j: usize,
) -> bool {
    labels[i] != labels[j]
        && (margin >= 2.0
            || inside_margin(squared_distance_dd(row(z, dim, i), row(z, dim, j)), margin))
}

/// Reference twin of `crate::contrastive::pair_counts`.
///
/// # Errors
///
/// Exactly those of the fast twin.
pub fn pair_counts<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    margin: f64,
) -> Result<PairCounts> {
    let batch = check_batch(z, dim, labels.into_labels())?;
    let (z, labels, mut counts) = (&*batch.z, &*batch.labels, batch.counts);
    check_margin(margin)?;
    for i in 0..counts.n {
        for j in 0..counts.n {
            counts.negatives_inside += usize::from(is_hard_negative(z, dim, labels, margin, i, j));
        }
    }
    Ok(counts)
}

/// Reference twin of `crate::contrastive::hard_negatives`.
///
/// # Errors
///
/// Exactly those of the fast twin.
pub fn hard_negatives<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    margin: f64,
) -> Result<Vec<(usize, usize)>> {
    let batch = check_batch(z, dim, labels.into_labels())?;
    let (z, labels, counts) = (&*batch.z, &*batch.labels, batch.counts);
    check_margin(margin)?;
    let mut out = Vec::new();
    for i in 0..counts.n {
        for j in 0..counts.n {
            if is_hard_negative(z, dim, labels, margin, i, j) {
                out.push((i, j));
            }
        }
    }
    Ok(out)
}

/// Reference twin of `crate::contrastive::pair_targets` (for unit embeddings): t = 1/|P| on
/// P, −1/|N| on the negatives inside the margin, in row-major order of (i, j).
///
/// # Errors
///
/// Those of `crate::contrastive::pair_counts`.
pub fn pair_targets<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    margin: f64,
) -> Result<Vec<PairTarget>> {
    let batch = check_batch(z, dim, labels.into_labels())?;
    let (z, labels, counts) = (&*batch.z, &*batch.labels, batch.counts);
    check_margin(margin)?;
    let (t_pos, t_neg) = (
        1.0 / counts.positives as f64,
        -1.0 / counts.negatives as f64,
    );
    let mut out = Vec::new();
    for i in 0..counts.n {
        for j in 0..counts.n {
            if labels[i] == labels[j] {
                out.push(PairTarget {
                    i,
                    j,
                    target: t_pos,
                });
            } else if is_hard_negative(z, dim, labels, margin, i, j) {
                out.push(PairTarget {
                    i,
                    j,
                    target: t_neg,
                });
            }
        }
    }
    Ok(out)
}
