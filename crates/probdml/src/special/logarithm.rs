//! The natural logarithm in double-double (and its `f64` relatives for the kernels' lanes):
//! table-driven, with the accuracy argument stated at [`Ln::ln`].

use super::ln_table::{LN_2, LN_RECIPROCALS};
use crate::compensated::double_double::{fast_two_sum, two_prod, two_sum, DoubleDouble};

/// ln 2 split for exact products by a binary exponent (Cody and Waite): the high part keeps the
/// top 32 bits of the double nearest ln 2, so `e · LN_2_HI` is exact for |e| < 2²¹; the low
/// part is the rest of the double-double ln 2.
pub(crate) const LN_2_HI: f64 = f64::from_bits(LN_2.0.to_bits() & !0x1f_ffff);
/// The rest of ln 2 below [`LN_2_HI`] (`LN_2.0 − LN_2_HI` is exact: the cleared bits).
pub(crate) const LN_2_LO: f64 = (LN_2.0 - LN_2_HI) + LN_2.1;

/// The binary exponent of a normal `v > 0`: `⌊log₂ v⌋`, read from the bits (an integer shift
/// that vectorises).
#[inline(always)]
pub(crate) fn binary_exponent(v: f64) -> i64 {
    ((v.to_bits() >> 52) & 0x7ff) as i64 - 1023
}

/// `(e, m)` with `v = 2^e m`, `m ∈ [1, 2)`, for a normal `v > 0`: exact, from the bits.
#[inline(always)]
pub(crate) fn binary_parts(v: f64) -> (i64, f64) {
    let m = f64::from_bits((v.to_bits() & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    (binary_exponent(v), m)
}

/// The logarithm of a [`DoubleDouble`] (a trait, as the type is the error-free arithmetic's and
/// the logarithm is the special functions').
pub(crate) trait Ln {
    /// ln self for `self.hi > 0`.
    fn ln(self) -> Self;
    /// ln self for `MIN_POSITIVE ≤ self.hi < 2¹⁰²³`.
    fn ln_normal(self) -> Self;
    /// ln(self / den) for `self.hi` normal and positive, `den > 0` finite (normal or
    /// subnormal), with [`ln`](Self::ln)'s accuracy: the quotient is never formed at its own
    /// scale, so it cannot overflow (`(ν + s)/x` at a subnormal `x`).
    fn ln_over(self, den: f64) -> Self;
    /// [`ln_over`](Self::ln_over) for a normal `den` (`MIN_POSITIVE ≤ den`), without its
    /// branch: the same operations, hence the same bits, in a body that vectorises.
    fn ln_over_normal(self, den: f64) -> Self;
}

impl Ln for DoubleDouble {
    /// ln(self) for self > 0 (finite, normal or subnormal): |error| ≤ 2⁻¹⁰⁴·|ln self| + 2·10⁻²¹.
    ///
    /// That absolute floor is what the Bessel kernels need: they multiply a logarithm by at most
    /// ν ≤ 10⁵, which keeps the product's error below 2·10⁻¹⁶, far inside their 4·10⁻¹⁵ budget.
    ///
    /// Writes self = 2^e · m with m ∈ [1, 2), picks the j-th of 128 intervals of [1, 2) and the
    /// tabulated r_j ≈ 1/c_j (c_j the interval's midpoint), and forms q = m r_j − 1 exactly with
    /// an error-free product (m r_j lies within 2⁻⁸ of 1, so subtracting 1 is exact): no
    /// division. Then ln self = e ln 2 − ln r_j + ln(1 + q) with −ln r_j from a 40-digit table,
    /// and ln(1 + q) = q + (−q²/2 + q³/3 − … + q¹⁰/10): q in double-double, the bracket
    /// (< 8·10⁻⁶ in size) in `f64`, where its rounding stays below 2·10⁻²¹; the first omitted
    /// term q¹¹/11 is < 3·10⁻²⁸.
    #[inline(always)]
    fn ln(self) -> Self {
        let mut a = self;
        let mut exponent: i64 = 0;
        // Bring subnormals into the normal range first (exact scaling).
        if a.hi < f64::MIN_POSITIVE {
            a = a.scale(2f64.powi(64));
            exponent -= 64;
        }
        let e = binary_exponent(a.hi);
        exponent += e;
        // 2^(−e) as a double, exact for e ∈ [−1022, 1022]; the top binade goes in two steps.
        let m = if e < 1023 {
            a.scale(f64::from_bits(((1023 - e) as u64) << 52))
        } else {
            a.scale(0.5)
                .scale(f64::from_bits(((1024 - e) as u64) << 52))
        };
        ln_reduced(m, exponent as f64)
    }

    /// [`ln`](Self::ln) for `MIN_POSITIVE ≤ self.hi < 2¹⁰²³`, without its two range branches:
    /// the same operations, hence the same bits, in a body that the compiler can vectorise
    /// across lanes (the batched normaliser, `vmf/normaliser_batch.rs`).
    #[inline(always)]
    fn ln_normal(self) -> Self {
        let e = binary_exponent(self.hi);
        let m = self.scale(f64::from_bits(((1023 - e) as u64) << 52));
        ln_reduced(m, e as f64)
    }

    #[inline(always)]
    fn ln_over(self, den: f64) -> Self {
        if den < f64::MIN_POSITIVE {
            // A subnormal denominator, brought into the normal range (exact scaling): the
            // quotient's logarithm gains 64 ln 2.
            return self
                .ln_over_normal(den * 2f64.powi(64))
                .add(DoubleDouble::from_pair(LN_2).mul_f64(64.0));
        }
        self.ln_over_normal(den)
    }

    #[inline(always)]
    fn ln_over_normal(self, den: f64) -> Self {
        // self = 2^a n, den = 2^b d with n, d ∈ [1, 2) (exact: exponent bits), so that
        // self/den = 2^(a−b) · n/d and n/d ∈ (½, 2) is formed without overflow.
        let a = binary_exponent(self.hi);
        let n = self.scale(f64::from_bits(((1023 - a) as u64) << 52));
        let (b, d) = binary_parts(den);
        // n/d as a double-double from one division: q₁ = n·(1/d) is within two ulps of the
        // quotient, so n_hi − q₁d is exact (Sterbenz) and the remainder (with n_lo) is formed
        // to a relative 2⁻⁵³; its quotient q₂ ≤ 2⁻⁵⁰ q₁ then carries a relative error of
        // 2⁻⁵² from the reciprocal's rounding: the pair is within 2⁻¹⁰¹ of n/d, which moves
        // the logarithm by as much, absolutely.
        let inverse = 1.0 / d;
        let q1 = n.hi * inverse;
        let (p, e) = two_prod(q1, d);
        let remainder = ((n.hi - p) - e) + n.lo;
        let (hi, lo) = fast_two_sum(q1, remainder * inverse);
        // Into [1, 2): a quotient below 1 is doubled (exact), its exponent lowered by one
        // (a select, as the lanes need).
        let below = hi < 1.0;
        let factor = if below { 2.0 } else { 1.0 };
        let m = DoubleDouble::new(hi * factor, lo * factor);
        let exponent = (a - b) as f64 - if below { 1.0 } else { 0.0 };
        ln_reduced(m, exponent)
    }
}

/// `exponent·ln 2 + ln m` for `m ∈ [1, 2)` (the reduced argument of [`Ln::ln`]).
#[inline(always)]
fn ln_reduced(m: DoubleDouble, exponent: f64) -> DoubleDouble {
    // j = ⌊(m − 1)·128⌋ is the top seven fraction bits of m ∈ [1, 2): read from the bits, an
    // integer shift that vectorises (a saturating float-to-int conversion does not).
    let j = ((m.hi.to_bits() >> 45) & 127) as usize;
    let (r, neg_ln_r_hi, neg_ln_r_lo) = LN_RECIPROCALS[j];
    let (p, p_err) = two_prod(m.hi, r);
    // p − 1 is exact (Sterbenz), and q = (p − 1) + p_err + m.lo·r.
    let (q_hi, q_lo) = two_sum(p - 1.0, m.lo.mul_add(r, p_err));
    let qf = q_hi;
    // Horner by fused multiply-adds: one rounding per step instead of two, and half the
    // operations (the lanes are bound by floating-point throughput).
    let mut poly: f64 = -0.1;
    for c in [
        1.0 / 9.0,
        -0.125,
        1.0 / 7.0,
        -1.0 / 6.0,
        0.2,
        -0.25,
        1.0 / 3.0,
        -0.5,
    ] {
        poly = poly.mul_add(qf, c);
    }
    let bracket = qf * qf * poly;
    // d/dq of the bracket is ≈ −q, so the q_lo part of q contributes −q_hi·q_lo.
    let tail = q_lo + (-q_hi).mul_add(q_lo, bracket);
    // e ln 2 − ln r_j + q_hi by two error-free sums, e ln 2 split so that e·LN_2_HI is exact
    // (|e| ≤ 1100 < 2²¹); everything below an ulp of the result (the low words, the sums'
    // errors, the bracket) gathered in one `f64` whose rounding is ≤ 2⁻⁵³ of its size (< 10⁻²³
    // absolutely, e·LN_2_LO ≤ 2·10⁻⁷ being the largest).
    let (a, a_err) = two_sum(exponent * LN_2_HI, neg_ln_r_hi);
    let (b, b_err) = two_sum(a, q_hi);
    let low = exponent.mul_add(LN_2_LO, neg_ln_r_lo) + (tail + (a_err + b_err));
    let (hi, lo) = fast_two_sum(b, low);
    DoubleDouble::new(hi, lo)
}

/// ln y for y ∈ [1, 2] in plain `f64` with absolute error < 2·10⁻¹⁶, by the same table as
/// [`Ln::ln`]: q = y r_j − 1 by one fused multiply-add (|q| ≤ 2⁻⁸, error ≤ 2⁻⁶²),
/// then −ln r_j + q − q²/2 + … + q⁷/7 (omitted q⁸/8 < 2·10⁻²⁰). Cheaper than `ln_1p` where
/// the kernels need only an absolute accuracy on a quantity in [0, ln 2].
#[inline(always)]
pub(crate) fn ln_1_to_2(y: f64) -> f64 {
    // j = min(⌊(y − 1)·128⌋, 127): the top seven fraction bits of y ∈ [1, 2), and 127 at y = 2
    // (as bits and a select, which vectorise).
    let j = if y >= 2.0 {
        127
    } else {
        ((y.to_bits() >> 45) & 127) as usize
    };
    let (r, neg_ln_r_hi, neg_ln_r_lo) = LN_RECIPROCALS[j];
    let q = y.mul_add(r, -1.0);
    // Horner by fused multiply-adds, as in `ln_reduced`.
    let mut poly: f64 = 1.0 / 7.0;
    for c in [-1.0 / 6.0, 0.2, -0.25, 1.0 / 3.0, -0.5] {
        poly = poly.mul_add(q, c);
    }
    let poly = q * q * poly;
    neg_ln_r_hi + (q + (poly + neg_ln_r_lo))
}

/// ln y for a normal positive `f64` (`MIN_POSITIVE ≤ y < ∞`, not checked), straight-line:
/// `e ln 2 + ln m` with `y = 2^e m`, `m ∈ [1, 2)` read from the bits and [`ln_1_to_2`]:
/// absolute error `< 2·10⁻¹⁶` plus the final rounding (half an ulp of the result).
#[inline(always)]
pub(crate) fn ln_normal_f64(y: f64) -> f64 {
    let (e, m) = binary_parts(y);
    let e = e as f64;
    e.mul_add(LN_2.0, e.mul_add(LN_2.1, ln_1_to_2(m)))
}

/// ln(1 + s) for `s ≥ −½` finite, straight-line (the kernels' replacement for the C library's
/// `ln_1p`, which no loop over lanes can vectorise): `u = fl(1 + s)` and
/// `ln(1 + s) = ln u + ln(1 + δ/u) ≈ ln u + δ/u` with `δ = (1 + s) − u = s − (u − 1)`, exact
/// since `u − 1` is (Sterbenz for `u ≤ 2`, a multiple of `ulp(u)` no larger than `u` above).
/// Absolute error `< 2·10⁻¹⁶` (from [`ln_normal_f64`]) plus `δ²/u² < 10⁻³²` plus the rounding
/// of the result: what the Bessel kernels need, whose budget is absolute below 1 (the relative
/// accuracy of `ln_1p` for tiny `s` is not needed there).
#[inline(always)]
pub(crate) fn ln_1p_lanes(s: f64) -> f64 {
    let u = 1.0 + s;
    ln_normal_f64(u) + (s - (u - 1.0)) / u
}

/// ln(1 + z) for `|z| ≤ ¼` (not checked), straight-line, with a *relative* error of a few ulps
/// also for tiny `z` (where [`ln_1p_lanes`] is only absolutely accurate): the cancellation-free
/// vMF complement (`vmf/complement.rs`) sums such logarithms of size `1/κ`.
///
/// `ln(1 + z) = 2 atanh w` with `w = z/(2 + z)`, `|w| ≤ 1/7`, by its series
/// `2w Σ_{j≤9} w^{2j}/(2j + 1)` (first omitted term `7⁻²⁰/21` relative); `w` carries the two
/// roundings of `2 + z` and the division, the sum about one more: three ulps.
#[inline(always)]
pub(crate) fn ln_1p_small(z: f64) -> f64 {
    let w = z / (2.0 + z);
    let w2 = w * w;
    let mut poly: f64 = 1.0 / 19.0;
    for c in [
        1.0 / 17.0,
        1.0 / 15.0,
        1.0 / 13.0,
        1.0 / 11.0,
        1.0 / 9.0,
        1.0 / 7.0,
        0.2,
        1.0 / 3.0,
    ] {
        poly = poly.mul_add(w2, c);
    }
    let twice = w + w;
    twice.mul_add(w2 * poly, twice)
}

/// ln(1 + z) for `−¼ ≤ z` finite (not checked), straight-line, relatively accurate to a few ulps:
/// [`ln_1p_small`] for `|z| ≤ ¼`; above, the result is at least `ln 1.25 ≈ 0.22`, where the
/// absolute accuracy of [`ln_1p_lanes`] is a relative one. Both are computed and one is
/// selected, so that a loop over lanes vectorises.
#[inline(always)]
pub(crate) fn ln_1p_relative(z: f64) -> f64 {
    let small = ln_1p_small(z);
    let large = ln_1p_lanes(z);
    if z.abs() <= 0.25 {
        small
    } else {
        large
    }
}

/// asinh y for `0 ≤ y ≤ 0.24` (not checked): [`asinh_lanes`]'s formula with its logarithm's
/// argument `t ≤ ¼`, where [`ln_1p_relative`] takes [`ln_1p_small`]: the same value without
/// the other branch's cost.
#[inline(always)]
pub(crate) fn asinh_small(y: f64) -> f64 {
    ln_1p_small(asinh_argument(y))
}

/// `t = y + y²/(1 + √(1 + y²))`, that is `y + √(1 + y²) − 1` without its cancellation, so that
/// asinh y = ln(1 + t).
#[inline(always)]
fn asinh_argument(y: f64) -> f64 {
    let y2 = y * y;
    y + y2 / (1.0 + (1.0 + y2).sqrt())
}

/// asinh y for `0 ≤ y ≤ 10¹⁵⁰` (not checked), straight-line, relatively accurate to a few ulps:
/// `ln(1 + t)` with `t = y + y²/(1 + √(1 + y²))` (that is `y + √(1 + y²) − 1` without its
/// cancellation) by [`ln_1p_relative`]. `y²` stays finite below the bound.
#[inline(always)]
pub(crate) fn asinh_lanes(y: f64) -> f64 {
    ln_1p_relative(asinh_argument(y))
}

/// ln x for a positive `f64`, as a double-double.
#[inline(always)]
pub(crate) fn ln_dd(x: f64) -> DoubleDouble {
    DoubleDouble::from_f64(x).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_table_is_the_256_bit_logarithm() {
        use super::super::ln_table::{HALF_LN_2PI, LN_2PI};
        use crate::special::exact::double_double::{big_from_f64, to_double_double};
        use crate::special::exact::working_precision::{with_consts, RM};
        let p = 256;
        with_consts(|cc| {
            for (j, &(r, hi, lo)) in LN_RECIPROCALS.iter().enumerate() {
                // r_j is the double nearest 1/c_j, c_j = 1 + (2j + 1)/256 (exact in f64).
                let c = 1.0 + (2 * j + 1) as f64 / 256.0;
                assert_eq!(r, 1.0 / c, "r_{j}");
                let neg_ln = big_from_f64(r, p).ln(p, RM, cc).neg();
                assert_eq!(to_double_double(&neg_ln), (hi, lo), "−ln r_{j}");
            }
            let two = big_from_f64(2.0, p);
            assert_eq!(to_double_double(&two.ln(p, RM, cc)), LN_2, "ln 2");
            let two_pi = cc.pi(p, RM).mul(&two, p, RM);
            let ln_two_pi = two_pi.ln(p, RM, cc);
            assert_eq!(to_double_double(&ln_two_pi), LN_2PI, "ln 2π");
            let half = ln_two_pi.div(&two, p, RM);
            assert_eq!(to_double_double(&half), HALF_LN_2PI, "½ ln 2π");
            // ln in double-double at the ends of the range, against the same library: the
            // bottom normal binade (an odd mantissa: halving it would drop a bit), the
            // subnormals, and the top binade (scaled in two steps).
            let min = f64::MIN_POSITIVE;
            for x in [
                min * (1.0 + f64::EPSILON),
                min * 1.75,
                f64::from_bits(1),
                min / 3.0,
                f64::MAX,
                1.5 * 2f64.powi(1023),
            ] {
                let (hi, lo) = to_double_double(&big_from_f64(x, p).ln(p, RM, cc));
                let got = ln_dd(x);
                let err = got.sub(DoubleDouble::new(hi, lo)).to_f64().abs();
                // The bound of ln_of_exact_powers_of_two_and_e_squared: the table's pair, and
                // the series bracket's f64 rounding (< 2·10⁻²¹).
                assert!(err <= 1e-31 * hi.abs() + 2e-21, "ln {x:e}: error {err:e}");
            }
        })
        .expect("astro-float constants");
    }

    #[test]
    fn ln_of_exact_powers_of_two_and_e_squared() {
        // ln 2^k = k ln 2 exactly in double-double.
        let ln2 = DoubleDouble::from_pair(LN_2);
        for k in [-1074i32, -1000, -1, 1, 10, 1023] {
            // 2^k from its bits: `powi` runs as repeated products and 1/2^1074 is 1/∞ = 0.
            let x = if k >= -1022 {
                f64::from_bits(((k + 1023) as u64) << 52)
            } else {
                f64::from_bits(1u64 << (k + 1074))
            };
            let got = ln_dd(x);
            let want = ln2.mul_f64(k as f64);
            let err = got.sub(want).to_f64().abs();
            assert!(err <= 1e-31 * want.hi.abs() + 2e-21, "k = {k}: err {err:e}");
        }
        // ln x for doubles x, as (hi, lo) from mpmath at 50 digits:
        // python3 -c "import mpmath as mp; mp.mp.dps=50; l=mp.log(mp.mpf(x)); h=float(l); print(h, float(l-h))"
        // The high word of ln 10 is `LN_10` itself: it is spelled out because the table is
        // mpmath's output, checked value by value.
        #[allow(clippy::approx_constant)]
        let table = [
            (3.0, 1.0986122886681098, -9.07129723500153e-17),
            (10.0, 2.302585092994046, -2.1707562233822494e-16),
            (0.1, -2.3025850929940455, -1.7150243628057985e-16),
            (123456.789, 11.723646487185881, -4.1025541885795297e-16),
            (1e-300, -690.7755278982137, -2.3670096176709832e-14),
            (1.00390625, 0.003898640415657323, 1.2541659038304973e-19),
        ];
        for &(x, hi, lo) in &table {
            let got = ln_dd(x);
            let err = got.sub(DoubleDouble::new(hi, lo)).to_f64().abs();
            // The table's lo has 17 significant digits: ~1e-33 relative to hi; the bound is
            // the documented one of `ln`.
            assert!(err <= 1e-31 * hi.abs() + 2e-21, "x = {x}: err {err:e}");
        }
    }

    /// Against the C library (within an ulp): relative error of a few ulps from `10⁻³⁰⁰` up,
    /// on both sides of the switch at `|z| = ¼`.
    #[test]
    fn ln_1p_and_asinh_are_relatively_accurate() {
        let (mut worst_ln, mut worst_asinh) = (0.0_f64, 0.0_f64);
        let mut t = 1e-300_f64;
        while t < 1e150 {
            for v in [t, t * 1.234_567_89, t * 2.345_678] {
                if v <= 1e150 {
                    worst_asinh = worst_asinh.max((asinh_lanes(v) / v.asinh() - 1.0).abs());
                }
                for z in [v, -v] {
                    if (-0.25..1e300).contains(&z) {
                        worst_ln = worst_ln.max((ln_1p_relative(z) / z.ln_1p() - 1.0).abs());
                    }
                }
            }
            t *= 1.9;
        }
        for z in [
            0.25_f64,
            -0.25,
            0.25_f64.next_up(),
            (-0.25_f64).next_up(),
            0.3,
            2.0,
            4.0,
        ] {
            worst_ln = worst_ln.max((ln_1p_relative(z) / z.ln_1p() - 1.0).abs());
        }
        assert!(worst_ln <= 4.0 * f64::EPSILON, "ln_1p: {worst_ln:e}");
        assert!(worst_asinh <= 4.0 * f64::EPSILON, "asinh: {worst_asinh:e}");
        assert_eq!((ln_1p_relative(0.0), asinh_lanes(0.0)), (0.0, 0.0));
    }

    /// The branch-free small forms are the general ones' values on their domains (`|z| ≤ ¼`,
    /// `y ≤ 0.24`), bit for bit, up to the domains' ends.
    #[test]
    fn small_forms_are_the_general_values() {
        let mut t = 1e-300_f64;
        while t < 0.25 {
            for z in [t, -t, 0.25, -0.25] {
                assert_eq!(
                    ln_1p_small(z).to_bits(),
                    ln_1p_relative(z).to_bits(),
                    "z = {z}"
                );
            }
            if t <= 0.24 {
                assert_eq!(
                    asinh_small(t).to_bits(),
                    asinh_lanes(t).to_bits(),
                    "y = {t}"
                );
            }
            t *= 1.37;
        }
        assert_eq!(asinh_small(0.24).to_bits(), asinh_lanes(0.24).to_bits());
    }
}
