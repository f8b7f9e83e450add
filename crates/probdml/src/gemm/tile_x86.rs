//! The register tiles of x86-64, written with intrinsics: an `MR × NR` block of C held in
//! vector registers for a whole block of k.
//!
//! Each kernel is the loop of the portable [`tile`](super::tile): for each k, `NR/L` vectors of
//! B, then for each of the `MR` rows the broadcast a_ik and one multiply-add per vector, so
//! each entry's chain advances in the order of k. The unfused kernels round the product and
//! the sum (`mulps` then `addps`: the portable kernel's bits, [`Order::Fixed`](super::Order));
//! the fused ones round once (`vfmadd`, for [`Order::Any`](super::Order)). Written with
//! intrinsics because the compiler keeps a tile of scalars in registers only when it unrolls
//! the whole tile, which it stops doing for the larger tiles (an 8 × 32 tile of `f32` written
//! as scalar loops ran 17× slower than faer's product).

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

/// Defines `a·b + c` with the product and the sum each rounded, for one vector type.
macro_rules! unfused {
    ($name:ident: $feature:literal, $v:ty, $mul:ident, $add:ident) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $feature)]
        #[inline]
        fn $name(a: $v, b: $v, c: $v) -> $v {
            $add($mul(a, b), c)
        }
    };
}

unfused!(madd_ps: "sse2", __m128, _mm_mul_ps, _mm_add_ps);
unfused!(madd_pd: "sse2", __m128d, _mm_mul_pd, _mm_add_pd);
unfused!(madd256_ps: "avx2", __m256, _mm256_mul_ps, _mm256_add_ps);
unfused!(madd256_pd: "avx2", __m256d, _mm256_mul_pd, _mm256_add_pd);
unfused!(madd512_ps: "avx512f", __m512, _mm512_mul_ps, _mm512_add_ps);
unfused!(madd512_pd: "avx512f", __m512d, _mm512_mul_pd, _mm512_add_pd);

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
    /// 6 × 16 `f32`, unfused: 12 of AVX2's 16 registers.
    avx2_f32: "avx2,fma", f32, __m256, 8 x 6 x 2,
    load = _mm256_loadu_ps, store = _mm256_storeu_ps, splat = _mm256_set1_ps, mul = _mm256_mul_ps,
    madd = madd256_ps
}

#[cfg(target_arch = "x86_64")]
tile_kernel! {
    /// 6 × 16 `f32`, fused.
    avx2_f32_fused: "avx2,fma", f32, __m256, 8 x 6 x 2,
    load = _mm256_loadu_ps, store = _mm256_storeu_ps, splat = _mm256_set1_ps, mul = _mm256_mul_ps,
    madd = _mm256_fmadd_ps
}

#[cfg(target_arch = "x86_64")]
tile_kernel! {
    /// 6 × 8 `f64`, unfused: 12 of AVX2's 16 registers.
    avx2_f64: "avx2,fma", f64, __m256d, 4 x 6 x 2,
    load = _mm256_loadu_pd, store = _mm256_storeu_pd, splat = _mm256_set1_pd, mul = _mm256_mul_pd,
    madd = madd256_pd
}

#[cfg(target_arch = "x86_64")]
tile_kernel! {
    /// 6 × 8 `f64`, fused.
    avx2_f64_fused: "avx2,fma", f64, __m256d, 4 x 6 x 2,
    load = _mm256_loadu_pd, store = _mm256_storeu_pd, splat = _mm256_set1_pd, mul = _mm256_mul_pd,
    madd = _mm256_fmadd_pd
}

#[cfg(target_arch = "x86_64")]
tile_kernel! {
    /// 12 × 32 `f32`, unfused: 24 of AVX-512's 32 registers.
    avx512_f32: "avx512f,avx2,fma", f32, __m512, 16 x 12 x 2,
    load = _mm512_loadu_ps, store = _mm512_storeu_ps, splat = _mm512_set1_ps, mul = _mm512_mul_ps,
    madd = madd512_ps
}

#[cfg(target_arch = "x86_64")]
tile_kernel! {
    /// 12 × 32 `f32`, fused.
    avx512_f32_fused: "avx512f,avx2,fma", f32, __m512, 16 x 12 x 2,
    load = _mm512_loadu_ps, store = _mm512_storeu_ps, splat = _mm512_set1_ps, mul = _mm512_mul_ps,
    madd = _mm512_fmadd_ps
}

#[cfg(target_arch = "x86_64")]
tile_kernel! {
    /// 12 × 16 `f64`, unfused: 24 of AVX-512's 32 registers.
    avx512_f64: "avx512f,avx2,fma", f64, __m512d, 8 x 12 x 2,
    load = _mm512_loadu_pd, store = _mm512_storeu_pd, splat = _mm512_set1_pd, mul = _mm512_mul_pd,
    madd = madd512_pd
}

#[cfg(target_arch = "x86_64")]
tile_kernel! {
    /// 12 × 16 `f64`, fused.
    avx512_f64_fused: "avx512f,avx2,fma", f64, __m512d, 8 x 12 x 2,
    load = _mm512_loadu_pd, store = _mm512_storeu_pd, splat = _mm512_set1_pd, mul = _mm512_mul_pd,
    madd = _mm512_fmadd_pd
}
