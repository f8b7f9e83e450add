//! Ordered pairs with their per-pair targets t_ij (LAM App. B).
//!
//! Every case of the form-S loss is t·½d² plus a constant: t = +1/|P| on positive pairs
//! P = {(i, j) : c_i = c_j} (trivial pairs (i, i) included), t = −1/|N| on negative pairs inside
//! the margin (d_ij < m; all negatives when m ≥ 2), and t = 0 outside it. Pairs with t = 0 are not listed: the Hessian
//! code must not pay for them (LAM §3, hard negative mining).

use super::gram::squared_distance_gram;
use super::input::{check_batch, check_margin, row, PairCounts, PairTarget};
use crate::error::Result;
use crate::labels::IntoLabels;

/// The non-zero per-pair targets of the form-S dataset loss for unit embeddings `z`
/// (row-major, `labels.len()` rows of `dim` entries) with margin `margin`.
///
/// # Formula
///
/// $$ t_{ij} = \begin{cases} 1/|P| & c_i = c_j \\\\ -1/|N| & c_i \ne c_j,\ d_{ij} < m \\\\
///    0 & \text{otherwise} \end{cases},\qquad |P| = \sum_c |C_c|^2,\ |N| = n^2 - |P| $$
///
/// with d_ij² = 2 − 2 z_iᵀz_j (unit vectors). Pairs are ordered and include (i, i).
///
/// # Errors
///
/// Those of [`pair_counts`]: `dim = 0`, `z.len()` not a multiple of `dim`, one label per row,
/// a non-finite entry, a row off the unit sphere, a negative label, a single class (then N is
/// empty), a margin that is not finite and positive.
///
/// # Examples
///
/// ```
/// use probdml::contrastive::pair_targets;
/// // Two classes of one point each on the circle, at distance √2 (inside margin 2).
/// let z = [1.0, 0.0, 0.0, 1.0];
/// let pairs = pair_targets(&z, 2, &[0, 1], 2.0).unwrap();
/// // |P| = 2 (the trivial pairs), |N| = 2.
/// assert_eq!(pairs.len(), 4);
/// assert!(pairs.iter().filter(|p| p.i == p.j).all(|p| p.target == 0.5));
/// assert!(pairs.iter().filter(|p| p.i != p.j).all(|p| p.target == -0.5));
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn pair_targets<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    margin: f64,
) -> Result<Vec<PairTarget>> {
    let batch = check_batch(z, dim, labels.into_labels())?;
    check_margin(margin)?;
    let (z, labels, n) = (&*batch.z, &*batch.labels, batch.counts.n);
    let (positives, negatives) = (batch.counts.positives, batch.counts.negatives);
    let (t_pos, t_neg) = (1.0 / positives as f64, -1.0 / negatives as f64);
    let margin_sq = margin * margin;
    let mut out = Vec::new();
    for i in 0..n {
        let zi = &z[i * dim..(i + 1) * dim];
        for j in 0..n {
            if labels[i] == labels[j] {
                out.push(PairTarget {
                    i,
                    j,
                    target: t_pos,
                });
            } else {
                let zj = &z[j * dim..(j + 1) * dim];
                let d2 = zi
                    .iter()
                    .zip(zj)
                    .map(|(a, b)| (a - b) * (a - b))
                    .sum::<f64>();
                // m ≥ 2: every negative of unit vectors is inside (d ≤ 2), including the
                // antipodal pair whose d² may round above 4 (see `negative_inside`).
                if margin >= 2.0 || d2 < margin_sq {
                    out.push(PairTarget {
                        i,
                        j,
                        target: t_neg,
                    });
                }
            }
        }
    }
    Ok(out)
}

/// Whether a negative pair with squared distance `d2` is inside the margin: d² < m², and
/// always when m ≥ 2 (every pair of unit vectors has d ≤ 2; the antipodal pair, d = 2, has a zero
/// hinge and fits the linear form too — this keeps rounding of d² = 4 + ε out of the count).
#[inline]
pub(crate) fn negative_inside(d2: f64, margin: f64) -> bool {
    margin >= 2.0 || d2 < margin * margin
}

/// |P|, |N| and the number of negatives inside the margin |N_m| for unit embeddings.
///
/// # Formula
///
/// $$ |P| = \sum_c |C_c|^2,\quad |N| = n^2 - |P|,\quad
///    |N_m| = \lvert\lbrace (i,j) : c_i \ne c_j,\ d_{ij} < m\rbrace\rvert\ (= |N| \text{ when } m \ge 2) $$
///
/// # Errors
///
/// Those of [`crate::contrastive::loss`]: `dim = 0`, `z` not a whole number of rows or empty,
/// `labels.len()` ≠ rows, a non-finite entry, a row off the unit sphere by more than
/// [`UNIT_NORM_TOLERANCE`](super::UNIT_NORM_TOLERANCE), fewer than two classes, a margin that is not finite and positive.
///
/// # Examples
///
/// ```
/// use probdml::contrastive::pair_counts;
/// // Three points on the circle at 0°, 90°, 180°; classes [0, 0, 1].
/// let z = [1.0, 0.0, 0.0, 1.0, -1.0, 0.0];
/// let c = pair_counts(&z, 2, &[0, 0, 1], 1.5).unwrap();
/// assert_eq!((c.positives, c.negatives), (5, 4));
/// // Negatives: (0,2) at d = 2 (outside 1.5) and (1,2) at d = √2 (inside), both orders.
/// assert_eq!(c.negatives_inside, 2);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn pair_counts<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    margin: f64,
) -> Result<PairCounts> {
    let batch = check_batch(z, dim, labels.into_labels())?;
    let (z, labels, mut counts) = (&*batch.z, &*batch.labels, batch.counts);
    check_margin(margin)?;
    let mut inside = 0;
    for i in 0..counts.n {
        for j in i + 1..counts.n {
            if labels[i] != labels[j]
                && negative_inside(
                    squared_distance_gram(row(z, dim, i), row(z, dim, j)),
                    margin,
                )
            {
                inside += 2;
            }
        }
    }
    counts.negatives_inside = inside;
    Ok(counts)
}

/// Hard negatives: the ordered negative pairs (i, j) inside the margin, d_ij < m — the only
/// negatives with a non-zero loss, gradient or Hessian (LAM §3, "hard negative mining";
/// book chapter 04). Row-major order of (i, j).
///
/// # Formula
///
/// $$ \lbrace(i, j) : c_i \ne c_j,\ d_{ij} < m\rbrace,\qquad d_{ij}^2 = 2 - 2 z_i^\top z_j $$
///
/// (all negatives when m ≥ 2).
///
/// # Errors
///
/// As [`pair_counts`].
///
/// # Examples
///
/// ```
/// use probdml::contrastive::hard_negatives;
/// let z = [1.0, 0.0, 0.0, 1.0, -1.0, 0.0];
/// assert_eq!(hard_negatives(&z, 2, &[0, 0, 1], 1.5).unwrap(), vec![(1, 2), (2, 1)]);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
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
            if labels[i] != labels[j]
                && negative_inside(
                    squared_distance_gram(row(z, dim, i), row(z, dim, j)),
                    margin,
                )
            {
                out.push((i, j));
            }
        }
    }
    Ok(out)
}
