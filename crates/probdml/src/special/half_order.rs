//! The closed form for ν = ½ (A&S 10.2.13): I_{1/2}(x) = √(2/(πx)) sinh x, so
//!
//!   g(½, x) = ln I_{1/2}(x) − ½ ln x = ½ ln(2/π) + ln(sinh x / x).
//!
//! ν = ½ is the order of the vMF on S² (M = 3: LAM's Fashion-MNIST embeddings), where the
//! general route would sum up to 47 series terms. Accuracy: for x < ½, ln(sinh x/x) =
//! ln(1 + x²/3! + x⁴/5! + …) with no cancellation; for x ≥ ½,
//! ln(sinh x/x) = x − ln 2x + ln(1 − e^{−2x}), the first two terms in double-double. Both are
//! straight-line ([`ln_sinhc_dd_lanes`]), so the batched ln I_{1/2} runs in lanes with the
//! scalar bits.
//!
//! [`ln_sinhc_small_lanes`] and [`ln_sinhc_large_lanes`] are the `f64` twins for loops over
//! lanes (the batched `M = 3` normaliser): the same series below ½ and
//! `x + ln((1 − e^{−2x})/(2x))` above, with the in-house branch-free `exp` and `ln`; a chunk of
//! lanes takes them through [`by_side_of_half`], as the batched ln I_{1/2} does.

use super::debye::DEBYE_LANES_MAX_ARGUMENT;
use super::exp_lanes::exp_nonpositive;
use super::hankel::large_argument_log;
use crate::compensated::DoubleDouble;
use crate::special::logarithm::{ln_1p_lanes, ln_dd, ln_normal_f64, Ln};

/// ½ ln(2/π) as a double-double (mpmath, 50 digits).
const HALF_LN_2_OVER_PI: (f64, f64) = (-0.22579135264472744, 6.4622584878775846e-18);

/// `sinh x / x − 1 = Σ_{k≥1} x^{2k}/(2k+1)!` for `0 ≤ x < ½` (used there only): eight terms
/// reach `x¹⁶/17! < 10⁻¹⁹` at `x = ½`; all terms positive.
#[inline(always)]
fn sinhc_minus_one(x: f64) -> f64 {
    let y = x * x;
    y * (1.0 / 6.0
        + y * (1.0 / 120.0
            + y * (1.0 / 5040.0
                + y * (1.0 / 362880.0
                    + y * (1.0 / 39916800.0
                        + y * (1.0 / 6227020800.0
                            + y * (1.0 / 1307674368000.0 + y / 355687428096000.0)))))))
}

/// ln(sinh x / x) for x ≥ 0, as a double-double: for large x it is ≈ x − ln 2x, and the
/// Bessel ratio differences two such values, so the O(x) terms must not be rounded to `f64`.
/// Up to `x ≤ 10¹⁵⁰` this is [`ln_sinhc_dd_lanes`] (so that the batched `ν = ½` gives the
/// scalar bits); above, `e^{−2x}` is 0 and `2x` may overflow.
#[inline(always)]
fn ln_sinhc(x: f64) -> DoubleDouble {
    if x <= DEBYE_LANES_MAX_ARGUMENT {
        return ln_sinhc_dd_lanes(x);
    }
    // 2x overflows for x > f64::MAX/2 (ln C_3 at κ = f64::MAX was NaN): there ln 2x is
    // ln x + ln 2.
    let ln_2x = if x > f64::MAX / 2.0 {
        ln_dd(x).add(DoubleDouble::from_pair(super::ln_table::LN_2))
    } else {
        ln_dd(2.0 * x)
    };
    DoubleDouble::from_f64(x).sub(ln_2x)
}

/// ln(sinh x / x) as a double-double for `0 ≤ x ≤ 10¹⁵⁰`, straight-line (both branches
/// computed, one selected) so that a loop over lanes vectorises:
///
/// - `x < ½`: `ln(1 + s)`, `s = sinh x/x − 1 ∈ [0, 0.042]` by its positive series, through the
///   branch-free `ln(1 + s)` (absolute error `< 2·10⁻¹⁶`, no cancellation);
/// - `x ≥ ½`: `x − ln 2x` in double-double plus `ln(1 − e^{−2x})` in `f64`: that term lies in
///   `[−0.46, 0]`, `1 − e^{−2x} ≥ 0.63` has no cancellation, and `e^{−2x}` (branch-free, a few
///   ulps) and the logarithm add `< 5·10⁻¹⁶` absolute.
#[inline(always)]
pub(crate) fn ln_sinhc_dd_lanes(x: f64) -> DoubleDouble {
    let series = ln_sinhc_dd_small(x);
    let large = ln_sinhc_dd_large(x);
    if x < 0.5 {
        series
    } else {
        large
    }
}

/// The `x < ½` branch of [`ln_sinhc_dd_lanes`] alone (any `x` gives a finite value): for a
/// chunk of lanes that all lie below ½.
#[inline(always)]
pub(crate) fn ln_sinhc_dd_small(x: f64) -> DoubleDouble {
    DoubleDouble::from_f64(ln_1p_lanes(sinhc_minus_one(x)))
}

/// The `x ≥ ½` branch of [`ln_sinhc_dd_lanes`] alone (any `x ≤ 10¹⁵⁰` gives a finite value):
/// for a chunk of lanes that all lie at or above ½.
#[inline(always)]
pub(crate) fn ln_sinhc_dd_large(x: f64) -> DoubleDouble {
    // Clamped so that the unselected lanes stay finite: 2x ≥ 1 where the value is used, and
    // e^{−2x} rounds to 0 in `1 − e^{−2x}` long before −700.
    let ln_2x = DoubleDouble::from_f64((2.0 * x).max(1.0)).ln_normal();
    let tail = ln_1p_lanes(-exp_nonpositive((-2.0 * x).max(-700.0)));
    DoubleDouble::from_f64(x).sub(ln_2x).add_f64(tail)
}

/// ln I_{1/2}(x) for finite x > 0, in `f64` (where `½ ln x + g` spends two double-double
/// logarithms): below ½, `½ ln x + ½ ln(2/π) + ln(sinh x/x)`, whose sum is at least 0.57 in
/// size and whose terms are of that size or smaller; from ½ on, `x − ½ ln 2πx + ln(1 − e^{−2x})`
/// ([`large_argument_log`]), within `3·10⁻¹⁶` absolutely near the zero of ln I_{1/2} (x ≈ 1.09)
/// and within two ulps elsewhere: inside [`log_bessel_i`](super::log_bessel_i)'s budget.
#[inline(always)]
pub(crate) fn log_bessel_i_half(x: f64) -> f64 {
    if x < f64::MIN_POSITIVE {
        // Subnormal: ½ ln x from the exactly scaled argument (sinh x/x − 1 is 0 here).
        return 0.5f64.mul_add(
            ln_normal_f64(x * 2f64.powi(64)) - 64.0 * std::f64::consts::LN_2,
            HALF_LN_2_OVER_PI.0,
        );
    }
    if x < 0.5 {
        log_half_below(x)
    } else {
        log_half_above(x)
    }
}

/// [`log_bessel_i_half`] for `MIN_POSITIVE ≤ x ≤ 10¹⁵⁰` on a chunk of lanes, straight-line:
/// the same bits ([`by_side_of_half`]).
#[inline(always)]
pub(crate) fn log_bessel_i_half_lanes<const L: usize>(x: &[f64; L], out: &mut [f64; L]) {
    by_side_of_half(x, out, log_half_below, log_half_above);
}

/// ln I_{1/2}(x) for normal `x < ½`.
#[inline(always)]
fn log_half_below(x: f64) -> f64 {
    0.5f64.mul_add(ln_normal_f64(x), HALF_LN_2_OVER_PI.0) + ln_1p_lanes(sinhc_minus_one(x))
}

/// ln I_{1/2}(x) for normal `x ≥ ½` (e^{−2x} is 0 in `1 − e^{−2x}` long before −700).
#[inline(always)]
fn log_half_above(x: f64) -> f64 {
    large_argument_log(x, -exp_nonpositive((-2.0 * x).max(-700.0)))
}

/// g(½, x) = ln I_{1/2}(x) − ½ ln x for finite x ≥ 0.
#[inline(always)]
pub(crate) fn log_bessel_i_scaled_half(x: f64) -> DoubleDouble {
    DoubleDouble::from_pair(HALF_LN_2_OVER_PI).add(ln_sinhc(x))
}

/// `out_i = small(x_i)` for `x_i < ½`, else `large(x_i)`, on a chunk of lanes (both functions
/// finite everywhere on the chunk's range). A chunk whose lanes all lie on one side of ½ (every
/// chunk of a sorted grid but one) computes that side alone; a mixed chunk computes both in
/// every lane and selects, so that the loop stays straight-line and vectorises. Either way a
/// lane gets the same bits.
#[inline(always)]
pub(crate) fn by_side_of_half<T: Copy, const L: usize>(
    x: &[f64; L],
    out: &mut [T; L],
    small: impl Fn(f64) -> T,
    large: impl Fn(f64) -> T,
) {
    if x.iter().all(|&v| v < 0.5) {
        for (o, &v) in out.iter_mut().zip(x) {
            *o = small(v);
        }
    } else if x.iter().all(|&v| v >= 0.5) {
        for (o, &v) in out.iter_mut().zip(x) {
            *o = large(v);
        }
    } else {
        for (o, &v) in out.iter_mut().zip(x) {
            let (below, above) = (small(v), large(v));
            *o = if v < 0.5 { below } else { above };
        }
    }
}

/// ln(sinh x / x) in `f64` for `0 ≤ x < ½`, straight-line so that a loop over lanes
/// vectorises: `ln(1 + s)` with the series `s = Σ_{k≥1} x^{2k}/(2k+1)!` of [`ln_sinhc`]; with
/// [`ln_sinhc_large_lanes`] above ½ (through [`by_side_of_half`]). Error of the pair: the `ln`
/// is within `2·10⁻¹⁶` absolute plus half an ulp, `1 + s` and `q` are rounded (`≤ 3` ulps of
/// `q`, i.e. `≤ 7·10⁻¹⁶` absolute in `ln q`), `e^{−2x}` is within 4 ulps (relative to
/// `1 − e^{−2x}` that is `≤ 3·10⁻¹⁶`), plus the final sum's rounding: absolute `≤ 1.3·10⁻¹⁵`
/// plus half an ulp of the result. Any `x ≥ 0` gives a finite value.
#[inline(always)]
pub(crate) fn ln_sinhc_small_lanes(x: f64) -> f64 {
    ln_normal_f64(1.0 + sinhc_minus_one(x))
}

/// ln(sinh x / x) in `f64` for `½ ≤ x ≤ 10¹⁵⁰`: `x + ln q`, `q = (1 − e^{−2x})/(2x) ∈
/// (10⁻¹⁵¹, 0.64]` (one logarithm; `1 − e^{−2x} ≥ 0.63` has no cancellation, and `e^{−2x}`
/// underflows to 0 long before −700). Error: see [`ln_sinhc_small_lanes`]. Finite for every
/// `0 < x ≤ 10¹⁵⁰`.
#[inline(always)]
pub(crate) fn ln_sinhc_large_lanes(x: f64) -> f64 {
    let e = exp_nonpositive((-2.0 * x).max(-700.0));
    x + ln_normal_f64((1.0 - e) / (2.0 * x))
}
