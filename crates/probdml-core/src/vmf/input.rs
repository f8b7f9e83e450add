//! The inputs of the vMF functions, shared by the fast code and its exact twins: the unit-vector
//! rule, the argument checks of the density, the KL divergence and the mean resultant, and the
//! mean resultant's result type. Both twins refuse the same inputs with the same error.

use crate::compensated::{dot_lanes, norm2};
use crate::error::{require_len, require_nonnegative, require_sphere_dim, Error, Result};

/// The accepted deviation `|‖v‖ − 1|` of a "unit" vector of length `M`: `10⁻¹²·√M`.
///
/// A vector normalised in `f64` has `|‖v‖ − 1| ≲ √M·2⁻⁵³` typically and `M·2⁻⁵³` at worst; the
/// tolerance leaves three orders of magnitude above the typical case and still flags any vector
/// that was not normalised (or was normalised in `f32`: renormalise such data in `f64` first).
///
/// # Examples
///
/// ```
/// assert_eq!(probdml::vmf::unit_norm_tolerance(4), 2e-12);
/// ```
pub fn unit_norm_tolerance(dim: usize) -> f64 {
    1e-12 * (dim.max(1) as f64).sqrt()
}

/// Checks that every entry of `v` is finite and that `|‖v‖ − 1| ≤ unit_norm_tolerance(len)`.
#[doc(hidden)]
pub fn require_unit(arg: &'static str, v: &[f64]) -> Result<()> {
    // One fused pass in the common case; the entries are inspected only if the sum of squares
    // is not finite (a NaN or infinite entry, or an overflow of a vector that is far from unit).
    let squares = dot_lanes(v, v);
    let norm = if squares.is_finite() {
        squares.sqrt()
    } else {
        if let Some(&bad) = v.iter().find(|x| !x.is_finite()) {
            return Err(Error::NotFinite { arg, value: bad });
        }
        norm2(v)
    };
    let tolerance = unit_norm_tolerance(v.len());
    if (norm - 1.0).abs() <= tolerance {
        Ok(())
    } else {
        Err(Error::NotUnitVector {
            arg,
            norm,
            tolerance,
        })
    }
}

/// Validates `(x, μ, κ)` for a log density: `M = len(μ) ≥ 2`, `len(x) = M`, `κ ≥ 0` finite, both
/// vectors unit within [`unit_norm_tolerance`].
#[doc(hidden)]
pub fn check_density_args(x: &[f64], mu: &[f64], kappa: f64) -> Result<usize> {
    let dim = require_sphere_dim("mu", mu.len())?;
    if x.len() != dim {
        return Err(Error::DimensionMismatch {
            arg: "x",
            expected: dim,
            got: x.len(),
        });
    }
    require_nonnegative("kappa", kappa)?;
    require_unit("mu", mu)?;
    require_unit("x", x)?;
    Ok(dim)
}

/// Validates `(μ_z, κ_z, μ_p, κ_p)` and returns `M`.
#[doc(hidden)]
pub fn check_kl_args(mu_z: &[f64], kappa_z: f64, mu_p: &[f64], kappa_p: f64) -> Result<usize> {
    let dim = require_sphere_dim("mu_z", mu_z.len())?;
    require_len("mu_p", mu_p, dim)?;
    require_nonnegative("kappa_z", kappa_z)?;
    require_nonnegative("kappa_p", kappa_p)?;
    require_unit("mu_z", mu_z)?;
    require_unit("mu_p", mu_p)?;
    Ok(dim)
}

/// The sufficient statistics of a vMF sample: mean direction `μ̂`, mean resultant length `R̄`
/// and sample count `n`.
#[derive(Debug, Clone, PartialEq)]
pub struct MeanResultant {
    /// `μ̂ = Σxᵢ / ‖Σxᵢ‖`, a unit vector of length `M`.
    pub direction: Vec<f64>,
    /// `R̄ = ‖Σxᵢ‖ / n ∈ [0, 1]` (it can exceed 1 by rounding only when all samples coincide).
    pub rbar: f64,
    /// The number of samples `n`.
    pub n: usize,
}

/// Validates an `n × dim` row-major sample of unit vectors and returns `n`.
#[doc(hidden)]
pub fn check_samples(samples: &[f64], dim: usize) -> Result<usize> {
    require_sphere_dim("dim", dim)?;
    if samples.is_empty() {
        return Err(Error::TooFew {
            arg: "samples",
            min: 1,
            got: 0,
        });
    }
    if !samples.len().is_multiple_of(dim) {
        return Err(Error::DimensionMismatch {
            arg: "samples",
            expected: dim * (samples.len() / dim).max(1),
            got: samples.len(),
        });
    }
    for (i, row) in samples.chunks_exact(dim).enumerate() {
        // The row's position goes into the error, as `contrastive` reports it: in a batch of
        // thousands the message must say which embedding is off the sphere.
        require_unit("samples", row).map_err(|e| match e {
            Error::NotUnitVector {
                arg,
                norm,
                tolerance,
            } => Error::NotUnitRow {
                arg,
                row: i,
                norm,
                tolerance,
            },
            Error::NotFinite { arg, value } => Error::NotFiniteElement {
                arg,
                index: i * dim + row.iter().position(|x| !x.is_finite()).unwrap_or(0),
                value,
            },
            other => other,
        })?;
    }
    Ok(samples.len() / dim)
}
