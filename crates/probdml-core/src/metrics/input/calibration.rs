//! The results and input checks of the calibration metrics (ECE and its closed-set and at-k forms). Shared by the fast and the exact twins.

use std::borrow::Cow;

use crate::error::{Error, Result};
use crate::labels::Labels;
use crate::metrics::input::checks;
use crate::metrics::input::embeddings::Embeddings;
use crate::metrics::input::score::Score;

/// One bin of a calibration analysis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CalibrationBin {
    /// Items in the bin.
    pub count: usize,
    /// Mean accuracy of the bin (the share of correct predictions, or its mAP@k for ECE@k);
    /// 0 for an empty bin.
    pub accuracy: f64,
    /// Mean confidence of the bin; 0 for an empty bin.
    pub confidence: f64,
}

/// An expected calibration error with its bins.
#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    /// ECE = Σ_b (n_b/n) |accuracy_b − confidence_b|.
    pub ece: f64,
    /// The bins, in order (increasing confidence for equal-width bins; from the least to the
    /// most uncertain for ECE@k).
    pub bins: Vec<CalibrationBin>,
}

/// Checks of [`expected_calibration_error`] (shared by both twins).
#[doc(hidden)]
pub fn check_confidences<S: Score>(confidence: &[S], correct: &[bool], bins: usize) -> Result<()> {
    checks::at_least("confidence", confidence, 1)?;
    checks::same_length("correct", confidence.len(), correct.len())?;
    checks::all_unit_interval("confidence", confidence)?;
    check_bins(bins).map(|_| ())
}

/// Checks of [`closed_set_ece`] (shared by both twins); returns the labels as class indices.
#[doc(hidden)]
pub fn check_votes<'l>(
    votes: &[Vec<usize>],
    labels: Labels<'l>,
    bins: usize,
) -> Result<Cow<'l, [usize]>> {
    checks::at_least("votes", votes, 1)?;
    checks::same_length("labels", votes.len(), labels.len())?;
    if votes.iter().any(Vec::is_empty) {
        return Err(Error::TooFew {
            arg: "votes",
            min: 1,
            got: 0,
        });
    }
    check_bins(bins)?;
    labels.classes("labels")
}

/// Checks of [`ece_at_k`] (shared by both twins).
#[doc(hidden)]
pub fn check_ece_at_k<S: Score>(
    uncertainty: &[S],
    average_precision: &[f64],
    bins: usize,
) -> Result<()> {
    checks::at_least("uncertainty", uncertainty, 1)?;
    checks::same_length(
        "average_precision",
        uncertainty.len(),
        average_precision.len(),
    )?;
    checks::all_finite("uncertainty", uncertainty)?;
    checks::all_unit_interval("average_precision", average_precision)?;
    check_bins(bins)?;
    checks::equal_count_bins(bins, uncertainty.len()).map(|_| ())
}

/// Checks of [`closed_set_votes`] (shared by both twins); returns the labels as class indices.
#[doc(hidden)]
pub fn check_samples<'l>(
    samples: &[Embeddings<'_>],
    labels: Labels<'l>,
) -> Result<Cow<'l, [usize]>> {
    checks::at_least("samples", samples, 1)?;
    let labels = labels.classes("labels")?;
    // Each item needs another item of its sample set to be its neighbour.
    checks::at_least("labels", &labels, 2)?;
    for s in samples {
        checks::same_length("samples", labels.len(), s.len())?;
        checks::same_length("samples", samples[0].dim(), s.dim())?;
    }
    Ok(labels)
}

/// The most bins a calibration analysis takes: `2¹⁶`. Its cost is linear in the bin count
/// (every bin is allocated and summed, empty or not), and finer bins than this hold at most
/// one item each for any data set an ECE is computed on; `10⁹` bins took 98 s and 24 GB.
pub const MAX_BINS: usize = 1 << 16;

/// At least one bin, at most [`MAX_BINS`].
#[doc(hidden)]
pub fn check_bins(bins: usize) -> Result<usize> {
    checks::count_in_range(
        "bins",
        bins,
        1,
        MAX_BINS,
        "a calibration analysis needs at least one bin; finer than 2^16 bins resolve nothing",
    )
}
