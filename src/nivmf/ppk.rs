//! Probability product kernels between vMFs (nivMF Supp. C, D; spec 06).

use super::bregman::log_partition_bregman;
use super::parameters::{natural_norm, require_gamma, require_len};
use crate::error::Result;
use crate::vmf::{log_norm_const, mean_resultant_length};

/// The norms `(κ_z, κ_p, ‖ν_z + ν_p‖)` and `‖κ_pν_z − κ_zν_p‖²` in one pass over the vectors.
pub(crate) struct PairNorms {
    pub(crate) kappa_z: f64,
    pub(crate) kappa_p: f64,
    pub(crate) kappa_sum: f64,
    /// `κ_z + κ_p − ‖ν_z + ν_p‖ ≥ 0`, without cancellation.
    pub(crate) norm_gap: f64,
}

impl PairNorms {
    pub(crate) fn new(nu_z: &[f64], nu_p: &[f64], kappa_z: f64, kappa_p: f64) -> Self {
        // The three norms by the same (naive, fused) recurrence, so that ν_z = ν_p gives
        // ‖ν_z + ν_p‖ = 2κ_z exactly (the squares of 2a are 4a², exactly) and d_B = 0 exactly.
        let (mut zz, mut pp, mut sum, mut cross) = (0.0_f64, 0.0_f64, 0.0_f64, 0.0_f64);
        for (&a, &b) in nu_z.iter().zip(nu_p) {
            zz = a.mul_add(a, zz);
            pp = b.mul_add(b, pp);
            let s = a + b;
            sum = s.mul_add(s, sum);
            let c = kappa_p * a - kappa_z * b;
            cross = c.mul_add(c, cross);
        }
        let (kappa_z, kappa_p, kappa_sum) = if sum.is_finite() && zz.is_finite() && pp.is_finite() {
            (zz.sqrt(), pp.sqrt(), sum.sqrt())
        } else {
            // Entries beyond ~10¹⁵⁴: the overflow-safe norms.
            let s: Vec<f64> = nu_z.iter().zip(nu_p).map(|(a, b)| a + b).collect();
            (kappa_z, kappa_p, crate::compensated::norm2(&s))
        };
        // κ_z + κ_p − ‖ν_z + ν_p‖ = 2(κ_zκ_p − ν_zᵀν_p)/(κ_z + κ_p + ‖ν_z + ν_p‖), and
        // κ_zκ_p − ν_zᵀν_p = ‖κ_pν_z − κ_zν_p‖²/(2κ_zκ_p): a sum of squares, no cancellation.
        let norm_gap = if kappa_z > 0.0 && kappa_p > 0.0 {
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

/// Validates `(ν_z, ν_p)` and returns their [`PairNorms`].
fn check_pair(nu_z: &[f64], nu_p: &[f64]) -> Result<(usize, PairNorms)> {
    let kappa_z = natural_norm("nu_z", nu_z)?;
    require_len("nu_p", nu_p, nu_z.len())?;
    let kappa_p = natural_norm("nu_p", nu_p)?;
    Ok((nu_z.len(), PairNorms::new(nu_z, nu_p, kappa_z, kappa_p)))
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
/// [`exact::log_ppk_vmf`](super::exact::log_ppk_vmf) (`proofs/nivmf_divergences.rs`).
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
/// use probdml::nivmf::log_ppk_vmf;
/// use probdml::vmf::log_norm_const;
/// let (nu_z, nu_p) = ([3.0, 0.0, 0.0], [0.0, 4.0, 0.0]);
/// // γ = 1: ln C(3) + ln C(4) − ln C(5).
/// let want = log_norm_const(3, 3.0) + log_norm_const(3, 4.0) - log_norm_const(3, 5.0);
/// assert!((log_ppk_vmf(1.0, &nu_z, &nu_p).unwrap() - want).abs() < 1e-14);
/// // Bhattacharyya: ln PPK_½(ζ, ζ) = 0.
/// assert_eq!(log_ppk_vmf(0.5, &nu_z, &nu_z).unwrap(), 0.0);
/// assert!(log_ppk_vmf(0.0, &nu_z, &nu_p).is_err());
/// ```
pub fn log_ppk_vmf(gamma: f64, nu_z: &[f64], nu_p: &[f64]) -> Result<f64> {
    require_gamma(gamma)?;
    let (dim, norms) = check_pair(nu_z, nu_p)?;
    Ok(log_ppk_kernel(dim, gamma, &norms))
}

/// `ln PPK_γ` from the norms; no checks.
#[inline]
pub(crate) fn log_ppk_kernel(dim: usize, gamma: f64, n: &PairNorms) -> f64 {
    if gamma == 0.5 {
        return -bhattacharyya_kernel(dim, n);
    }
    gamma * (log_norm_const(dim, n.kappa_z) + log_norm_const(dim, n.kappa_p))
        - log_norm_const(dim, gamma * n.kappa_sum)
}

/// `d_B` from the norms; no checks.
#[inline]
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
/// As [`log_ppk_vmf`] (without γ).
///
/// # Examples
///
/// ```
/// use probdml::nivmf::{bhattacharyya_distance, log_ppk_vmf};
/// let (nu_z, nu_p) = ([50.0, 0.0], [49.0, 1.0]);
/// let d = bhattacharyya_distance(&nu_z, &nu_p).unwrap();
/// assert!(d > 0.0 && d < 0.1);
/// assert_eq!(d, -log_ppk_vmf(0.5, &nu_z, &nu_p).unwrap());
/// ```
pub fn bhattacharyya_distance(nu_z: &[f64], nu_p: &[f64]) -> Result<f64> {
    let (dim, norms) = check_pair(nu_z, nu_p)?;
    Ok(bhattacharyya_kernel(dim, &norms))
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
/// As [`log_ppk_vmf`] (without γ).
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
pub fn expected_likelihood_distance(nu_z: &[f64], nu_p: &[f64]) -> Result<f64> {
    let (dim, norms) = check_pair(nu_z, nu_p)?;
    Ok(-log_ppk_kernel(dim, 1.0, &norms))
}
