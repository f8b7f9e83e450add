//! Rounding an arbitrary-precision result to `f64` and to a double-double pair.
//!
//! astro-float has no public conversion to `f64`, so it is done here from the raw mantissa: the
//! value is 0.m₁m₂… × 2^e with the most significant mantissa word last. The top 64 bits, with a
//! sticky bit for everything below them, are converted by the correctly rounded `u64 → f64`
//! cast, then scaled by a power of two, which is exact unless the result is subnormal
//! (only then can a second rounding occur, at most one unit in the last subnormal place).
//!
//! The double-double pair (hi, lo) is hi = the `f64` nearest to the value and lo = the `f64`
//! nearest to the exact remainder value − hi, so hi + lo matches the value to a relative
//! 2^−106 or better (when hi is normal and the value has at least 106 correct bits).

use astro_float::{BigFloat, WORD_BIT_SIZE};

/// 2^1000, and 2^−1000: steps for scaling without intermediate overflow.
const TWO_POW_1000: f64 = f64::from_bits((1023 + 1000) << 52);
const TWO_POW_MINUS_1000: f64 = f64::from_bits((1023 - 1000) << 52);

/// f · 2^k, exact whenever the result is a normal `f64`.
fn scale_by_power_of_two(mut f: f64, mut k: i64) -> f64 {
    // f is at most 2^64 here: beyond these bounds the result overflows or rounds to zero.
    if k > 2200 {
        return f * f64::INFINITY;
    }
    if k < -2300 {
        return f * 0.0;
    }
    while k > 1000 {
        f *= TWO_POW_1000;
        k -= 1000;
    }
    while k < -1000 {
        f *= TWO_POW_MINUS_1000;
        k += 1000;
    }
    // |k| ≤ 1000, so 2^k is a normal f64 and the product is rounded once.
    f * f64::from_bits(((1023 + k) as u64) << 52)
}

/// `f` as a `BigFloat` of precision `p`, exactly, subnormal `f` included.
///
/// astro-float 0.9's `BigFloat::from_f64` maps a subnormal f64 to half its value, so subnormals
/// are scaled into the normal range first and the power of two is divided out exactly.
#[doc(hidden)]
pub fn big_from_f64(f: f64, p: usize) -> BigFloat {
    if f != 0.0 && f.is_finite() && f.abs() < f64::MIN_POSITIVE {
        let scale = BigFloat::from_f64(TWO_POW_1000, p);
        BigFloat::from_f64(f * TWO_POW_1000, p).div(&scale, p, super::working_precision::RM)
    } else {
        BigFloat::from_f64(f, p)
    }
}

/// The `f64` nearest to `b` (ties to even); NaN for NaN, ±∞ for ±∞ or on overflow.
#[doc(hidden)]
pub fn round_to_f64(b: &BigFloat) -> f64 {
    if b.is_nan() {
        return f64::NAN;
    }
    if b.is_inf_pos() {
        return f64::INFINITY;
    }
    if b.is_inf_neg() {
        return f64::NEG_INFINITY;
    }
    let negative = b.is_negative();
    let sign = if negative { -1.0 } else { 1.0 };
    if b.is_zero() {
        return sign * 0.0;
    }
    let Some((words, _, _, exponent, _)) = b.as_raw_parts() else {
        return f64::NAN;
    };
    // Gather the top 64 bits of the mantissa (most significant word last).
    let mut acc: u128 = 0;
    let mut filled = 0usize;
    let mut index = words.len();
    while filled < 64 && index > 0 {
        index -= 1;
        acc = (acc << WORD_BIT_SIZE) | words[index] as u128;
        filled += WORD_BIT_SIZE;
    }
    let mut sticky = words[..index].iter().any(|&w| w != 0);
    if filled > 64 {
        let drop = filled - 64;
        sticky |= acc & ((1u128 << drop) - 1) != 0;
        acc >>= drop;
    }
    let top = acc as u64;
    if top == 0 {
        // Only a subnormal astro-float number (exponent near −2³¹) can get here.
        return sign * 0.0;
    }
    // The sticky bit sits 11 bits below the rounding position of a normalised mantissa, so the
    // cast rounds exactly as rounding the full mantissa would.
    let mantissa = (top | sticky as u64) as f64;
    sign * scale_by_power_of_two(mantissa, exponent as i64 - 64)
}

/// The double-double pair (hi, lo) of `b`: hi = `round_to_f64(b)`, lo = the `f64` nearest to
/// b − hi (computed exactly). Non-finite hi gives (hi, 0).
#[doc(hidden)]
pub fn to_double_double(b: &BigFloat) -> (f64, f64) {
    let hi = round_to_f64(b);
    if !hi.is_finite() {
        return (hi, 0.0);
    }
    // hi has 53 bits and lies within one ulp of b, so the full-precision difference is exact.
    let remainder = b.sub_full_prec(&big_from_f64(hi, 64));
    (hi, round_to_f64(&remainder))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::special::exact::working_precision::RM;

    #[test]
    fn f64_round_trip_is_exact() {
        for &v in &[
            1.0,
            -2.5,
            0.1,
            1e-300,
            5e-324,
            1.7e308,
            117.906858685,
            -1e9 / 3.0,
        ] {
            assert_eq!(round_to_f64(&big_from_f64(v, 256)), v, "{v}");
            assert_eq!(to_double_double(&big_from_f64(v, 256)), (v, 0.0));
        }
    }

    #[test]
    fn subnormals_convert_exactly() {
        for &v in &[5e-324, 1e-310, -2.5e-320, f64::MIN_POSITIVE / 3.0] {
            assert_eq!(round_to_f64(&big_from_f64(v, 256)), v, "{v}");
        }
        // 2^−1074 · 2^1074 = 1: the value itself, not only its round trip, is right.
        let two_pow_1074 = BigFloat::from_u64(2, 256).powi(1074, 256, RM);
        assert_eq!(
            round_to_f64(&big_from_f64(5e-324, 256).mul(&two_pow_1074, 256, RM)),
            1.0
        );
    }

    #[test]
    fn one_third_is_rounded_to_nearest() {
        let third = BigFloat::from_u64(1, 256).div(&BigFloat::from_u64(3, 256), 256, RM);
        let (hi, lo) = to_double_double(&third);
        assert_eq!(hi, 1.0 / 3.0);
        // 1/3 − fl(1/3) = 1/(3·2^54), and its nearest double.
        assert_eq!(lo, 1.0 / 3.0 / 18014398509481984.0);
    }
}
