//! The argument checks of the Laplace functions, shared by the fast code and its exact twins:
//! prior variance and precision, the output precision β, finite entries, lengths. Both twins
//! refuse the same inputs with the same error.

use crate::error::{require_finite, Error, Result};

/// σ_prior² must be finite and > 0.
#[doc(hidden)]
pub fn check_prior_variance(prior_var: f64) -> Result<f64> {
    require_finite("prior_var", prior_var)?;
    if prior_var > 0.0 {
        Ok(prior_var)
    } else {
        Err(Error::OutOfDomain {
            arg: "prior_var",
            value: prior_var,
            rule: "the prior variance must be > 0",
        })
    }
}

/// δ must be finite and > 0.
#[doc(hidden)]
pub fn check_prior_precision(prior_precision: f64) -> Result<f64> {
    require_finite("prior_precision", prior_precision)?;
    if prior_precision > 0.0 {
        Ok(prior_precision)
    } else {
        Err(Error::OutOfDomain {
            arg: "prior_precision",
            value: prior_precision,
            rule: "a prior precision must be > 0",
        })
    }
}

/// β must be finite and ≥ 0.
#[doc(hidden)]
pub fn check_beta(beta: f64) -> Result<f64> {
    require_finite("beta", beta)?;
    if beta >= 0.0 {
        Ok(beta)
    } else {
        Err(Error::OutOfDomain {
            arg: "beta",
            value: beta,
            rule: "the tempering beta must be >= 0",
        })
    }
}

/// Every element finite.
#[doc(hidden)]
pub fn check_finite_elements(arg: &'static str, values: &[f64]) -> Result<()> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(Error::NotFiniteElement {
            arg,
            index,
            value: values[index],
        }),
        None => Ok(()),
    }
}

/// `got == expected` or a [`Error::DimensionMismatch`] naming `arg`.
#[doc(hidden)]
pub fn check_len(arg: &'static str, expected: usize, got: usize) -> Result<()> {
    if got == expected {
        Ok(())
    } else {
        Err(Error::DimensionMismatch { arg, expected, got })
    }
}
