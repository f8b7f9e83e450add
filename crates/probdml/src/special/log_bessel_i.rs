//! ln I_ν(x): the dispatcher over the four regimes and the public kernel.
//!
//! | regime | where | file |
//! |---|---|---|
//! | uniform asymptotic (Debye) | ν ≥ 20, all x | `debye.rs` |
//! | closed form | ν = ½ | `half_order.rs` |
//! | power series | ν < 20, x < 32 | `series.rs` |
//! | large argument (Hankel) | ν < 20, x ≥ max(32, ¾ν²) | `hankel.rs` |
//! | order recurrence from Debye at ν + N ≥ 20 | ν < 20, 32 ≤ x < ¾ν² | `recurrence.rs` |
//!
//! Each regime computes the *scaled* logarithm g(ν, x) = ln I_ν(x) − ν ln x, finite at x = 0
//! (g(ν, 0) = −ν ln 2 − ln Γ(ν+1)), as a double-double. Then
//!
//!   ln I_ν(x) = ν ln x + g(ν, x),    ln C_M(κ) = −(M/2) ln 2π − g(M/2 − 1, κ),
//!
//! so the ν ln x terms, which reach 10⁶, cancel exactly in ln C_M instead of in rounding.
//! ln I_ν itself takes that sum only in the power series and the recurrence: the Debye
//! expansion forms it with one double-double logarithm (of (ν + s)/x) instead of two, and the
//! Hankel expansion and the closed form for ν = ½ in `f64`, where nothing cancels.

use super::debye::{log_bessel_i_debye, log_bessel_i_scaled_debye, DEBYE_MIN_ORDER};
use super::half_order::{log_bessel_i_half, log_bessel_i_scaled_half};
use super::hankel::{
    hankel_applies, log_bessel_i_hankel, log_bessel_i_scaled_hankel, HANKEL_MIN_ARGUMENT,
};
use super::recurrence::log_bessel_i_scaled_recurrence;
use super::series::log_bessel_i_scaled_series;
use crate::compensated::DoubleDouble;
use crate::special::logarithm::ln_dd;

/// g(ν, x) = ln I_ν(x) − ν ln x for finite ν ≥ 0, finite x ≥ 0 (preconditions not checked).
/// The order is a double-double so that callers can ask for ν + 1 exactly.
#[inline(always)]
pub(crate) fn log_bessel_i_scaled(order: DoubleDouble, x: f64) -> DoubleDouble {
    let nu = order.hi;
    if nu >= DEBYE_MIN_ORDER {
        log_bessel_i_scaled_debye(order, x)
    } else if nu == 0.5 && order.lo == 0.0 {
        log_bessel_i_scaled_half(x)
    } else if x < HANKEL_MIN_ARGUMENT {
        log_bessel_i_scaled_series(order, x)
    } else if hankel_applies(nu, x) {
        log_bessel_i_scaled_hankel(order, x)
    } else {
        log_bessel_i_scaled_recurrence(order, x)
    }
}

/// ln I_ν(x), the logarithm of the modified Bessel function of the first kind.
///
/// # Formula
///
/// $$ I_\nu(x) = \sum_{k\ge 0} \frac{(x/2)^{2k+\nu}}{k!\\,\Gamma(k+\nu+1)} $$
///
/// evaluated by the power series (A&S 9.6.10) for ν < 20 and x < 32, the large-argument
/// expansion (A&S 9.7.1) for ν < 20 and x ≥ max(32, ¾ν²), the order recurrence (A&S 9.6.26)
/// down from the uniform asymptotic expansion in between, that expansion (A&S 9.7.7) for
/// ν ≥ 20, and the closed form √(2/(πx)) sinh x for ν = ½; the large leading terms in
/// double-double. Never forms I_ν(x) itself, so it is finite wherever ln I_ν(x) is: at
/// ν = 50 000, x = 10⁸ as at ν = 4095, x = 10⁻⁸.
///
/// Error budget: |Δ| ≤ 4·10⁻¹⁵·max(1, |ln I_ν(x)|) against [`exact::log_bessel_i`](super::exact::log_bessel_i)
/// on ν ∈ [0, 5·10⁴], x ∈ [0, 10⁸] (proved in `proofs/special_bessel.rs`).
///
/// # Domain
///
/// ν ≥ 0 and x ≥ 0. Returns NaN when ν or x is NaN or negative, or ν is infinite (the raw
/// kernel does not return `Result`; use [`crate::vmf`]'s checked functions for validated input).
/// ln I_0(0) = 0, ln I_ν(0) = −∞ for ν > 0, and ln I_ν(+∞) = +∞.
///
/// # Examples
///
/// ```
/// use probdml::special::log_bessel_i;
/// // I_{1/2}(x) = √(2/(πx)) sinh x (A&S 10.2.13)
/// let x = 3.0_f64;
/// let closed = (2.0 / (std::f64::consts::PI * x)).sqrt().ln() + x.sinh().ln();
/// assert!((log_bessel_i(0.5, x) - closed).abs() < 1e-15);
/// // I_ν(x) ~ e^x/√(2πx) for large x: ln I_0(10⁸) = 10⁸ − 9.7328… (no overflow)
/// assert!((log_bessel_i(0.0, 1e8) - (1e8 - 0.5 * (2.0 * std::f64::consts::PI * 1e8).ln())).abs() < 1e-8);
/// assert_eq!(log_bessel_i(0.0, 0.0), 0.0);
/// assert_eq!(log_bessel_i(2.0, 0.0), f64::NEG_INFINITY);
/// assert!(log_bessel_i(-1.0, 1.0).is_nan());
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn log_bessel_i(nu: f64, x: f64) -> f64 {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || log_bessel_i_kernel(nu, x),
    )
}

/// [`log_bessel_i`] without the run-time choice of instruction set (inlined into its caller's).
#[inline(always)]
pub(crate) fn log_bessel_i_kernel(nu: f64, x: f64) -> f64 {
    if !(nu >= 0.0 && nu.is_finite() && x >= 0.0) {
        return f64::NAN;
    }
    if x == 0.0 {
        return if nu == 0.0 { 0.0 } else { f64::NEG_INFINITY };
    }
    if x == f64::INFINITY {
        return f64::INFINITY;
    }
    // Three regimes give ln I_ν directly, cheaper than ν ln x + g: the Debye expansion with one
    // double-double logarithm instead of two, the closed form for ν = ½ and the Hankel
    // expansion in `f64`.
    if nu >= DEBYE_MIN_ORDER {
        return log_bessel_i_debye(nu, x);
    }
    if nu == 0.5 {
        return log_bessel_i_half(x);
    }
    if hankel_applies(nu, x) {
        return log_bessel_i_hankel(nu, x);
    }
    ln_dd(x)
        .mul_f64(nu)
        .add(log_bessel_i_scaled(DoubleDouble::from_f64(nu), x))
        .to_f64()
}
