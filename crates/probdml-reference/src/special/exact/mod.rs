//! Exact (reference) twins of the special functions: ln I_ν(x) and I_{ν+1}(x)/I_ν(x) from the
//! power series in arbitrary precision.
//!
//! # What is computed
//!
//! ```text
//! I_ν(x) = Σ_{k≥0} (x/2)^{2k+ν} / (k! Γ(k+ν+1))                   (A&S 9.6.10)
//! ```
//!
//! summed in binary floating point of p ≥ 256 bits ([astro-float](astro_float)), in
//! log-scaled form: ln I_ν(x) = ln t_{k*} + ln Σ_k t_k/t_{k*}, where t_{k*} is the largest
//! term, its logarithm computed directly with an arbitrary-precision ln Γ (Stirling series with
//! exact Bernoulli numbers, after an upward shift). The scaled sum lies between 1 and the
//! number of terms, so nothing overflows or underflows for any ν ≥ 0, x ≥ 0.
//!
//! # Why it is correct
//!
//! * Every term of the series is positive: there is no cancellation, and the relative error of
//!   the sum is bounded by the number of roundings, ≤ 5N·2^−p for N terms.
//! * The term ratio (x/2)² / ((k+1)(k+ν+1)) decreases in k, so the terms are unimodal and
//!   each tail beyond a ratio r < 1 is bounded by a geometric series; summation stops only when
//!   that bound is below 2^−(p+8) of the sum, in both directions from the peak.
//! * ln Γ uses the Stirling series, whose remainder for real z > 0 is bounded by the first
//!   omitted term (DLMF §5.11(ii)); the series is cut at a term below 2^−(p+16).
//! * The ratio I_{ν+1}/I_ν is the quotient of the two positive sums taken relative to the
//!   same peak term (t_k(ν+1) = t_k(ν)·(x/2)/(k+ν+1)): no exponential of a difference.
//! * Nothing here calls the fast twins in [`crate::special`]: the two are independent.
//!
//! # Error bound
//!
//! With p = 256 (the whole domain ν ≤ 5·10⁴, x ≤ 10⁸; more bits are taken for larger
//! intermediates) the big-float result has absolute error below ~2^−190 in ln I_ν(x) and relative
//! error below ~2^−230 in the ratio. The `f64` functions return the nearest `f64` to that
//! result; the `_dd` functions return a double-double pair (hi, lo), hi the nearest `f64` and lo
//! the nearest `f64` to the remainder, so hi + lo carries ~106 bits: relative error ≲ 2^−105
//! (≈ 2.5·10⁻³²) wherever |ln I_ν(x)| is not itself tiny by cancellation of its parts (near the
//! zero of ln I_ν, only the absolute bound holds).
//!
//! # Domain and cost
//!
//! ν ≥ 0 and 0 ≤ x ≤ [`SERIES_X_MAX`], both finite. The number of terms is about 19·√x when
//! x ≫ ν (1.9·10⁵ at x = 10⁸: ~0.3 s for ln I, ~0.6 s for the ratio) and much smaller when ν
//! dominates. NaN, negative, infinite input or x > [`SERIES_X_MAX`] gives NaN (never a panic,
//! never a finite number).
//!
//! A double-double cannot hold 106 bits of a value below ~2^−969 ≈ 10⁻²⁹²: lo is then
//! subnormal (the ratio at x ≲ 10⁻²⁹⁰ is an example), and the pair is only as accurate as
//! that allows.

mod bernoulli;
#[doc(hidden)]
pub mod bessel_series;
#[doc(hidden)]
pub mod double_double;
#[doc(hidden)]
pub mod ln_gamma;
mod normal_cdf;
#[doc(hidden)]
pub mod working_precision;

pub use bessel_series::SERIES_X_MAX;
#[allow(deprecated)]
pub use normal_cdf::ln_normal_cdf;
pub use normal_cdf::log_normal_cdf;

use bessel_series::LogScaledSeries;
use double_double::to_double_double;
use working_precision::with_consts;

/// Where (ν, x) falls: outside the domain, on the x = 0 edge, or inside.
enum Argument {
    Invalid,
    Zero,
    Positive,
}

fn classify(nu: f64, x: f64) -> Argument {
    // Range checks are false for NaN, so NaN lands in `Invalid`.
    let valid = nu.is_finite() && nu >= 0.0 && (0.0..=SERIES_X_MAX).contains(&x);
    if !valid {
        Argument::Invalid
    } else if x == 0.0 {
        Argument::Zero
    } else {
        Argument::Positive
    }
}

const NAN_PAIR: (f64, f64) = (f64::NAN, f64::NAN);

/// ln I_ν(x), the logarithm of the modified Bessel function of the first kind, reference
/// implementation: the nearest `f64` to the arbitrary-precision series value.
///
/// # Formula
///
/// ```text
/// ln I_ν(x) = ln Σ_{k≥0} (x/2)^{2k+ν} / (k! Γ(k+ν+1))        (A&S 9.6.10)
/// ```
///
/// with ln I₀(0) = 0 and ln I_ν(0) = −∞ for ν > 0. See the [module docs](self) for the
/// method and the error bound; [`log_bessel_i_dd`] gives the value to ~106 bits.
///
/// # Errors
///
/// Returns NaN if ν or x is NaN, negative or infinite, or if x > [`SERIES_X_MAX`].
///
/// # Examples
///
/// ```
/// use probdml::special::exact::log_bessel_i;
/// // mpmath: log(besseli(0, 1)) = 0.2359143585071786486894…
/// assert_eq!(log_bessel_i(0.0, 1.0), 0.23591435850717865);
/// // I_{1/2}(x) = √(2/(πx)) sinh x; at x = 10: ln I = 7.9297689182371507916…
/// assert_eq!(log_bessel_i(0.5, 10.0), 7.9297689182371505);
/// // Far outside f64 range: I_0(10⁸) ≈ e^{99999989.87…}.
/// assert!((log_bessel_i(0.0, 1e8) - 99999989.870721096).abs() < 1e-7);
/// assert_eq!(log_bessel_i(3.0, 0.0), f64::NEG_INFINITY);
/// assert!(log_bessel_i(-1.0, 1.0).is_nan());
/// ```
pub fn log_bessel_i(nu: f64, x: f64) -> f64 {
    log_bessel_i_dd(nu, x).0
}

/// ln I_ν(x) as a double-double pair (hi, lo): hi is the nearest `f64` to the arbitrary
/// precision value and lo the nearest `f64` to the remainder, so hi + lo is ln I_ν(x) to about
/// 106 bits (relative ~2.5·10⁻³², absolute near the zero of ln I_ν).
///
/// # Formula
///
/// As [`log_bessel_i`] (A&S 9.6.10). At x = 0: (0, 0) for ν = 0, (−∞, 0) for ν > 0.
///
/// # Errors
///
/// Returns (NaN, NaN) for input outside the domain, as [`log_bessel_i`].
///
/// # Examples
///
/// ```
/// use probdml::special::exact::log_bessel_i_dd;
/// // ln I₀(10⁻⁸) = ln(1 + 2.5·10⁻¹⁷ + …) = 2.5000000000000000889878…·10⁻¹⁷: kept to full
/// // relative precision, although I₀(10⁻⁸) − 1 is far below one ulp of 1.
/// // As a double-double (mpmath, 60 digits): (2.5e-17, 1.4124333734055586e-33).
/// let (hi, lo) = log_bessel_i_dd(0.0, 1e-8);
/// assert_eq!(hi, 2.5e-17);
/// assert!((lo - 1.4124333734055586e-33).abs() < 1e-46);
/// ```
pub fn log_bessel_i_dd(nu: f64, x: f64) -> (f64, f64) {
    match classify(nu, x) {
        Argument::Invalid => NAN_PAIR,
        Argument::Zero if nu == 0.0 => (0.0, 0.0),
        Argument::Zero => (f64::NEG_INFINITY, 0.0),
        Argument::Positive => with_consts(|cc| {
            let series = LogScaledSeries::evaluate(nu, x, false, cc);
            to_double_double(&series.log_bessel_i(cc))
        })
        .unwrap_or(NAN_PAIR),
    }
}

/// I_{ν+1}(x) / I_ν(x), reference implementation: the nearest `f64` to the quotient of the two
/// positive series summed in arbitrary precision.
///
/// # Formula
///
/// ```text
/// I_{ν+1}(x) / I_ν(x) = Σ_k t_k (x/2)/(k+ν+1) / Σ_k t_k,
/// t_k = (x/2)^{2k+ν} / (k! Γ(k+ν+1))                          (A&S 9.6.10)
/// ```
///
/// and 0 at x = 0. For ν = ½ it equals coth x − 1/x, the mean resultant length of the vMF on
/// S².
///
/// # Errors
///
/// Returns NaN if ν or x is NaN, negative or infinite, or if x > [`SERIES_X_MAX`].
///
/// # Examples
///
/// ```
/// use probdml::special::exact::bessel_i_ratio;
/// // coth 10 − 1/10 = 0.90000000412230725337…
/// assert_eq!(bessel_i_ratio(0.5, 10.0), 0.9000000041223073);
/// // I₁(1)/I₀(1) = 0.44638996589653450704…
/// assert_eq!(bessel_i_ratio(0.0, 1.0), 0.4463899658965345);
/// assert_eq!(bessel_i_ratio(2.0, 0.0), 0.0);
/// assert!(bessel_i_ratio(1.0, f64::NAN).is_nan());
/// ```
pub fn bessel_i_ratio(nu: f64, x: f64) -> f64 {
    bessel_i_ratio_dd(nu, x).0
}

/// I_{ν+1}(x) / I_ν(x) as a double-double pair (hi, lo), hi + lo accurate to about 106 bits
/// (relative ~2.5·10⁻³²).
///
/// # Formula
///
/// As [`bessel_i_ratio`] (A&S 9.6.10). At x = 0: (0, 0).
///
/// # Errors
///
/// Returns (NaN, NaN) for input outside the domain, as [`bessel_i_ratio`].
///
/// # Examples
///
/// ```
/// use probdml::special::exact::bessel_i_ratio_dd;
/// // I_{4096}(10⁻⁸)/I_{4095}(10⁻⁸) ≈ (x/2)/4096 = 1.220703125000000025540233…·10⁻¹²;
/// // as a double-double (mpmath, 60 digits): (1.220703125e-12, −1.8185454227297606e-36).
/// let (hi, lo) = bessel_i_ratio_dd(4095.0, 1e-8);
/// assert_eq!(hi, 1.220703125e-12);
/// assert!((lo + 1.8185454227297606e-36).abs() < 1e-48);
/// ```
pub fn bessel_i_ratio_dd(nu: f64, x: f64) -> (f64, f64) {
    match classify(nu, x) {
        Argument::Invalid => NAN_PAIR,
        Argument::Zero => (0.0, 0.0),
        Argument::Positive => with_consts(|cc| {
            let series = LogScaledSeries::evaluate(nu, x, true, cc);
            to_double_double(&series.ratio())
        })
        .unwrap_or(NAN_PAIR),
    }
}
