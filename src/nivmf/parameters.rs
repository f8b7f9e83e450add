//! Input checks shared by the checked entry points of chapter 06: natural parameters `ν = κμ`,
//! concentration vectors `κ ∈ ℝ^M_{>0}` of the nivMF, the PPK exponent `γ`.

use crate::compensated::norm2;
use crate::error::{require_finite, require_sphere_dim, Error, Result};

/// Checks a natural parameter `ν = κμ` (all entries finite, `len ≥ 2`, `‖ν‖` finite) and
/// returns `κ = ‖ν‖`.
pub(crate) fn natural_norm(arg: &'static str, nu: &[f64]) -> Result<f64> {
    require_sphere_dim(arg, nu.len())?;
    require_finite_entries(arg, nu)?;
    let kappa = norm2(nu);
    if !kappa.is_finite() {
        return Err(Error::NotFinite { arg, value: kappa });
    }
    Ok(kappa)
}

/// Checks that `v` has length `dim`.
pub(crate) fn require_len(arg: &'static str, v: &[f64], dim: usize) -> Result<()> {
    if v.len() == dim {
        Ok(())
    } else {
        Err(Error::DimensionMismatch {
            arg,
            expected: dim,
            got: v.len(),
        })
    }
}

/// Checks that every entry of `v` is finite ([`Error::NotFiniteElement`] naming the first).
pub(crate) use crate::ggn::check_finite_slice as require_finite_entries;

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

/// Checks the PPK exponent: finite and `γ > 0`.
pub(crate) fn require_gamma(gamma: f64) -> Result<f64> {
    require_finite("gamma", gamma)?;
    if gamma > 0.0 {
        Ok(gamma)
    } else {
        Err(Error::OutOfDomain {
            arg: "gamma",
            value: gamma,
            rule: "the probability product kernel needs gamma > 0",
        })
    }
}
