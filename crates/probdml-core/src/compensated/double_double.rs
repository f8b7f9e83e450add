//! Double-double arithmetic: an unevaluated sum `hi + lo` of two `f64` with |lo| ≤ ulp(hi)/2,
//! about 106 bits of significand (Dekker 1971; Bailey's QD library, Hida, Li & Bailey 2001).
//!
//! The type and its arithmetic; the logarithm, for the special functions, is
//! `special::logarithm`.
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

/// `hi + lo`, normalised so that `hi = fl(hi + lo)`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[doc(hidden)]
pub struct DoubleDouble {
    #[doc(hidden)]
    pub hi: f64,
    #[doc(hidden)]
    pub lo: f64,
}

/// Error-free sum: `a + b = s + e` exactly (Knuth's TwoSum, no precondition).
#[inline(always)]
#[doc(hidden)]
pub fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// Error-free sum when |a| ≥ |b| (Dekker's FastTwoSum).
#[inline(always)]
#[doc(hidden)]
pub fn fast_two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let e = b - (s - a);
    (s, e)
}

/// Error-free product `a·b = p + e` by one fused multiply-add: `e = fl(a·b − p)` is exact
/// because `a·b − p` is representable. One instruction in the AVX2+FMA copy of a dispatched
/// kernel, the C library's correctly rounded `fma` in the portable copy: the same bits
/// (`crate::instruction_set`).
#[inline(always)]
#[doc(hidden)]
pub fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// Dekker's error-free product by Veltkamp splitting, without a fused multiply-add: the
/// independent check of [`two_prod`] (same `(p, e)` whenever nothing overflows or underflows).
#[cfg(test)]
#[doc(hidden)]
pub fn two_prod_dekker(a: f64, b: f64) -> (f64, f64) {
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

// Named methods, not the `std::ops` traits: each call site of the compensated arithmetic says
// which error-free step it takes, and `a + b` on this type would read like a rounded sum.
#[allow(clippy::should_implement_trait)]
impl DoubleDouble {
    #[doc(hidden)]
    pub const ZERO: Self = Self { hi: 0.0, lo: 0.0 };

    #[inline(always)]
    #[doc(hidden)]
    pub const fn new(hi: f64, lo: f64) -> Self {
        Self { hi, lo }
    }

    #[inline(always)]
    #[doc(hidden)]
    pub const fn from_f64(v: f64) -> Self {
        Self { hi: v, lo: 0.0 }
    }

    /// The pair `(hi, lo)` of a generated constant table, already normalised by its generator
    /// (hi = fl(v), lo = fl(v − hi)).
    #[inline(always)]
    #[doc(hidden)]
    pub const fn from_pair((hi, lo): (f64, f64)) -> Self {
        Self { hi, lo }
    }

    /// Rounds to the nearest `f64` (up to the last bit of `lo`).
    #[inline(always)]
    #[doc(hidden)]
    pub fn to_f64(self) -> f64 {
        self.hi + self.lo
    }

    /// The exact product of two doubles as a double-double.
    #[inline(always)]
    #[doc(hidden)]
    pub fn product(a: f64, b: f64) -> Self {
        let (hi, lo) = two_prod(a, b);
        Self { hi, lo }
    }

    /// Sum with absolute error ≤ 2⁻¹⁰⁴·(|self| + |b|) (QD's "sloppy" addition). Under
    /// cancellation the *relative* error can grow, but every caller here needs only an
    /// absolute accuracy far coarser than 2⁻¹⁰⁴ times its operands (≤ 10⁻²⁶ at ν = 10⁵).
    #[inline(always)]
    #[doc(hidden)]
    pub fn add(self, b: Self) -> Self {
        let (s, e) = two_sum(self.hi, b.hi);
        let (hi, lo) = fast_two_sum(s, e + (self.lo + b.lo));
        Self { hi, lo }
    }

    #[inline(always)]
    #[doc(hidden)]
    pub fn neg(self) -> Self {
        Self {
            hi: -self.hi,
            lo: -self.lo,
        }
    }

    #[inline(always)]
    #[doc(hidden)]
    pub fn sub(self, b: Self) -> Self {
        self.add(b.neg())
    }

    #[inline(always)]
    #[doc(hidden)]
    pub fn add_f64(self, b: f64) -> Self {
        let (s1, s2) = two_sum(self.hi, b);
        let (hi, lo) = fast_two_sum(s1, s2 + self.lo);
        Self { hi, lo }
    }

    #[inline(always)]
    #[doc(hidden)]
    pub fn mul(self, b: Self) -> Self {
        let (p, e) = two_prod(self.hi, b.hi);
        // The cross terms by one fused multiply-add: one rounding and one operation fewer.
        let e = self.lo.mul_add(b.hi, self.hi * b.lo) + e;
        let (hi, lo) = fast_two_sum(p, e);
        Self { hi, lo }
    }

    #[inline(always)]
    #[doc(hidden)]
    pub fn mul_f64(self, b: f64) -> Self {
        let (p, e) = two_prod(self.hi, b);
        let (hi, lo) = fast_two_sum(p, self.lo.mul_add(b, e));
        Self { hi, lo }
    }

    /// Multiplication by a power of two (exact).
    #[inline(always)]
    #[doc(hidden)]
    pub fn scale(self, factor: f64) -> Self {
        Self {
            hi: self.hi * factor,
            lo: self.lo * factor,
        }
    }

    #[inline(always)]
    #[doc(hidden)]
    pub fn div(self, b: Self) -> Self {
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
    #[doc(hidden)]
    pub fn sqrt(self) -> Self {
        if self.hi <= 0.0 {
            return Self::from_f64(self.hi.sqrt());
        }
        self.sqrt_positive()
    }

    /// √self for `self.hi > 0` (the branch of [`sqrt`](Self::sqrt) for zero left out, so that
    /// lanes vectorise; same bits).
    #[inline(always)]
    #[doc(hidden)]
    pub fn sqrt_positive(self) -> Self {
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
    #[doc(hidden)]
    pub fn sqrt_and_reciprocal(self) -> (Self, f64) {
        let q = self.hi.sqrt();
        let inverse = 1.0 / q;
        let (p, e) = two_prod(q, q);
        let correction = (((self.hi - p) - e) + self.lo) * (0.5 * inverse);
        let (hi, lo) = fast_two_sum(q, correction);
        (Self { hi, lo }, inverse)
    }
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
