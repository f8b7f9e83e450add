//! The result and input checks of the binned Kendall correlations. Shared by the fast and the exact twins.

use crate::error::{Error, Result};
use crate::metrics::input::checks;
use crate::metrics::input::score::Score;

/// The result of a binned Kendall-τ analysis.
#[derive(Debug, Clone, PartialEq)]
pub struct BinnedKendall {
    /// Mean uncertainty of each bin (increasing).
    pub bin_uncertainty: Vec<f64>,
    /// Performance of each bin (mean accuracy, or average precision for verification).
    pub bin_performance: Vec<f64>,
    /// −τ_b(bin index, bin performance): positive when performance falls as uncertainty rises.
    pub tau: f64,
}

/// Checks of [`binned_kendall_tau`] (shared by both twins).
#[doc(hidden)]
pub fn check_binned<S: Score, P: Score>(
    uncertainty: &[S],
    performance: &[P],
    performance_arg: &'static str,
    bins: usize,
) -> Result<()> {
    checks::at_least("uncertainty", uncertainty, 2)?;
    checks::same_length(performance_arg, uncertainty.len(), performance.len())?;
    checks::all_finite("uncertainty", uncertainty)?;
    checks::all_finite(performance_arg, performance)?;
    checks::count_in_range(
        "bins",
        bins,
        2,
        uncertainty.len(),
        "a rank correlation needs two bins, and equal-count bins one item each",
    )
    .map(|_| ())
}

/// Checks of [`binned_kendall_tau_verification`] (shared by both twins).
#[doc(hidden)]
pub fn check_verification<S: Score, M: Score>(
    uncertainty: &[S],
    match_score: &[M],
    is_match: &[bool],
    bins: usize,
) -> Result<()> {
    check_binned(uncertainty, match_score, "match_score", bins)?;
    checks::same_length("is_match", uncertainty.len(), is_match.len())
}

/// The error for a verification bin without a matching pair.
#[doc(hidden)]
pub fn bin_without_match() -> Error {
    Error::Undefined {
        arg: "is_match",
        quantity: "the average precision of a bin",
        reason: "a bin holds no matching pair (use fewer bins)",
    }
}
