//! The paper's likelihood of the triplet constraint: `P(τ < −m)` by the central limit theorem,
//! `Φ((−m − E τ)/√Var τ)` (BTL eqs. (6)–(8)), in log space.

use super::input::{check_margin, check_triplet};
use super::moments::finite_moments;
use crate::error::Result;
use crate::special::ln_normal_cdf;

/// `ln Φ((−m − μ)/σ)` with `σ² = variance`; the indicator `τ < −m` when `σ = 0`.
#[inline]
pub(crate) fn clt_log_likelihood(mean: f64, variance: f64, margin: f64) -> f64 {
    if variance > 0.0 {
        ln_normal_cdf((-margin - mean) / variance.sqrt())
    } else if mean < -margin {
        0.0
    } else {
        f64::NEG_INFINITY
    }
}

/// `ln P(τ < −m)` by the paper's central-limit approximation: `ln Φ((−m − E τ)/√Var τ)`.
///
/// # Formula
///
/// $$ \ln P(\tau < -m) \approx \ln\Phi\\!\Big(\frac{-m - \mathbb E\tau}{\sqrt{\operatorname{Var}\tau}}\Big) $$
///
/// (BTL eqs. (6)–(8), moments from [`moments`](super::moments)), with
/// [`ln_normal_cdf`](crate::special::ln_normal_cdf), accurate down to `z = −10⁵`: no
/// `ln(Φ + 10⁻⁸)` clamp as in the BTL listing (line 20), which flattens the loss at
/// `ln 10⁻⁸ ≈ −18.4` and kills its gradient. When every variance is 0, `τ` is deterministic and
/// the value is the indicator: `0` if `E τ < −m`, else `−∞`. The exact value of the same
/// probability is [`exact::log_likelihood`](super::exact::log_likelihood).
///
/// # Errors
///
/// As [`moments`](super::moments), plus [`crate::Error::NotFinite`] or
/// [`crate::Error::OutOfDomain`] naming `margin` if it is not finite or negative.
///
/// # Examples
///
/// ```
/// use probdml::triplet::log_likelihood;
/// // E τ = 1.35, Var τ = 13.744 at the worked 1-D point of book chapter 05; m = 0.5:
/// // ln Φ(−1.85/√13.744) = ln Φ(−0.49901…) = −1.1747901920742457 (mpmath,
/// // scripts/reference/triplet_values.txt); the exact value is −1.2981483627948784.
/// let ll = log_likelihood(&[0.7], &[0.5], &[-0.4], &[0.8], &[1.3], &[0.3], 0.5).unwrap();
/// let z: f64 = -1.85 / 13.744f64.sqrt();
/// assert!((ll - probdml::special::ln_normal_cdf(z)).abs() < 1e-15);
/// assert!((ll - -1.1747901920742457).abs() < 1e-13);
/// // Deterministic embeddings: the indicator of the triplet constraint.
/// let zero = [0.0];
/// let ll = log_likelihood(&[0.0], &zero, &[0.1], &zero, &[2.0], &zero, 1.0).unwrap();
/// assert_eq!(ll, 0.0); // τ = 0.01 − 4 < −1
/// ```
pub fn log_likelihood(
    mu_a: &[f64],
    var_a: &[f64],
    mu_p: &[f64],
    var_p: &[f64],
    mu_n: &[f64],
    var_n: &[f64],
    margin: f64,
) -> Result<f64> {
    let slices = [mu_a, var_a, mu_p, var_p, mu_n, var_n];
    check_triplet(slices)?;
    let margin = check_margin(margin)?;
    let (mean, variance) = finite_moments(slices, 0)?;
    Ok(clt_log_likelihood(mean, variance, margin))
}
