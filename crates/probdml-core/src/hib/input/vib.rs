//! The inputs and result of the variational information bottleneck loss (HIB eq. (4)), and
//! their checks, shared by the fast twin and its exact twin.

use super::checks;
use crate::error::{Error, Result};

/// One training pair of the VIB objective with the standard normal draws of the
/// reparametrisation trick made explicit (so that the loss is a deterministic function and the
/// two twins can be compared on the same draws).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VibPair<'a> {
    /// `μ(x₁)`, length `D`.
    pub mu1: &'a [f64],
    /// `σ²(x₁)`, length `D`, all `> 0`.
    pub var1: &'a [f64],
    /// `μ(x₂)`, length `D`.
    pub mu2: &'a [f64],
    /// `σ²(x₂)`, length `D`, all `> 0`.
    pub var2: &'a [f64],
    /// `K₁ × D` standard normal draws `ε` for `x₁`, row-major.
    pub noise1: &'a [f64],
    /// `K₂ × D` standard normal draws `ε` for `x₂`, row-major.
    pub noise2: &'a [f64],
    /// The ground truth `m̂`: whether `x₁` and `x₂` match.
    pub is_match: bool,
}

/// The value and gradient of the VIB objective for one pair.
#[derive(Debug, Clone, PartialEq)]
pub struct VibLoss {
    /// `L = NLL + β (KL₁ + KL₂)`.
    pub loss: f64,
    /// The soft contrastive NLL `−ln p̂(m = m̂ | x₁, x₂)`.
    pub nll: f64,
    /// `KL₁ + KL₂`.
    pub kl: f64,
    /// `∂L/∂μ₁`.
    pub grad_mu1: Vec<f64>,
    /// `∂L/∂ ln σ₁²`.
    pub grad_log_var1: Vec<f64>,
    /// `∂L/∂μ₂`.
    pub grad_mu2: Vec<f64>,
    /// `∂L/∂ ln σ₂²`.
    pub grad_log_var2: Vec<f64>,
    /// `∂L/∂a`.
    pub grad_a: f64,
    /// `∂L/∂b`.
    pub grad_b: f64,
}

/// Checks of [`vib_loss`] (shared by both twins): returns `(D, K₁, K₂)`.
#[doc(hidden)]
pub fn check_vib(pair: &VibPair<'_>, a: f64, b: f64, beta: f64) -> Result<(usize, usize, usize)> {
    checks::gaussian("mu1", pair.mu1, "var1", pair.var1)?;
    checks::gaussian("mu2", pair.mu2, "var2", pair.var2)?;
    checks::same_length("mu2", pair.mu1.len(), pair.mu2.len())?;
    checks::positive_variances("var1", pair.var1)?;
    checks::positive_variances("var2", pair.var2)?;
    checks::soft_threshold(a, b)?;
    crate::error::require_nonnegative("beta", beta)?;
    let dim = pair.mu1.len();
    let rows = |arg: &'static str, noise: &[f64]| -> Result<usize> {
        if noise.is_empty() {
            return Err(Error::TooFew {
                arg,
                min: dim,
                got: 0,
            });
        }
        if !noise.len().is_multiple_of(dim) {
            return Err(Error::RaggedRows {
                arg,
                len: noise.len(),
                dim,
            });
        }
        checks::all_finite(arg, noise)?;
        Ok(noise.len() / dim)
    };
    Ok((
        dim,
        rows("noise1", pair.noise1)?,
        rows("noise2", pair.noise2)?,
    ))
}
