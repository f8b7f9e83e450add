//! Post-hoc Laplace precision, diagonal (LAM App. E).

use super::{check_beta, check_finite_elements, check_prior_variance};
use crate::error::{Error, Result};

/// The prior precision Λ₀ = σ_prior⁻²·I as a diagonal of length `n`: the start of the online
/// Laplace ([`online_update`](super::online_update)).
///
/// # Formula
///
/// $$ \Lambda_0 = \sigma_{\text{prior}}^{-2} I_n $$
///
/// (LAM App. E.)
///
/// # Errors
///
/// [`Error::NotFinite`] / [`Error::OutOfDomain`] if `prior_var` is not finite and > 0;
/// [`Error::TooFew`] if `n = 0`.
///
/// # Examples
///
/// ```
/// let l0 = probdml::laplace::prior_precision(3, 0.25).unwrap();
/// assert_eq!(l0, vec![4.0, 4.0, 4.0]);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn prior_precision(n: usize, prior_var: f64) -> Result<Vec<f64>> {
    check_prior_variance(prior_var)?;
    if n == 0 {
        return Err(Error::TooFew {
            arg: "n",
            min: 1,
            got: 0,
        });
    }
    Ok(vec![1.0 / prior_var; n])
}

/// Post-hoc Laplace precision of a diagonal curvature: Λ = β·H + σ_prior⁻²·I, elementwise.
///
/// `hessian_diagonal` is diag H_θ(θ*) at the trained weights, typically the ReLU-clamped
/// [`last_layer_ggn_diagonal`](crate::ggn::last_layer_ggn_diagonal). The exact twin
/// [`exact::posthoc_precision`](super::exact::posthoc_precision) takes the dense H.
///
/// # Formula
///
/// $$ \Lambda_{kk} = \beta\\,H_{kk} + \sigma_{\text{prior}}^{-2} $$
///
/// (LAM App. E; β the tempering of LAM Table 4, 1 for the plain Laplace.)
///
/// # Errors
///
/// * [`Error::NotFinite`] / [`Error::OutOfDomain`] naming `beta` if β is not finite and ≥ 0;
/// * the same naming `prior_var` unless σ_prior² is finite and > 0;
/// * [`Error::TooFew`] if `hessian_diagonal` is empty;
/// * [`Error::NotFiniteElement`] naming `hessian_diagonal` for a NaN or infinite entry.
///
/// # Examples
///
/// ```
/// use probdml::laplace::posthoc_precision;
/// // β = 2, σ² = 0.5: Λ = 2·H + 2.
/// let lambda = posthoc_precision(&[0.0, 1.5, 3.0], 2.0, 0.5).unwrap();
/// assert_eq!(lambda, vec![2.0, 5.0, 8.0]);
/// assert!(posthoc_precision(&[1.0], -1.0, 1.0).is_err());
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn posthoc_precision(hessian_diagonal: &[f64], beta: f64, prior_var: f64) -> Result<Vec<f64>> {
    check_beta(beta)?;
    check_prior_variance(prior_var)?;
    if hessian_diagonal.is_empty() {
        return Err(Error::TooFew {
            arg: "hessian_diagonal",
            min: 1,
            got: 0,
        });
    }
    check_finite_elements("hessian_diagonal", hessian_diagonal)?;
    let prior = 1.0 / prior_var;
    Ok(hessian_diagonal.iter().map(|&h| beta * h + prior).collect())
}
