//! `E τ` and `Var τ` of `τ = ‖a − p‖² − ‖a − n‖²` for diagonal Gaussians, per dimension in
//! closed form and summed (BTL supplement eqs. 5, 17, 18, 26).
//!
//! With `d_p = μ_p − μ_a`, `d_n = μ_n − μ_a`, `e = μ_p − μ_n` per dimension, the supplement's
//! `E τ_d = μ_p² + σ_p² − μ_n² − σ_n² − 2μ_a(μ_p − μ_n)` and
//! `Var τ_d = 2T₁ + 2T₂ − 2T₃` rearrange to
//!
//! ```text
//! E τ_d   = d_p² − d_n² + σ_p² − σ_n²
//! Var τ_d = 2σ_p⁴ + 2σ_n⁴ + 4σ_p² d_p² + 4σ_n² d_n² + 4σ_a²(σ_p² + σ_n²) + 4σ_a² e²
//! ```
//!
//! (expand `2(σ_a² + μ_a²)(σ_p² + μ_p²) − 2μ_a²μ_p² − 4μ_aμ_pσ_p² + 2μ_p²σ_p²` into
//! `2σ_a²σ_p² + 2σ_a²μ_p² + 2σ_p²(μ_p − μ_a)²`, likewise for n, and collect
//! `4σ_a²(μ_p² + μ_n²) − 8σ_a²μ_pμ_n = 4σ_a² e²`). Why: the variance is now a sum of
//! non-negative terms, so it keeps full relative accuracy — the supplement's form cancels
//! (`T₁ + T₂ − T₃` with `T₃ = 4μ_pμ_nσ_a²`) and can even round to a negative number when the means
//! are large and the variances small. The same form is `Var(u²) + Var(v²) − 2Cov(u², v²)` for
//! `u = a − p`, `v = a − n`, `Cov(u, v) = σ_a²`.
//!
//! The sums run over 8 independent lanes so that the compiler can keep them in SIMD registers
//! (a single accumulator serialises on the floating-point add latency).

use super::input::{check_triplet, moments_overflow};
use crate::error::Result;

/// Lanes of the vectorised sums.
pub(crate) const LANES: usize = 8;

/// `(E τ_d, Var τ_d)` for one dimension.
#[inline(always)]
pub(crate) fn moments_1d(ma: f64, va: f64, mp: f64, vp: f64, mn: f64, vn: f64) -> (f64, f64) {
    let dp = mp - ma;
    let dn = mn - ma;
    let e = mp - mn;
    let mean = dp * dp - dn * dn + vp - vn;
    let var =
        2.0 * (vp * vp + vn * vn) + 4.0 * (vp * dp * dp + vn * dn * dn + va * (vp + vn + e * e));
    (mean, var)
}

/// `(Σ_d E τ_d, Σ_d Var τ_d)` over one triplet, no checks (slices of equal length).
pub(crate) fn moment_sums(s: [&[f64]; 6]) -> (f64, f64) {
    let len = s[0].len();
    // Re-slicing every input to the same length lets the compiler drop the bounds checks.
    let [ma, va, mp, vp, mn, vn] = s.map(|x| &x[..len]);
    let mut mean = [0.0; LANES];
    let mut var = [0.0; LANES];
    let blocks = len / LANES;
    for b in 0..blocks {
        let o = b * LANES;
        let (ma, va, mp) = (&ma[o..o + LANES], &va[o..o + LANES], &mp[o..o + LANES]);
        let (vp, mn, vn) = (&vp[o..o + LANES], &mn[o..o + LANES], &vn[o..o + LANES]);
        for l in 0..LANES {
            let (m, v) = moments_1d(ma[l], va[l], mp[l], vp[l], mn[l], vn[l]);
            mean[l] += m;
            var[l] += v;
        }
    }
    for i in blocks * LANES..len {
        let (m, v) = moments_1d(ma[i], va[i], mp[i], vp[i], mn[i], vn[i]);
        mean[0] += m;
        var[0] += v;
    }
    (mean.iter().sum(), var.iter().sum())
}

/// `(E τ, Var τ)` of the triplet `(μ_a, σ²_a, μ_p, σ²_p, μ_n, σ²_n)`: six slices of one type
/// in one order, which a caller can swap without a compile error (called in the papers' order,
/// means then variances, it returns a wrong value silently).
///
/// # Errors
///
/// As [`Triplet::moments`](super::Triplet::moments).
///
/// # Examples
///
/// ```
/// # #![allow(deprecated)]
/// let (mean, var) = probdml::triplet::moments(&[0.7], &[0.5], &[-0.4], &[0.8], &[1.3], &[0.3])?;
/// assert!((mean - 1.35).abs() < 1e-15 && (var - 13.744).abs() < 1e-12);
/// # Ok::<(), probdml::Error>(())
/// ```
#[deprecated(
    since = "0.1.0",
    note = "six slices of one type swap silently: use `Triplet { anchor, positive, negative }.moments()`"
)]
pub fn moments(
    mu_a: &[f64],
    var_a: &[f64],
    mu_p: &[f64],
    var_p: &[f64],
    mu_n: &[f64],
    var_n: &[f64],
) -> Result<(f64, f64)> {
    moments_of([mu_a, var_a, mu_p, var_p, mu_n, var_n])
}

/// The checked moments of the six slices `(μ_a, σ²_a, μ_p, σ²_p, μ_n, σ²_n)`.
pub(crate) fn moments_of(slices: [&[f64]; 6]) -> Result<(f64, f64)> {
    check_triplet(slices)?;
    finite_moments(slices, 0)
}

/// The moments of one triplet, or an error naming the entry whose square overflowed `f64`
/// (never a silent NaN); `first` is the triplet's flat index in a batch.
pub(crate) fn finite_moments(slices: [&[f64]; 6], first: usize) -> Result<(f64, f64)> {
    let (mean, var) = moment_sums(slices);
    if mean.is_finite() && var.is_finite() {
        Ok((mean, var))
    } else {
        Err(moments_overflow(slices, first))
    }
}
