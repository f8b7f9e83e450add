//! Checks shared by every triplet entry point: six slices of one length `D ≥ 1` (or `B·D` for a
//! batch), finite means, finite non-negative variances, a finite non-negative margin, a
//! posterior against its prior; and the batch gradient's result type.
//!
//! This is input validation and plain types only; no derivation lives here, so the fast and exact twins may both
//! call it without sharing any of the mathematics they check each other on.

use crate::error::{require_finite, require_nonnegative, Error, Result};

/// The argument names, in signature order.
#[doc(hidden)]
pub const NAMES: [&str; 6] = ["mu_a", "var_a", "mu_p", "var_p", "mu_n", "var_n"];

/// The error for moments of `τ` that overflow `f64`: it names the entry of largest magnitude
/// among the six slices of one triplet (`first`: the flat index of the triplet's first entry in
/// a batch), the one whose square or fourth power overflowed, rather than the sum it spoiled.
#[doc(hidden)]
pub fn moments_overflow(slices: [&[f64]; 6], first: usize) -> Error {
    let mut worst = (0, 0, 0.0_f64);
    for (k, slice) in slices.iter().enumerate() {
        for (i, &v) in slice.iter().enumerate() {
            if v.abs() > worst.2.abs() {
                worst = (k, i, v);
            }
        }
    }
    let (k, i, value) = worst;
    Error::OutOfDomainElement {
        arg: NAMES[k],
        index: first + i,
        value,
        rule: "the moments of tau overflow f64: this entry is too large to square",
    }
}

/// Validates `(μ_a, σ²_a, μ_p, σ²_p, μ_n, σ²_n)`: equal non-zero lengths (all compared with
/// `mu_a`), finite means, finite variances `≥ 0`. Returns the common length.
#[doc(hidden)]
pub fn check_triplet(slices: [&[f64]; 6]) -> Result<usize> {
    let len = slices[0].len();
    if len == 0 {
        return Err(Error::Empty {
            arg: "mu_a",
            rule: "a triplet needs embeddings of dimension D >= 1",
        });
    }
    for (name, slice) in NAMES.iter().zip(slices) {
        if slice.len() != len {
            return Err(Error::DimensionMismatch {
                arg: name,
                expected: len,
                got: slice.len(),
            });
        }
    }
    for (k, (name, slice)) in NAMES.iter().zip(slices).enumerate() {
        // Branch-free scan first (it vectorises; the batch gradient reads each input once more
        // only to validate it), the position of the offender only when there is one.
        let valid = scan(slice, k % 2 == 1);
        if valid {
            continue;
        }
        if let Some(index) = slice.iter().position(|v| !v.is_finite()) {
            return Err(Error::NotFiniteElement {
                arg: name,
                index,
                value: slice[index],
            });
        }
        // Odd positions are variances.
        if k % 2 == 1 {
            if let Some(index) = slice.iter().position(|v| *v < 0.0) {
                return Err(Error::OutOfDomainElement {
                    arg: name,
                    index,
                    value: slice[index],
                    rule: "a variance must be >= 0",
                });
            }
        }
    }
    Ok(len)
}

/// Whether every element is finite (and `≥ 0` when `nonnegative`), by a branch-free scan over
/// 8 lanes: `v·0` is 0 for finite `v` and NaN for NaN or ±∞, so the lane sums stay 0 exactly
/// when every element is finite; the lane minima catch negative values.
#[inline]
fn scan(slice: &[f64], nonnegative: bool) -> bool {
    let mut zero = [0.0f64; 8];
    let mut least = [0.0f64; 8];
    let mut chunks = slice.chunks_exact(8);
    for chunk in &mut chunks {
        for l in 0..8 {
            let v = chunk[l];
            zero[l] += v * 0.0;
            least[l] = if v < least[l] { v } else { least[l] };
        }
    }
    let mut ok =
        zero.iter().all(|&z| z == 0.0) && (!nonnegative || least.iter().all(|&m| m >= 0.0));
    for &v in chunks.remainder() {
        ok &= v.is_finite() && (!nonnegative || v >= 0.0);
    }
    ok
}

/// Validates the margin `m`: finite and `≥ 0`.
#[doc(hidden)]
pub fn check_margin(margin: f64) -> Result<f64> {
    require_nonnegative("margin", margin)
}

/// The mean NLL of a batch and its gradient with respect to every input, each a row-major
/// `B × D` matrix like the input it differentiates.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TripletGradient {
    /// Mean over the batch of `−ln Φ((−m − E τ)/√Var τ)`.
    pub nll: f64,
    /// `∂ nll / ∂ μ_a`.
    pub mu_a: Vec<f64>,
    /// `∂ nll / ∂ σ²_a`.
    pub var_a: Vec<f64>,
    /// `∂ nll / ∂ μ_p`.
    pub mu_p: Vec<f64>,
    /// `∂ nll / ∂ σ²_p`.
    pub var_p: Vec<f64>,
    /// `∂ nll / ∂ μ_n`.
    pub mu_n: Vec<f64>,
    /// `∂ nll / ∂ σ²_n`.
    pub var_n: Vec<f64>,
}

/// Validates a batch: six slices of the same length, a whole number of rows of width `dim ≥ 1`,
/// at least one row. Returns `B`.
#[doc(hidden)]
pub fn check_batch(slices: [&[f64]; 6], dim: usize) -> Result<usize> {
    if dim == 0 {
        return Err(Error::InvalidDimension {
            arg: "dim",
            dim: 0,
            rule: "a triplet needs embeddings of dimension D >= 1",
        });
    }
    check_triplet(slices)?;
    let len = slices[0].len();
    if !len.is_multiple_of(dim) {
        return Err(Error::RaggedRows {
            arg: NAMES[0],
            len,
            dim,
        });
    }
    Ok(len / dim)
}

/// Validates a diagonal Gaussian posterior and the prior variance.
#[doc(hidden)]
pub fn check_posterior(mu: &[f64], var: &[f64], prior_var: f64) -> Result<()> {
    if mu.is_empty() {
        return Err(Error::InvalidDimension {
            arg: "mu",
            dim: 0,
            rule: "an embedding needs dimension D >= 1",
        });
    }
    if var.len() != mu.len() {
        return Err(Error::DimensionMismatch {
            arg: "var",
            expected: mu.len(),
            got: var.len(),
        });
    }
    for (arg, values) in [("mu", mu), ("var", var)] {
        if let Some(index) = values.iter().position(|v| !v.is_finite()) {
            return Err(Error::NotFiniteElement {
                arg,
                index,
                value: values[index],
            });
        }
    }
    if let Some(index) = var.iter().position(|v| *v <= 0.0) {
        return Err(Error::OutOfDomainElement {
            arg: "var",
            index,
            value: var[index],
            rule: "a posterior variance must be > 0 (the KL to the prior is infinite at 0)",
        });
    }
    require_finite("prior_var", prior_var)?;
    if prior_var <= 0.0 {
        return Err(Error::OutOfDomain {
            arg: "prior_var",
            value: prior_var,
            rule: "the prior variance must be > 0",
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The branch-free scan answers exactly what its definition says, element by element, for
    /// offenders in the 8-lane body and in the remainder, with and without the sign rule (a
    /// false "invalid" would only cost the slow path, so the checks' errors cannot show it).
    #[test]
    fn scan_is_its_definition() {
        let definition = |slice: &[f64], nonnegative: bool| {
            slice
                .iter()
                .all(|v| v.is_finite() && (!nonnegative || *v >= 0.0))
        };
        for len in [1usize, 7, 8, 9, 16, 19] {
            for position in 0..len {
                for bad in [
                    -1.5,
                    -0.0,
                    0.0,
                    2.0,
                    f64::NAN,
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                ] {
                    let mut slice = vec![0.25; len];
                    slice[position] = bad;
                    for nonnegative in [false, true] {
                        assert_eq!(
                            scan(&slice, nonnegative),
                            definition(&slice, nonnegative),
                            "len {len}, element {position} = {bad}, nonnegative {nonnegative}"
                        );
                    }
                }
            }
        }
    }
}
