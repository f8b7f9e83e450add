//! A_M(κ) for one dimension and many concentrations: the Debye regime in vectorised lanes.

use super::mean_resultant_length::mean_resultant_length_kernel;
use crate::error::{require_concentrations, Result};
use crate::instruction_set::dispatch;
use crate::special::debye::{
    bessel_i_ratio_debye_lanes, DEBYE_LANES, DEBYE_LANES_MAX_ARGUMENT, DEBYE_MIN_ORDER,
};

/// Writes `A_M(κ_i)` into `out[i]` for every `κ_i` of `kappas`: the same bits as
/// [`mean_resultant_length`](super::mean_resultant_length)`(dim, κ_i)`.
///
/// # Formula
///
/// $$ A_M(\kappa) = \frac{I_{M/2}(\kappa)}{I_{M/2-1}(\kappa)} $$
///
/// (Banerjee et al. 2005, eq. (4.4)). For `ν = M/2 − 1 ≥ 20` (`M ≥ 42`) every `κ` is in
/// the uniform asymptotic regime, and the values go through the Debye ratio in lanes of sixteen,
/// which the compiler vectorises: the lane kernel is the scalar kernel's arithmetic for
/// `0 < κ < 10¹⁵⁰` (above, the scalar kernel's `hypot` branch is called per value), so the
/// results are bit-identical (`proofs/batch_kernels.rs`). For `M < 42` the regime depends on `κ`
/// and each value is one scalar evaluation.
///
/// # When to prefer it
///
/// For many concentrations of one dimension `M ≥ 42` (the mean lengths of a batch of
/// embeddings' vMFs, the expected cosines of a calibration table): one vectorised pass instead
/// of one dispatched call per value. For `M < 42` it costs what the scalar loop costs.
///
/// # Errors
///
/// [`Error::InvalidDimension`](crate::Error::InvalidDimension) for `dim < 2`;
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if `out.len() ≠ kappas.len()`;
/// [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) for a NaN or infinite `κ_i`,
/// [`Error::OutOfDomain`](crate::Error::OutOfDomain) for a negative one.
///
/// # Examples
///
/// ```
/// use probdml::vmf::{mean_resultant_length, mean_resultant_length_batch};
/// let kappas = [0.0, 1e-3, 5.0, 50.0, 1e5];
/// let mut out = [0.0; 5];
/// mean_resultant_length_batch(128, &kappas, &mut out).unwrap();
/// for (k, a) in kappas.iter().zip(&out) {
///     assert_eq!(a.to_bits(), mean_resultant_length(128, *k).to_bits());
/// }
/// assert!(mean_resultant_length_batch(128, &[-1.0], &mut [0.0]).is_err());
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn mean_resultant_length_batch(dim: usize, kappas: &[f64], out: &mut [f64]) -> Result<()> {
    require_concentrations(dim, kappas, out.len())?;
    dispatch(
        #[inline(always)]
        || mean_resultant_length_batch_kernel(dim, kappas, out),
    );
    Ok(())
}

/// The kernel of [`mean_resultant_length_batch`] (checked input, equal lengths).
#[inline(always)]
fn mean_resultant_length_batch_kernel(dim: usize, kappas: &[f64], out: &mut [f64]) {
    let nu = dim as f64 / 2.0 - 1.0;
    if nu < DEBYE_MIN_ORDER {
        for (o, &k) in out.iter_mut().zip(kappas) {
            *o = mean_resultant_length_kernel(dim, k);
        }
        return;
    }
    let mut x = [1.0; DEBYE_LANES];
    let mut ratio = [0.0; DEBYE_LANES];
    for (oc, kc) in out.chunks_mut(DEBYE_LANES).zip(kappas.chunks(DEBYE_LANES)) {
        // A short last chunk keeps earlier (valid) arguments in its spare lanes.
        for (xi, &k) in x.iter_mut().zip(kc) {
            *xi = k.min(DEBYE_LANES_MAX_ARGUMENT);
        }
        bessel_i_ratio_debye_lanes(nu, &x, &mut ratio);
        oc.copy_from_slice(&ratio[..oc.len()]);
    }
    // κ = 0 (the scalar kernel's exact 0) and κ ≥ 10¹⁵⁰ (its `hypot` branch): per value.
    for (o, &k) in out.iter_mut().zip(kappas) {
        if k == 0.0 || k >= DEBYE_LANES_MAX_ARGUMENT {
            *o = mean_resultant_length_kernel(dim, k);
        }
    }
}
