//! Input checks shared by the fast and the exact twins of chapter 07: both validate the same
//! way, so that they fail on the same inputs with the same [`Error`]. Nothing here computes.

use crate::error::{require_finite, Error, Result};
// The slice checks are chapter 08's: one definition of "finite" and "same length".
#[doc(hidden)]
pub use crate::metrics::checks::{all_finite, same_length};

/// `a > 0` and `b` finite: the soft threshold `sigmoid(−a d + b)` of HIB eq. (2).
#[doc(hidden)]
pub fn soft_threshold(a: f64, b: f64) -> Result<()> {
    require_finite("a", a)?;
    require_finite("b", b)?;
    if a > 0.0 {
        Ok(())
    } else {
        Err(Error::OutOfDomain {
            arg: "a",
            value: a,
            rule: "the distance scale must be > 0 (HIB eq. 2)",
        })
    }
}

/// A count of Monte Carlo samples per mixture component: at least one.
#[doc(hidden)]
pub fn samples(n_samples: usize) -> Result<()> {
    if n_samples >= 1 {
        Ok(())
    } else {
        Err(Error::TooFew {
            arg: "n_samples",
            min: 1,
            got: 0,
        })
    }
}

/// Every element of `xs` is finite and `>= 0` (variances: `σ² = 0` is a point mass).
#[doc(hidden)]
pub fn variances(arg: &'static str, xs: &[f64]) -> Result<()> {
    all_finite(arg, xs)?;
    match xs.iter().position(|&x| x < 0.0) {
        None => Ok(()),
        Some(index) => Err(Error::OutOfDomainElement {
            arg,
            index,
            value: xs[index],
            rule: "a variance must be >= 0",
        }),
    }
}

/// Every element of `xs` is finite and `> 0` (the log-variance parametrisation of the loss).
#[doc(hidden)]
pub fn positive_variances(arg: &'static str, xs: &[f64]) -> Result<()> {
    all_finite(arg, xs)?;
    match xs.iter().position(|&x| x <= 0.0) {
        None => Ok(()),
        Some(index) => Err(Error::OutOfDomainElement {
            arg,
            index,
            value: xs[index],
            rule: "a variance must be > 0 (the loss is differentiated in ln σ²)",
        }),
    }
}

/// A Gaussian embedding `N(mean, diag variance)` in `ℝ^D`, `D ≥ 1`.
#[doc(hidden)]
pub fn gaussian(
    mean_arg: &'static str,
    mean: &[f64],
    variance_arg: &'static str,
    variance: &[f64],
) -> Result<()> {
    if mean.is_empty() {
        return Err(Error::TooFew {
            arg: mean_arg,
            min: 1,
            got: 0,
        });
    }
    same_length(variance_arg, mean.len(), variance.len())?;
    all_finite(mean_arg, mean)?;
    variances(variance_arg, variance)
}

/// Two Gaussian embeddings of the same dimension, and the soft threshold: the arguments of
/// `match_probability`.
#[doc(hidden)]
pub fn gaussian_pair(
    mu1: &[f64],
    var1: &[f64],
    mu2: &[f64],
    var2: &[f64],
    a: f64,
    b: f64,
) -> Result<()> {
    gaussian("mu1", mu1, "var1", var1)?;
    gaussian("mu2", mu2, "var2", var2)?;
    same_length("mu2", mu1.len(), mu2.len())?;
    soft_threshold(a, b)
}
