//! A batch of `B` triplets of Gaussian embeddings, named by role: the anchor, the positive and
//! the negative are each a [`Gaussians`] of `B` rows, so a variance cannot be passed where a mean
//! belongs and the per-triplet values of a batch need no hand slicing.

use super::likelihood::log_likelihood_of;
use super::moments::moments_of;
use super::{nll_gradient, TripletGradient};
use crate::error::{Error, Result};
use crate::gaussians::{Gaussian, Gaussians};

/// One triplet of independent diagonal Gaussian embeddings, named by role at the call:
/// `a ~ N(μ_a, diag σ²_a)`, `p ~ N(μ_p, diag σ²_p)`, `n ~ N(μ_n, diag σ²_n)` in `ℝ^D`.
///
/// Every input has its name where it is written, so a variance cannot be passed for a mean nor
/// a negative for a positive without the code saying so; the six positional slices of the
/// deprecated [`log_likelihood`](super::log_likelihood) swapped without an error. Errors name
/// the slice as `mu_a`, `var_a`, `mu_p`, `var_p`, `mu_n`, `var_n` (anchor mean, anchor
/// variance, …).
///
/// # Examples
///
/// ```
/// use probdml::triplet::Triplet;
/// use probdml::Gaussian;
/// // The worked 1-D point of book chapter 05.
/// let triplet = Triplet {
///     anchor: Gaussian { mu: &[0.7], var: &[0.5] },
///     positive: Gaussian { mu: &[-0.4], var: &[0.8] },
///     negative: Gaussian { mu: &[1.3], var: &[0.3] },
/// };
/// let (mean, var) = triplet.moments()?;
/// assert!((mean - 1.35).abs() < 1e-15 && (var - 13.744).abs() < 1e-12);
/// // mpmath: ln Φ(−1.85/√13.744) = −1.1747901920742457 (scripts/reference/triplet_values.txt).
/// assert!((triplet.log_likelihood(0.5)? - -1.1747901920742457).abs() < 1e-13);
/// # Ok::<(), probdml::Error>(())
/// ```
///
/// The six-slice order of the papers' code does not compile against it:
///
/// ```compile_fail,E0061
/// use probdml::triplet::Triplet;
/// let (mu_a, mu_p, mu_n, var_a, var_p, var_n) = ([0.7], [-0.4], [1.3], [0.5], [0.8], [0.3]);
/// // error[E0061]: `log_likelihood` takes the margin only.
/// let ll = Triplet::log_likelihood(&mu_a, &mu_p, &mu_n, &var_a, &var_p, &var_n, 0.5);
/// ```
///
/// ```compile_fail,E0277
/// use probdml::triplet::Triplet;
/// use probdml::Gaussian;
/// // error[E0277]: the roles must be named; a positional triplet is not a `Triplet`.
/// let t: Triplet<'_> = (Gaussian { mu: &[0.7], var: &[0.5] },
///                       Gaussian { mu: &[-0.4], var: &[0.8] },
///                       Gaussian { mu: &[1.3], var: &[0.3] }).into();
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub struct Triplet<'a> {
    /// The anchor `a`.
    pub anchor: Gaussian<'a>,
    /// The positive `p`, of the anchor's class.
    pub positive: Gaussian<'a>,
    /// The negative `n`, of another class.
    pub negative: Gaussian<'a>,
}

impl<'a> Triplet<'a> {
    /// The six slices in the order of the kernels: `(μ_a, σ²_a, μ_p, σ²_p, μ_n, σ²_n)`.
    fn slices(&self) -> [&'a [f64]; 6] {
        [
            self.anchor.mu,
            self.anchor.var,
            self.positive.mu,
            self.positive.var,
            self.negative.mu,
            self.negative.var,
        ]
    }

    /// `(E τ, Var τ)` of `τ = ‖a − p‖² − ‖a − n‖²`.
    ///
    /// # Formula
    ///
    /// $$ \mathbb E\tau = \sum_d \mu_{p,d}^2 + \sigma_{p,d}^2 - \mu_{n,d}^2 - \sigma_{n,d}^2 -
    ///    2\mu_{a,d}(\mu_{p,d} - \mu_{n,d}),\qquad
    ///    \operatorname{Var}\tau = \sum_d 2T_1 + 2T_2 - 2T_3 $$
    ///
    /// (BTL supplement eqs. 5, 17, 18, 26; the main text's eq. (12) has a sign error, see
    /// `proofs/triplet_moments.rs`), evaluated in the cancellation-free form of the module docs
    /// of `crates/probdml/src/triplet/moments.rs`.
    ///
    /// # Errors
    ///
    /// [`Error::Empty`] for `D = 0`; [`Error::DimensionMismatch`] naming the slice whose length
    /// differs from the anchor mean's; [`Error::NotFiniteElement`] for a NaN or infinite entry;
    /// [`Error::OutOfDomainElement`] for a negative variance, or for the entry too large to
    /// square when the moments overflow `f64` (entries beyond ~10¹⁵⁰); each with its index.
    pub fn moments(&self) -> Result<(f64, f64)> {
        moments_of(self.slices())
    }

    /// `ln P(τ < −m)` by the paper's central-limit approximation: `ln Φ((−m − E τ)/√Var τ)`.
    ///
    /// # Formula
    ///
    /// $$ \ln P(\tau < -m) \approx \ln\Phi\\!\Big(\frac{-m - \mathbb E\tau}{\sqrt{\operatorname{Var}\tau}}\Big) $$
    ///
    /// (BTL eqs. (6)–(8), moments from [`moments`](Self::moments)), with
    /// [`log_normal_cdf`](crate::special::log_normal_cdf), accurate down to `z = −10⁵`: no
    /// `ln(Φ + 10⁻⁸)` clamp as in the BTL listing (line 20), which flattens the loss at
    /// `ln 10⁻⁸ ≈ −18.4` and kills its gradient. When every variance is 0, `τ` is
    /// deterministic and the value is the indicator: `0` if `E τ < −m`, else `−∞`. The exact
    /// value of the same probability is
    /// [`exact::log_likelihood`](crate::triplet::exact::log_likelihood).
    ///
    /// # Errors
    ///
    /// As [`moments`](Self::moments), plus [`Error::NotFinite`] or [`Error::OutOfDomain`]
    /// naming `margin` if it is not finite or negative.
    pub fn log_likelihood(&self, margin: f64) -> Result<f64> {
        log_likelihood_of(self.slices(), margin)
    }
}

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
/// let anchor = Gaussians::from_rows(probdml::Gaussian { mu: &[0.7, 0.0], var: &[0.5, 0.0] }, 1)?;
/// let positive = Gaussians::from_rows(probdml::Gaussian { mu: &[-0.4, 0.1], var: &[0.8, 0.0] }, 1)?;
/// let negative = Gaussians::from_rows(probdml::Gaussian { mu: &[1.3, 2.0], var: &[0.3, 0.0] }, 1)?;
/// let batch = Triplets::new(anchor, positive, negative)?;
/// let ll = batch.log_likelihood(0.5)?;
/// assert!((ll[0] - -1.1747901920742457).abs() < 1e-13); // mpmath
/// assert_eq!(ll[1], 0.0); // point masses with τ = 0.01 − 4 < −0.5
/// // The same number as the single triplet of the first row.
/// let one = triplet::Triplet {
///     anchor: probdml::Gaussian { mu: &[0.7], var: &[0.5] },
///     positive: probdml::Gaussian { mu: &[-0.4], var: &[0.8] },
///     negative: probdml::Gaussian { mu: &[1.3], var: &[0.3] },
/// };
/// assert_eq!(ll[0], one.log_likelihood(0.5)?);
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

    /// The six slices of triplet `b`, in the order of the kernels.
    fn row(&self, b: usize) -> [&'a [f64]; 6] {
        let (mu_a, var_a) = self.anchor.row(b);
        let (mu_p, var_p) = self.positive.row(b);
        let (mu_n, var_n) = self.negative.row(b);
        [mu_a, var_a, mu_p, var_p, mu_n, var_n]
    }

    /// `(E τ_b, Var τ_b)` of every triplet: [`Triplet::moments`] row by row.
    ///
    /// # Errors
    ///
    /// As [`Triplet::moments`] (the moments of a row overflow `f64`).
    pub fn moments(&self) -> Result<Vec<(f64, f64)>> {
        (0..self.len()).map(|b| moments_of(self.row(b))).collect()
    }

    /// `ln P(τ_b < −m)` of every triplet by the paper's CLT: [`Triplet::log_likelihood`] row
    /// by row, so each value is the single triplet's bit for bit.
    ///
    /// # Errors
    ///
    /// As [`Triplet::log_likelihood`]: [`Error::NotFinite`] or [`Error::OutOfDomain`] naming
    /// `margin`.
    pub fn log_likelihood(&self, margin: f64) -> Result<Vec<f64>> {
        (0..self.len())
            .map(|b| log_likelihood_of(self.row(b), margin))
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
            Gaussians::from_rows(
                crate::Gaussian {
                    mu: &mu[r * rows..(r + 1) * rows],
                    var: &var[r * rows..(r + 1) * rows],
                },
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
            let one = Triplet {
                anchor: Gaussian { mu: ma, var: va },
                positive: Gaussian { mu: mp, var: vp },
                negative: Gaussian { mu: mn, var: vn },
            };
            assert_eq!(moments_all[b], one.moments().unwrap(), "row {b}");
            assert_eq!(ll_all[b], one.log_likelihood(margin).unwrap(), "row {b}");
            // The rows are the roles' rows, not some other slicing.
            assert_eq!(ma, &mu[b * dim..(b + 1) * dim]);
            assert_eq!(vn, &var[2 * rows + b * dim..2 * rows + (b + 1) * dim]);
        }
    }
}
