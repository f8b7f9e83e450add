//! ln C_M(κ) and A_M(κ), reference implementations from the exact Bessel series.
//!
//! ```text
//! C_M(κ) = κ^{M/2−1} / ((2π)^{M/2} I_{M/2−1}(κ))
//! ln C_M(κ) = (M/2 − 1) ln κ − (M/2) ln 2π − ln I_{M/2−1}(κ),        κ > 0
//! ln C_M(0) = ln Γ(M/2) − ln 2 − (M/2) ln π = −ln |S^{M−1}|         (the uniform density)
//! A_M(κ) = I_{M/2}(κ) / I_{M/2−1}(κ),   A_M(0) = 0
//! ```
//!
//! Both are assembled in the same arbitrary precision as the series of
//! [`crate::special::exact`] and rounded once at the end, so the cancellation between
//! (M/2 − 1) ln κ and ln I_{M/2−1}(κ) at small κ (both ≈ −2·10⁴ at M = 2048, κ = 10⁻⁸) costs
//! nothing: the big-float result has absolute error ~2^−190, the double-double pair ~106 bits.
//! At κ = 0 the uniform limit is evaluated with the arbitrary-precision ln Γ; it is the limit
//! κ → 0 of the κ > 0 formula (I_ν(κ) ~ (κ/2)^ν / Γ(ν+1)).
//!
//! Nothing here calls the fast twins in [`crate::vmf`] or [`crate::special`].

use astro_float::BigFloat;

use crate::special::exact::bessel_series::{LogScaledSeries, SERIES_X_MAX};
use crate::special::exact::double_double::{big_from_f64, to_double_double};
use crate::special::exact::ln_gamma::ln_gamma;
use crate::special::exact::working_precision::{with_consts, working_precision, RM};

const NAN_PAIR: (f64, f64) = (f64::NAN, f64::NAN);

/// Largest dimension for which ν = M/2 − 1 is exact in `f64`.
const DIM_MAX: usize = 1 << 53;

/// Whether (M, κ) is in the domain: M ≥ 2 (and M ≤ 2^53), κ finite in [0, SERIES_X_MAX].
fn in_domain(dim: usize, kappa: f64) -> bool {
    (2..=DIM_MAX).contains(&dim) && (0.0..=SERIES_X_MAX).contains(&kappa)
}

/// ln C_M(κ), the logarithm of the vMF normalising constant on S^{M−1} ⊂ ℝ^M, reference
/// implementation: the nearest `f64` to the arbitrary-precision value.
///
/// # Formula
///
/// ```text
/// ln C_M(κ) = (M/2 − 1) ln κ − (M/2) ln 2π − ln I_{M/2−1}(κ),   κ > 0
/// ln C_M(0) = ln Γ(M/2) − ln 2 − (M/2) ln π
/// ```
///
/// (Mardia & Jupp 9.3.4), with ln I from the series A&S 9.6.10.
///
/// # Errors
///
/// Returns NaN for M < 2 (or M > 2⁵³), and for κ NaN, negative, infinite or above
/// [`SERIES_X_MAX`](crate::special::exact::SERIES_X_MAX).
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::log_norm_const;
/// // The spot values of book chapter 01 (mpmath, 50 digits): 117.9068586853262641…, 865.5381493687464424…
/// assert_eq!(log_norm_const(128, 50.0), 117.90685868532627);
/// assert_eq!(log_norm_const(512, 50.0), 865.5381493687464);
/// // M = 3, κ = 0: the uniform density on S², 1/(4π).
/// assert!((log_norm_const(3, 0.0) + (4.0 * std::f64::consts::PI).ln()).abs() < 1e-15);
/// assert!(log_norm_const(1, 1.0).is_nan());
/// ```
pub fn log_norm_const(dim: usize, kappa: f64) -> f64 {
    log_norm_const_dd(dim, kappa).0
}

/// ln C_M(κ) as a double-double pair (hi, lo): hi the nearest `f64`, lo the nearest `f64` to
/// the remainder, hi + lo accurate to about 106 bits (absolute ~2^−105·|ln C_M(κ)|).
///
/// # Formula
///
/// As [`log_norm_const`].
///
/// # Errors
///
/// Returns (NaN, NaN) for input outside the domain, as [`log_norm_const`].
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::log_norm_const_dd;
/// // mpmath, 60 digits: ln C_128(50) as a double-double.
/// let (hi, lo) = log_norm_const_dd(128, 50.0);
/// assert_eq!(hi, 117.90685868532627);
/// assert!((lo + 5.965281047921828e-15).abs() < 1e-28);
/// ```
pub fn log_norm_const_dd(dim: usize, kappa: f64) -> (f64, f64) {
    if !in_domain(dim, kappa) {
        return NAN_PAIR;
    }
    with_consts(|cc| {
        let half_dim_f64 = dim as f64 / 2.0;
        if kappa == 0.0 {
            let magnitude = half_dim_f64 * (half_dim_f64 + 2.0).ln() + 1.0;
            let p = working_precision(magnitude);
            let half_dim = BigFloat::from_u64(dim as u64, p).div(&BigFloat::from_u64(2, p), p, RM);
            let ln_two = cc.ln_2(p, RM);
            let ln_pi = cc.pi(p, RM).ln(p, RM, cc);
            let value = ln_gamma(&half_dim, p, cc).sub(&ln_two, p, RM).sub(
                &half_dim.mul(&ln_pi, p, RM),
                p,
                RM,
            );
            return to_double_double(&value);
        }
        let nu = half_dim_f64 - 1.0;
        let series = LogScaledSeries::evaluate(nu, kappa, false, cc);
        let p = series.precision;
        let half_dim = BigFloat::from_u64(dim as u64, p).div(&BigFloat::from_u64(2, p), p, RM);
        let nu_big = half_dim.sub(&BigFloat::from_u64(1, p), p, RM);
        let ln_kappa = big_from_f64(kappa, p).ln(p, RM, cc);
        let ln_two_pi = cc
            .pi(p, RM)
            .mul(&BigFloat::from_u64(2, p), p, RM)
            .ln(p, RM, cc);
        let value = nu_big
            .mul(&ln_kappa, p, RM)
            .sub(&half_dim.mul(&ln_two_pi, p, RM), p, RM)
            .sub(&series.log_bessel_i(cc), p, RM);
        to_double_double(&value)
    })
    .unwrap_or(NAN_PAIR)
}

/// A_M(κ) = I_{M/2}(κ) / I_{M/2−1}(κ), the mean resultant length of the vMF on S^{M−1},
/// reference implementation: the nearest `f64` to the quotient of the two positive series.
///
/// # Formula
///
/// ```text
/// A_M(κ) = I_{M/2}(κ) / I_{M/2−1}(κ) = −d/dκ ln C_M(κ),   A_M(0) = 0
/// ```
///
/// (Mardia & Jupp 9.3.9), with the series A&S 9.6.10. On S² (M = 3) it is
/// coth κ − 1/κ.
///
/// # Errors
///
/// Returns NaN for M < 2 (or M > 2⁵³), and for κ NaN, negative, infinite or above
/// [`SERIES_X_MAX`](crate::special::exact::SERIES_X_MAX).
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::mean_resultant_length;
/// // coth 5 − 1/5 = 0.80009080398201937553…
/// assert_eq!(mean_resultant_length(3, 5.0), 0.8000908039820194);
/// // mpmath: A_512(50) = 0.096745705070352118310…
/// assert_eq!(mean_resultant_length(512, 50.0), 0.09674570507035212);
/// assert_eq!(mean_resultant_length(64, 0.0), 0.0);
/// ```
pub fn mean_resultant_length(dim: usize, kappa: f64) -> f64 {
    mean_resultant_length_dd(dim, kappa).0
}

/// A_M(κ) as a double-double pair (hi, lo), hi + lo accurate to about 106 bits
/// (relative ~2.5·10⁻³²).
///
/// # Formula
///
/// As [`mean_resultant_length`].
///
/// # Errors
///
/// Returns (NaN, NaN) for input outside the domain, as [`mean_resultant_length`].
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::mean_resultant_length_dd;
/// // mpmath, 60 digits: coth 5 − 1/5 as a double-double.
/// let (hi, lo) = mean_resultant_length_dd(3, 5.0);
/// assert_eq!(hi, 0.8000908039820194);
/// assert!((lo - 3.749398077845111e-18).abs() < 1e-31);
/// ```
pub fn mean_resultant_length_dd(dim: usize, kappa: f64) -> (f64, f64) {
    if !in_domain(dim, kappa) {
        return NAN_PAIR;
    }
    if kappa == 0.0 {
        return (0.0, 0.0);
    }
    with_consts(|cc| {
        let nu = dim as f64 / 2.0 - 1.0;
        to_double_double(&LogScaledSeries::evaluate(nu, kappa, true, cc).ratio())
    })
    .unwrap_or(NAN_PAIR)
}
