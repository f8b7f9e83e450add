//! Probability product kernels between vMFs (nivMF Supp. C, D).

use super::bregman::log_partition_bregman;
use super::{log_bessel_scaled_lanes, log_norm_const_lanes, mean_resultant_length};
use crate::compensated::square_sums_lanes;
use crate::error::{natural_norm, require_gamma, require_len, Result};
use crate::special::debye::DEBYE_LANES_MAX_ARGUMENT;

/// `(‖ν_z‖², ‖ν_p‖², ‖ν_z + ν_p‖²)` in one pass ([`square_sums_lanes`]: the same lane-wise
/// recurrence for the three, so that `ν_z = ν_p` gives `‖ν_z + ν_p‖² = 4‖ν_z‖²` exactly and
/// `d_B = 0` exactly; swapping `ν_z` and `ν_p` swaps the first two and leaves the third).
#[inline(always)]
fn squared_norms(nu_z: &[f64], nu_p: &[f64]) -> (f64, f64, f64) {
    square_sums_lanes(nu_z, nu_p, 1.0, 1.0)
}

/// The norms `(κ_z, κ_p, ‖ν_z + ν_p‖)` and `κ_z + κ_p − ‖ν_z + ν_p‖`.
pub(crate) struct PairNorms {
    pub(crate) kappa_z: f64,
    pub(crate) kappa_p: f64,
    pub(crate) kappa_sum: f64,
    /// `κ_z + κ_p − ‖ν_z + ν_p‖ ≥ 0`, without cancellation.
    pub(crate) norm_gap: f64,
}

/// `(κ_z, κ_p, ‖ν_z + ν_p‖)` for finite entries; `kappa_z`, `kappa_p` are the overflow-safe
/// norms, used only when a sum of squares overflows (entries beyond ~10¹⁵⁴).
#[inline(always)]
fn pair_norms(nu_z: &[f64], nu_p: &[f64], kappa_z: f64, kappa_p: f64) -> (f64, f64, f64) {
    let (zz, pp, sum) = squared_norms(nu_z, nu_p);
    if sum.is_finite() && zz.is_finite() && pp.is_finite() {
        (zz.sqrt(), pp.sqrt(), sum.sqrt())
    } else {
        let s: Vec<f64> = nu_z.iter().zip(nu_p).map(|(a, b)| a + b).collect();
        (kappa_z, kappa_p, crate::compensated::norm2(&s))
    }
}

impl PairNorms {
    #[inline(always)]
    pub(crate) fn new(nu_z: &[f64], nu_p: &[f64], kappa_z: f64, kappa_p: f64) -> Self {
        let (kappa_z, kappa_p, kappa_sum) = pair_norms(nu_z, nu_p, kappa_z, kappa_p);
        // κ_z + κ_p − ‖ν_z + ν_p‖ = 2(κ_zκ_p − ν_zᵀν_p)/(κ_z + κ_p + ‖ν_z + ν_p‖), and
        // κ_zκ_p − ν_zᵀν_p = ‖κ_pν_z − κ_zν_p‖²/(2κ_zκ_p): a sum of squares, no cancellation.
        let norm_gap = if kappa_z > 0.0 && kappa_p > 0.0 {
            let (_, _, cross) = square_sums_lanes(nu_z, nu_p, kappa_p, -kappa_z);
            cross / (kappa_z * kappa_p * (kappa_z + kappa_p + kappa_sum))
        } else {
            0.0
        };
        Self {
            kappa_z,
            kappa_p,
            kappa_sum,
            norm_gap,
        }
    }
}

/// Validates `(ν_z, ν_p)` and returns `(M, κ_z, κ_p)`, the overflow-safe norms. The common
/// case (equal lengths, finite sums of squares, which implies finite entries) takes one pass
/// of [`squared_norms`]; otherwise the entry-by-entry checks name the offending argument.
#[inline(always)]
fn check_pair_norms(nu_z: &[f64], nu_p: &[f64]) -> Result<(usize, f64, f64, f64)> {
    if nu_z.len() == nu_p.len() && nu_z.len() >= 2 {
        let (zz, pp, sum) = squared_norms(nu_z, nu_p);
        if zz.is_finite() && pp.is_finite() && sum.is_finite() {
            return Ok((nu_z.len(), zz.sqrt(), pp.sqrt(), sum.sqrt()));
        }
    }
    let kappa_z = natural_norm("nu_z", nu_z)?;
    require_len("nu_p", nu_p, nu_z.len())?;
    let kappa_p = natural_norm("nu_p", nu_p)?;
    let (kappa_z, kappa_p, kappa_sum) = pair_norms(nu_z, nu_p, kappa_z, kappa_p);
    Ok((nu_z.len(), kappa_z, kappa_p, kappa_sum))
}

/// `d_B` for checked `(ν_z, ν_p)` with their norms `(κ_z, κ_p, ‖ν_z + ν_p‖)`: the direct
/// route where its error bound allows, else the sum of non-negative terms of
/// [`bhattacharyya_kernel`] (which needs a second pass over the vectors). Out of line, it
/// chooses its instruction set itself, as [`kl_vmf_kernel`](super::kl::kl_vmf_kernel) does.
#[inline(never)]
pub(crate) fn bhattacharyya_from_norms(
    dim: usize,
    nu_z: &[f64],
    nu_p: &[f64],
    kappa_z: f64,
    kappa_p: f64,
    kappa_sum: f64,
) -> f64 {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || {
            if let Some(d) = bhattacharyya_direct(dim, kappa_z, kappa_p, kappa_sum) {
                return d;
            }
            bhattacharyya_kernel(dim, &PairNorms::new(nu_z, nu_p, kappa_z, kappa_p))
        },
    )
}

/// `d_B = ½g(κ_z) + ½g(κ_p) − g(κ_m)`, `κ_m = ½‖ν_z + ν_p‖`, `g = ln I_ν − ν ln` (the
/// `−(M/2) ln 2π` of the three `ln C_M` cancel), for `ν = M/2 − 1 ≥ 20`: the three `g` from one
/// call of the lane kernel, combined in double-double. Error at most
/// `(½ + ½ + 1)·2.5·10⁻¹⁶` from the `f64` parts of the `g` (the bound of `nivmf::kl`'s direct
/// route) plus one rounding of the result; `None` where that exceeds `10⁻¹⁴·d_B` (the
/// accuracy the Bregman route keeps), i.e. where `ν_z ≈ ν_p` and the terms cancel.
#[inline(always)]
fn bhattacharyya_direct(dim: usize, kappa_z: f64, kappa_p: f64, kappa_sum: f64) -> Option<f64> {
    const G_ERROR: f64 = 2.5e-16;
    const TARGET: f64 = 1e-14;
    let kappa_m = 0.5 * kappa_sum;
    if dim < 42 || kappa_z.max(kappa_p) > DEBYE_LANES_MAX_ARGUMENT {
        return None;
    }
    let g = log_bessel_scaled_lanes::<4>(dim, &[kappa_z, kappa_p, kappa_m, 0.0]);
    let d = g[0].add(g[1]).mul_f64(0.5).sub(g[2]).to_f64();
    let bound = 2.0 * G_ERROR + f64::EPSILON * d.abs();
    (bound <= TARGET * d).then_some(d)
}

/// Validates `(ν_z, ν_p)` and returns `(M, d_B)`.
#[inline(always)]
fn check_pair_bhattacharyya(nu_z: &[f64], nu_p: &[f64]) -> Result<(usize, f64)> {
    let (dim, kappa_z, kappa_p, kappa_sum) = check_pair_norms(nu_z, nu_p)?;
    let d = bhattacharyya_from_norms(dim, nu_z, nu_p, kappa_z, kappa_p, kappa_sum);
    Ok((dim, d))
}

/// `ln PPK_γ(ρ, ζ) = ln ∫ ρ^γ ζ^γ` between `ζ = vMF` with natural parameter `ν_z = κ_zμ_z` and
/// `ρ = vMF` with `ν_p = κ_pμ_p`; `ν = 0` is the uniform law.
///
/// # Formula
///
/// $$ \ln \mathrm{PPK}\_\gamma = \gamma\ln C_M(\kappa_z) + \gamma\ln C_M(\kappa_p)
///    {}- \ln C_M(\gamma\lVert\nu_z+\nu_p\rVert) $$
///
/// (nivMF Supp. D, eqs. (26)–(35), Jebara et al. 2004): `ρ^γζ^γ ∝ e^{γ(ν_z+ν_p)ᵀx}` is an
/// unnormalised vMF. At `γ = ½` it is `−d_B`, computed as
/// `d_B = ½A_M(κ_m)(κ_z + κ_p − 2κ_m) + ½B(κ_z; κ_m) + ½B(κ_p; κ_m)`, `κ_m = ½‖ν_z + ν_p‖`, a
/// sum of non-negative terms with `B` the Bregman divergence of `−ln C_M` (see
/// [`bhattacharyya_distance`]).
///
/// Error budget: `|Δ| ≤ 10⁻⁹·max(1, |exact|)` against the sphere quadrature of
/// [`exact::log_ppk`](super::exact::log_ppk) (`proofs/nivmf_divergences.rs`).
///
/// # Errors
///
/// * [`Error::OutOfDomain`](crate::Error::OutOfDomain) / [`Error::NotFinite`](crate::Error::NotFinite)
///   if `γ ≤ 0` or not finite;
/// * [`Error::InvalidDimension`](crate::Error::InvalidDimension) if `len(ν_z) < 2`;
/// * [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if `len(ν_p) ≠ len(ν_z)`;
/// * [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) for a NaN or infinite entry,
///   [`Error::NotFinite`](crate::Error::NotFinite) if `‖ν‖` overflows.
///
/// # Examples
///
/// ```
/// use probdml::nivmf::log_ppk;
/// use probdml::vmf::log_norm_const;
/// let (nu_z, nu_p) = ([3.0, 0.0, 0.0], [0.0, 4.0, 0.0]);
/// // γ = 1: ln C(3) + ln C(4) − ln C(5).
/// let want = log_norm_const(3, 3.0) + log_norm_const(3, 4.0) - log_norm_const(3, 5.0);
/// assert!((log_ppk(&nu_z, &nu_p, 1.0).unwrap() - want).abs() < 1e-14);
/// // Bhattacharyya: ln PPK_½(ζ, ζ) = 0.
/// assert_eq!(log_ppk(&nu_z, &nu_z, 0.5).unwrap(), 0.0);
/// assert!(log_ppk(&nu_z, &nu_p, 0.0).is_err());
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn log_ppk(nu_z: &[f64], nu_p: &[f64], gamma: f64) -> Result<f64> {
    require_gamma(gamma)?;
    crate::instruction_set::dispatch(
        #[inline(always)]
        || {
            if gamma == 0.5 {
                return Ok(-check_pair_bhattacharyya(nu_z, nu_p)?.1);
            }
            let (dim, kappa_z, kappa_p, kappa_sum) = check_pair_norms(nu_z, nu_p)?;
            Ok(log_ppk_kernel(dim, gamma, kappa_z, kappa_p, kappa_sum))
        },
    )
}

/// [`log_ppk`] with the exponent first: its former name and argument order.
///
/// # Errors
///
/// As [`log_ppk`].
#[deprecated(
    since = "0.2.0",
    note = "renamed `log_ppk(nu_z, nu_p, gamma)`: the data first, the parameter last, as \
            everywhere in the crate"
)]
pub fn log_ppk_vmf(gamma: f64, nu_z: &[f64], nu_p: &[f64]) -> Result<f64> {
    log_ppk(nu_z, nu_p, gamma)
}

/// `ln PPK_γ` for `γ ≠ ½` from `(κ_z, κ_p, ‖ν_z + ν_p‖)`; no checks. The three normalisers
/// share one call of the lane kernel (`vmf::log_norm_const_lanes`: the scalar function's bits).
/// Out of line, it chooses its instruction set itself.
#[inline(never)]
pub(crate) fn log_ppk_kernel(
    dim: usize,
    gamma: f64,
    kappa_z: f64,
    kappa_p: f64,
    kappa_sum: f64,
) -> f64 {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || {
            let log_c = log_norm_const_lanes::<4>(dim, &[kappa_z, kappa_p, gamma * kappa_sum, 0.0]);
            gamma * (log_c[0] + log_c[1]) - log_c[2]
        },
    )
}

/// `d_B` from the norms; no checks.
#[inline(always)]
pub(crate) fn bhattacharyya_kernel(dim: usize, n: &PairNorms) -> f64 {
    let kappa_m = 0.5 * n.kappa_sum;
    0.5 * (mean_resultant_length(dim, kappa_m) * n.norm_gap
        + log_partition_bregman(dim, n.kappa_z, kappa_m)
        + log_partition_bregman(dim, n.kappa_p, kappa_m))
}

/// The Bhattacharyya distance `d_B = −ln PPK_½` between two vMFs given by natural parameters.
///
/// # Formula
///
/// $$ d_B = \ln C_M(\tfrac12\lVert\nu_z+\nu_p\rVert) - \tfrac12\ln C_M(\kappa_z) - \tfrac12\ln C_M(\kappa_p)
///    = \tfrac12 A_M(\kappa_m)(\kappa_z+\kappa_p-2\kappa_m) + \tfrac12 B(\kappa_z;\kappa_m)
///    {}+ \tfrac12 B(\kappa_p;\kappa_m) \ge 0 $$
///
/// (nivMF Supp. D, eq. (29)), with `κ_m = ½‖ν_z + ν_p‖`, `B(a; b) = Φ(a) − Φ(b) − Φ'(b)(a − b)`,
/// `Φ = −ln C_M` convex. The second form is a sum of non-negative terms, so `d_B ≥ 0` holds in
/// floating point and `d_B = 0` exactly when `ν_z = ν_p`; `κ_z + κ_p − 2κ_m` is evaluated as
/// `‖κ_pν_z − κ_zν_p‖²/(κ_zκ_p(κ_z + κ_p + 2κ_m))`.
///
/// # Errors
///
/// As [`log_ppk`] (without γ).
///
/// # Examples
///
/// ```
/// use probdml::nivmf::{bhattacharyya_distance, log_ppk};
/// let (nu_z, nu_p) = ([50.0, 0.0], [49.0, 1.0]);
/// let d = bhattacharyya_distance(&nu_z, &nu_p).unwrap();
/// assert!(d > 0.0 && d < 0.1);
/// assert_eq!(d, -log_ppk(&nu_z, &nu_p, 0.5).unwrap());
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn bhattacharyya_distance(nu_z: &[f64], nu_p: &[f64]) -> Result<f64> {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || Ok(check_pair_bhattacharyya(nu_z, nu_p)?.1),
    )
}

/// The expected-likelihood distance `d_EL = −ln PPK_1` (the mutual likelihood score) between two
/// vMFs given by natural parameters.
///
/// # Formula
///
/// $$ d_{EL} = \ln C_M(\lVert\nu_z+\nu_p\rVert) - \ln C_M(\kappa_z) - \ln C_M(\kappa_p) $$
///
/// (nivMF Supp. D, eq. (35)). Not a divergence: it can be negative, and is not zero at
/// `ν_z = ν_p`.
///
/// # Errors
///
/// As [`log_ppk`] (without γ).
///
/// # Examples
///
/// ```
/// use probdml::nivmf::expected_likelihood_distance;
/// use probdml::vmf::log_norm_const;
/// // ν_z + ν_p = 0: ∫ζρ = C(κ)² |S^{M−1}| ... = C(κ)²/C(0).
/// let d = expected_likelihood_distance(&[2.0, 0.0, 0.0], &[-2.0, 0.0, 0.0]).unwrap();
/// let want = log_norm_const(3, 0.0) - 2.0 * log_norm_const(3, 2.0);
/// assert!((d - want).abs() < 1e-14);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn expected_likelihood_distance(nu_z: &[f64], nu_p: &[f64]) -> Result<f64> {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || {
            let (dim, kappa_z, kappa_p, kappa_sum) = check_pair_norms(nu_z, nu_p)?;
            Ok(-log_ppk_kernel(dim, 1.0, kappa_z, kappa_p, kappa_sum))
        },
    )
}
