//! The AVX-512 copy of the ziggurat's fast path over a block of first words, written with
//! intrinsics: the layer widths `X[i]`, `X[i+1]` of eight draws come from two gathers, where
//! LLVM's own vectorisation of the portable loop keeps one scalar load per draw.
//!
//! # Why it gives the portable loop's draws, bit for bit
//!
//! Per lane it runs the portable loop's operations (`fast_path` in the parent module): the
//! same integer masks and shifts, the same IEEE 754 subtraction `[1, 2) − 1` (exact) and
//! product `u·X[i]`, the ordered `<` (`_CMP_LT_OQ`) against `X[i+1]`, and the sign bit or-ed
//! in. Lanes past the block's end are masked off in the load and the store.
//! `proofs/dispatch_bit_identity.rs` runs both copies.

#![cfg(target_arch = "x86_64")]

use std::arch::x86_64::{
    _mm512_and_si512, _mm512_castpd_si512, _mm512_castsi512_pd, _mm512_cmp_pd_mask,
    _mm512_i64gather_pd, _mm512_mask_storeu_pd, _mm512_maskz_loadu_epi64, _mm512_mul_pd,
    _mm512_or_si512, _mm512_set1_epi64, _mm512_set1_pd, _mm512_slli_epi64, _mm512_srli_epi64,
    _mm512_sub_pd, _CMP_LT_OQ,
};

use super::tables::X;

/// As the portable `fast_path`: writes `out[j]` for every draw and returns the bits of the
/// draws that left the fast path (bit `j` of word `j / 64`).
///
/// # Safety
///
/// The CPU must support AVX-512 F; `out.len() == words.len() ≤ 64·missed.len()`.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn fast_path(words: &[u64], out: &mut [f64], missed: &mut [u64]) {
    debug_assert!(out.len() == words.len() && words.len() <= 64 * missed.len());
    let low_byte = _mm512_set1_epi64(0xff);
    let sign_bit = _mm512_set1_epi64(0x100);
    let one_bits = _mm512_set1_epi64(0x3ff0_0000_0000_0000);
    let one = _mm512_set1_pd(1.0);
    // Each 64 draws' bits gather in a register and are stored once (an `|=` into `missed` per
    // eight draws would chain every step to the last one's store).
    for (group, bits) in missed.iter_mut().enumerate() {
        let first = 64 * group;
        if first >= words.len() {
            break;
        }
        let mut acc = 0u64;
        for start in (first..words.len().min(first + 64)).step_by(8) {
            let lanes = (words.len() - start).min(8);
            let mask = (u16::MAX >> (16 - lanes)) as u8;
            // SAFETY: AVX-512 F (precondition); the masked load and store touch only the
            // `lanes` entries from `start`, inside `words` and `out`; the gathers read `X[i]`
            // and `X[i + 1]` with `i ≤ 255`, inside the 257 entries of `X`.
            let rejected = unsafe {
                let w = _mm512_maskz_loadu_epi64(mask, words.as_ptr().add(start).cast());
                let i = _mm512_and_si512(w, low_byte);
                let sign = _mm512_slli_epi64::<55>(_mm512_and_si512(w, sign_bit));
                let u = _mm512_sub_pd(
                    _mm512_castsi512_pd(_mm512_or_si512(_mm512_srli_epi64::<12>(w), one_bits)),
                    one,
                );
                let width = _mm512_i64gather_pd::<8>(i, X.as_ptr().cast());
                let next = _mm512_i64gather_pd::<8>(i, X.as_ptr().add(1).cast());
                let v = _mm512_mul_pd(u, width);
                let inside = _mm512_cmp_pd_mask::<_CMP_LT_OQ>(v, next);
                let signed = _mm512_castsi512_pd(_mm512_or_si512(_mm512_castpd_si512(v), sign));
                _mm512_mask_storeu_pd(out.as_mut_ptr().add(start), mask, signed);
                !inside & mask
            };
            acc |= u64::from(rejected) << (start - first);
        }
        *bits |= acc;
    }
}
