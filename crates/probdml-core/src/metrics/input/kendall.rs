//! The input checks of Kendall's τ-b. Shared by the fast and the exact twins.

use crate::error::{Error, Result};
use crate::metrics::input::checks;
use crate::metrics::input::score::Score;

/// Checks the two samples of a rank correlation.
#[doc(hidden)]
pub fn check_pairs<S: Score>(x: &[S], y: &[S]) -> Result<()> {
    checks::same_length("y", x.len(), y.len())?;
    checks::at_least("x", x, 2)?;
    checks::all_finite("x", x)?;
    checks::all_finite("y", y)
}

/// The error for a sample without two distinct values.
#[doc(hidden)]
pub fn constant_sample(arg: &'static str) -> Error {
    Error::Undefined {
        arg,
        quantity: "Kendall's tau-b",
        reason: "all values are equal, so its tie-corrected denominator is 0",
    }
}
