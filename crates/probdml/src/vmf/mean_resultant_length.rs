//! The mean resultant length A_M(κ) = I_{M/2}(κ)/I_{M/2−1}(κ) of a vMF (book chapter 01): the
//! length of its mean, A_M(κ)μ, and −d ln C_M/dκ. Not to be confused with the *sample* statistic
//! R̄ = ‖Σx‖/n of `mean_resultant.rs`, whose expectation it is as n → ∞ and whose inverse,
//! `kappa_mle`, estimates κ.

use crate::special::bessel_i_ratio_kernel;

/// A_M(κ) = I_{M/2}(κ)/I_{M/2−1}(κ), the mean resultant length of a vMF: its mean is A_M(κ)μ.
///
/// # Formula
///
/// $$ A_M(\kappa) = \frac{I_{M/2}(\kappa)}{I_{M/2-1}(\kappa)} = -\frac{d}{d\kappa}\ln C_M(\kappa),
///    \qquad 0 \le A_M(\kappa) < 1 $$
///
/// (LAM App. C; Sra 2012 eq. (3)): increasing in κ, ≈ κ/M as κ → 0 and
/// ≈ 1 − (M−1)/(2κ) as κ → ∞.
///
/// Error budget: relative 10⁻¹⁴ against
/// [`exact::mean_resultant_length`](super::exact::mean_resultant_length).
///
/// # Domain
///
/// `dim` ≥ 2, κ ≥ 0; NaN otherwise. A_M(0) = 0, A_M(+∞) = 1.
///
/// # Examples
///
/// ```
/// use probdml::vmf::mean_resultant_length;
/// // M = 3: the Langevin function coth κ − 1/κ
/// let k = 5.0_f64;
/// assert!((mean_resultant_length(3, k) - (1.0 / k.tanh() - 1.0 / k)).abs() < 1e-15);
/// // Small κ: A_M(κ) ≈ κ/M
/// assert!((mean_resultant_length(512, 1e-6) - 1e-6 / 512.0).abs() < 1e-18);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn mean_resultant_length(dim: usize, kappa: f64) -> f64 {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || mean_resultant_length_kernel(dim, kappa),
    )
}

/// [`mean_resultant_length`] without the run-time choice of instruction set (inlined into its
/// caller's).
#[inline(always)]
pub(crate) fn mean_resultant_length_kernel(dim: usize, kappa: f64) -> f64 {
    if dim < 2 {
        return f64::NAN;
    }
    bessel_i_ratio_kernel(dim as f64 / 2.0 - 1.0, kappa)
}
