//! The AVX2 copies of the candidate search's two scans of a Gram block (`scan_row` and
//! `scan_column` in [`candidate_search`](crate::metrics::candidate_search)), written with
//! intrinsics: LLVM's own vectorisation of the portable loops shuffled every key into a bit of
//! the hit mask one lane at a time and cost about as much as the Gram product itself.
//!
//! # Why they give the portable scans' candidates, bit for bit
//!
//! Each key is sq − (g + g), one `f32` addition and one subtraction per lane: 2·g and g + g are
//! the same exact value (a doubling), so the key has the bits of the portable `sq − 2·g`. The
//! comparison `key ≤ threshold` is the ordered ≤ of IEEE 754 (`_CMP_LE_OQ`, false on NaN, as
//! Rust's `<=`), and the passing lanes are offered in the same order (lowest first), each
//! checked again against the threshold as it stands then. So both copies push the same keys in
//! the same order and hold the same candidates; `proofs/dispatch_bit_identity.rs` runs both.

#![cfg(target_arch = "x86_64")]

use std::arch::x86_64::{
    __m256, _mm256_add_ps, _mm256_cmp_ps, _mm256_loadu_ps, _mm256_movemask_ps, _mm256_set1_ps,
    _mm256_storeu_ps, _mm256_sub_ps, _CMP_LE_OQ,
};

use crate::metrics::candidates::{offer_column, offer_row, Candidates};

/// Keys per step: two 8-lane registers.
const STEP: usize = 16;

/// The keys sq − (g + g) of 16 lanes and the bits of those at or below `thr` (lane l → bit l).
///
/// # Safety
///
/// AVX2; `g`, `sq` and `thr` each point at 16 readable values.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn keys_at_or_below(
    g: *const f32,
    sq: [__m256; 2],
    thr: [__m256; 2],
    keys: &mut [f32; STEP],
) -> u32 {
    // SAFETY: AVX2 (precondition); two 8-value loads from each 16-value range, two 8-value
    // stores into `keys`.
    unsafe {
        let g0 = _mm256_loadu_ps(g);
        let g1 = _mm256_loadu_ps(g.add(8));
        let k0 = _mm256_sub_ps(sq[0], _mm256_add_ps(g0, g0));
        let k1 = _mm256_sub_ps(sq[1], _mm256_add_ps(g1, g1));
        let hits = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_LE_OQ>(k0, thr[0]))
            | (_mm256_movemask_ps(_mm256_cmp_ps::<_CMP_LE_OQ>(k1, thr[1])) << 8);
        if hits != 0 {
            _mm256_storeu_ps(keys.as_mut_ptr(), k0);
            _mm256_storeu_ps(keys[8..].as_mut_ptr(), k1);
        }
        hits as u32
    }
}

/// As `candidate_search::scan_row`: offers a query the items `base + j` (below `end`, never
/// `skip`) of one Gram row, key_j = sq[j] − 2 g[j].
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn scan_row(
    g: &[f32],
    sq: &[f32],
    (base, end): (usize, usize),
    cand: &mut Candidates,
    skip: usize,
) {
    let mut thr = cand.threshold();
    let mut keys = [0.0f32; STEP];
    for (c, (gc, sc)) in g.chunks_exact(STEP).zip(sq.chunks_exact(STEP)).enumerate() {
        // SAFETY: AVX2 (precondition); `gc` and `sc` hold `STEP` values each.
        let hits = unsafe {
            let s = [
                _mm256_loadu_ps(sc.as_ptr()),
                _mm256_loadu_ps(sc[8..].as_ptr()),
            ];
            let t = _mm256_set1_ps(thr);
            keys_at_or_below(gc.as_ptr(), s, [t, t], &mut keys)
        };
        offer_row(hits, &keys, base + c * STEP, (skip, end), cand, &mut thr);
    }
}

/// As `candidate_search::scan_column`: offers one item (squared norm `sq_i`, row i of the
/// Gram block) to the queries of the other block, key = sq_i − 2 g[j], each against its own
/// threshold.
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn scan_column(
    g: &[f32],
    sq_i: f32,
    item: u32,
    cands: &mut [Candidates],
    thr: &mut [f32],
) {
    let mut keys = [0.0f32; STEP];
    for (c, gc) in g.chunks_exact(STEP).enumerate() {
        let tc = &thr[c * STEP..(c + 1) * STEP];
        // SAFETY: AVX2 (precondition); `gc` and `tc` hold `STEP` values each.
        let hits = unsafe {
            let s = _mm256_set1_ps(sq_i);
            let t = [
                _mm256_loadu_ps(tc.as_ptr()),
                _mm256_loadu_ps(tc[8..].as_ptr()),
            ];
            keys_at_or_below(gc.as_ptr(), [s, s], t, &mut keys)
        };
        offer_column(hits, &keys, c * STEP, item, cands, thr);
    }
}
