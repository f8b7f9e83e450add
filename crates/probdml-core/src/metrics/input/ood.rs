//! The input checks of the OOD scores and the ROC curve type. Shared by the fast and the exact twins.

use crate::error::Result;
use crate::metrics::input::checks;
use crate::metrics::input::score::Score;

/// The ROC curve of an OOD detector (see `roc_curve`).
#[derive(Debug, Clone, PartialEq)]
pub struct RocCurve {
    /// False-positive rate (ID scored at or above the threshold / number of ID), from 0 to 1.
    pub false_positive_rate: Vec<f64>,
    /// True-positive rate (OOD scored at or above the threshold / number of OOD), from 0 to 1.
    pub true_positive_rate: Vec<f64>,
    /// The thresholds, decreasing; the first is +∞ (nothing flagged).
    pub thresholds: Vec<f64>,
}

/// Checks the two score sets of an OOD detector: non-empty (both classes present) and finite.
#[doc(hidden)]
pub fn check_scores<S: Score>(id_scores: &[S], ood_scores: &[S]) -> Result<()> {
    checks::at_least("id_scores", id_scores, 1)?;
    checks::at_least("ood_scores", ood_scores, 1)?;
    checks::all_finite("id_scores", id_scores)?;
    checks::all_finite("ood_scores", ood_scores)
}
