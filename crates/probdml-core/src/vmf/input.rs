//! The inputs of the vMF functions, shared by the fast code and its exact twins: the unit-vector
//! rule, the argument checks of the density, the KL divergence and the mean resultant, and the
//! mean resultant's result type. Both twins refuse the same inputs with the same error.

use std::borrow::Cow;

use crate::compensated::{dot_lanes, norm2};
use crate::error::{require_len, require_nonnegative, require_sphere_dim, Error, Result};

/// The accepted deviation `|‖v‖ − 1|` of a "unit" vector of length `M`: `(M + 4)·2⁻²⁴`.
///
/// Embeddings arrive normalised in `f32` (PyTorch's `F.normalize`): the sum of squares of
/// `M` terms in `f32` errs by at most `γ_M ≈ M·2⁻²⁴` relative, the square root and the
/// division add one rounding each, so such a vector has `|‖v‖ − 1| ≤ (M/2 + 2)·2⁻²⁴` by any
/// summation order. The tolerance is twice that bound: every vector normalised in `f32` (or
/// better) passes, and a vector that was not normalised at all (a raw network output, a
/// forgotten division) is still refused.
///
/// A vector further than [`renormalisation_threshold`] from the sphere (the case of `f32`
/// data) is renormalised in `f64` before use: the result is the one at `v/‖v‖`, with `‖v‖`
/// the compensated norm ([`norm2`]), carrying the function's own error bound; the change
/// against using `v` as given is first order in `|‖v‖ − 1|` (in a log density,
/// `κ·|μᵀx|·|‖x‖ − 1|`), which is why it is removed rather than ignored.
///
/// # Examples
///
/// ```
/// // M = 4: (4 + 4)·2⁻²⁴ = 2⁻²¹.
/// assert_eq!(probdml::vmf::unit_norm_tolerance(4), 2f64.powi(-21));
/// ```
pub fn unit_norm_tolerance(dim: usize) -> f64 {
    (dim.max(1) as f64 + 4.0) * F32_UNIT_ROUNDOFF
}

/// `2⁻²⁴`, the unit roundoff of `f32`.
const F32_UNIT_ROUNDOFF: f64 = f32::EPSILON as f64 / 2.0;

/// The deviation `|‖v‖ − 1|` up to which a vector of length `M` is used as given: `10⁻¹²·√M`.
///
/// A vector normalised in `f64` has `|‖v‖ − 1| ≲ √M·2⁻⁵³` typically and `M·2⁻⁵³` at worst;
/// the threshold sits three orders of magnitude above the typical case, so such a vector is
/// never copied. Between this and [`unit_norm_tolerance`] a vector is renormalised in `f64`.
///
/// # Examples
///
/// ```
/// assert_eq!(probdml::vmf::renormalisation_threshold(4), 2e-12);
/// ```
pub fn renormalisation_threshold(dim: usize) -> f64 {
    1e-12 * (dim.max(1) as f64).sqrt()
}

/// Checks that every entry of `v` is finite and that `|‖v‖ − 1| ≤ unit_norm_tolerance(len)`;
/// returns `v` itself, or `v/‖v‖` in `f64` when it is further than
/// [`renormalisation_threshold`] from the sphere.
#[doc(hidden)]
pub fn require_unit<'a>(arg: &'static str, v: &'a [f64]) -> Result<Cow<'a, [f64]>> {
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
    let deviation = (norm - 1.0).abs();
    if deviation <= renormalisation_threshold(v.len()) {
        return Ok(Cow::Borrowed(v));
    }
    let tolerance = unit_norm_tolerance(v.len());
    if deviation <= tolerance {
        let norm = norm2(v);
        Ok(Cow::Owned(v.iter().map(|x| x / norm).collect()))
    } else {
        Err(Error::NotUnitVector {
            arg,
            norm,
            tolerance,
        })
    }
}

/// Checks every row of the row-major `rows` (`dim` entries each, `rows.len()` a multiple of
/// `dim ≥ 1`) by [`require_unit`]; returns `rows`, with every row further than
/// [`renormalisation_threshold`] from the sphere renormalised (a copy only if some row is).
///
/// # Errors
///
/// [`Error::NotFiniteElement`] at the flat index of the first non-finite entry of a row, or
/// [`Error::NotUnitRow`] naming the row, both under `arg`.
#[doc(hidden)]
pub fn require_unit_rows<'a>(
    arg: &'static str,
    rows: &'a [f64],
    dim: usize,
) -> Result<Cow<'a, [f64]>> {
    let mut checked = Cow::Borrowed(rows);
    for (i, row) in rows.chunks_exact(dim).enumerate() {
        // The row's position goes into the error: in a batch of thousands the message must say
        // which embedding is off the sphere.
        let unit = require_unit(arg, row).map_err(|e| match e {
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
        if let Cow::Owned(renormalised) = unit {
            checked.to_mut()[i * dim..(i + 1) * dim].copy_from_slice(&renormalised);
        }
    }
    Ok(checked)
}

/// A vMF argument after the unit-vector rule: the caller's slice, or its renormalised copy.
#[doc(hidden)]
pub type UnitVector<'a> = Cow<'a, [f64]>;

/// Validates `(x, μ, κ)` for a log density: `M = len(μ) ≥ 2`, `len(x) = M`, `κ ≥ 0` finite, both
/// vectors unit within [`unit_norm_tolerance`]; returns `M` and the two vectors after
/// [`require_unit`].
#[doc(hidden)]
pub fn check_density_args<'a>(
    x: &'a [f64],
    mu: &'a [f64],
    kappa: f64,
) -> Result<(usize, UnitVector<'a>, UnitVector<'a>)> {
    let dim = require_sphere_dim("mu", mu.len())?;
    if x.len() != dim {
        return Err(Error::DimensionMismatch {
            arg: "x",
            expected: dim,
            got: x.len(),
        });
    }
    require_nonnegative("kappa", kappa)?;
    let mu = require_unit("mu", mu)?;
    let x = require_unit("x", x)?;
    Ok((dim, x, mu))
}

/// Validates `(μ_z, κ_z, μ_p, κ_p)`; returns `M` and the two directions after [`require_unit`].
#[doc(hidden)]
pub fn check_kl_args<'a>(
    mu_z: &'a [f64],
    kappa_z: f64,
    mu_p: &'a [f64],
    kappa_p: f64,
) -> Result<(usize, UnitVector<'a>, UnitVector<'a>)> {
    let dim = require_sphere_dim("mu_z", mu_z.len())?;
    require_len("mu_p", mu_p, dim)?;
    require_nonnegative("kappa_z", kappa_z)?;
    require_nonnegative("kappa_p", kappa_p)?;
    let mu_z = require_unit("mu_z", mu_z)?;
    let mu_p = require_unit("mu_p", mu_p)?;
    Ok((dim, mu_z, mu_p))
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

/// Validates an `n × dim` row-major sample of unit vectors; returns `n` and the sample, with
/// every row further than [`renormalisation_threshold`] from the sphere renormalised (a copy
/// only if some row is).
#[doc(hidden)]
pub fn check_samples(samples: &[f64], dim: usize) -> Result<(usize, Cow<'_, [f64]>)> {
    require_sphere_dim("dim", dim)?;
    if samples.is_empty() {
        return Err(Error::TooFew {
            arg: "samples",
            min: 1,
            got: 0,
        });
    }
    if !samples.len().is_multiple_of(dim) {
        return Err(Error::RaggedRows {
            arg: "samples",
            len: samples.len(),
            dim,
        });
    }
    let checked = require_unit_rows("samples", samples, dim)?;
    Ok((samples.len() / dim, checked))
}
