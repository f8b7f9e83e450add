//! The three contrastive loss forms over a batch, the form-S gradient, and the Hessian of a
//! target form (LAM eq. (1), App. B eqs. (21)–(28)).

use super::gram::{squared_distance_for_root, squared_distance_gram};
use super::input::{check_batch, check_margin, row, LossForm, PairTarget};
use super::pairs::negative_inside;
use crate::error::Result;
use crate::labels::IntoLabels;

/// The per-pair terms of a [`LossForm`], for the fast loss (the exact twin has its own).
trait PairTerms {
    /// ℓ⁺ from d² (`d2` is exact enough under the root, see `gram`).
    fn positive(self, d2: f64) -> f64;
    /// ℓ⁻ from d² and the margin.
    fn negative(self, d2: f64, margin: f64) -> f64;
    /// Whether ℓ needs d rather than d².
    fn needs_root(self) -> bool;
}

impl PairTerms for LossForm {
    #[inline]
    fn positive(self, d2: f64) -> f64 {
        match self {
            LossForm::Squared | LossForm::Hadsell => 0.5 * d2,
            LossForm::Linear => d2.sqrt(),
        }
    }

    #[inline]
    fn negative(self, d2: f64, margin: f64) -> f64 {
        match self {
            LossForm::Squared => 0.5 * (margin * margin - d2).max(0.0),
            LossForm::Hadsell => {
                let gap = (margin - d2.sqrt()).max(0.0);
                0.5 * gap * gap
            }
            LossForm::Linear => (margin - d2.sqrt()).max(0.0),
        }
    }

    #[inline]
    fn needs_root(self) -> bool {
        !matches!(self, LossForm::Squared)
    }
}

/// The dataset (or batch) contrastive loss of unit embeddings `z` (row-major, `dim` columns)
/// with class `labels` and margin `margin`, in the chosen form.
///
/// # Formula
///
/// $$ L = \frac{1}{|P|}\sum_{(i,j)\in P} \ell^+(d_{ij}) + \frac{1}{|N|}\sum_{(i,j)\in N}
///    \ell^-(d_{ij}),\qquad d_{ij}^2 = 2 - 2 z_i^\top z_j $$
///
/// over ordered pairs, trivial pairs (i, i) in P (LAM App. B eq. (24); for form S, eq. (28)).
/// One pass over the upper triangle of the Gram matrix: O(n²M), no allocation. Forms H and L
/// take a square root; there d² is recomputed from the explicit difference below d² = ¼, where
/// the cancellation in 2 − 2G would be amplified.
///
/// # Errors
///
/// * [`Error::InvalidDimension`](crate::Error::InvalidDimension) if `dim = 0`;
/// * [`Error::RaggedRows`](crate::Error::RaggedRows) / [`Error::TooFew`](crate::Error::TooFew)
///   if `z` is not a whole number of rows or is empty;
/// * [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if `labels.len()` ≠ rows;
/// * [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) for a NaN or infinite entry;
/// * [`Error::NotUnitRow`](crate::Error::NotUnitRow) if a row's norm is off 1 by more than
///   [`UNIT_NORM_TOLERANCE`](super::UNIT_NORM_TOLERANCE);
/// * [`Error::TooFewClasses`](crate::Error::TooFewClasses) for a single class;
/// * [`Error::NotFinite`](crate::Error::NotFinite) / [`Error::OutOfDomain`](crate::Error::OutOfDomain)
///   if the margin is not finite and positive.
///
/// # Examples
///
/// ```
/// use probdml::contrastive::{loss, LossForm};
/// // Two classes of one point at 90° on the circle: d² = 2, |P| = |N| = 2.
/// let z = [1.0, 0.0, 0.0, 1.0];
/// // Form S, m = 2: positives only trivial (0); negatives ½(4 − 2) = 1 each, mean 1.
/// assert!((loss(&z, 2, &[0, 1], 2.0, LossForm::Squared).unwrap() - 1.0).abs() < 1e-15);
/// // Form L, m = 2: (2 − √2).
/// let want = 2.0 - 2f64.sqrt();
/// assert!((loss(&z, 2, &[0, 1], 2.0, LossForm::Linear).unwrap() - want).abs() < 1e-15);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn loss<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    margin: f64,
    form: LossForm,
) -> Result<f64> {
    let batch = check_batch(z, dim, labels.into_labels())?;
    let (z, labels, counts) = (&*batch.z, &*batch.labels, batch.counts);
    check_margin(margin)?;
    let (mut positive, mut negative) = (0.0, 0.0);
    for i in 0..counts.n {
        let zi = row(z, dim, i);
        for j in i + 1..counts.n {
            let zj = row(z, dim, j);
            let d2 = if form.needs_root() {
                squared_distance_for_root(zi, zj)
            } else {
                squared_distance_gram(zi, zj)
            };
            if labels[i] == labels[j] {
                positive += form.positive(d2);
            } else {
                negative += form.negative(d2, margin);
            }
        }
    }
    // Trivial pairs have d = 0 and ℓ⁺(0) = 0; each unordered pair stands for two ordered ones.
    Ok(2.0 * positive / counts.positives as f64 + 2.0 * negative / counts.negatives as f64)
}

/// The gradient of the form-S loss with respect to Z (row-major, like `z`), with each pair's
/// ½d² read as ½‖z_i − z_j‖² (the Euclidean split of chapter 04).
///
/// # Formula
///
/// $$ \nabla_{z_k} L = \sum_{j} (t_{kj} + t_{jk})(z_k - z_j) = 2\sum_j t_{kj}(z_k - z_j) $$
///
/// with the targets t of [`pair_targets`](super::pair_targets) (LAM eqs. (22)–(23)). Only
/// the tangential part P_k g_k, P_k = I − z_k z_kᵀ, is intrinsic to the sphere: reading ½d² as
/// 1 − z_iᵀz_j (the Arccos split, or the vMF NLL) changes g_k by a multiple of z_k.
///
/// # Errors
///
/// As [`loss`].
///
/// # Examples
///
/// ```
/// use probdml::contrastive::loss_gradient;
/// let z = [1.0, 0.0, 0.0, 1.0];
/// // m = 2: t = −½ on both negatives, so g_0 = 2·(−½)(z_0 − z_1) = (−1, 1).
/// let g = loss_gradient(&z, 2, &[0, 1], 2.0).unwrap();
/// assert_eq!(g, vec![-1.0, 1.0, 1.0, -1.0]);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn loss_gradient<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    margin: f64,
) -> Result<Vec<f64>> {
    let batch = check_batch(z, dim, labels.into_labels())?;
    let (z, labels, counts) = (&*batch.z, &*batch.labels, batch.counts);
    check_margin(margin)?;
    let (t_pos, t_neg) = (
        1.0 / counts.positives as f64,
        -1.0 / counts.negatives as f64,
    );
    let mut gradient = vec![0.0; z.len()];
    for i in 0..counts.n {
        for j in i + 1..counts.n {
            let (zi, zj) = (row(z, dim, i), row(z, dim, j));
            let t = if labels[i] == labels[j] {
                t_pos
            } else if negative_inside(squared_distance_gram(zi, zj), margin) {
                t_neg
            } else {
                continue;
            };
            // Ordered pairs (i, j) and (j, i): 2t(z_i − z_j) on row i, its negative on row j.
            let coefficient = 2.0 * t;
            for k in 0..dim {
                let step = coefficient * (z[i * dim + k] - z[j * dim + k]);
                gradient[i * dim + k] += step;
                gradient[j * dim + k] -= step;
            }
        }
    }
    Ok(gradient)
}

/// The Hessian with respect to Z (dense, `(n·dim)²`, row-major; Z flattened row-major) of the
/// target form Σ_{(i,j)} t_ij ½‖z_i − z_j‖² over the listed ordered pairs.
///
/// # Formula
///
/// Each pair adds t·[[I, −I], [−I, I]] on the blocks (i, i), (i, j), (j, i), (j, j): the Hessian
/// is linear in the targets, which is why rescaled targets give an unbiased Hessian
/// (LAM App. B.1). Trivial pairs add zero.
///
/// # Errors
///
/// [`Error::IndexOutOfRange`](crate::Error::IndexOutOfRange) if a pair index is `≥ n`;
/// [`Error::NotFinite`](crate::Error::NotFinite) if a target is not finite.
///
/// # Examples
///
/// ```
/// use probdml::contrastive::{squared_distance_hessian, PairTarget};
/// let h = squared_distance_hessian(2, 1, &[PairTarget { i: 0, j: 1, target: 0.5 }]).unwrap();
/// assert_eq!(h, vec![0.5, -0.5, -0.5, 0.5]);
/// assert!(squared_distance_hessian(2, 1, &[PairTarget { i: 0, j: 2, target: 0.5 }]).is_err());
/// ```
pub fn squared_distance_hessian(
    n: usize,
    dim: usize,
    targets: &[PairTarget],
) -> crate::Result<Vec<f64>> {
    for (position, p) in targets.iter().enumerate() {
        for index in [p.i, p.j] {
            if index >= n {
                return Err(crate::Error::IndexOutOfRange {
                    arg: "targets",
                    position,
                    index,
                    target: "the n embeddings",
                    len: n,
                });
            }
        }
        crate::error::require_finite("targets", p.target)?;
    }
    let size = n * dim;
    let mut hessian = vec![0.0; size * size];
    for p in targets {
        for k in 0..dim {
            let (a, b) = (p.i * dim + k, p.j * dim + k);
            hessian[a * size + a] += p.target;
            hessian[b * size + b] += p.target;
            hessian[a * size + b] -= p.target;
            hessian[b * size + a] -= p.target;
        }
    }
    Ok(hessian)
}
