//! The input check of the nivMF's own parameter: a concentration vector `κ ∈ ℝ^M_{>0}`.

use crate::error::{require_finite_entries, require_len, Error, Result};

/// Checks the diagonal `κ_1…κ_M` of a nivMF concentration matrix: length `dim`, every entry
/// finite and `> 0` (nivMF eq. (4): `K = diag(κ)`, `κ_m > 0`).
pub(crate) fn require_concentrations(arg: &'static str, kappas: &[f64], dim: usize) -> Result<()> {
    require_len(arg, kappas, dim)?;
    require_finite_entries(arg, kappas)?;
    match kappas.iter().position(|&k| k <= 0.0) {
        Some(index) => Err(Error::OutOfDomainElement {
            arg,
            index,
            value: kappas[index],
            rule: "every concentration kappa_m of K = diag(kappas) must be > 0",
        }),
        None => Ok(()),
    }
}
