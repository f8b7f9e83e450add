//! The register tiles of x86-64, written with intrinsics: an `MR × NR` block of C held in
//! vector registers for a whole block of k.
//!
//! Each kernel is the loop of the portable [`tile`](super::tile): for each k, `NR/L` vectors of
//! B, then for each of the `MR` rows the broadcast a_ik and one multiply-add per vector, so
//! each entry's chain advances in the order of k. The fused kernels round each term once:
//! `vfmadd` in the AVX copies, and in the SSE2 copy, which has no FMA instruction, an exact
//! emulation of it ([`fma_emulated_pd`], [`fma_emulated_ps`]); together they give
//! [`Order::Fixed`](super::Order) the same bits in every copy. The unfused kernels round the
//! product and the sum (`mulps` then `addps`): the SSE2 copy's [`Order::Any`](super::Order).
//! Written with intrinsics because the compiler keeps a tile of scalars in registers only when
//! it unrolls the whole tile, which it stops doing for the larger tiles (an 8 × 32 tile of
//! `f32` written as scalar loops ran 17× slower than faer's product).

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::step::Step;

/// Defines one tile kernel: `$t` elements, `$v` vectors of `$lanes`, `$rows` rows by
/// `$vectors` vectors, compiled with `$feature`. It computes a `$rows × ($lanes·$vectors)`
/// tile of C, whose rows are `stride` apart in `c`, over one block of k (module docs of
/// [`super`]).
macro_rules! tile_kernel {
    (
        $(#[$doc:meta])*
        $name:ident: $feature:literal, $t:ty, $v:ty, $lanes:literal x $rows:literal x $vectors:literal,
        load = $load:ident, store = $store:ident, splat = $splat:ident, mul = $mul:ident,
        madd = $madd:path
    ) => {
        $(#[$doc])*
        ///
        /// # Safety
        ///
        /// The CPU must have the kernel's target features.
        #[target_feature(enable = $feature)]
        pub(super) unsafe fn $name(
            a_panel: &[$t],
            b_panel: &[$t],
            c: &mut [$t],
            stride: usize,
            alpha: $t,
            step: Step,
        ) {
            assert!(
                c.len() >= ($rows - 1) * stride + $lanes * $vectors,
                "a tile of C beyond its slice"
            );
            let c = c.as_mut_ptr();
            // SAFETY: the tile's rows start at r·stride for r < $rows and hold
            // $lanes·$vectors elements, all inside `c` (asserted above); each load or store
            // moves $lanes elements at offset v·$lanes < $lanes·$vectors of a row of `c` or of
            // a row of the B panel; the features are the function's own.
            unsafe {
                let mut acc: [[$v; $vectors]; $rows] = [[$splat(0.0); $vectors]; $rows];
                if step.continues {
                    for r in 0..$rows {
                        for v in 0..$vectors {
                            acc[r][v] = $load(c.add(r * stride + v * $lanes));
                        }
                    }
                }
                for (a_k, b_k) in a_panel
                    .chunks_exact($rows)
                    .zip(b_panel.chunks_exact($lanes * $vectors))
                {
                    let a_k: &[$t; $rows] = a_k.try_into().expect("a row of the A panel");
                    let b_k: &[$t; $lanes * $vectors] =
                        b_k.try_into().expect("a row of the B panel");
                    let mut b = [$splat(0.0); $vectors];
                    for v in 0..$vectors {
                        b[v] = $load(b_k.as_ptr().add(v * $lanes));
                    }
                    for r in 0..$rows {
                        let a = $splat(a_k[r]);
                        for v in 0..$vectors {
                            acc[r][v] = $madd(a, b[v], acc[r][v]);
                        }
                    }
                }
                let alpha = $splat(alpha);
                for r in 0..$rows {
                    for v in 0..$vectors {
                        let out = if step.last { $mul(alpha, acc[r][v]) } else { acc[r][v] };
                        $store(c.add(r * stride + v * $lanes), out);
                    }
                }
            }
        }
    };
}

/// `a·b + c` with the product and the sum each rounded (SSE2 has no fused form).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn madd_ps(a: __m128, b: __m128, c: __m128) -> __m128 {
    _mm_add_ps(_mm_mul_ps(a, b), c)
}

/// `a·b + c` with the product and the sum each rounded (SSE2 has no fused form).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn madd_pd(a: __m128d, b: __m128d, c: __m128d) -> __m128d {
    _mm_add_pd(_mm_mul_pd(a, b), c)
}

/// (s, e) with s = fl(x + y) and s + e = x + y exactly (Knuth's TwoSum: no condition on the
/// operands' order; exact unless s overflows).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn two_sum_pd(x: __m128d, y: __m128d) -> (__m128d, __m128d) {
    let s = _mm_add_pd(x, y);
    let y_part = _mm_sub_pd(s, x);
    let x_part = _mm_sub_pd(s, y_part);
    let e = _mm_add_pd(_mm_sub_pd(x, x_part), _mm_sub_pd(y, y_part));
    (s, e)
}

/// x + y rounded to odd: the representable neighbour of x + y whose last significand bit is
/// 1, or x + y itself when it is representable. From TwoSum's s = fl(x + y) and e = x + y − s:
/// when e ≠ 0 the two neighbours of x + y are s and its neighbour on e's side, adjacent bit
/// patterns of opposite parity; the odd one is (bits(s) − 1) | 1 when e points towards zero
/// (its sign opposite to s's) and bits(s) | 1 when it points away. The bits are handled as
/// integers: a float operation would read a last bit as a subnormal, which a caller's
/// denormals-are-zero mode flushes. A NaN e (an infinite operand) leaves s as it is.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn add_round_to_odd_pd(x: __m128d, y: __m128d) -> __m128d {
    let (s, e) = two_sum_pd(x, y);
    let zero = _mm_setzero_pd();
    let inexact = _mm_castpd_si128(_mm_and_pd(_mm_cmpneq_pd(e, zero), _mm_cmpord_pd(e, e)));
    let bits = _mm_castpd_si128(s);
    let towards_zero = _mm_srli_epi64::<63>(_mm_castpd_si128(_mm_xor_pd(s, e)));
    let odd = _mm_or_si128(_mm_sub_epi64(bits, towards_zero), _mm_set1_epi64x(1));
    // bits where exact, odd where not (SSE2 has no blend: bits ^ ((bits ^ odd) & inexact)).
    _mm_castsi128_pd(_mm_xor_si128(
        bits,
        _mm_and_si128(_mm_xor_si128(bits, odd), inexact),
    ))
}

/// Veltkamp's split x = hi + lo with hi on 26 bits and lo on 27, both exact (|x| < 2⁹⁹⁶).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn split_pd(x: __m128d) -> (__m128d, __m128d) {
    let t = _mm_mul_pd(_mm_set1_pd(134_217_729.0), x);
    let hi = _mm_sub_pd(t, _mm_sub_pd(t, x));
    (hi, _mm_sub_pd(x, hi))
}

/// fl(a·b + c) rounded once, as `vfmadd` rounds it, in SSE2: Boldo and Melquiond's emulation
/// (IEEE Trans. Computers 57(4), 2008, Algorithm 5): a·b = p + q exactly (Dekker's product on
/// Veltkamp's halves), c + p = t + u exactly (TwoSum), v = u + q rounded to odd, result
/// fl(t + v). Rounding to odd keeps the information a second rounding needs, so the final sum
/// rounds a·b + c correctly. Exact when no intermediate overflows or underflows: the caller
/// sends only operands that are zero or of magnitude in [2⁻⁴⁰⁰, 2⁴⁰⁰] (every product is then
/// zero or at least 2⁻⁸⁰⁰, every sum of them a multiple of 2⁻⁹⁰⁴, far from the subnormals,
/// and far below overflow; [`super::Element::EXACT_EMULATION_RANGE`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
pub(super) fn fma_emulated_pd(a: __m128d, b: __m128d, c: __m128d) -> __m128d {
    let (a_hi, a_lo) = split_pd(a);
    let (b_hi, b_lo) = split_pd(b);
    let p = _mm_mul_pd(a, b);
    // Dekker: q = ((a_hi·b_hi − p) + a_hi·b_lo + a_lo·b_hi) + a_lo·b_lo, every step exact.
    let q = _mm_add_pd(
        _mm_add_pd(
            _mm_add_pd(
                _mm_sub_pd(_mm_mul_pd(a_hi, b_hi), p),
                _mm_mul_pd(a_hi, b_lo),
            ),
            _mm_mul_pd(a_lo, b_hi),
        ),
        _mm_mul_pd(a_lo, b_lo),
    );
    let (t, u) = two_sum_pd(c, p);
    _mm_add_pd(t, add_round_to_odd_pd(u, q))
}

/// fl(a·b + c) rounded once in `f32`, in SSE2: a·b is exact in `f64` (48 significant bits),
/// a·b + c is rounded to odd in `f64` (53 bits, two more than the 24 of `f32` need: Boldo and
/// Melquiond, Theorem 1) and then to nearest in `f32`. Exact for every finite operand; an
/// infinite or NaN one gives what `vfmadd` gives up to the NaN's payload.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
pub(super) fn fma_emulated_ps(a: __m128, b: __m128, c: __m128) -> __m128 {
    let half = |a: __m128d, b: __m128d, c: __m128d| add_round_to_odd_pd(_mm_mul_pd(a, b), c);
    let low = half(_mm_cvtps_pd(a), _mm_cvtps_pd(b), _mm_cvtps_pd(c));
    let high = half(
        _mm_cvtps_pd(_mm_movehl_ps(a, a)),
        _mm_cvtps_pd(_mm_movehl_ps(b, b)),
        _mm_cvtps_pd(_mm_movehl_ps(c, c)),
    );
    _mm_movelh_ps(_mm_cvtpd_ps(low), _mm_cvtpd_ps(high))
}

#[cfg(target_arch = "x86_64")]
tile_kernel! {
    /// 6 × 8 `f32`, unfused: 12 of SSE2's 16 registers.
    sse2_f32: "sse2", f32, __m128, 4 x 6 x 2,
    load = _mm_loadu_ps, store = _mm_storeu_ps, splat = _mm_set1_ps, mul = _mm_mul_ps,
    madd = madd_ps
}

#[cfg(target_arch = "x86_64")]
tile_kernel! {
    /// 6 × 4 `f64`, unfused: 12 of SSE2's 16 registers.
    sse2_f64: "sse2", f64, __m128d, 2 x 6 x 2,
    load = _mm_loadu_pd, store = _mm_storeu_pd, splat = _mm_set1_pd, mul = _mm_mul_pd,
    madd = madd_pd
}

#[cfg(target_arch = "x86_64")]
tile_kernel! {
    /// 6 × 8 `f32`, fused by emulation.
    sse2_f32_fused: "sse2", f32, __m128, 4 x 6 x 2,
    load = _mm_loadu_ps, store = _mm_storeu_ps, splat = _mm_set1_ps, mul = _mm_mul_ps,
    madd = fma_emulated_ps
}

#[cfg(target_arch = "x86_64")]
tile_kernel! {
    /// 6 × 4 `f64`, fused by emulation (operands in its range only: [`fma_emulated_pd`]).
    sse2_f64_fused: "sse2", f64, __m128d, 2 x 6 x 2,
    load = _mm_loadu_pd, store = _mm_storeu_pd, splat = _mm_set1_pd, mul = _mm_mul_pd,
    madd = fma_emulated_pd
}

#[cfg(target_arch = "x86_64")]
tile_kernel! {
    /// 6 × 16 `f32`, fused: 12 of AVX2's 16 registers.
    avx2_f32: "avx2,fma", f32, __m256, 8 x 6 x 2,
    load = _mm256_loadu_ps, store = _mm256_storeu_ps, splat = _mm256_set1_ps, mul = _mm256_mul_ps,
    madd = _mm256_fmadd_ps
}

#[cfg(target_arch = "x86_64")]
tile_kernel! {
    /// 6 × 8 `f64`, fused: 12 of AVX2's 16 registers.
    avx2_f64: "avx2,fma", f64, __m256d, 4 x 6 x 2,
    load = _mm256_loadu_pd, store = _mm256_storeu_pd, splat = _mm256_set1_pd, mul = _mm256_mul_pd,
    madd = _mm256_fmadd_pd
}

#[cfg(target_arch = "x86_64")]
tile_kernel! {
    /// 12 × 32 `f32`, fused: 24 of AVX-512's 32 registers.
    avx512_f32: "avx512f,avx2,fma", f32, __m512, 16 x 12 x 2,
    load = _mm512_loadu_ps, store = _mm512_storeu_ps, splat = _mm512_set1_ps, mul = _mm512_mul_ps,
    madd = _mm512_fmadd_ps
}

#[cfg(target_arch = "x86_64")]
tile_kernel! {
    /// 12 × 16 `f64`, fused: 24 of AVX-512's 32 registers.
    avx512_f64: "avx512f,avx2,fma", f64, __m512d, 8 x 12 x 2,
    load = _mm512_loadu_pd, store = _mm512_storeu_pd, splat = _mm512_set1_pd, mul = _mm512_mul_pd,
    madd = _mm512_fmadd_pd
}

#[cfg(test)]
mod tests {
    //! The emulated fused multiply-add against the standard library's `mul_add` (correctly
    //! rounded), bit for bit, on operands built to land on and beside the ties where a second
    //! rounding goes wrong.

    use super::*;
    use crate::gemm::Element;

    /// xorshift64*: deterministic bits.
    struct Bits(u64);

    impl Bits {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        /// A double with a random significand, sign and an exponent in `lo..=hi`.
        fn float(&mut self, lo: i32, hi: i32) -> f64 {
            let r = self.next();
            let exponent = lo + (r % (hi - lo + 1) as u64) as i32;
            let significand = self.next() >> 12;
            let sign = (r >> 63) << 63;
            f64::from_bits(sign | (((1023 + exponent) as u64) << 52) | significand)
        }
    }

    /// Triples (a, b, c) in the emulation's range: c of any size relative to a·b, c that
    /// cancels a·b's leading bits, and c = s − fl(a·b) for s one or a few units of the last
    /// place from fl(a·b), so that a·b + c = s + (the product's error), at or near a tie.
    fn triples(n: usize) -> Vec<(f64, f64, f64)> {
        let mut bits = Bits(0x9e37_79b9_7f4a_7c15);
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let a = bits.float(-190, 190);
            let mut b = bits.float(-190, 190);
            if i.is_multiple_of(7) {
                // Short significands: exact products and exact halves (true ties).
                b = f64::from_bits(b.to_bits() & !((1u64 << 40) - 1));
            }
            let p = a * b;
            let c = match i % 4 {
                0 => bits.float(-399, 399),
                1 => -p * (1.0 + bits.float(-60, -20)),
                2 => {
                    let ulps = (bits.next() % 5) as i64 - 2;
                    let s = f64::from_bits((p.to_bits() as i64 + ulps) as u64);
                    s - p
                }
                _ => {
                    let shift = (bits.next() % 120) as i32;
                    p.abs() * 2f64.powi(-shift) * if bits.next() & 1 == 0 { 1.0 } else { -1.0 }
                }
            };
            if [a, b, c].iter().all(|&x| f64::exactly_emulated(x)) {
                out.push((a, b, c));
            }
        }
        out
    }

    #[test]
    fn emulated_f64_fma_is_correctly_rounded() {
        let cases = triples(400_000);
        assert!(cases.len() > 300_000);
        for pair in cases.chunks_exact(2) {
            let ((a0, b0, c0), (a1, b1, c1)) = (pair[0], pair[1]);
            let mut got = [0.0f64; 2];
            // SAFETY: SSE2 is the x86-64 baseline.
            unsafe {
                let r = fma_emulated_pd(_mm_set_pd(a1, a0), _mm_set_pd(b1, b0), _mm_set_pd(c1, c0));
                _mm_storeu_pd(got.as_mut_ptr(), r);
            }
            for (g, (a, b, c)) in got.iter().zip([pair[0], pair[1]]) {
                assert_eq!(
                    g.to_bits(),
                    a.mul_add(b, c).to_bits(),
                    "fma({a:e}, {b:e}, {c:e}) = {:e}, emulated {g:e}",
                    a.mul_add(b, c)
                );
            }
        }
    }

    #[test]
    fn emulated_f32_fma_is_correctly_rounded() {
        let mut bits = Bits(0x1234_5678_9abc_def1);
        let special = [
            0.0f32,
            -0.0,
            f32::MIN_POSITIVE,
            f32::MIN_POSITIVE * f32::EPSILON,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        for i in 0..400_000usize {
            let mut x = [0.0f32; 3];
            for v in &mut x {
                let r = bits.next();
                *v = if r.is_multiple_of(50) {
                    special[(r >> 8) as usize % special.len()]
                } else {
                    // Any finite bit pattern: subnormals, huge and tiny values included.
                    let f = f32::from_bits((r >> 32) as u32);
                    if f.is_finite() {
                        f
                    } else {
                        1.5
                    }
                };
            }
            let [a, b, mut c] = x;
            if i.is_multiple_of(3) {
                // Near cancellation and near ties: c beside −fl(a·b).
                let p = a * b;
                if p.is_finite() {
                    let ulps = (bits.next() % 5) as i32 - 2;
                    c = -f32::from_bits((p.to_bits() as i32 + ulps) as u32);
                }
            }
            let want = a.mul_add(b, c);
            let mut got = [0.0f32; 4];
            // SAFETY: SSE2 is the x86-64 baseline.
            unsafe {
                let r = fma_emulated_ps(_mm_set1_ps(a), _mm_set1_ps(b), _mm_set1_ps(c));
                _mm_storeu_ps(got.as_mut_ptr(), r);
            }
            for g in got {
                if want.is_nan() {
                    assert!(g.is_nan(), "fma({a:e}, {b:e}, {c:e}) = NaN, emulated {g:e}");
                } else {
                    assert_eq!(
                        g.to_bits(),
                        want.to_bits(),
                        "fma({a:e}, {b:e}, {c:e}) = {want:e}, emulated {g:e}"
                    );
                }
            }
        }
    }
}
