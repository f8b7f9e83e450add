//! The Euclidean norm in arbitrary precision: the reference twin of
//! [`compensated::norm2`](super::norm2), for the exact twins that need `‖v‖₂` and for the proof
//! of the compensated norm (`proofs/compensated_norm.rs`).
//!
//! # What is computed
//!
//! Every entry is converted to a binary float of `p ≥ 256` bits exactly (subnormals included),
//! squared exactly (106 bits suffice for the square of a 53-bit significand), the squares are
//! summed rounding to nearest at `p` bits, and the square root is taken at `p` bits: no scaling,
//! because astro-float's exponent range holds `f64::MAX²` and `(2⁻¹⁰⁷⁴)²` alike.
//!
//! # Why it is correct
//!
//! The squares are positive, so the sum has no cancellation: its relative error is at most
//! `(n − 1)·2⁻ᵖ` for `n` entries, and the square root halves it and adds `2⁻ᵖ`. With
//! `p = 192 + ⌈log₂ n⌉` bits (at least 256;
//! `special::exact::working_precision`) the big-float norm is within
//! `2⁻¹⁹¹` of `‖v‖₂` relative, whatever the entries' magnitudes. [`norm2`] returns the `f64`
//! nearest to it and [`norm2_dd`] the double-double pair `(hi, lo)`: `hi + lo` carries about 106
//! bits. In the subnormal range the conversion to `f64` may round twice, at most one unit of the
//! last subnormal place (`special::exact::double_double`).
//!
//! Nothing here calls [`compensated`](super): it uses none of its error-free transformations,
//! scalings or sums, only the arbitrary-precision arithmetic of [`crate::special::exact`].

use astro_float::BigFloat;

use crate::special::exact::double_double::{big_from_f64, to_double_double};
use crate::special::exact::working_precision::{working_precision, RM};

/// `‖v‖₂`, reference implementation: the `f64` nearest to the norm computed in `p ≥ 256`-bit
/// arithmetic (module docs).
///
/// # Formula
///
/// $$ \lVert v\rVert_2 = \Big(\sum_i v_i^2\Big)^{1/2} $$
///
/// # Errors
///
/// NaN if an entry is NaN; `+∞` if an entry is infinite (and none is NaN), or if the norm
/// exceeds `f64::MAX` (rounded as IEEE 754 rounds an overflow). The empty vector has norm 0.
///
/// # Examples
///
/// ```
/// use probdml::compensated::exact::norm2;
/// assert_eq!(norm2(&[3.0, 4.0]), 5.0);
/// // 3·2¹⁰⁰⁰ and 4·2¹⁰⁰⁰: the squares overflow f64, not the norm.
/// let big = 2f64.powi(1000);
/// assert_eq!(norm2(&[3.0 * big, 4.0 * big]), 5.0 * big);
/// // The smallest subnormal: its square underflows f64 to zero, not here.
/// assert_eq!(norm2(&[5e-324]), 5e-324);
/// // √2 to the nearest f64.
/// assert_eq!(norm2(&[1.0, 1.0]), std::f64::consts::SQRT_2);
/// assert!(norm2(&[1.0, f64::NAN]).is_nan());
/// ```
pub fn norm2(v: &[f64]) -> f64 {
    norm2_dd(v).0
}

/// `‖v‖₂` as a double-double pair `(hi, lo)`: `hi` the `f64` nearest to the `p ≥ 256`-bit norm,
/// `lo` the `f64` nearest to the remainder, so `hi + lo` is `‖v‖₂` to about 106 bits (module
/// docs).
///
/// # Formula
///
/// As [`norm2`].
///
/// # Errors
///
/// `(NaN, NaN)` if an entry is NaN; `(+∞, 0)` if an entry is infinite or the norm exceeds
/// `f64::MAX`.
///
/// # Examples
///
/// ```
/// use probdml::compensated::exact::norm2_dd;
/// // √2 = 1.41421356237309504880168872420969807…: hi = fl(√2), lo = fl(√2 − hi)
/// // (mpmath, 40 digits: √2 − fl(√2) = −9.667293313452913e−17).
/// let (hi, lo) = norm2_dd(&[1.0, 1.0]);
/// assert_eq!(hi, std::f64::consts::SQRT_2);
/// assert!((lo + 9.667293313452913e-17).abs() < 1e-31);
/// ```
pub fn norm2_dd(v: &[f64]) -> (f64, f64) {
    if v.iter().any(|x| x.is_nan()) {
        return (f64::NAN, f64::NAN);
    }
    if v.iter().any(|x| x.is_infinite()) {
        return (f64::INFINITY, 0.0);
    }
    let p = working_precision(v.len() as f64);
    let mut sum_of_squares = BigFloat::from_u64(0, p);
    for &x in v {
        let x = big_from_f64(x, p);
        sum_of_squares = sum_of_squares.add(&x.mul(&x, p, RM), p, RM);
    }
    to_double_double(&sum_of_squares.sqrt(p, RM))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Integer vectors whose sum of squares is a perfect square, scaled by powers of two from
    /// the subnormal range to the top of the exponent range: the norm is known exactly.
    #[test]
    fn pythagorean_quadruples_at_every_scale() {
        // 1² + 2² + 2² = 3², 2² + 3² + 6² = 7², 1² + 4² + 8² = 9².
        for (v, norm) in [
            ([1.0, 2.0, 2.0], 3.0),
            ([2.0, 3.0, 6.0], 7.0),
            ([1.0, 4.0, 8.0], 9.0),
        ] {
            for e in [-1074, -1070, -1022, -600, -1, 0, 1, 600, 1019] {
                let scale = |x: f64| x * 2f64.powi(e.max(-1022)) * 2f64.powi((e + 1022).min(0));
                let scaled: Vec<f64> = v.iter().map(|&x| scale(x)).collect();
                assert_eq!(norm2_dd(&scaled), (scale(norm), 0.0), "2^{e}·{v:?}");
            }
        }
    }

    #[test]
    fn edges() {
        assert_eq!(norm2_dd(&[]), (0.0, 0.0));
        assert_eq!(norm2_dd(&[0.0, -0.0]), (0.0, 0.0));
        assert_eq!(norm2(&[-7.0]), 7.0);
        assert_eq!(norm2(&[f64::MAX, f64::MAX]), f64::INFINITY);
        assert_eq!(norm2(&[f64::MAX, 1.0]), f64::MAX);
        assert_eq!(norm2(&[f64::NEG_INFINITY, 1.0]), f64::INFINITY);
        assert!(norm2(&[f64::INFINITY, f64::NAN]).is_nan());
    }
}
