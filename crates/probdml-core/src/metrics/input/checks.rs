//! Input checks shared by the fast and the exact twins: both validate the same way, so that
//! they fail on the same inputs with the same [`Error`]. Nothing here computes a metric.

use crate::error::{Error, Result};
use crate::metrics::score::Score;

/// `xs` has at least `min` elements.
#[doc(hidden)]
pub fn at_least<T>(arg: &'static str, xs: &[T], min: usize) -> Result<()> {
    if xs.len() >= min {
        Ok(())
    } else {
        Err(Error::TooFew {
            arg,
            min,
            got: xs.len(),
        })
    }
}

/// Every element of `xs` is finite; the error names the first that is not.
#[doc(hidden)]
pub fn all_finite<S: Score>(arg: &'static str, xs: &[S]) -> Result<()> {
    match xs.iter().position(|x| !x.widen().is_finite()) {
        None => Ok(()),
        Some(index) => Err(Error::NotFiniteElement {
            arg,
            index,
            value: xs[index].widen(),
        }),
    }
}

/// `got == expected` for the length of `arg`.
#[doc(hidden)]
pub fn same_length(arg: &'static str, expected: usize, got: usize) -> Result<()> {
    if got == expected {
        Ok(())
    } else {
        Err(Error::DimensionMismatch { arg, expected, got })
    }
}

/// Every element lies in [0, 1] (confidences, per-query precisions).
#[doc(hidden)]
pub fn all_unit_interval<S: Score>(arg: &'static str, xs: &[S]) -> Result<()> {
    all_finite(arg, xs)?;
    match xs.iter().position(|x| !(0.0..=1.0).contains(&x.widen())) {
        None => Ok(()),
        Some(i) => Err(Error::OutOfDomain {
            arg,
            value: xs[i].widen(),
            rule: "every element must lie in [0, 1]",
        }),
    }
}

/// A cut-off or count `value` with `min <= value <= max`.
#[doc(hidden)]
pub fn count_in_range(
    arg: &'static str,
    value: usize,
    min: usize,
    max: usize,
    reason: &'static str,
) -> Result<usize> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(Error::CountOutOfRange {
            arg,
            value,
            min,
            max,
            reason,
        })
    }
}

/// The bin count of an equal-count binning over `n` items: 1 ≤ bins ≤ n, so no bin is empty.
#[doc(hidden)]
pub fn equal_count_bins(bins: usize, n: usize) -> Result<usize> {
    count_in_range(
        "bins",
        bins,
        1,
        n.max(1),
        "equal-count bins need at least one item per bin",
    )
}
