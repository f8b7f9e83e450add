//! Entries of the Gram matrix G = ZZᵀ and the squared distances they give on the sphere.
//!
//! On S^{M−1}, ½d_ij² = 1 − z_iᵀz_j (LAM eq. 41, the "Arccos" identity), so every distance of a
//! batch comes from one Gram entry. Near d = 0 the difference 2 − 2G cancels: its absolute error
//! (≤ 2γ_{⌈M/4⌉+2} for unit rows, four-lane dot product, Higham §3.1) is fine for d² itself but
//! becomes ε/(2d) in d = √(d²). Distances that need the square root are therefore recomputed
//! from the explicit difference below d² = ¼, where ε/(2d) ≤ ε.

use crate::compensated::dot_lanes;

/// `aᵀb` with four independent fused accumulators (the crate's one lane dot product,
/// [`dot_lanes`]), on the CPU's widest instruction set: the contrastive entry points are
/// compiled for the baseline, where each fused multiply-add would be a call to compiler-builtins' `fma`,
/// and every Gram entry of a batch goes through here. The same bits on every copy
/// (`proofs/dispatch_bit_identity.rs`).
#[inline(always)]
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || dot_lanes(a, b),
    )
}

/// d² = 2 − 2G_ij for unit rows (clamped at 0).
#[inline]
pub(crate) fn squared_distance_gram(a: &[f64], b: &[f64]) -> f64 {
    (2.0 - 2.0 * dot(a, b)).max(0.0)
}

/// d² for use under a square root: the Gram value, or the explicit Σ(a − b)² below d² = ¼.
#[inline]
pub(crate) fn squared_distance_for_root(a: &[f64], b: &[f64]) -> f64 {
    let d2 = squared_distance_gram(a, b);
    if d2 < 0.25 {
        a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
    } else {
        d2
    }
}
