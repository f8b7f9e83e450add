//! The AVX2 copy of the ziggurat's fast path over a block of first words, written with
//! intrinsics: the layer widths `X[i]`, `X[i+1]` of four draws come from two gathers, where
//! LLVM's own vectorisation of the portable loop keeps one scalar load per draw (and the AVX2
//! copy, which AVX2-only CPUs run, took twice the AVX-512 one's time per draw).
//!
//! # Why it gives the portable loop's draws, bit for bit
//!
//! Per lane it runs the portable loop's operations (`fast_path` in the parent module): the
//! same integer masks and shifts, the same IEEE 754 subtraction `[1, 2) − 1` (exact) and
//! product `u·X[i]`, the ordered `<` (`_CMP_LT_OQ`) against `X[i+1]`, and the sign bit or-ed
//! in. The last `len % 4` draws of a block run the portable loop itself.
//! `proofs/dispatch_bit_identity.rs` runs every copy.

#![cfg(target_arch = "x86_64")]

use std::arch::x86_64::{
    _mm256_and_si256, _mm256_castpd_si256, _mm256_castsi256_pd, _mm256_cmp_pd, _mm256_i64gather_pd,
    _mm256_loadu_si256, _mm256_movemask_pd, _mm256_mul_pd, _mm256_or_si256, _mm256_set1_epi64x,
    _mm256_set1_pd, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_pd, _mm256_sub_pd,
    _CMP_LT_OQ,
};

use super::tables::X;

/// As the portable `fast_path`: writes `out[j]` for every draw and sets the bits of the draws
/// that left the fast path (bit `j` of word `j / 64`); `portable` is that loop, for the tail.
///
/// # Safety
///
/// The CPU must support AVX2; `out.len() == words.len() ≤ 64·missed.len()`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn fast_path(
    words: &[u64],
    out: &mut [f64],
    missed: &mut [u64],
    portable: impl Fn(&[u64], &mut [f64], &mut [u64], usize),
) {
    debug_assert!(out.len() == words.len() && words.len() <= 64 * missed.len());
    let low_byte = _mm256_set1_epi64x(0xff);
    let sign_bit = _mm256_set1_epi64x(0x100);
    let one_bits = _mm256_set1_epi64x(0x3ff0_0000_0000_0000);
    let one = _mm256_set1_pd(1.0);
    let whole = words.len() - words.len() % 4;
    // Each 64 draws' bits gather in a register and are stored once (an `|=` into `missed` per
    // four draws would chain every step to the last one's store).
    for (group, bits) in missed.iter_mut().enumerate() {
        let first = 64 * group;
        if first >= whole {
            break;
        }
        let mut acc = 0u64;
        for start in (first..whole.min(first + 64)).step_by(4) {
            // SAFETY: AVX2 (precondition); the load and the store touch the four entries from
            // `start ≤ whole − 4`, inside `words` and `out`; the gathers read `X[i]` and
            // `X[i + 1]` with `i ≤ 255`, inside the 257 entries of `X`.
            let rejected = unsafe {
                let w = _mm256_loadu_si256(words.as_ptr().add(start).cast());
                let i = _mm256_and_si256(w, low_byte);
                let sign = _mm256_slli_epi64::<55>(_mm256_and_si256(w, sign_bit));
                let u = _mm256_sub_pd(
                    _mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64::<12>(w), one_bits)),
                    one,
                );
                let width = _mm256_i64gather_pd::<8>(X.as_ptr(), i);
                let next = _mm256_i64gather_pd::<8>(X.as_ptr().add(1), i);
                let v = _mm256_mul_pd(u, width);
                let inside = _mm256_movemask_pd(_mm256_cmp_pd::<_CMP_LT_OQ>(v, next)) as u64;
                let signed = _mm256_castsi256_pd(_mm256_or_si256(_mm256_castpd_si256(v), sign));
                _mm256_storeu_pd(out.as_mut_ptr().add(start), signed);
                !inside & 0xf
            };
            acc |= rejected << (start - first);
        }
        *bits |= acc;
    }
    portable(&words[whole..], &mut out[whole..], missed, whole);
}
