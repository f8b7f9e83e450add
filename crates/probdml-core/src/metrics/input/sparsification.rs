//! The result and input checks of sparsification curves. Shared by the fast and the exact twins.

use crate::error::Result;
use crate::metrics::input::checks;
use crate::metrics::input::score::Score;

/// Number of points of the curve: f = 0, 1/100, …, 99/100 (book chapter 08).
pub const SPARSIFICATION_STEPS: usize = 100;

/// A sparsification curve, its oracle and their areas (see `sparsification_curve`).
#[derive(Debug, Clone, PartialEq)]
pub struct Sparsification {
    /// Removed fractions f_i = i/100, i = 0 … 99.
    pub fractions: Vec<f64>,
    /// Mean performance of the queries left after removing the ⌊f·n⌋ most uncertain.
    pub curve: Vec<f64>,
    /// The same, removing the ⌊f·n⌋ worst-performing queries first (the best any uncertainty
    /// could do).
    pub oracle: Vec<f64>,
    /// AUSC: trapezoid area under `curve`, spacing 1/100.
    pub ausc: f64,
    /// Trapezoid area under `oracle`.
    pub oracle_ausc: f64,
    /// `oracle_ausc − ausc` (≥ 0 up to rounding; 0 for a perfect uncertainty).
    pub area_between: f64,
}

/// Checks uncertainties and performances of the same queries.
#[doc(hidden)]
pub fn check_inputs<S: Score>(uncertainty: &[S], performance: &[f64]) -> Result<()> {
    checks::at_least("uncertainty", uncertainty, 1)?;
    checks::same_length("performance", uncertainty.len(), performance.len())?;
    checks::all_finite("uncertainty", uncertainty)?;
    checks::all_finite("performance", performance)
}

/// Checks of [`query_neighbour_uncertainty`] (shared by both twins).
#[doc(hidden)]
pub fn check_neighbour_inputs<S: Score>(
    query_variance: &[S],
    database_variance: &[S],
    nearest: &[usize],
) -> Result<()> {
    checks::at_least("query_variance", query_variance, 1)?;
    checks::same_length("nearest", query_variance.len(), nearest.len())?;
    checks::all_finite("query_variance", query_variance)?;
    checks::all_finite("database_variance", database_variance)?;
    if let Some(position) = nearest.iter().position(|&j| j >= database_variance.len()) {
        return Err(crate::Error::IndexOutOfRange {
            arg: "nearest",
            position,
            index: nearest[position],
            target: "database_variance",
            len: database_variance.len(),
        });
    }
    Ok(())
}
