//! Reference mean resultant: every coordinate sum compensated (Neumaier), the norm in
//! arbitrary precision.

use crate::compensated::exact::norm2;
use crate::compensated::Neumaier;
use crate::error::{Error, Result};
use crate::vmf::input::{check_samples, MeanResultant};

/// `(Σxᵢ, ‖Σxᵢ‖, n)` with compensated sums.
fn resultant(samples: &[f64], dim: usize) -> Result<(Vec<f64>, f64, usize)> {
    let (n, samples) = check_samples(samples, dim)?;
    let mut acc = vec![Neumaier::new(); dim];
    for row in samples.chunks_exact(dim) {
        for (a, &x) in acc.iter_mut().zip(row) {
            a.add(x);
        }
    }
    let sum: Vec<f64> = acc.iter().map(Neumaier::total).collect();
    let norm = norm2(&sum);
    Ok((sum, norm, n))
}

/// Reference twin of `crate::vmf::mean_resultant`.
///
/// # Formula
///
/// $$ \hat\mu = \frac{\sum_i x_i}{\lVert\sum_i x_i\rVert},\qquad
///    \bar R = \frac{\lVert\sum_i x_i\rVert}{n} $$
///
/// Each coordinate of `Σxᵢ` is a Neumaier sum (error `≤ 2u|Σ| + O(nu²)Σ|x|`), and `‖Σxᵢ‖` is
/// the nearest `f64` to the norm of those sums in 256-bit arithmetic
/// ([`compensated::exact::norm2`](crate::compensated::exact::norm2), not the fast twin's
/// compensated norm), so both outputs are within a few ulps of the values defined by the input.
///
/// # Errors
///
/// As `crate::vmf::mean_resultant`.
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::mean_resultant;
/// // 10⁶ copies of e₁ and one −e₁: R̄ = (10⁶ − 1)/(10⁶ + 1) exactly representable in the sum.
/// let mut samples = vec![1.0, 0.0].repeat(1_000_000);
/// samples.extend([-1.0, 0.0]);
/// let mr = mean_resultant(&samples, 2).unwrap();
/// assert_eq!(mr.rbar, 999_999.0 / 1_000_001.0);
/// ```
pub fn mean_resultant(samples: &[f64], dim: usize) -> Result<MeanResultant> {
    let (sum, norm, n) = resultant(samples, dim)?;
    if norm == 0.0 {
        return Err(Error::OutOfDomain {
            arg: "samples",
            value: 0.0,
            rule: "the resultant Σx is zero, so the mean direction is undefined",
        });
    }
    Ok(MeanResultant {
        direction: sum.iter().map(|s| s / norm).collect(),
        rbar: norm / n as f64,
        n,
    })
}

/// Reference twin of `crate::vmf::lam_uncertainty`.
///
/// # Formula
///
/// $$ u = \frac{(1-\bar R)(1+\bar R)}{\bar R\\,(M - \bar R^2)} $$
///
/// with `R̄` from the compensated [`mean_resultant`].
///
/// # Errors
///
/// As `crate::vmf::lam_uncertainty`.
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::lam_uncertainty;
/// let u = lam_uncertainty(&[1.0, 0.0, 0.8, 0.6, 0.8, -0.6], 2).unwrap();
/// let r = 2.6 / 3.0;
/// assert!((u - (1.0 - r * r) / (r * (2.0 - r * r))).abs() < 1e-15);
/// ```
pub fn lam_uncertainty(samples: &[f64], dim: usize) -> Result<f64> {
    let (_, norm, n) = resultant(samples, dim)?;
    let rbar = norm / n as f64;
    // The two ends of 1/κ̂₀: R̄ = 0 is no concentration (u = ∞), R̄ rounded to 1 a point mass.
    if rbar == 0.0 {
        return Ok(f64::INFINITY);
    }
    if rbar >= 1.0 {
        return Ok(0.0);
    }
    let m = dim as f64;
    // Banerjee's κ̂₀ = R̄(M − R̄²)/(1 − R̄²) (eq. 4.4), inverted; 1 − R̄² as (1 − R̄)(1 + R̄).
    let kappa0 = rbar * (m - rbar * rbar) / ((1.0 - rbar) * (1.0 + rbar));
    Ok(1.0 / kappa0)
}
