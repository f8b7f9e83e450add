//! The Bessel ratio I_{ν+1}(x)/I_ν(x).
//!
//! Formed as exp(g(ν+1, x) − g(ν, x) + ln x) from the scaled logarithms of `log_bessel_i.rs`,
//! whose difference is taken in double-double: each g carries an absolute error of a few 10⁻¹⁶
//! whatever its size, so the ratio has a relative error of the same order (budget 10⁻¹⁴).
//! The order ν + 1 is passed as a double-double: rounded to `f64` it could be off by half an
//! ulp, and g moves by ~ln(2ν) times that. In the recurrence regime the ratio x/Q_0 comes out
//! of the recurrence itself.

use super::debye::DEBYE_MIN_ORDER;
use super::double_double::{ln_dd, DoubleDouble};
use super::hankel::{hankel_applies, HANKEL_MIN_ARGUMENT};
use super::log_bessel_i::log_bessel_i_scaled;
use super::recurrence::log_bessel_i_scaled_recurrence;

/// I_{ν+1}(x)/I_ν(x), the Bessel ratio; for the vMF, A_M(κ) is this ratio at ν = M/2 − 1.
///
/// # Formula
///
/// $$ R_\nu(x) = \frac{I_{\nu+1}(x)}{I_\nu(x)} = \exp\bigl(\ln I_{\nu+1}(x) - \ln I_\nu(x)\bigr),
///    \qquad 0 \le R_\nu(x) < 1 $$
///
/// with both logarithms from the regimes of [`log_bessel_i`](super::log_bessel_i) and their
/// difference taken in double-double. Bounds (Amos 1974): x/(ν+1+√(x²+(ν+1)²)) ≤ R_ν(x) ≤
/// x/(ν+½+√(x²+(ν+½)²)).
///
/// Error budget: relative 10⁻¹⁴ against [`exact::bessel_i_ratio`](super::exact::bessel_i_ratio)
/// (proved in `proofs/special_ratio.rs`).
///
/// # Domain
///
/// ν ≥ 0, x ≥ 0; NaN when either is NaN or negative or ν is infinite. R_ν(0) = 0, R_ν(+∞) = 1.
///
/// # Examples
///
/// ```
/// use probdml::special::bessel_i_ratio;
/// // I_{3/2}(x)/I_{1/2}(x) = coth x − 1/x (the Langevin function)
/// let x = 2.0_f64;
/// assert!((bessel_i_ratio(0.5, x) - (1.0 / x.tanh() - 1.0 / x)).abs() < 1e-15);
/// // Small x: R_ν(x) ≈ x / (2(ν+1))
/// assert!((bessel_i_ratio(3.0, 1e-6) - 1e-6 / 8.0).abs() < 1e-20);
/// assert_eq!(bessel_i_ratio(1.0, 0.0), 0.0);
/// ```
pub fn bessel_i_ratio(nu: f64, x: f64) -> f64 {
    if !(nu >= 0.0 && nu.is_finite() && x >= 0.0) {
        return f64::NAN;
    }
    if x == 0.0 {
        return 0.0;
    }
    if x == f64::INFINITY {
        return 1.0;
    }
    let order = DoubleDouble::from_f64(nu);
    if nu < DEBYE_MIN_ORDER && x >= HANKEL_MIN_ARGUMENT && !hankel_applies(nu, x) {
        // The recurrence regime yields Q_0 = x I_ν/I_{ν+1} directly, to a few ulp.
        return x / log_bessel_i_scaled_recurrence(order, x).1;
    }
    log_bessel_i_scaled(order.add_f64(1.0), x)
        .sub(log_bessel_i_scaled(order, x))
        .add(ln_dd(x))
        .to_f64()
        .exp()
}
