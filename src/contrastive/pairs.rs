//! Ordered pairs with their per-pair targets t_ij (LAM App. B; spec chapter 03).
//!
//! Every case of the form-S loss is t·½d² plus a constant: t = +1/|P| on positive pairs
//! P = {(i, j) : c_i = c_j} (trivial pairs (i, i) included), t = −1/|N| on negative pairs inside
//! the margin (d_ij < m), and t = 0 outside it. Pairs with t = 0 are not listed: the Hessian
//! code must not pay for them (spec chapter 04, "hard negatives").

use crate::error::{require_finite, Error, Result};

/// One ordered pair (i, j) of embeddings with its target t_ij.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairTarget {
    /// Index of the first embedding.
    pub i: usize,
    /// Index of the second embedding.
    pub j: usize,
    /// The target: +1/|P| for positives, −1/|N| for negatives inside the margin.
    pub target: f64,
}

/// The non-zero per-pair targets of the form-S dataset loss for unit embeddings `z`
/// (row-major, `labels.len()` rows of `dim` entries) with margin `margin`.
///
/// # Formula
///
/// $$ t_{ij} = \begin{cases} 1/|P| & c_i = c_j \\ -1/|N| & c_i \ne c_j,\ d_{ij} < m \\
///    0 & \text{otherwise} \end{cases},\qquad |P| = \sum_c |C_c|^2,\ |N| = n^2 - |P| $$
///
/// with d_ij² = 2 − 2 z_iᵀz_j (unit vectors). Pairs are ordered and include (i, i).
///
/// # Errors
///
/// `labels.len() · dim ≠ z.len()`, `dim = 0`, fewer than two labels, a single class (then N is
/// empty), a margin that is not finite and positive, or a non-finite embedding entry.
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
pub fn pair_targets(z: &[f64], dim: usize, labels: &[usize], margin: f64) -> Result<Vec<PairTarget>> {
    let n = labels.len();
    if dim == 0 {
        return Err(Error::InvalidDimension { arg: "dim", dim, rule: "embeddings need dim >= 1" });
    }
    if n < 2 {
        return Err(Error::TooFew { arg: "labels", min: 2, got: n });
    }
    if z.len() != n * dim {
        return Err(Error::DimensionMismatch { arg: "z", expected: n * dim, got: z.len() });
    }
    require_finite("margin", margin)?;
    if margin <= 0.0 {
        return Err(Error::OutOfDomain { arg: "margin", value: margin, rule: "must be > 0" });
    }
    for &v in z {
        require_finite("z", v)?;
    }
    let positives: usize = {
        let mut counts = std::collections::HashMap::<usize, usize>::new();
        for &c in labels {
            *counts.entry(c).or_default() += 1;
        }
        counts.values().map(|&k| k * k).sum()
    };
    let negatives = n * n - positives;
    if negatives == 0 {
        return Err(Error::OutOfDomain {
            arg: "labels",
            value: 1.0,
            rule: "needs at least two classes (no negative pairs otherwise)",
        });
    }
    let (t_pos, t_neg) = (1.0 / positives as f64, -1.0 / negatives as f64);
    let margin_sq = margin * margin;
    let mut out = Vec::new();
    for i in 0..n {
        let zi = &z[i * dim..(i + 1) * dim];
        for j in 0..n {
            if labels[i] == labels[j] {
                out.push(PairTarget { i, j, target: t_pos });
            } else {
                let zj = &z[j * dim..(j + 1) * dim];
                let d2 = zi.iter().zip(zj).map(|(a, b)| (a - b) * (a - b)).sum::<f64>();
                if d2 < margin_sq {
                    out.push(PairTarget { i, j, target: t_neg });
                }
            }
        }
    }
    Ok(out)
}
