//! Matrix products C = α·A·B of the fast maths: the Gram blocks of the neighbour search, the
//! GGN diagonal's C·X, the EL-vMF proxy loss's three products.
//!
//! # The order of operations
//!
//! With [`Order::Fixed`] every entry is one chain of fused multiply-adds (one rounding per
//! term) in the order of k,
//!
//! c_ij = α · fl(a_{i,K−1} b_{K−1,j} + … fl(a_i1 b_1j + fl(a_i0 b_0j)) …),
//!
//! whatever the blocking, the tile shape or the instruction set: a block of k continues the
//! chain of the block before it from the partial sum it left in C. The result is therefore the
//! same bits on every CPU and in every copy of [`crate::instruction_set`], and equal to the
//! three-loop product with `mul_add` (the tests below check that, bit for bit). The AVX copies
//! fuse with `vfmadd`. The baseline (SSE2) copy has no FMA instruction, and Rust's `mul_add`
//! there is a call to compiler-builtins' software `fma`, which keeps the tile out of the vector
//! registers (a tile of such calls ran the GGN diagonal's product 1 000 times slower than the
//! SSE2 tile); it emulates the fused operation exactly in SSE2 instead (Boldo and Melquiond's
//! rounding to odd, `gemm/tile_x86.rs`), about 30 operations per pair of terms where the AVX2 copy
//! does one `vfmadd` per four (the 384 × 64 × 512 product of `benches/gemm.rs` takes about 47
//! times as long in the baseline copy as in the AVX2 one), for operands within
//! [`Element::EXACT_EMULATION_RANGE`], and falls back to the scalar `mul_add` tile for a factor
//! with an entry outside it. Fused rather than a rounded product and a rounded sum because
//! the FMA copies, which nearly every x86-64 CPU since 2013 runs, then do one instruction per
//! term instead of two: the unfused chain ran the GGN diagonal 1.5–1.7 times slower.
//!
//! [`Order::Any`] is for a caller whose error bound allows any summation order with or
//! without fused operations (the candidate search, whose keys only select candidates that the
//! exact twin re-ranks): the fixed chain in the FMA copies, and in the baseline copy the chain
//! of a rounded product and a rounded sum per term (two SSE2 instructions instead of the
//! emulation's 30).
//!
//! # Blocks
//!
//! B is packed in panels of `NR` columns, k-major, and A in panels of `MR` rows ([`Packed`]),
//! so that the micro-kernel reads both with unit stride and keeps an `MR × NR` tile of C in
//! registers for a whole block of k (`KC` terms); the panels are zero-padded to whole tiles
//! and only the entries of C inside the product are written. The tile fits the registers of
//! each copy: SSE2 has 16 registers of 16 bytes, AVX2 16 of 32, AVX-512 32 of 64. The factors
//! of the callers are at most a few hundred rows by a few thousand columns, so each is packed
//! whole (no blocking of m or n for the caches).

use crate::instruction_set::InstructionSet;

mod step;
#[cfg(target_arch = "x86_64")]
mod tile_x86;

use step::Step;

/// Terms of k per block: an `MR × KC` panel of A and a `KC × NR` panel of B stay in L1.
const KC: usize = 256;

/// A matrix read through strides: entry (i, j) is `data[i·row_stride + j·col_stride]`.
#[derive(Clone, Copy, Debug)]
pub struct View<'a, T> {
    data: &'a [T],
    rows: usize,
    cols: usize,
    row_stride: usize,
    col_stride: usize,
}

impl<'a, T> View<'a, T> {
    /// A `rows × cols` matrix stored row after row, `row_stride ≥ cols` apart.
    ///
    /// # Panics
    ///
    /// If `data` is too short (a caller's bug: every caller sizes its own buffers).
    pub fn row_major(data: &'a [T], rows: usize, cols: usize, row_stride: usize) -> Self {
        assert!(
            cols <= row_stride || rows <= 1,
            "row stride below the row length"
        );
        if rows > 0 && cols > 0 {
            assert!(
                data.len() > (rows - 1) * row_stride + cols - 1,
                "matrix view beyond its slice"
            );
        }
        Self {
            data,
            rows,
            cols,
            row_stride,
            col_stride: 1,
        }
    }

    /// The transpose, without moving data.
    pub fn t(self) -> Self {
        Self {
            data: self.data,
            rows: self.cols,
            cols: self.rows,
            row_stride: self.col_stride,
            col_stride: self.row_stride,
        }
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }
}

#[cfg(test)]
impl<T: Copy> View<'_, T> {
    fn at(&self, i: usize, j: usize) -> T {
        self.data[i * self.row_stride + j * self.col_stride]
    }
}

/// How the terms of an entry may be combined (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// One chain of rounded products and sums in the order of k: the same bits everywhere.
    Fixed,
    /// The fastest the copy has: fused where it has FMA, a rounded product and sum where not.
    Any,
}

/// `f32` or `f64`.
pub trait Element:
    Copy
    + Send
    + Sync
    + PartialEq
    + std::fmt::Debug
    + std::ops::Mul<Output = Self>
    + std::ops::Add<Output = Self>
    + 'static
{
    /// Zero.
    const ZERO: Self;
    /// The magnitudes (besides zero) for which the baseline copy's emulation of the fused
    /// multiply-add is exact: far enough from overflow and from the subnormals that no step of
    /// the emulation leaves the normal range (`gemm/tile_x86.rs`). Every finite `f32` is in it (its
    /// emulation works in `f64`).
    const EXACT_EMULATION_RANGE: (Self, Self);
    /// `a·b + c`, fused when `FUSED`, else rounded twice.
    fn madd<const FUSED: bool>(a: Self, b: Self, c: Self) -> Self;
    /// Whether `x` is zero or of a magnitude inside [`Self::EXACT_EMULATION_RANGE`].
    fn exactly_emulated(x: Self) -> bool;
}

/// Implements [`Element`] for a float type (the two differ in type and emulation range only).
macro_rules! element_impl {
    ($($t:ty: $range:expr),*) => {$(
        impl Element for $t {
            const ZERO: Self = 0.0;
            const EXACT_EMULATION_RANGE: (Self, Self) = $range;
            #[inline(always)]
            fn madd<const FUSED: bool>(a: Self, b: Self, c: Self) -> Self {
                if FUSED {
                    a.mul_add(b, c)
                } else {
                    a * b + c
                }
            }
            #[inline(always)]
            fn exactly_emulated(x: Self) -> bool {
                let (low, high) = Self::EXACT_EMULATION_RANGE;
                x == 0.0 || (low..=high).contains(&x.abs())
            }
        }
    )*};
}

element_impl!(
    f32: (f32::MIN_POSITIVE * f32::EPSILON, f32::MAX),
    // 2⁻⁴⁰⁰ and 2⁴⁰⁰ (`tile_x86::fma_emulated_pd`).
    f64: (f64::from_bits((1023 - 400) << 52), f64::from_bits((1023 + 400) << 52))
);

/// An element type with its register tiles: which kernel each copy runs.
pub trait Tile: Element {
    /// The register tile (rows of A, columns of B) of the kernels of `isa`.
    #[doc(hidden)]
    fn shape(isa: InstructionSet) -> (usize, usize);

    /// `dst = α·A·B` from operands packed for `isa` (available on this CPU), fused (in the
    /// baseline copy by emulation, or by the scalar tile for operands outside its range) or
    /// not.
    #[doc(hidden)]
    fn product_on(
        isa: InstructionSet,
        fused: bool,
        dst: &mut [Self],
        dst_stride: usize,
        alpha: Self,
        a: &Packed<Self>,
        b: &Packed<Self>,
    );
}

/// The blocked product with the x86-64 register tile `$kernel` of [`tile_x86`].
#[cfg(target_arch = "x86_64")]
macro_rules! with_tile {
    ($kernel:ident: $mr:literal x $nr:literal, $dst:expr, $stride:expr, $alpha:expr, $a:expr, $b:expr) => {
        blocked::<_, $mr, $nr>(
            $dst,
            $stride,
            $alpha,
            $a,
            $b,
            |a, b, c, stride, alpha, step| {
                // SAFETY: the operands were packed for an available instruction set, which has the
                // kernel's features (SSE2 is the baseline).
                unsafe { tile_x86::$kernel(a, b, c, stride, alpha, step) }
            },
        )
    };
}

/// Implements [`Tile`] for one element type from its x86-64 kernels (and the scalar tile
/// elsewhere).
macro_rules! tile_impl {
    ($t:ty, portable = $mr:literal x $nr:literal,
     $sse2:ident, $sse2_fused:ident: $mr1:literal x $nr1:literal,
     $avx2:ident: $mr2:literal x $nr2:literal,
     $avx512:ident: $mr3:literal x $nr3:literal) => {
        impl Tile for $t {
            fn shape(isa: InstructionSet) -> (usize, usize) {
                #[cfg(target_arch = "x86_64")]
                return match isa {
                    InstructionSet::Avx512 => ($mr3, $nr3),
                    InstructionSet::Avx2Fma => ($mr2, $nr2),
                    _ => ($mr1, $nr1),
                };
                #[cfg(not(target_arch = "x86_64"))]
                {
                    let _ = isa;
                    ($mr, $nr)
                }
            }

            fn product_on(
                isa: InstructionSet,
                fused: bool,
                dst: &mut [$t],
                dst_stride: usize,
                alpha: $t,
                a: &Packed<$t>,
                b: &Packed<$t>,
            ) {
                #[cfg(target_arch = "x86_64")]
                match (isa, fused) {
                    // The FMA copies always fuse (`product_packed`).
                    (InstructionSet::Avx512, _) => {
                        with_tile!($avx512: $mr3 x $nr3, dst, dst_stride, alpha, a, b)
                    }
                    (InstructionSet::Avx2Fma, _) => {
                        with_tile!($avx2: $mr2 x $nr2, dst, dst_stride, alpha, a, b)
                    }
                    (_, true) if a.exactly_emulated && b.exactly_emulated => {
                        with_tile!($sse2_fused: $mr1 x $nr1, dst, dst_stride, alpha, a, b)
                    }
                    (_, true) => {
                        blocked::<_, $mr1, $nr1>(dst, dst_stride, alpha, a, b, tile::<$t, $mr1, $nr1, true>)
                    }
                    (_, false) => with_tile!($sse2: $mr1 x $nr1, dst, dst_stride, alpha, a, b),
                }
                #[cfg(not(target_arch = "x86_64"))]
                {
                    let _ = isa;
                    if fused {
                        blocked(dst, dst_stride, alpha, a, b, tile::<$t, $mr, $nr, true>)
                    } else {
                        blocked(dst, dst_stride, alpha, a, b, tile::<$t, $mr, $nr, false>)
                    }
                }
            }
        }
    };
}

tile_impl!(
    f32, portable = 4 x 8,
    sse2_f32, sse2_f32_fused: 6 x 8,
    avx2_f32: 6 x 16,
    avx512_f32: 12 x 32
);
tile_impl!(
    f64, portable = 4 x 4,
    sse2_f64, sse2_f64_fused: 6 x 4,
    avx2_f64: 6 x 8,
    avx512_f64: 12 x 16
);

/// Which factor of a product an operand is packed as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// A: panels of `MR` rows.
    Left,
    /// B: panels of `NR` columns.
    Right,
}

/// A factor packed for the register tiles of one instruction set: for each block of `KC`
/// terms of k, panels of `MR` rows of A (or `NR` columns of B), each k-major and zero-padded.
///
/// Packing costs a pass over the matrix in its own layout (a transposition for the Gram
/// layout); a caller that multiplies one factor by many others (the neighbour search) packs it
/// once.
#[derive(Clone, Debug)]
pub struct Packed<T> {
    isa: InstructionSet,
    side: Side,
    /// `MR` or `NR`.
    width: usize,
    /// Rows of A or columns of B.
    outer: usize,
    /// k.
    depth: usize,
    /// Packed for the baseline copy, every entry inside [`Element::EXACT_EMULATION_RANGE`]
    /// (always false for the FMA copies, which do not need it).
    exactly_emulated: bool,
    data: Vec<T>,
}

impl<T: Tile> Packed<T> {
    /// `a` packed as the left factor, for the [active](InstructionSet::active) instruction set.
    pub fn left(a: View<'_, T>) -> Self {
        let isa = InstructionSet::active();
        let width = T::shape(isa).0;
        let mut data = vec![T::ZERO; a.rows.div_ceil(width) * width * a.cols];
        let mut k0 = 0;
        while k0 < a.cols {
            let kc = KC.min(a.cols - k0);
            let block = &mut data[k0 * a.rows.div_ceil(width) * width..];
            pack(block, width, a, k0, kc);
            k0 += kc;
        }
        Self {
            isa,
            side: Side::Left,
            width,
            outer: a.rows,
            depth: a.cols,
            exactly_emulated: isa == InstructionSet::Portable
                && data.iter().all(|&x| T::exactly_emulated(x)),
            data,
        }
    }

    /// `b` packed as the right factor, for the [active](InstructionSet::active) instruction
    /// set.
    pub fn right(b: View<'_, T>) -> Self {
        let isa = InstructionSet::active();
        let width = T::shape(isa).1;
        let mut data = vec![T::ZERO; b.cols.div_ceil(width) * width * b.rows];
        let mut k0 = 0;
        while k0 < b.rows {
            let kc = KC.min(b.rows - k0);
            let block = &mut data[k0 * b.cols.div_ceil(width) * width..];
            // Columns of B are rows of Bᵀ.
            pack(block, width, b.t(), k0, kc);
            k0 += kc;
        }
        Self {
            isa,
            side: Side::Right,
            width,
            outer: b.cols,
            depth: b.rows,
            exactly_emulated: isa == InstructionSet::Portable
                && data.iter().all(|&x| T::exactly_emulated(x)),
            data,
        }
    }
}

impl<T> Packed<T> {
    /// The panels of the block of k that starts at `k0` and holds `kc` terms.
    fn block(&self, k0: usize, kc: usize) -> &[T] {
        let padded = self.outer.div_ceil(self.width) * self.width;
        &self.data[k0 * padded..(k0 + kc) * padded]
    }
}

/// `dst = α·A·B`, where `dst` is row-major with row stride `dst_stride` (entries outside the
/// `A.rows() × B.cols()` product are left as they are).
///
/// # Panics
///
/// If the inner dimensions differ or `dst` is too short (a caller's bug).
pub fn product<T: Tile>(
    dst: &mut [T],
    dst_stride: usize,
    alpha: T,
    a: View<'_, T>,
    b: View<'_, T>,
    order: Order,
) {
    assert_eq!(a.cols, b.rows, "inner dimensions of a matrix product");
    product_packed(
        dst,
        dst_stride,
        alpha,
        &Packed::left(a),
        &Packed::right(b),
        order,
    );
}

/// [`product`] of packed factors, in the instruction set they were packed for.
///
/// # Panics
///
/// If the factors are not a left and a right one packed for one instruction set, if the inner
/// dimensions differ or `dst` is too short (a caller's bug).
pub fn product_packed<T: Tile>(
    dst: &mut [T],
    dst_stride: usize,
    alpha: T,
    a: &Packed<T>,
    b: &Packed<T>,
    order: Order,
) {
    assert!(
        a.side == Side::Left && b.side == Side::Right && a.isa == b.isa,
        "factors packed as a left and a right one for one instruction set"
    );
    assert_eq!(a.depth, b.depth, "inner dimensions of a matrix product");
    let (m, n) = (a.outer, b.outer);
    if m == 0 || n == 0 {
        return;
    }
    assert!(
        n <= dst_stride || m == 1,
        "row stride of C below its row length"
    );
    assert!(
        dst.len() > (m - 1) * dst_stride + n - 1,
        "C beyond its slice"
    );
    // The baseline copy fuses (by emulation) only where the order is fixed.
    let fused = order == Order::Fixed || a.isa != InstructionSet::Portable;
    T::product_on(a.isa, fused, dst, dst_stride, alpha, a, b);
}

/// The blocked product with an `MR × NR` register tile computed by `kernel(a_panel, b_panel,
/// c, stride, α, step)` on the tile whose rows start `stride` apart in `c` (module docs).
fn blocked<T: Element, const MR: usize, const NR: usize>(
    dst: &mut [T],
    dst_stride: usize,
    alpha: T,
    a: &Packed<T>,
    b: &Packed<T>,
    kernel: impl Fn(&[T], &[T], &mut [T], usize, T, Step),
) {
    assert!(
        a.width == MR && b.width == NR,
        "factors packed for this tile"
    );
    let (m, k, n) = (a.outer, a.depth, b.outer);
    if k == 0 {
        for i in 0..m {
            dst[i * dst_stride..i * dst_stride + n].fill(T::ZERO);
        }
        return;
    }
    // An edge tile (fewer than MR rows or NR columns inside C) goes through this buffer.
    let mut edge = vec![T::ZERO; MR * NR];
    let mut k0 = 0;
    while k0 < k {
        let kc = KC.min(k - k0);
        let step = Step {
            continues: k0 > 0,
            last: k0 + kc == k,
        };
        let b_block = b.block(k0, kc);
        for (p, a_panel) in a.block(k0, kc).chunks_exact(MR * kc).enumerate() {
            let row = p * MR;
            let rows = MR.min(m - row);
            for (q, b_panel) in b_block.chunks_exact(NR * kc).enumerate() {
                let col = q * NR;
                let cols = NR.min(n - col);
                let origin = row * dst_stride + col;
                if rows == MR && cols == NR {
                    kernel(
                        a_panel,
                        b_panel,
                        &mut dst[origin..],
                        dst_stride,
                        alpha,
                        step,
                    );
                    continue;
                }
                if step.continues {
                    for r in 0..rows {
                        let at = origin + r * dst_stride;
                        edge[r * NR..r * NR + cols].copy_from_slice(&dst[at..at + cols]);
                    }
                }
                kernel(a_panel, b_panel, &mut edge, NR, alpha, step);
                for r in 0..rows {
                    let at = origin + r * dst_stride;
                    dst[at..at + cols].copy_from_slice(&edge[r * NR..r * NR + cols]);
                }
            }
        }
        k0 += kc;
    }
}

/// The scalar tile (targets without an intrinsics kernel; on x86-64 the baseline copy's fixed
/// order for operands outside the emulation's range), and the definition of the x86-64
/// kernels' loop: over one block of k, for each k one row of `MR` values of A against one row
/// of `NR` values of B, each entry's chain advanced by one term.
fn tile<T: Element, const MR: usize, const NR: usize, const FUSED: bool>(
    a_panel: &[T],
    b_panel: &[T],
    c: &mut [T],
    stride: usize,
    alpha: T,
    step: Step,
) {
    let mut acc = [[T::ZERO; NR]; MR];
    if step.continues {
        for (r, acc_r) in acc.iter_mut().enumerate() {
            acc_r.copy_from_slice(&c[r * stride..r * stride + NR]);
        }
    }
    for (a_k, b_k) in a_panel.chunks_exact(MR).zip(b_panel.chunks_exact(NR)) {
        for (acc_r, &a) in acc.iter_mut().zip(a_k) {
            for (acc_rc, &b) in acc_r.iter_mut().zip(b_k) {
                *acc_rc = T::madd::<FUSED>(a, b, *acc_rc);
            }
        }
    }
    for (r, acc_r) in acc.iter().enumerate() {
        for (out, &v) in c[r * stride..r * stride + NR].iter_mut().zip(acc_r) {
            *out = if step.last { alpha * v } else { v };
        }
    }
}

/// Packs columns k0..k0+kc of the rows of `x` into panels of `width` rows, each k-major
/// (`out[p·width·kc + kk·width + r] = x[p·width + r, k0 + kk]`), zero-padded. Reads along
/// whichever of `x`'s dimensions is contiguous.
fn pack<T: Element>(out: &mut [T], width: usize, x: View<'_, T>, k0: usize, kc: usize) {
    let rows_total = x.rows;
    for (p, panel) in out[..rows_total.div_ceil(width) * width * kc]
        .chunks_exact_mut(width * kc)
        .enumerate()
    {
        let row = p * width;
        let rows = width.min(rows_total - row);
        if x.row_stride == 1 && x.col_stride != 1 {
            // k by k: the `rows` values of one k are contiguous (x is the transpose of a
            // row-major matrix).
            for (kk, dst) in panel.chunks_exact_mut(width).enumerate() {
                let at = row + (k0 + kk) * x.col_stride;
                dst[..rows].copy_from_slice(&x.data[at..at + rows]);
                dst[rows..].fill(T::ZERO);
            }
        } else {
            // Row by row (contiguous when x is row-major): a transposition into the panel.
            for r in 0..width {
                let column = panel.chunks_exact_mut(width).map(|d| &mut d[r]);
                if r < rows {
                    let base = (row + r) * x.row_stride + k0 * x.col_stride;
                    let src = x.data[base..].iter().step_by(x.col_stride.max(1));
                    for (d, &v) in column.zip(src) {
                        *d = v;
                    }
                } else {
                    column.for_each(|d| *d = T::ZERO);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! Every copy against the three-loop product with `mul_add`, bit for bit, over shapes that
    //! cross every block edge (tile, `KC`) and every layout the callers use.

    use super::*;

    /// The three-loop product with one chain of `mul_add` per entry (the standard library's
    /// correctly rounded fused multiply-add): the definition of [`Order::Fixed`].
    fn three_loops<T: Element>(alpha: T, a: View<'_, T>, b: View<'_, T>) -> Vec<T> {
        let mut out = vec![T::ZERO; a.rows * b.cols];
        for i in 0..a.rows {
            for j in 0..b.cols {
                let mut acc = T::ZERO;
                for k in 0..a.cols {
                    acc = T::madd::<true>(a.at(i, k), b.at(k, j), acc);
                }
                out[i * b.cols + j] = alpha * acc;
            }
        }
        out
    }

    /// Deterministic values of mixed sign and magnitude (a linear congruential sequence).
    fn values(n: usize, seed: u64) -> Vec<f64> {
        let mut s = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 2f64.powi((s % 7) as i32 - 3)
            })
            .collect()
    }

    const SHAPES: [(usize, usize, usize); 8] = [
        (1, 1, 1),
        (3, 5, 2),
        (7, 17, 33),
        (13, 128, 40),
        (97, 3, 65),
        (40, 300, 19),
        (200, 129, 70),
        (5, 600, 9),
    ];

    fn check<T: Tile>(convert: fn(f64) -> T) {
        for (s, &(m, k, n)) in SHAPES.iter().enumerate() {
            let a_data: Vec<T> = values(m * k, s as u64).into_iter().map(convert).collect();
            let b_data: Vec<T> = values(k * n, 100 + s as u64)
                .into_iter()
                .map(convert)
                .collect();
            // A row-major and as the transpose of a row-major k × m; B as the transpose of a
            // row-major n × k (the Gram layout) and as a row-major k × n with a wider stride.
            let a_t_data: Vec<T> = (0..k)
                .flat_map(|kk| (0..m).map(move |i| (i, kk)))
                .map(|(i, kk)| a_data[i * k + kk])
                .collect();
            let a_row = View::row_major(&a_data, m, k, k);
            let a_t = View::row_major(&a_t_data, k, m, m).t();
            let b_t = View::row_major(&b_data, n, k, k).t();
            let wide: Vec<T> = b_data
                .chunks_exact(n)
                .flat_map(|r| r.iter().copied().chain([convert(f64::NAN)]))
                .collect();
            let b_wide = View::row_major(&wide, k, n, n + 1);
            let alpha = convert(-1.0);
            for (a, b) in [(a_row, b_t), (a_row, b_wide), (a_t, b_wide), (a_t, b_t)] {
                let expected = three_loops(alpha, a, b);
                for isa in InstructionSet::ALL {
                    let stride = n + 3;
                    let mut dst = vec![convert(7.0); m * stride];
                    let ran = isa.run(|| product(&mut dst, stride, alpha, a, b, Order::Fixed));
                    if ran.is_none() {
                        continue;
                    }
                    for i in 0..m {
                        for j in 0..n {
                            assert_eq!(
                                dst[i * stride + j],
                                expected[i * n + j],
                                "{isa:?} {m}x{k}x{n} entry ({i}, {j})"
                            );
                        }
                        // Outside the product: untouched.
                        assert!(dst[i * stride + n..(i + 1) * stride]
                            .iter()
                            .all(|&v| v == convert(7.0)));
                    }
                }
            }
        }
    }

    #[test]
    fn the_fixed_order_is_the_three_loop_product_bit_for_bit_in_every_copy_in_f64() {
        check::<f64>(|v| v);
    }

    #[test]
    fn the_fixed_order_is_the_three_loop_product_bit_for_bit_in_every_copy_in_f32() {
        check::<f32>(|v| v as f32);
    }

    #[test]
    fn the_fixed_order_is_exact_for_operands_outside_the_emulation_range() {
        // Entries outside [2⁻⁴⁰⁰, 2⁴⁰⁰]: 2¹⁰⁰⁰, whose Veltkamp split overflows, and a product
        // 2⁻⁵⁶⁰·2⁻⁵⁶⁰ below the normal range. The baseline copy takes the scalar tile for these
        // factors; every copy gives the `mul_add` chain.
        let (m, k, n) = (9, 70, 11);
        let mut a_data = values(m * k, 5);
        let mut b_data = values(k * n, 6);
        a_data[3] = 2f64.powi(-560);
        b_data[3 * n + 1] = 2f64.powi(-560) * 3.0;
        b_data[7 * n + 2] = 2f64.powi(1000);
        let a = View::row_major(&a_data, m, k, k);
        let b = View::row_major(&b_data, k, n, n);
        let expected = three_loops(1.0, a, b);
        for isa in InstructionSet::ALL {
            let mut dst = vec![0.0; m * n];
            if isa
                .run(|| product(&mut dst, n, 1.0, a, b, Order::Fixed))
                .is_some()
            {
                assert_eq!(dst, expected, "{isa:?}");
            }
        }
    }

    #[test]
    fn any_order_stays_within_the_inner_product_error_bound() {
        // |fl(⟨a, b⟩) − ⟨a, b⟩| ≤ γ_k Σ|a_i b_i| (Higham §3.1), against an f64 reference.
        let (m, k, n) = (37, 130, 45);
        let a_data: Vec<f32> = values(m * k, 1).into_iter().map(|v| v as f32).collect();
        let b_data: Vec<f32> = values(n * k, 2).into_iter().map(|v| v as f32).collect();
        let a = View::row_major(&a_data, m, k, k);
        let b = View::row_major(&b_data, n, k, k).t();
        let gamma = k as f64 * f64::from(f32::EPSILON) / 2.0 / (1.0 - k as f64 * 1.2e-7);
        for isa in InstructionSet::ALL {
            let mut dst = vec![0.0f32; m * n];
            if isa
                .run(|| product(&mut dst, n, 1.0, a, b, Order::Any))
                .is_none()
            {
                continue;
            }
            for i in 0..m {
                for j in 0..n {
                    let (mut exact, mut abs) = (0.0f64, 0.0f64);
                    for kk in 0..k {
                        let t = f64::from(a.at(i, kk)) * f64::from(b.at(kk, j));
                        exact += t;
                        abs += t.abs();
                    }
                    let err = (f64::from(dst[i * n + j]) - exact).abs();
                    assert!(
                        err <= gamma * abs,
                        "{isa:?} ({i}, {j}): {err} > {}",
                        gamma * abs
                    );
                }
            }
        }
    }

    #[test]
    fn an_empty_inner_dimension_gives_zeros() {
        let a_data: [f64; 0] = [];
        let mut dst = [5.0; 6];
        product(
            &mut dst,
            3,
            2.0,
            View::row_major(&a_data, 2, 0, 0),
            View::row_major(&a_data, 0, 3, 3),
            Order::Fixed,
        );
        assert_eq!(dst, [0.0; 6]);
    }
}
