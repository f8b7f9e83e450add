//! κ̂ = A_M⁻¹(R̄) for one dimension and many mean resultant lengths.

use super::kappa::kappa_mle_kernel;
use crate::error::{require_batch, require_sphere_dim, Result};
use crate::instruction_set::dispatch;

/// Writes the maximum-likelihood concentration `κ̂_i = A_M⁻¹(R̄_i)` into `out[i]` for every
/// `R̄_i` of `rbars`: the same bits as [`kappa_mle`](super::kappa_mle)`(dim, R̄_i)`.
///
/// # Formula
///
/// $$ A_M(\hat\kappa) = \bar R,\qquad A_M(\kappa) = \frac{I_{M/2}(\kappa)}{I_{M/2-1}(\kappa)} $$
///
/// (LAM App. C; Sra 2012, eq. (4)), solved per value by [`kappa_mle`](super::kappa_mle)'s
/// safeguarded Halley iteration from Banerjee's start. The input is checked once for the batch,
/// and the instruction set is chosen once; each solve then runs inlined in that choice. The
/// solves take different numbers of steps, so they are not run in lanes.
///
/// # When to prefer it
///
/// For many `R̄` of one dimension (LAM's per-class or per-embedding concentrations): it saves
/// the per-call checks and instruction-set choice of the scalar loop; the Halley steps, which
/// dominate, are the same.
///
/// # Errors
///
/// [`Error::InvalidDimension`](crate::Error::InvalidDimension) for `dim < 2`;
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if `out.len() ≠ rbars.len()`;
/// [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) for a NaN or infinite `R̄_i`,
/// [`Error::OutOfDomain`](crate::Error::OutOfDomain) for one outside `[0, 1)`;
/// [`Error::NoConvergence`](crate::Error::NoConvergence) as [`kappa_mle`](super::kappa_mle).
///
/// # Examples
///
/// ```
/// use probdml::vmf::{kappa_mle, kappa_mle_batch};
/// let rbars = [0.0, 0.1, 0.5, 0.9, 0.999];
/// let mut out = [0.0; 5];
/// kappa_mle_batch(128, &rbars, &mut out).unwrap();
/// for (r, k) in rbars.iter().zip(&out) {
///     assert_eq!(k.to_bits(), kappa_mle(128, *r).unwrap().to_bits());
/// }
/// assert!(kappa_mle_batch(128, &[1.0], &mut [0.0]).is_err());
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn kappa_mle_batch(dim: usize, rbars: &[f64], out: &mut [f64]) -> Result<()> {
    require_sphere_dim("dim", dim)?;
    require_batch(
        "rbars",
        rbars,
        out.len(),
        (0.0, 1.0),
        "every mean resultant length must satisfy 0 <= rbar < 1",
    )?;
    dispatch(
        #[inline(always)]
        || {
            for (o, &r) in out.iter_mut().zip(rbars) {
                *o = kappa_mle_kernel(dim, r)?;
            }
            Ok(())
        },
    )
}
