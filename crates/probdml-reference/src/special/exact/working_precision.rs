//! Working precision of the exact special functions, the rounding mode, and the per-thread
//! cache of π and ln 2.
//!
//! Every operation in the exact twins rounds to nearest (ties to even), so each one carries a
//! relative error of at most u = 2^−p. The precision p is chosen from the size of the largest
//! intermediate: the logarithm of the peak term of the Bessel series is a difference of
//! quantities as large as (2k* + ν)·|ln(x/2)| ≈ 2·10⁹ at x = 10⁸, and their absolute rounding
//! errors, about that magnitude times 2^−p, must stay far below the 2^−106 relative accuracy of
//! the double-double results. [`working_precision`] keeps [`TARGET_BITS`] bits beyond that
//! magnitude: 106 for the double-double, 18 for the growth of rounding errors over the up to
//! ~2·10⁵ terms of the series, and the rest as margin. Within the supported domain (ν ≤ 5·10⁴,
//! x ≤ 10⁸) this gives 256 bits.

use std::cell::RefCell;

use astro_float::{Consts, RoundingMode};

/// Round to nearest, ties to even: every operation has relative error at most 2^−p.
#[doc(hidden)]
pub const RM: RoundingMode = RoundingMode::ToEven;

/// Bits kept beyond log₂ of the largest intermediate (see the module docs).
#[doc(hidden)]
pub const TARGET_BITS: usize = 192;

/// The smallest working precision ever used.
#[doc(hidden)]
pub const MIN_PRECISION: usize = 256;

/// The working precision for intermediates whose magnitude is about `magnitude`: at least
/// [`MIN_PRECISION`], at least [`TARGET_BITS`] + log₂(magnitude), rounded up to whole 64-bit
/// words (astro-float stores mantissas in words, so the extra bits are free).
#[doc(hidden)]
pub fn working_precision(magnitude: f64) -> usize {
    let extra = if magnitude.is_finite() && magnitude > 1.0 {
        magnitude.log2().ceil() as usize
    } else if magnitude.is_finite() {
        0
    } else {
        // Not reachable for validated input; a generous precision rather than a panic.
        1024
    };
    (TARGET_BITS + extra).max(MIN_PRECISION).div_ceil(64) * 64
}

thread_local! {
    /// astro-float caches π and ln 2 per precision inside `Consts`; one cache per thread.
    static CONSTS: RefCell<Option<Consts>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's constants cache. Returns `None` only if the cache cannot be
/// allocated. Re-entrant calls (not made by this crate) get a fresh cache instead of a panic.
#[doc(hidden)]
pub fn with_consts<R>(f: impl FnOnce(&mut Consts) -> R) -> Option<R> {
    CONSTS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => {
            if slot.is_none() {
                *slot = Some(Consts::new().ok()?);
            }
            slot.as_mut().map(f)
        }
        Err(_) => Consts::new().ok().as_mut().map(f),
    })
}
