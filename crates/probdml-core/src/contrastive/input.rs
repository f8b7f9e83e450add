//! The inputs of the contrastive functions, shared by the fast code and its exact twins: pairs
//! with their targets, the pair counts of a labelled batch, the loss forms, a minibatch of pairs,
//! the class likelihood's result type, and the checks of a batch, a margin, pair counts and a
//! minibatch. Both twins refuse the same inputs with the same error.

use std::borrow::Cow;

use crate::compensated::dot_lanes;
use crate::error::{require_finite, Error, Result};
use crate::labels::Labels;
use crate::vmf::input::require_unit_rows;

/// Which per-pair loss (book chapter 03). Every form averages over each pair type:
/// L = (1/|P|) Σ_P ℓ⁺(d_ij) + (1/|N|) Σ_N ℓ⁻(d_ij), ordered pairs, trivial pairs in P.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LossForm {
    /// Form S, the derivation's form (LAM App. B): ℓ⁺ = ½d², ℓ⁻ = ½(m² − d²)₊. Inside the
    /// margin every case is t·½d² plus a constant, which is what the likelihood needs.
    Squared,
    /// Form H, Hadsell et al. (LAM eq. (1)): ℓ⁺ = ½d², ℓ⁻ = ½(m − d)₊².
    Hadsell,
    /// Form L, what the reference training code optimises: ℓ⁺ = d, ℓ⁻ = (m − d)₊.
    Linear,
}

/// Row `i` of the row-major `n × dim` matrix `z`.
#[inline]
#[doc(hidden)]
pub fn row(z: &[f64], dim: usize, i: usize) -> &[f64] {
    &z[i * dim..(i + 1) * dim]
}

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

/// The former fixed input tolerance on unit embeddings, `|‖z_i‖ − 1| ≤ 10⁻⁶`.
///
/// Rows now follow the vMF rule of the whole crate: accepted within
/// [`unit_norm_tolerance`](crate::vmf::input::unit_norm_tolerance)`(dim)` (every row normalised
/// in `f32` passes, at any dimension) and renormalised in `f64` beyond
/// [`renormalisation_threshold`](crate::vmf::input::renormalisation_threshold)`(dim)`, so the
/// fast twins' ½d² = 1 − z_iᵀz_j and the exact twins' ‖z_i − z_j‖²/2 are taken at the same unit
/// rows.
#[deprecated(
    since = "0.1.0",
    note = "rows follow `vmf::unit_norm_tolerance(dim)` and are renormalised in f64"
)]
pub const UNIT_NORM_TOLERANCE: f64 = 1e-6;

/// The sizes of the pair sets of a labelled batch (ordered pairs, trivial pairs included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairCounts {
    /// n, the number of embeddings.
    pub n: usize,
    /// |P| = Σ_c |C_c|².
    pub positives: usize,
    /// |N| = n² − |P|.
    pub negatives: usize,
    /// |N_m|: negatives inside the margin (d_ij < m); all of N when m ≥ 2.
    pub negatives_inside: usize,
}

/// A batch after [`check_batch`]: the rows on the unit sphere (the caller's slice, or a copy
/// with the rows renormalised in `f64` that were normalised in `f32`), the labels as class
/// indices, and n, |P|, |N| (with `negatives_inside` left at 0).
#[doc(hidden)]
#[derive(Debug, Clone)]
pub struct CheckedBatch<'z, 'l> {
    /// The `n × dim` row-major unit embeddings.
    pub z: Cow<'z, [f64]>,
    /// One class index per row.
    pub labels: Cow<'l, [usize]>,
    /// The pair counts, `negatives_inside` = 0.
    pub counts: PairCounts,
}

/// Validates a batch (`z` row-major with `dim` columns, one label per row, at least two
/// classes) and returns it checked. Shared by both twins.
///
/// Rows follow the unit-vector rule of `vmf` (accepted within `unit_norm_tolerance(dim)`,
/// renormalised in `f64` beyond `renormalisation_threshold(dim)`); labels may be of any integer
/// type and must not be negative.
#[doc(hidden)]
pub fn check_batch<'z, 'l>(
    z: &'z [f64],
    dim: usize,
    labels: Labels<'l>,
) -> Result<CheckedBatch<'z, 'l>> {
    if dim == 0 {
        return Err(Error::InvalidDimension {
            arg: "dim",
            dim,
            rule: "embeddings need dim >= 1",
        });
    }
    if !z.len().is_multiple_of(dim) {
        return Err(Error::RaggedRows {
            arg: "z",
            len: z.len(),
            dim,
        });
    }
    let n = z.len() / dim;
    if n == 0 {
        return Err(Error::TooFew {
            arg: "z",
            min: 2,
            got: 0,
        });
    }
    if labels.len() != n {
        return Err(Error::DimensionMismatch {
            arg: "labels",
            expected: n,
            got: labels.len(),
        });
    }
    if let Some((index, &value)) = z.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        return Err(Error::NotFiniteElement {
            arg: "z",
            index,
            value,
        });
    }
    let z = require_unit_rows("z", z, dim)?;
    let labels = labels.classes("labels")?;
    let mut sorted = labels.to_vec();
    sorted.sort_unstable();
    let (mut classes, mut positives, mut run) = (0usize, 0usize, 0usize);
    for (k, &c) in sorted.iter().enumerate() {
        if k > 0 && sorted[k - 1] == c {
            run += 1;
        } else {
            positives += run * run;
            classes += 1;
            run = 1;
        }
    }
    positives += run * run;
    if classes < 2 {
        return Err(Error::TooFewClasses {
            arg: "labels",
            classes,
            min: 2,
        });
    }
    Ok(CheckedBatch {
        z,
        labels,
        counts: PairCounts {
            n,
            positives,
            negatives: n * n - positives,
            negatives_inside: 0,
        },
    })
}

/// Checks that the margin is finite and positive.
#[doc(hidden)]
pub fn check_margin(margin: f64) -> Result<f64> {
    require_finite("margin", margin)?;
    if margin > 0.0 {
        Ok(margin)
    } else {
        Err(Error::OutOfDomain {
            arg: "margin",
            value: margin,
            rule: "must be > 0",
        })
    }
}

/// The vMF of `class_likelihood` (eq. (48)) and the log of the constant that the product of
/// densities carries.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassLikelihood {
    /// ν, the summed natural parameter (κμ of the product).
    pub natural: Vec<f64>,
    /// κ = ‖ν‖.
    pub kappa: f64,
    /// ln C_M(κ).
    pub log_norm_const: f64,
    /// s: ln of the product of densities minus ln of the vMF density, the same at every x.
    pub log_scale: f64,
}

impl ClassLikelihood {
    /// ln N^S(x | ν/‖ν‖, ‖ν‖) = ln C_M(κ) + νᵀx (the uniform density when ν = 0).
    ///
    /// # Errors
    ///
    /// [`Error::DimensionMismatch`] if `x.len()` differs from M.
    pub fn log_density(&self, x: &[f64]) -> Result<f64> {
        if x.len() != self.natural.len() {
            return Err(Error::DimensionMismatch {
                arg: "x",
                expected: self.natural.len(),
                got: x.len(),
            });
        }
        // The lane dot product on the CPU's widest instruction set, as the Gram entries of the
        // fast code take it (`gram::dot`): the same bits on every copy.
        let dot = crate::instruction_set::dispatch(
            #[inline(always)]
            || dot_lanes(&self.natural, x),
        );
        Ok(self.log_norm_const + dot)
    }

    /// ln of the product of the n densities of eq. (48) at x: `log_scale + log_density(x)`.
    ///
    /// # Errors
    ///
    /// As [`ClassLikelihood::log_density`].
    pub fn log_product(&self, x: &[f64]) -> Result<f64> {
        Ok(self.log_scale + self.log_density(x)?)
    }

    /// μ = ν/‖ν‖, or `None` when ν = 0 (the product is uniform).
    pub fn mean_direction(&self) -> Option<Vec<f64>> {
        (self.kappa > 0.0).then(|| self.natural.iter().map(|v| v / self.kappa).collect())
    }
}

/// Validates pair counts for [`likelihood_constant`] and its exact twin: at least one positive
/// and one negative pair, and no more negatives inside the margin than negatives.
#[doc(hidden)]
pub fn check_pair_counts(counts: &PairCounts) -> Result<()> {
    if counts.positives == 0 {
        return Err(Error::TooFew {
            arg: "counts.positives",
            min: 1,
            got: 0,
        });
    }
    if counts.negatives == 0 {
        return Err(Error::TooFew {
            arg: "counts.negatives",
            min: 1,
            got: 0,
        });
    }
    if counts.negatives_inside > counts.negatives {
        return Err(Error::CountOutOfRange {
            arg: "counts.negatives_inside",
            value: counts.negatives_inside,
            min: 0,
            max: counts.negatives,
            reason: "the negatives inside the margin are a subset of the negatives",
        });
    }
    Ok(())
}

/// A minibatch of ordered pairs: positives (same class) and negatives (different classes).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PairBatch {
    /// B_P, pairs (i, j) with c_i = c_j (trivial pairs allowed).
    pub positives: Vec<(usize, usize)>,
    /// B_N, pairs (i, j) with c_i ≠ c_j.
    pub negatives: Vec<(usize, usize)>,
}

/// Validates the batch against the labels; returns the checked data.
#[doc(hidden)]
pub fn check_pair_batch<'z, 'l>(
    z: &'z [f64],
    dim: usize,
    labels: Labels<'l>,
    margin: f64,
    batch: &PairBatch,
) -> Result<CheckedBatch<'z, 'l>> {
    let checked = check_batch(z, dim, labels)?;
    let (counts, labels) = (checked.counts, &checked.labels);
    check_margin(margin)?;
    for (arg, pairs, positive) in [
        ("batch.positives", &batch.positives, true),
        ("batch.negatives", &batch.negatives, false),
    ] {
        if pairs.is_empty() {
            return Err(Error::TooFew {
                arg,
                min: 1,
                got: 0,
            });
        }
        for (position, &(i, j)) in pairs.iter().enumerate() {
            for (offset, index) in [(0, i), (1, j)] {
                if index >= counts.n {
                    return Err(Error::IndexOutOfRange {
                        arg,
                        position: 2 * position + offset,
                        index,
                        target: "embeddings",
                        len: counts.n,
                    });
                }
            }
            if (labels[i] == labels[j]) != positive {
                let expected = if positive { "positive" } else { "negative" };
                return Err(Error::PairKindMismatch {
                    arg,
                    position,
                    i,
                    j,
                    expected,
                });
            }
        }
    }
    Ok(checked)
}
