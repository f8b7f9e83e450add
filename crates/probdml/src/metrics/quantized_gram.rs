//! The candidate search's Gram blocks in 16-bit integers: each prepared row rounded to
//! integers times a power of two, the inner products summed exactly in 32-bit integers by
//! `vpmaddwd` (AVX2), which does sixteen multiply-adds per instruction where an `f32` FMA does
//! eight. The keys then carry a quantisation error, which the candidate margin adds to the
//! `f32` one ([`QuantizedRows::margin_term`]); the exact re-ranking is unchanged, so the
//! neighbours are still bitwise the exact twin's.
//!
//! # Rows and their error
//!
//! Row x̃ (prepared, `f32`, every |x̃_d| ≤ 1) becomes x̂ = 2^e·q with q_d = round(x̃_d·2^−e) and
//! e the smallest integer ≥ [`MIN_EXPONENT`] with max_d |x̃_d| ≤ Q·2^e, so |q_d| ≤ Q, where
//! Q = ⌊√((2³¹ − 1)/D₂)⌋ (at most 2¹⁵ − 1) and D₂ is D rounded up to even: every partial sum of
//! D₂ products stays below 2³¹, so ⟨q, q'⟩ is exact in `i32`. The residual norm
//! ε = ‖x̃ − x̂‖ is computed exactly per row (the difference is exact in `f64`; the sum of
//! squares is inflated for its rounding).
//!
//! The Gram entry is G = fl32(⟨q, q'⟩)·2^(e+e'): the conversion to `f32` rounds by at most
//! 2⁻²⁴ relative, and the product with a power of two ≥ 2⁻¹²⁰ is exact (the exponent floor keeps
//! every scale and every non-zero product a normal `f32`). Since
//! ⟨x̂, x̂'⟩ − ⟨x̃, x̃'⟩ = −⟨x̃ − x̂, x̃'⟩ − ⟨x̂, x̃' − x̂'⟩,
//!
//! |G − ⟨x̃, x̃'⟩| ≤ ε‖x̃'‖ + ‖x̂‖ε' + 2⁻²⁴‖x̂‖‖x̂'‖,   ‖x̂‖ ≤ ‖x̃‖ + ε.
//!
//! The `f32` Gram product that this replaces erred by up to γ_D‖x̃‖‖x̃'‖ on top of the input
//! roundings, which the `f32` margin bounds already (`candidate_search`'s module docs); the
//! key sq − 2G moves by twice the difference above, and the margin is twice a key's error: the
//! quantisation adds 4·(ε_q M + (‖x̃_q‖ + ε_q) ε_max + 2⁻²⁴(‖x̃_q‖ + ε_q)(M + ε_max)) to a
//! query's margin, with M and ε_max the largest item norm and residual.
//!
//! # The product
//!
//! Rows are stored as `i16` pairs (D₂ values, zero-padded); item blocks are packed in panels
//! of [`NR`] items, pair-major, so that one 32-byte load holds pair p of eight items and
//! `vpmaddwd` against a broadcast pair of a query row yields eight partial sums. A tile of
//! [`MR`] × [`NR`] sums stays in eight registers for the whole row. Where the AVX-512 copy
//! runs on a CPU with VNNI, `vpdpwssd` does the multiply and the accumulation in one
//! instruction, over a tile of [`MR_VNNI`] rows ([`Kernel`]); the sums are exact either way,
//! so the blocks are the same bits.

#[cfg(target_arch = "x86_64")]
use crate::instruction_set::InstructionSet;

/// Query rows per register tile (eight accumulators of the sixteen AVX2 registers).
const MR: usize = 4;
/// Query rows per register tile with VNNI (sixteen accumulators of AVX-512's thirty-two
/// registers: enough independent sums to hide `vpdpwssd`'s latency).
const MR_VNNI: usize = 8;
/// Items per register tile (two registers of eight `i32`).
const NR: usize = 16;
/// The smallest scale exponent: 2^(e+e') ≥ 2⁻¹²⁰ is a normal `f32`.
const MIN_EXPONENT: i32 = -60;
/// Below this many levels (D₂ > 33 000) the integers resolve the keys too coarsely to pay.
const MIN_LEVELS: i32 = 255;

/// Rows rounded to integers times powers of two (module docs), in blocks of `BLOCK` rows (the
/// candidate search's).
pub(crate) struct QuantizedRows<const BLOCK: usize> {
    /// Pairs per row, D₂/2.
    pairs: usize,
    /// `i16` rows, D₂ apart, zero rows up to whole blocks.
    rows: Vec<i16>,
    /// 2^e of each row (`f32`), 1 on the padding rows.
    scales: Vec<f32>,
    /// ε of each row, ‖x̃ − x̂‖, rounded up.
    residuals: Vec<f64>,
    /// Each block's items packed in panels of [`NR`] (pair-major); empty for query sets.
    panels: Vec<Vec<i16>>,
}

/// The level count Q for dimension `dim`, if the integers are worth using there.
pub(crate) fn levels(dim: usize) -> Option<i32> {
    let d2 = dim.div_ceil(2) * 2;
    // ⌊√((2³¹ − 1)/D₂)⌋, checked in integers.
    let mut q = ((f64::from(i32::MAX) / d2 as f64).sqrt() as i64).min(i64::from(i16::MAX));
    while q > 0 && q * q * d2 as i64 > i64::from(i32::MAX) {
        q -= 1;
    }
    let q = q as i32;
    (q >= MIN_LEVELS).then_some(q)
}

impl<const BLOCK: usize> QuantizedRows<BLOCK> {
    /// Quantises the prepared rows (`dim` values each, every |value| ≤ 1) with `levels`
    /// (from [`levels`]); `as_items` also packs each block's panels for the item side.
    pub(crate) fn new(rows: &[f32], dim: usize, levels: i32, as_items: bool) -> Self {
        let pairs = dim.div_ceil(2);
        let d2 = 2 * pairs;
        let n = rows.len() / dim.max(1);
        let padded = n.div_ceil(BLOCK) * BLOCK;
        let mut out = vec![0i16; padded * d2];
        let mut scales = vec![1.0f32; padded];
        let mut residuals = vec![0.0f64; padded];
        let q_max = f64::from(levels);
        for (i, row) in rows.chunks_exact(dim).enumerate() {
            let largest = row.iter().fold(0.0f64, |a, &v| a.max(f64::from(v).abs()));
            let e = exponent_for(largest, q_max);
            let (scale, inverse) = (power_of_two(e), power_of_two(-e));
            let mut sum = 0.0f64;
            for (o, &v) in out[i * d2..i * d2 + dim].iter_mut().zip(row) {
                // Round to nearest (even) by adding and subtracting 1.5·2⁵², exact for
                // |t| ≤ 2¹⁵: `f64::round` is a library call on baseline x86-64.
                let q = (f64::from(v) * inverse + ROUNDING) - ROUNDING;
                debug_assert!(q.abs() <= q_max);
                *o = q as i16;
                // Exact: v and q·2^e are multiples of 2^(e−24) below 2^(e+16).
                let r = f64::from(v) - q * scale;
                sum += r * r;
            }
            scales[i] = scale as f32;
            // D roundings of relative size 2⁻⁵³ in the sum, ½ in the root: far inside 2⁻³⁰.
            residuals[i] = sum.sqrt() * (1.0 + f64::powi(2.0, -30));
        }
        let panels = if as_items {
            out.chunks_exact(BLOCK * d2)
                .map(|block| pack_items::<BLOCK>(block, pairs))
                .collect()
        } else {
            Vec::new()
        };
        Self {
            pairs,
            rows: out,
            scales,
            residuals,
            panels,
        }
    }

    /// The largest residual ε over the rows.
    pub(crate) fn largest_residual(&self) -> f64 {
        self.residuals.iter().fold(0.0f64, |a, &b| a.max(b))
    }

    /// What the quantisation adds to row `q`'s candidate margin (module docs), in key units:
    /// `norm` is ‖x̃_q‖, `m` and `items_residual` the items' largest norm and residual.
    pub(crate) fn margin_term(&self, q: usize, norm: f64, m: f64, items_residual: f64) -> f64 {
        let eps = self.residuals[q];
        let rounded = norm + eps;
        4.0 * (eps * m
            + rounded * items_residual
            + f64::powi(2.0, -24) * rounded * (m + items_residual))
    }

    /// Gram block `g[i·BLOCK + j]` = G(query `a·BLOCK + i`, item `b·BLOCK + j`) for every
    /// i, j < `BLOCK` (padding rows and items give 0), with `items` packed as items, by
    /// `kernel` (the same bits from either: the sums are exact).
    ///
    /// # Safety
    ///
    /// The CPU must support `kernel`'s instructions ([`Kernel::for_copy`]); `g` holds `BLOCK`²
    /// values; `self` and `items` have the same pair count, `a` and `b` are blocks of theirs.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) unsafe fn gram_block(
        &self,
        kernel: Kernel,
        a: usize,
        items: &Self,
        b: usize,
        g: &mut [f32],
    ) {
        // SAFETY: the caller's.
        unsafe {
            match kernel {
                Kernel::Avx2 => self.gram_block_avx2(a, items, b, g),
                Kernel::Avx512Vnni => self.gram_block_vnni(a, items, b, g),
            }
        }
    }

    /// [`gram_block`](Self::gram_block) by `vpmaddwd` and `vpaddd`: a tile of [`MR`] rows.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn gram_block_avx2(&self, a: usize, items: &Self, b: usize, g: &mut [f32]) {
        use std::arch::x86_64::{_mm256_add_epi32, _mm256_madd_epi16};
        // SAFETY: AVX2 (precondition).
        unsafe {
            self.tiles::<MR>(a, items, b, g, |acc, av, bv| {
                _mm256_add_epi32(acc, _mm256_madd_epi16(av, bv))
            });
        }
    }

    /// [`gram_block`](Self::gram_block) by `vpdpwssd` (AVX-512 VNNI on 256-bit registers), which
    /// multiplies and accumulates in one instruction where AVX2 needs two: a tile of
    /// [`MR_VNNI`] rows, its sixteen accumulators in the thirty-two registers of AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512vnni")]
    unsafe fn gram_block_vnni(&self, a: usize, items: &Self, b: usize, g: &mut [f32]) {
        use std::arch::x86_64::_mm256_dpwssd_epi32;
        // SAFETY: AVX2 and AVX-512 VNNI with VL (precondition).
        unsafe {
            self.tiles::<MR_VNNI>(a, items, b, g, |acc, av, bv| {
                _mm256_dpwssd_epi32(acc, av, bv)
            });
        }
    }

    /// The register tiles of one Gram block, `R` rows by [`NR`] items each; `madd(acc, a, b)`
    /// adds the pairwise products of the `i16` lanes of a and b to the `i32` lanes of acc.
    /// Inlined into the callers, whose target features its intrinsics need.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn tiles<const R: usize>(
        &self,
        a: usize,
        items: &Self,
        b: usize,
        g: &mut [f32],
        madd: impl Fn(
            std::arch::x86_64::__m256i,
            std::arch::x86_64::__m256i,
            std::arch::x86_64::__m256i,
        ) -> std::arch::x86_64::__m256i,
    ) {
        use std::arch::x86_64::{
            __m256i, _mm256_cvtepi32_ps, _mm256_loadu_ps, _mm256_loadu_si256, _mm256_mul_ps,
            _mm256_set1_epi32, _mm256_set1_ps, _mm256_setzero_si256, _mm256_storeu_ps,
        };
        let pairs = self.pairs;
        let d2 = 2 * pairs;
        assert!(items.pairs == pairs && g.len() >= BLOCK * BLOCK && BLOCK.is_multiple_of(R));
        let rows = &self.rows[a * BLOCK * d2..(a + 1) * BLOCK * d2];
        let row_scales = &self.scales[a * BLOCK..(a + 1) * BLOCK];
        let panels = &items.panels[b];
        let item_scales = &items.scales[b * BLOCK..(b + 1) * BLOCK];
        for r0 in (0..BLOCK).step_by(R) {
            // Row r as i32 pairs: the broadcast operand of the multiply-add.
            let a_rows: [*const i32; R] =
                std::array::from_fn(|r| rows[(r0 + r) * d2..].as_ptr().cast::<i32>());
            for (jp, panel) in panels.chunks_exact(pairs * 2 * NR).enumerate() {
                // SAFETY: the callers' target features. Row r0 + r < BLOCK has `pairs` i32
                // pairs; the panel holds `pairs` × 32 i16; stores go to rows r0..r0+R,
                // columns jp·16..jp·16+16 of the BLOCK × BLOCK block.
                unsafe {
                    let mut acc: [[__m256i; 2]; R] = [[_mm256_setzero_si256(); 2]; R];
                    let mut bp = panel.as_ptr();
                    for p in 0..pairs {
                        let b0 = _mm256_loadu_si256(bp.cast());
                        let b1 = _mm256_loadu_si256(bp.add(16).cast());
                        bp = bp.add(32);
                        for r in 0..R {
                            let av = _mm256_set1_epi32(a_rows[r].add(p).read_unaligned());
                            acc[r][0] = madd(acc[r][0], av, b0);
                            acc[r][1] = madd(acc[r][1], av, b1);
                        }
                    }
                    let col = jp * NR;
                    let s0 = _mm256_loadu_ps(item_scales[col..].as_ptr());
                    let s1 = _mm256_loadu_ps(item_scales[col + 8..].as_ptr());
                    for r in 0..R {
                        let sr = _mm256_set1_ps(row_scales[r0 + r]);
                        let out = g[(r0 + r) * BLOCK + col..].as_mut_ptr();
                        // fl32(Σ)·(2^e_r·2^e_j): both factors of the scale are ≥ 2⁻⁶⁰, so
                        // their product and the final product are exact.
                        let v0 =
                            _mm256_mul_ps(_mm256_cvtepi32_ps(acc[r][0]), _mm256_mul_ps(sr, s0));
                        let v1 =
                            _mm256_mul_ps(_mm256_cvtepi32_ps(acc[r][1]), _mm256_mul_ps(sr, s1));
                        _mm256_storeu_ps(out, v0);
                        _mm256_storeu_ps(out.add(8), v1);
                    }
                }
            }
        }
    }
}

/// Which instructions form the integer products.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// `vpmaddwd` + `vpaddd` (AVX2).
    Avx2,
    /// `vpdpwssd` (AVX-512 VNNI).
    Avx512Vnni,
}

impl Kernel {
    /// The kernel for a dispatched copy with AVX2: VNNI in the AVX-512 copy where the CPU has
    /// it (Ice Lake and Zen 4 on), which the copy's own features do not include (Skylake-SP
    /// has AVX-512 without it), hence the check here; `vpmaddwd` otherwise.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn for_copy(isa: InstructionSet) -> Self {
        if isa == InstructionSet::Avx512 && std::is_x86_feature_detected!("avx512vnni") {
            Self::Avx512Vnni
        } else {
            Self::Avx2
        }
    }
}

/// 1.5·2⁵²: (t + it) − it is t rounded to the nearest integer (ties to even) for |t| < 2⁵¹.
const ROUNDING: f64 = 6_755_399_441_055_744.0;

/// 2^e for −1022 ≤ e ≤ 1023, from its bits.
fn power_of_two(e: i32) -> f64 {
    debug_assert!((-1022..=1023).contains(&e));
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// The smallest e ≥ [`MIN_EXPONENT`] with `largest` ≤ q_max·2^e (`largest` ≤ 2¹⁰⁰⁰): from
/// the exponent of largest/q_max, then corrected by comparisons that are exact.
fn exponent_for(largest: f64, q_max: f64) -> i32 {
    let ratio = largest / q_max;
    let mut e = if ratio < power_of_two(MIN_EXPONENT) {
        MIN_EXPONENT
    } else {
        ((ratio.to_bits() >> 52) & 0x7ff) as i32 - 1023 + 1
    };
    while largest > q_max * power_of_two(e) {
        e += 1;
    }
    while e > MIN_EXPONENT && largest <= q_max * power_of_two(e - 1) {
        e -= 1;
    }
    e
}

/// One block of `i16` rows (`BLOCK` rows of 2·`pairs`) as item panels: panel c, pair p, item
/// l, half t at `((c·pairs + p)·NR + l)·2 + t`.
fn pack_items<const BLOCK: usize>(block: &[i16], pairs: usize) -> Vec<i16> {
    let d2 = 2 * pairs;
    let mut out = vec![0i16; BLOCK * d2];
    for c in 0..BLOCK / NR {
        for p in 0..pairs {
            for l in 0..NR {
                let item = c * NR + l;
                let at = ((c * pairs + p) * NR + l) * 2;
                out[at] = block[item * d2 + 2 * p];
                out[at + 1] = block[item * d2 + 2 * p + 1];
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponent_is_the_smallest_that_fits() {
        let q = 4095.0;
        for largest in [
            0.0, 1e-300, 1e-20, 3e-5, 0.25, 0.5, 1.0, 4095.0, 4096.0, 1e5,
        ] {
            let e = exponent_for(largest, q);
            assert!(largest <= q * f64::powi(2.0, e), "{largest}");
            assert!(
                e == MIN_EXPONENT || largest > q * f64::powi(2.0, e - 1),
                "{largest}"
            );
        }
        // Exactly at a power of two times q: that power, not the next.
        assert_eq!(exponent_for(q * 0.25, q), -2);
        assert_eq!(exponent_for(q * 0.25 * (1.0 + f64::EPSILON), q), -1);
        for t in [-2.5f64, -0.5, 0.5, 1.5, 2.5, 3.49, -4095.0, 4095.0] {
            assert_eq!((t + ROUNDING) - ROUNDING, t.round_ties_even(), "{t}");
        }
    }

    const BLOCK: usize = 256;

    #[test]
    fn levels_keep_every_sum_in_i32() {
        for dim in [1usize, 2, 3, 128, 129, 512, 4096, 33_000, 40_000] {
            match levels(dim) {
                Some(q) => {
                    let d2 = dim.div_ceil(2) as i64 * 2;
                    assert!(
                        i64::from(q) * i64::from(q) * d2 <= i64::from(i32::MAX),
                        "{dim}"
                    );
                    assert!(i64::from(q + 1).pow(2) * d2 > i64::from(i32::MAX) || q == 32_767);
                }
                None => assert!(dim > 33_000, "{dim}"),
            }
        }
        assert_eq!(levels(128), Some(4095));
    }

    /// The block equals the integer products times the scales, computed in `i64` and `f64`,
    /// entry by entry, for an odd dimension, a partial last block and rows of very different
    /// sizes (exponents from the floor to 0); and the residuals bound ‖x̃ − x̂‖ as defined.
    #[test]
    fn gram_block_is_the_scaled_integer_products() {
        use rand::{RngExt, SeedableRng};
        if !crate::instruction_set::InstructionSet::Avx2Fma.is_available() {
            return;
        }
        let (n, dim) = (BLOCK + 77, 37);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let rows: Vec<f32> = (0..n * dim)
            .map(|i| {
                let size = [1.0f32, 1e-3, 1e-20, 0.0][(i / dim) % 4];
                size * rng.random_range(-1.0f32..1.0)
            })
            .collect();
        let q = QuantizedRows::<BLOCK>::new(&rows, dim, levels(dim).unwrap(), true);
        let d2 = 2 * q.pairs;
        for (i, row) in rows.chunks_exact(dim).enumerate() {
            let r: f64 = row
                .iter()
                .enumerate()
                .map(|(d, &v)| {
                    let back = f64::from(q.rows[i * d2 + d]) * f64::from(q.scales[i]);
                    (f64::from(v) - back).powi(2)
                })
                .sum::<f64>()
                .sqrt();
            assert!(
                r <= q.residuals[i] && q.residuals[i] <= r * 1.001 + 1e-300,
                "row {i}"
            );
        }
        let mut kernels = vec![Kernel::Avx2];
        if Kernel::for_copy(InstructionSet::Avx512) == Kernel::Avx512Vnni {
            kernels.push(Kernel::Avx512Vnni);
        }
        let mut g = vec![f32::NAN; BLOCK * BLOCK];
        for (kernel, (a, b)) in kernels
            .into_iter()
            .flat_map(|k| [(0, 0), (0, 1), (1, 0), (1, 1)].map(|ab| (k, ab)))
        {
            g.fill(f32::NAN);
            // SAFETY: AVX2 checked above, VNNI by `for_copy`; g is BLOCK²; both blocks exist.
            unsafe { q.gram_block(kernel, a, &q, b, &mut g) };
            for i in 0..BLOCK {
                for j in 0..BLOCK {
                    let (ri, rj) = (a * BLOCK + i, b * BLOCK + j);
                    let dot: i64 = (0..d2)
                        .map(|d| i64::from(q.rows[ri * d2 + d]) * i64::from(q.rows[rj * d2 + d]))
                        .sum();
                    let want = (dot as f32) * (q.scales[ri] * q.scales[rj]);
                    assert_eq!(
                        g[i * BLOCK + j].to_bits(),
                        want.to_bits(),
                        "{kernel:?} ({ri}, {rj})"
                    );
                }
            }
        }
    }
}
