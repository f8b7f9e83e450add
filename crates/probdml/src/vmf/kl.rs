//! The KL divergence between two vMFs, corrected (nivMF Supp. E).

use super::bregman::log_partition_bregman;
use super::input::check_kl_args;
use super::{log_bessel_scaled_lanes, mean_resultant_length, renormalisation_threshold};
use crate::compensated::{dot_lanes, square_sums_lanes};
use crate::error::Result;
use crate::special::debye::{bessel_i_ratio_debye, DEBYE_LANES_MAX_ARGUMENT};

/// `½‖a − b‖²`, which is `1 − aᵀb` for unit vectors, without the cancellation of `1 − aᵀb`
/// when `a ≈ b`.
pub(crate) fn half_squared_distance(a: &[f64], b: &[f64]) -> f64 {
    let mut s = [0.0_f64; 4];
    let ca = a.chunks_exact(4);
    let cb = b.chunks_exact(4);
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..4 {
            let d = x[l] - y[l];
            s[l] = d.mul_add(d, s[l]);
        }
    }
    let mut tail = 0.0;
    for (x, y) in ra.iter().zip(rb) {
        let d = x - y;
        tail = d.mul_add(d, tail);
    }
    0.5 * (((s[0] + s[1]) + (s[2] + s[3])) + tail)
}

/// `KL(vMF(μ_z, κ_z) ‖ vMF(μ_p, κ_p))` on `S^{M−1}`, with the vMF mean `A_M(κ_z)μ_z` that the
/// paper's eq. (39) drops.
///
/// # Formula
///
/// $$ \mathrm{KL}(\zeta\\,\Vert \\,\rho) = \ln C_M(\kappa_z) - \ln C_M(\kappa_p)
///    {}+ A_M(\kappa_z)\\,(\kappa_z - \kappa_p\\,\mu_p^\top\mu_z) $$
///
/// (correcting nivMF Supp. E eq. (39), which has `κ_z − κ_p μ_pᵀμ_z` without the factor
/// `A_M(κ_z)`: it takes `E_ζ[x] = μ_z`, but the mean of a vMF is `A_M(κ_z)μ_z`). Computed as
///
/// $$ \mathrm{KL} = B(\kappa_p;\kappa_z) + A_M(\kappa_z)\\,\kappa_p\\,\tfrac12\lVert\mu_z-\mu_p\rVert^2 $$
///
/// with `B` the Bregman divergence of `Φ = −ln C_M`, a sum of two non-negative terms each
/// computed without cancellation (`B` by its Taylor series in `κ_p − κ_z`, or its integral
/// form, when `κ_z ≈ κ_p`), so that KL keeps
/// its relative accuracy when it is tiny (`κ_z ≈ κ_p` large, or `κ → 0` where
/// `KL ≈ ‖ν_z − ν_p‖²/(2M)`). `κ_p = 0` is the uniform law: the result is
/// [`vmf::kl_to_uniform`](crate::vmf::kl_to_uniform)`(M, κ_z)`. `½‖μ_z − μ_p‖²` stands for
/// `1 − μ_pᵀμ_z` (equal for unit vectors), so `KL(ζ‖ζ) = 0` exactly. For `M ≥ 42` where the
/// terms do not cancel (e.g. two directions apart), the closed form is evaluated directly with
/// the two `ln I_ν` sharing one vectorised call, under an error bound of `2·10⁻¹⁴` of the result
/// (see `kl_vmf_kernel`); elsewhere the Bregman form.
///
/// Error budget: relative `10⁻⁹` against the sphere quadrature of
/// [`exact::kl_vmf`](super::exact::kl_vmf) (`proofs/nivmf_divergences.rs`).
///
/// # Errors
///
/// * [`Error::InvalidDimension`](crate::Error::InvalidDimension) if `len(μ_z) < 2`;
/// * [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if `len(μ_p) ≠ len(μ_z)`;
/// * [`Error::NotFinite`](crate::Error::NotFinite) / [`Error::OutOfDomain`](crate::Error::OutOfDomain)
///   if a κ is NaN, infinite or negative, or an entry of a μ is not finite;
/// * [`Error::NotUnitVector`](crate::Error::NotUnitVector) if `|‖μ‖ − 1|` exceeds
///   [`vmf::unit_norm_tolerance`](crate::vmf::unit_norm_tolerance)`(M)`.
///
/// # Examples
///
/// ```
/// use probdml::nivmf::kl_vmf;
/// // The refutation point: M = 3, κ_z = 5, κ_p = 2, angle 1 rad.
/// let (mu_z, mu_p) = ([1.0, 0.0, 0.0], [1f64.cos(), 1f64.sin(), 0.0]);
/// let kl = kl_vmf(&mu_z, 5.0, &mu_p, 2.0).unwrap();
/// assert!((kl - 1.033723).abs() < 1e-6);
/// // Zero iff equal; κ_p = 0 is the KL to the uniform law.
/// assert_eq!(kl_vmf(&mu_z, 5.0, &mu_z, 5.0).unwrap(), 0.0);
/// let to_uniform = probdml::vmf::kl_to_uniform(3, 5.0);
/// assert!((kl_vmf(&mu_z, 5.0, &mu_p, 0.0).unwrap() - to_uniform).abs() < 1e-14);
/// assert!(kl_vmf(&mu_z, -1.0, &mu_p, 2.0).is_err());
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn kl_vmf(mu_z: &[f64], kappa_z: f64, mu_p: &[f64], kappa_p: f64) -> Result<f64> {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || {
            let (dim, one_minus_cos) = check_kl_args_fused(mu_z, kappa_z, mu_p, kappa_p)?;
            Ok(kl_vmf_kernel(dim, kappa_z, kappa_p, one_minus_cos))
        },
    )
}

/// [`check_kl_args`] and `½‖μ_z − μ_p‖²` from one pass in the common case (equal lengths,
/// finite sums: then every entry is finite); any failure is re-diagnosed by `check_kl_args`,
/// which names the argument and the rule.
#[inline(always)]
fn check_kl_args_fused(
    mu_z: &[f64],
    kappa_z: f64,
    mu_p: &[f64],
    kappa_p: f64,
) -> Result<(usize, f64)> {
    let dim = mu_z.len();
    let finite_kappas = kappa_z.is_finite() && kappa_p.is_finite();
    if dim >= 2 && mu_p.len() == dim && finite_kappas && kappa_z >= 0.0 && kappa_p >= 0.0 {
        let (zz, pp, squared_distance) = square_sums_lanes(mu_z, mu_p, 1.0, -1.0);
        let half_sq = 0.5 * squared_distance;
        let threshold = renormalisation_threshold(dim);
        // The test by which `require_unit` takes a vector as given: |‖μ‖ − 1| ≤ threshold. A
        // vector further off (normalised in f32) goes the long way and is renormalised.
        let unit = |sq: f64| sq.is_finite() && (sq.sqrt() - 1.0).abs() <= threshold;
        if unit(zz) && unit(pp) && half_sq.is_finite() {
            return Ok((dim, half_sq));
        }
    }
    let (dim, mu_z, mu_p) = check_kl_args(mu_z, kappa_z, mu_p, kappa_p)?;
    Ok((dim, half_squared_distance(&mu_z, &mu_p)))
}

/// The KL kernel from `(M, κ_z, κ_p, 1 − μ_pᵀμ_z)`; no checks.
///
/// Two routes (module docs of `bregman.rs` for the second):
///
/// * **Direct, large order** (`ν = M/2 − 1 ≥ 20`): `KL = [g(κ_p) − g(κ_z)] − A_M(κ_z)(κ_p − κ_z)
///   + A_M(κ_z)κ_p(1 − cos)`, `g = ln I_ν − ν ln`, with the two `g` from one call of the lane
///   kernel and their difference taken in double-double. Its error is at most
///   `2·2.5·10⁻¹⁶` from the `f64` parts of the two `g` (`−½ ln(1 + p)`, < `1.9·10⁻¹⁶` with the
///   rounding of `p`, and the truncated Debye sum, < `10⁻¹⁷`; the double-double leading terms
///   are exact to `10⁻²⁰`), plus `10⁻¹⁴·A_M(|κ_p − κ_z| + κ_p(1 − cos))` from the ratio's budget,
///   plus four roundings of the largest summand. It is taken when that bound is at most
///   `2·10⁻¹⁴` of the result: where the terms do not cancel, e.g. any two directions apart.
/// * **Bregman** otherwise: `B(κ_p; κ_z) + A_M(κ_z)κ_p(1 − cos)`, each term non-negative and
///   computed without cancellation, for `κ_z ≈ κ_p` and small `M`: `B` by its Taylor series in
///   `κ_p − κ_z` near `κ_z` (one `(A_M, A_M')` evaluation and a Riccati recursion; error that of
///   `A_M'` times at most `e^L`), else by Gauss–Legendre on its integral form, else as the
///   difference of normalisers where that is accurate.
///
/// Out of line, it chooses its instruction set itself: compiled once per instruction set
/// rather than into every dispatched caller's copy.
#[inline(never)]
pub(crate) fn kl_vmf_kernel(dim: usize, kappa_z: f64, kappa_p: f64, one_minus_cos: f64) -> f64 {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || kl_vmf_in_place(dim, kappa_z, kappa_p, one_minus_cos),
    )
}

/// [`kl_vmf_kernel`] in the caller's instruction set.
#[inline(always)]
fn kl_vmf_in_place(dim: usize, kappa_z: f64, kappa_p: f64, one_minus_cos: f64) -> f64 {
    if let Some(kl) = kl_vmf_direct(dim, kappa_z, kappa_p, one_minus_cos) {
        return kl;
    }
    let bregman = log_partition_bregman(dim, kappa_p, kappa_z);
    if kappa_p == 0.0 || one_minus_cos == 0.0 {
        return bregman;
    }
    bregman + mean_resultant_length(dim, kappa_z) * kappa_p * one_minus_cos
}

/// The direct route of [`kl_vmf_kernel`], or `None` where its error bound exceeds `2·10⁻¹⁴`
/// of the result (or `ν < 20`, or a `κ` outside the lane kernel's range).
#[inline(always)]
fn kl_vmf_direct(dim: usize, kappa_z: f64, kappa_p: f64, one_minus_cos: f64) -> Option<f64> {
    const G_ERROR: f64 = 2.5e-16;
    const RATIO_BUDGET: f64 = 1e-14;
    const TARGET: f64 = 2e-14;
    if dim < 42
        || kappa_z == kappa_p
        || kappa_p == 0.0
        || kappa_z > DEBYE_LANES_MAX_ARGUMENT
        || kappa_p > DEBYE_LANES_MAX_ARGUMENT
    {
        return None;
    }
    let delta = kappa_p - kappa_z;
    // The bound below carries 10⁻¹⁴·A_M·|δ| against 2·10⁻¹⁴·(B + A_Mκ_p(1 − cos)), B ≥ 0: unless
    // the angle term can carry it, the Bregman route will be needed anyway, so do not spend the
    // normaliser call (a speed gate only: either route is accurate where it is taken).
    if kappa_p * one_minus_cos < 0.5 * delta.abs() {
        return None;
    }
    // A_M(κ_z) by the Debye ratio directly (`dim ≥ 42`, `κ_z ≤ 10¹⁵⁰`: the branch that
    // `mean_resultant_length` would take), issued before the independent normaliser lanes.
    let a = bessel_i_ratio_debye(0.5 * dim as f64 - 1.0, kappa_z);
    let g = log_bessel_scaled_lanes::<2>(dim, &[kappa_z, kappa_p]);
    let normalisers = g[1].sub(g[0]).to_f64();
    let (slope_term, angle_term) = (a * delta, a * kappa_p * one_minus_cos);
    let kl = (normalisers - slope_term) + angle_term;
    let largest = normalisers.abs().max(slope_term.abs()).max(angle_term);
    let bound = 2.0 * G_ERROR
        + RATIO_BUDGET * (slope_term.abs() + angle_term)
        + 4.0 * f64::EPSILON * largest;
    (bound <= TARGET * kl).then_some(kl)
}

/// The paper's eq. (39), `ln C_M(κ_z) − ln C_M(κ_p) + κ_z − κ_p μ_pᵀμ_z`, which is **not** the
/// KL divergence (it uses `E_ζ[x] = μ_z` instead of `A_M(κ_z)μ_z`); kept to reproduce the paper
/// and for the refutation in `proofs/nivmf_divergences.rs`.
///
/// # Formula
///
/// $$ \ln C_M(\kappa_z) - \ln C_M(\kappa_p) + (\kappa_z\mu_z - \kappa_p\mu_p)^\top\mu_z $$
///
/// (nivMF Supp. E, eq. (39)).
///
/// # Errors
///
/// As [`kl_vmf`].
///
/// # Examples
///
/// ```
/// use probdml::nivmf::{kl_vmf, kl_vmf_paper};
/// let (mu_z, mu_p) = ([1.0, 0.0, 0.0], [1f64.cos(), 1f64.sin(), 0.0]);
/// // At that point: 1.817246 (eq. 39) against the true 1.033723.
/// assert!((kl_vmf_paper(&mu_z, 5.0, &mu_p, 2.0).unwrap() - 1.817246).abs() < 1e-6);
/// assert!((kl_vmf(&mu_z, 5.0, &mu_p, 2.0).unwrap() - 1.033723).abs() < 1e-6);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn kl_vmf_paper(mu_z: &[f64], kappa_z: f64, mu_p: &[f64], kappa_p: f64) -> Result<f64> {
    let (dim, mu_z, mu_p) = check_kl_args(mu_z, kappa_z, mu_p, kappa_p)?;
    let cos = crate::instruction_set::dispatch(
        #[inline(always)]
        || dot_lanes(&mu_z, &mu_p),
    );
    Ok(
        crate::vmf::log_norm_const(dim, kappa_z) - crate::vmf::log_norm_const(dim, kappa_p)
            + (kappa_z - kappa_p * cos),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `½‖a − b‖²` in four lanes and a tail, against the plain sum, for lengths that leave every
    /// remainder and differences in every lane (the fused check computes the same quantity in
    /// the common case, so only this test reaches every part of it).
    #[test]
    fn half_squared_distance_is_its_definition() {
        for len in 1..=11usize {
            let a: Vec<f64> = (0..len).map(|k| (k as f64 * 0.7).sin()).collect();
            let b: Vec<f64> = (0..len).map(|k| (k as f64 * 1.3).cos()).collect();
            let plain: f64 = a.iter().zip(&b).map(|(x, y)| (x - y) * (x - y)).sum();
            let got = half_squared_distance(&a, &b);
            assert!(
                (got - 0.5 * plain).abs() <= 4.0 * f64::EPSILON * plain,
                "len {len}: {got} vs {}",
                0.5 * plain
            );
        }
    }
}
