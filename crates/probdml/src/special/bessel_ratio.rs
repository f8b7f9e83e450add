//! The Bessel ratio I_{ν+1}(x)/I_ν(x), directly in each regime of `log_bessel_i.rs` — never as
//! a difference of two large logarithms:
//!
//! | regime | where | formula |
//! |---|---|---|
//! | Debye | ν ≥ 20 | x/(s+ν) − (x/s)·ΣF_k ν^{−k} / ΣU_k ν^{−k} (`debye.rs`) |
//! | power series | ν < 20, x < 32 | x/(2(ν+1)) · S_{ν+1}/S_ν (`series.rs`) |
//! | Hankel | ν < 20, x ≥ max(32, ¾(ν+1)²) | Σ_{ν+1}/Σ_ν (`hankel.rs`) |
//! | recurrence | otherwise | x/Q_0 down from the Debye ratio at ν + N ≥ 20 (`recurrence.rs`) |
//!
//! Each is a quotient of sums of like-signed terms (or, for Debye, a difference whose second
//! term is under a twentieth of the first), so the relative error is a few ulp.

use super::debye::{bessel_i_ratio_debye, DEBYE_MIN_ORDER};
use super::hankel::{bessel_i_ratio_hankel, hankel_applies, HANKEL_MIN_ARGUMENT};
use super::recurrence::bessel_i_ratio_recurrence;
use super::series::bessel_i_ratio_series;

/// I_{ν+1}(x)/I_ν(x), the Bessel ratio; for the vMF, A_M(κ) is this ratio at ν = M/2 − 1.
///
/// # Formula
///
/// $$ R_\nu(x) = \frac{I_{\nu+1}(x)}{I_\nu(x)}, \qquad 0 \le R_\nu(x) < 1, $$
///
/// by the regime table of the module docs: the Debye expansion of I'_ν/I_ν − ν/x (A&S 9.7.7,
/// 9.7.9), the ratio of power series (A&S 9.6.10) or of Hankel sums (A&S 9.7.1), or the
/// backward recurrence Q_j = 2(ν+j+1) + x²/Q_{j+1} (A&S 9.6.26). Bounds (Amos 1974):
/// x/(ν+1+√(x²+(ν+1)²)) ≤ R_ν(x) ≤ x/(ν+½+√(x²+(ν+½)²)).
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
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn bessel_i_ratio(nu: f64, x: f64) -> f64 {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || bessel_i_ratio_kernel(nu, x),
    )
}

/// [`bessel_i_ratio`] without the run-time choice of instruction set (inlined into its
/// caller's).
#[inline(always)]
pub(crate) fn bessel_i_ratio_kernel(nu: f64, x: f64) -> f64 {
    if !(nu >= 0.0 && nu.is_finite() && x >= 0.0) {
        return f64::NAN;
    }
    if x == 0.0 {
        return 0.0;
    }
    if x == f64::INFINITY {
        return 1.0;
    }
    if nu >= DEBYE_MIN_ORDER {
        bessel_i_ratio_debye(nu, x)
    } else if x < HANKEL_MIN_ARGUMENT {
        bessel_i_ratio_series(nu, x)
    } else if hankel_applies(nu + 1.0, x) {
        bessel_i_ratio_hankel(nu, x)
    } else {
        bessel_i_ratio_recurrence(nu, x)
    }
}
