//! A batch of `B` triplets of Gaussian embeddings, named by role: the anchor, the positive and
//! the negative are each a [`Gaussians`] of `B` rows, so a variance cannot be passed where a mean
//! belongs and the per-triplet values of a batch need no hand slicing.

use super::{log_likelihood, moments, nll_gradient, TripletGradient};
use crate::error::{Error, Result};
use crate::gaussians::Gaussians;

/// `B` triplets `(a_b, p_b, n_b)` of independent diagonal Gaussians in `ℝ^D`: row `b` of each
/// role is one triplet.
///
/// # Errors
///
/// [`Triplets::new`] returns [`Error::DimensionMismatch`] naming `positive` or `negative` unless
/// each has the anchor's `D` and `B` (compared as row-major lengths `B·D`).
///
/// # Examples
///
/// ```
/// use probdml::triplet::{self, Triplets};
/// use probdml::Gaussians;
/// // Two 1-D triplets; the first is the worked point of book chapter 05.
/// let anchor = Gaussians::new(&[0.7, 0.0], &[0.5, 0.0], 1)?;
/// let positive = Gaussians::new(&[-0.4, 0.1], &[0.8, 0.0], 1)?;
/// let negative = Gaussians::new(&[1.3, 2.0], &[0.3, 0.0], 1)?;
/// let batch = Triplets::new(anchor, positive, negative)?;
/// let ll = batch.log_likelihood(0.5)?;
/// assert!((ll[0] - -1.1747901920742457).abs() < 1e-13); // mpmath
/// assert_eq!(ll[1], 0.0); // point masses with τ = 0.01 − 4 < −0.5
/// // The same number as the six-slice call on the first row.
/// let one = triplet::log_likelihood(&[0.7], &[0.5], &[-0.4], &[0.8], &[1.3], &[0.3], 0.5)?;
/// assert_eq!(ll[0], one);
/// # Ok::<(), probdml::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Triplets<'a> {
    anchor: Gaussians<'a>,
    positive: Gaussians<'a>,
    negative: Gaussians<'a>,
}

impl<'a> Triplets<'a> {
    /// The batch whose triplet `b` is row `b` of `anchor`, `positive` and `negative`.
    ///
    /// # Errors
    ///
    /// As for the type.
    pub fn new(
        anchor: Gaussians<'a>,
        positive: Gaussians<'a>,
        negative: Gaussians<'a>,
    ) -> Result<Self> {
        let (dim, len) = (anchor.dim(), anchor.mu().len());
        for (arg, role) in [("positive", &positive), ("negative", &negative)] {
            if role.dim() != dim {
                return Err(Error::DimensionMismatch {
                    arg,
                    expected: dim,
                    got: role.dim(),
                });
            }
            if role.mu().len() != len {
                return Err(Error::DimensionMismatch {
                    arg,
                    expected: len,
                    got: role.mu().len(),
                });
            }
        }
        Ok(Self {
            anchor,
            positive,
            negative,
        })
    }

    /// The anchors `a_b`.
    pub fn anchor(&self) -> Gaussians<'a> {
        self.anchor
    }

    /// The positives `p_b`.
    pub fn positive(&self) -> Gaussians<'a> {
        self.positive
    }

    /// The negatives `n_b`.
    pub fn negative(&self) -> Gaussians<'a> {
        self.negative
    }

    /// The dimension `D`.
    pub fn dim(&self) -> usize {
        self.anchor.dim()
    }

    /// The number `B ≥ 1` of triplets.
    pub fn len(&self) -> usize {
        self.anchor.len()
    }

    /// Always `false`: a batch holds at least one triplet (clippy's `len` companion).
    pub fn is_empty(&self) -> bool {
        self.anchor.is_empty()
    }

    /// The six slices of triplet `b`, in the order of [`log_likelihood`].
    fn row(&self, b: usize) -> [&'a [f64]; 6] {
        let (mu_a, var_a) = self.anchor.row(b);
        let (mu_p, var_p) = self.positive.row(b);
        let (mu_n, var_n) = self.negative.row(b);
        [mu_a, var_a, mu_p, var_p, mu_n, var_n]
    }

    /// `(E τ_b, Var τ_b)` of every triplet: [`moments`] row by row.
    ///
    /// # Errors
    ///
    /// As [`moments`] (the moments of a row overflow `f64`).
    pub fn moments(&self) -> Result<Vec<(f64, f64)>> {
        (0..self.len())
            .map(|b| {
                let [ma, va, mp, vp, mn, vn] = self.row(b);
                moments(ma, va, mp, vp, mn, vn)
            })
            .collect()
    }

    /// `ln P(τ_b < −m)` of every triplet by the paper's CLT: [`log_likelihood`] row by row, so
    /// each value is the six-slice call's bit for bit.
    ///
    /// # Errors
    ///
    /// As [`log_likelihood`]: [`Error::NotFinite`] or [`Error::OutOfDomain`] naming `margin`.
    pub fn log_likelihood(&self, margin: f64) -> Result<Vec<f64>> {
        (0..self.len())
            .map(|b| {
                let [ma, va, mp, vp, mn, vn] = self.row(b);
                log_likelihood(ma, va, mp, vp, mn, vn, margin)
            })
            .collect()
    }

    /// The mean NLL of the batch and its gradient: [`nll_gradient`] on the batch's matrices.
    ///
    /// # Errors
    ///
    /// As [`nll_gradient`].
    pub fn nll_gradient(&self, margin: f64) -> Result<TripletGradient> {
        nll_gradient(
            self.anchor.mu(),
            self.anchor.var(),
            self.positive.mu(),
            self.positive.var(),
            self.negative.mu(),
            self.negative.var(),
            self.dim(),
            margin,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The batch methods give, row by row, the values of the one-triplet functions on that row's
    /// slices (same bits), and the shape accessors describe the rows.
    #[test]
    fn batch_methods_are_the_rows_one_triplet_functions() {
        let dim = 3;
        let mu: Vec<f64> = (0..3 * 2 * dim).map(|k| (k as f64 * 0.37).sin()).collect();
        let var: Vec<f64> = (0..3 * 2 * dim)
            .map(|k| 0.05 + 0.1 * (k % 5) as f64)
            .collect();
        let rows = 2 * dim;
        let role = |r: usize| {
            Gaussians::new(
                &mu[r * rows..(r + 1) * rows],
                &var[r * rows..(r + 1) * rows],
                dim,
            )
            .unwrap()
        };
        let batch = Triplets::new(role(0), role(1), role(2)).unwrap();
        assert_eq!(
            (batch.len(), batch.dim(), batch.is_empty()),
            (2, dim, false)
        );
        let margin = 0.2;
        let moments_all = batch.moments().unwrap();
        let ll_all = batch.log_likelihood(margin).unwrap();
        assert_eq!((moments_all.len(), ll_all.len()), (2, 2));
        for b in 0..2 {
            let [ma, va, mp, vp, mn, vn] = batch.row(b);
            let one = moments(ma, va, mp, vp, mn, vn).unwrap();
            assert_eq!(moments_all[b], one, "row {b}");
            assert_eq!(
                ll_all[b],
                log_likelihood(ma, va, mp, vp, mn, vn, margin).unwrap(),
                "row {b}"
            );
            // The rows are the roles' rows, not some other slicing.
            assert_eq!(ma, &mu[b * dim..(b + 1) * dim]);
            assert_eq!(vn, &var[2 * rows + b * dim..2 * rows + (b + 1) * dim]);
        }
    }
}
