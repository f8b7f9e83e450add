//! The paper's likelihood of the triplet constraint: `P(τ < −m)` by the central limit theorem,
//! `Φ((−m − E τ)/√Var τ)` (BTL eqs. (6)–(8)), in log space.

use super::input::{check_margin, check_triplet};
use super::moments::finite_moments;
use crate::error::Result;
use crate::special::log_normal_cdf;

/// `ln Φ((−m − μ)/σ)` with `σ² = variance`; the indicator `τ < −m` when `σ = 0`.
#[inline]
pub(crate) fn clt_log_likelihood(mean: f64, variance: f64, margin: f64) -> f64 {
    if variance > 0.0 {
        log_normal_cdf((-margin - mean) / variance.sqrt())
    } else if mean < -margin {
        0.0
    } else {
        f64::NEG_INFINITY
    }
}

/// `ln P(τ < −m)` of the triplet `(μ_a, σ²_a, μ_p, σ²_p, μ_n, σ²_n)` by the paper's CLT: six
/// slices of one type in one order, which a caller can swap without a compile error (called in
/// the order of the paper's code, means then variances, it returns a wrong value and no error).
///
/// # Errors
///
/// As [`Triplet::log_likelihood`](super::Triplet::log_likelihood).
///
/// # Examples
///
/// ```
/// # #![allow(deprecated)]
/// let ll = probdml::triplet::log_likelihood(&[0.7], &[0.5], &[-0.4], &[0.8], &[1.3], &[0.3], 0.5)?;
/// assert!((ll - -1.1747901920742457).abs() < 1e-13);
/// # Ok::<(), probdml::Error>(())
/// ```
#[deprecated(
    since = "0.1.0",
    note = "six slices of one type swap silently: use `Triplet { anchor, positive, negative }.log_likelihood(margin)`"
)]
pub fn log_likelihood(
    mu_a: &[f64],
    var_a: &[f64],
    mu_p: &[f64],
    var_p: &[f64],
    mu_n: &[f64],
    var_n: &[f64],
    margin: f64,
) -> Result<f64> {
    log_likelihood_of([mu_a, var_a, mu_p, var_p, mu_n, var_n], margin)
}

/// The checked CLT log-likelihood of the six slices `(μ_a, σ²_a, μ_p, σ²_p, μ_n, σ²_n)`.
pub(crate) fn log_likelihood_of(slices: [&[f64]; 6], margin: f64) -> Result<f64> {
    check_triplet(slices)?;
    let margin = check_margin(margin)?;
    let (mean, variance) = finite_moments(slices, 0)?;
    Ok(clt_log_likelihood(mean, variance, margin))
}
