//! Double-double arithmetic: an unevaluated sum `hi + lo` of two `f64` with |lo| ≤ ulp(hi)/2,
//! about 106 bits of significand (Dekker 1971; Bailey's QD library, Hida, Li & Bailey 2001).
//!
//! Why the fast special functions need it: ln I_ν(x) and ln C_M(κ) are sums of terms of size
//! ν·ln(ν + √(ν² + x²)) ≈ 10⁶ that cancel to results near zero (ln I_ν(x) crosses zero near
//! x ≈ 0.66ν; ln C_M(κ) crosses zero as κ grows). The budget is 4e−15·max(1, |result|), so the
//! large terms are needed to ~10⁻²¹ relative: more than `f64` has. Only those few leading terms
//! are formed here; the small corrections stay in `f64`.
//!
//! Why hand-written: the operations needed are few (add, mul, div, sqrt, ln), must not allocate
//! and must inline into the Bessel kernels; the logarithm below is table-driven for speed and
//! carries an accuracy argument we can state. A general crate (`twofloat`) would bring its own
//! transcendental functions whose accuracy we would have to re-verify anyway.

use super::ln_table::{LN_2, LN_RECIPROCALS};

/// `hi + lo`, normalised so that `hi = fl(hi + lo)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct DoubleDouble {
    pub(crate) hi: f64,
    pub(crate) lo: f64,
}

/// Error-free sum: `a + b = s + e` exactly (Knuth's TwoSum, no precondition).
#[inline(always)]
pub(crate) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// Error-free sum when |a| ≥ |b| (Dekker's FastTwoSum).
#[inline(always)]
fn fast_two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let e = b - (s - a);
    (s, e)
}

/// Error-free product `a·b = p + e` by one fused multiply-add: `e = fl(a·b − p)` is exact
/// because `a·b − p` is representable. One instruction in the AVX2+FMA copy of a dispatched
/// kernel, the C library's correctly rounded `fma` in the portable copy: the same bits
/// (`crate::instruction_set`).
#[inline(always)]
pub(crate) fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// Dekker's error-free product by Veltkamp splitting, without a fused multiply-add: the
/// independent check of [`two_prod`] (same `(p, e)` whenever nothing overflows or underflows).
#[cfg(test)]
pub(crate) fn two_prod_dekker(a: f64, b: f64) -> (f64, f64) {
    // 2^27 + 1 splits a 53-bit significand into two 26-bit halves.
    const SPLIT: f64 = 134_217_729.0;
    let split = |v: f64| {
        let t = SPLIT * v;
        let h = t - (t - v);
        (h, v - h)
    };
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    let e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    (p, e)
}

impl DoubleDouble {
    #[cfg(test)]
    pub(crate) const ZERO: Self = Self { hi: 0.0, lo: 0.0 };

    #[inline(always)]
    pub(crate) const fn new(hi: f64, lo: f64) -> Self {
        Self { hi, lo }
    }

    #[inline(always)]
    pub(crate) const fn from_f64(v: f64) -> Self {
        Self { hi: v, lo: 0.0 }
    }

    /// The pair `(hi, lo)` of a generated constant table, already normalised by its generator
    /// (hi = fl(v), lo = fl(v − hi)).
    #[inline(always)]
    pub(crate) const fn from_pair((hi, lo): (f64, f64)) -> Self {
        Self { hi, lo }
    }

    /// Rounds to the nearest `f64` (up to the last bit of `lo`).
    #[inline(always)]
    pub(crate) fn to_f64(self) -> f64 {
        self.hi + self.lo
    }

    /// The exact product of two doubles as a double-double.
    #[inline(always)]
    pub(crate) fn product(a: f64, b: f64) -> Self {
        let (hi, lo) = two_prod(a, b);
        Self { hi, lo }
    }

    /// Sum with absolute error ≤ 2⁻¹⁰⁴·(|self| + |b|) (QD's "sloppy" addition). Under
    /// cancellation the *relative* error can grow, but every caller here needs only an
    /// absolute accuracy far coarser than 2⁻¹⁰⁴ times its operands (≤ 10⁻²⁶ at ν = 10⁵).
    #[inline(always)]
    pub(crate) fn add(self, b: Self) -> Self {
        let (s, e) = two_sum(self.hi, b.hi);
        let (hi, lo) = fast_two_sum(s, e + (self.lo + b.lo));
        Self { hi, lo }
    }

    #[inline(always)]
    pub(crate) fn neg(self) -> Self {
        Self {
            hi: -self.hi,
            lo: -self.lo,
        }
    }

    #[inline(always)]
    pub(crate) fn sub(self, b: Self) -> Self {
        self.add(b.neg())
    }

    #[inline(always)]
    pub(crate) fn add_f64(self, b: f64) -> Self {
        let (s1, s2) = two_sum(self.hi, b);
        let (hi, lo) = fast_two_sum(s1, s2 + self.lo);
        Self { hi, lo }
    }

    #[inline(always)]
    pub(crate) fn mul(self, b: Self) -> Self {
        let (p, e) = two_prod(self.hi, b.hi);
        // The cross terms by one fused multiply-add: one rounding and one operation fewer.
        let e = self.lo.mul_add(b.hi, self.hi * b.lo) + e;
        let (hi, lo) = fast_two_sum(p, e);
        Self { hi, lo }
    }

    #[inline(always)]
    pub(crate) fn mul_f64(self, b: f64) -> Self {
        let (p, e) = two_prod(self.hi, b);
        let (hi, lo) = fast_two_sum(p, self.lo.mul_add(b, e));
        Self { hi, lo }
    }

    /// Multiplication by a power of two (exact).
    #[inline(always)]
    fn scale(self, factor: f64) -> Self {
        Self {
            hi: self.hi * factor,
            lo: self.lo * factor,
        }
    }

    #[inline(always)]
    pub(crate) fn div(self, b: Self) -> Self {
        // Long division with two quotient digits: relative error ~2⁻¹⁰⁴.
        let q1 = self.hi / b.hi;
        let r = self.sub(b.mul_f64(q1));
        let q2 = r.hi / b.hi;
        let r = r.sub(b.mul_f64(q2));
        let q3 = r.hi / b.hi;
        let (q1, q2) = fast_two_sum(q1, q2);
        Self { hi: q1, lo: q2 }.add_f64(q3)
    }

    /// √self for self ≥ 0: one Newton (Heron) correction of the `f64` root.
    #[inline(always)]
    pub(crate) fn sqrt(self) -> Self {
        if self.hi <= 0.0 {
            return Self::from_f64(self.hi.sqrt());
        }
        self.sqrt_positive()
    }

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
    pub(crate) fn ln(self) -> Self {
        let mut a = self;
        let mut exponent: i64 = 0;
        // Bring subnormals into the normal range first (exact scaling).
        if a.hi < f64::MIN_POSITIVE {
            a = a.scale(2f64.powi(64));
            exponent -= 64;
        }
        let bits = a.hi.to_bits();
        let e = ((bits >> 52) & 0x7ff) as i64 - 1023;
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
    pub(crate) fn ln_normal(self) -> Self {
        let bits = self.hi.to_bits();
        let e = ((bits >> 52) & 0x7ff) as i64 - 1023;
        let m = self.scale(f64::from_bits(((1023 - e) as u64) << 52));
        ln_reduced(m, e as f64)
    }

    /// √self for `self.hi > 0` (the branch of [`sqrt`](Self::sqrt) for zero left out, so that
    /// lanes vectorise; same bits).
    #[inline(always)]
    pub(crate) fn sqrt_positive(self) -> Self {
        let q = self.hi.sqrt();
        let (p, e) = two_prod(q, q);
        let correction = (((self.hi - p) - e) + self.lo) / (2.0 * q);
        let (hi, lo) = fast_two_sum(q, correction);
        Self { hi, lo }
    }

    /// `(√self, 1/q)` for `self.hi > 0` normal, where `q = fl(√self.hi)` is within an ulp of
    /// `√self`: the root as in [`sqrt_positive`](Self::sqrt_positive) but with its one division
    /// turned into that reciprocal, which callers reuse for `1/√self` (the Debye kernel's
    /// `p = ν/s` and `1/s`): one division instead of three. The root's correction term,
    /// `≤ ulp(q)`, takes a relative error of two roundings more than by the division.
    #[inline(always)]
    pub(crate) fn sqrt_and_reciprocal(self) -> (Self, f64) {
        let q = self.hi.sqrt();
        let inverse = 1.0 / q;
        let (p, e) = two_prod(q, q);
        let correction = (((self.hi - p) - e) + self.lo) * (0.5 * inverse);
        let (hi, lo) = fast_two_sum(q, correction);
        (Self { hi, lo }, inverse)
    }
}

/// `exponent·ln 2 + ln m` for `m ∈ [1, 2)` (the reduced argument of [`DoubleDouble::ln`]).
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
    let (hi, lo) = fast_two_sum(q_hi, q_lo + (-q_hi).mul_add(q_lo, bracket));
    let e_ln2 = DoubleDouble::from_pair(LN_2).mul_f64(exponent);
    e_ln2
        .add(DoubleDouble::new(neg_ln_r_hi, neg_ln_r_lo))
        .add(DoubleDouble::new(hi, lo))
}

/// ln y for y ∈ [1, 2] in plain `f64` with absolute error < 2·10⁻¹⁶, by the same table as
/// [`DoubleDouble::ln`]: q = y r_j − 1 by one fused multiply-add (|q| ≤ 2⁻⁸, error ≤ 2⁻⁶²),
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
    let bits = y.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
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

/// ln x for a positive `f64`, as a double-double.
#[inline(always)]
pub(crate) fn ln_dd(x: f64) -> DoubleDouble {
    DoubleDouble::from_f64(x).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fma_and_dekker_products_agree() {
        for &(a, b) in &[
            (1.0 / 3.0, 3.0),
            (0.1, 0.7),
            (123456.789, 9.87654321e-5),
            (1e300, 1e-300),
            (-2.5e-7, 4.0e7 + 1.0 / 3.0),
        ] {
            let (p1, e1) = two_prod_dekker(a, b);
            let p = a * b;
            let e = a.mul_add(b, -p);
            assert_eq!((p1, e1), (p, e), "a = {a}, b = {b}");
        }
    }

    /// The reduction table against astro-float at 256 bits (an arbitrary-precision library,
    /// not mpmath, which generated the table): each −ln r_j, and ln 2, ln 2π, ½ ln 2π, as the
    /// exact (nearest, nearest remainder) pair; and ln in double-double at the ends of its range. A lost sign or digit in a low word changes a
    /// logarithm by ~10⁻¹⁸, below what the outputs' tests can see.
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

    #[test]
    fn sqrt_and_div_are_inverse() {
        for &v in &[2.0, 3.0, 1e-10, 12345.678, 1e300] {
            let r = DoubleDouble::from_f64(v).sqrt();
            let back = r.mul(r).sub(DoubleDouble::from_f64(v)).to_f64().abs();
            assert!(back <= 1e-31 * v, "v = {v}: {back:e}");
            let q = DoubleDouble::from_f64(v).div(r);
            assert!(q.sub(r).to_f64().abs() <= 1e-31 * r.hi);
        }
    }
}
