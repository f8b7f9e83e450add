//! The vMF normaliser ln C_M(κ) (book chapter 01); its derivative −A_M(κ) is in
//! `mean_resultant_length.rs`.
//!
//! With ν = M/2 − 1 and the scaled logarithm g(ν, κ) = ln I_ν(κ) − ν ln κ of
//! `special::log_bessel_i`,
//!
//!   ln C_M(κ) = ν ln κ − (M/2) ln 2π − ln I_ν(κ) = −(M/2) ln 2π − g(ν, κ),
//!
//! so the two ν ln κ terms (10⁶ in size at M = 10⁵) cancel symbolically, and κ = 0 needs no
//! special case: g(ν, 0) = −ν ln 2 − ln Γ(ν+1) gives ln C_M(0) = ln Γ(M/2) − ln 2 − (M/2) ln π,
//! the uniform density, continuously.

use super::normaliser_batch::log_norm_const_kernel;

/// ln C_M(κ), the logarithm of the vMF normalising constant on S^{M−1} ⊂ ℝ^M.
///
/// # Formula
///
/// $$ C_M(\kappa) = \frac{\kappa^{M/2-1}}{(2\pi)^{M/2} I_{M/2-1}(\kappa)}, \qquad
///    C_M(0) = \frac{\Gamma(M/2)}{2\pi^{M/2}} = \frac{1}{|S^{M-1}|} $$
///
/// (LAM App. C; nivMF eq. (2)). Computed as −(M/2) ln 2π − g(M/2−1, κ) with the scaled Bessel
/// logarithm, the leading terms in double-double.
///
/// Error budget: |Δ| ≤ 4·10⁻¹⁵·max(1, |ln C_M(κ)|) against
/// [`exact::log_norm_const`](super::exact::log_norm_const) on M ∈ [2, 10⁵], κ ∈ [0, 10⁸]
/// (proved in `proofs/vmf_normaliser.rs`) — finite where scipy's `vonmises_fisher` returns +∞
/// (M = 512, κ = 5; M = 2048, κ = 100).
///
/// # Domain
///
/// `dim` ≥ 2, κ ≥ 0. NaN for `dim` < 2 or κ NaN or negative (raw kernel, no `Result`);
/// ln C_M(+∞) = −∞.
///
/// # Examples
///
/// ```
/// use probdml::vmf::log_norm_const;
/// // Spot values (mpmath, 50 digits; book chapter 01):
/// assert!((log_norm_const(128, 50.0) - 117.906858685).abs() < 1e-9);
/// assert!((log_norm_const(512, 50.0) - 865.538149369).abs() < 1e-9);
/// // M = 3: C_3(κ) = κ / (4π sinh κ)
/// let k = 2.0_f64;
/// assert!((log_norm_const(3, k) - (k / (4.0 * std::f64::consts::PI * k.sinh())).ln()).abs() < 1e-15);
/// // κ = 0 is the uniform density 1/|S²| = 1/(4π)
/// assert!((log_norm_const(3, 0.0) + (4.0 * std::f64::consts::PI).ln()).abs() < 1e-15);
/// assert!(log_norm_const(1, 1.0).is_nan());
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn log_norm_const(dim: usize, kappa: f64) -> f64 {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || {
            if dim < 2 || kappa.is_nan() || kappa < 0.0 {
                return f64::NAN;
            }
            if kappa == f64::INFINITY {
                return f64::NEG_INFINITY;
            }
            log_norm_const_kernel(dim, kappa)
        },
    )
}
