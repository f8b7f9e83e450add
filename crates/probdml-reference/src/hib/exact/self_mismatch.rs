//! The self-mismatch `η(x) = 1 − p(m | x, x)` (HIB eq. 9), exactly.

use crate::error::Result;
use crate::hib::checks;
use crate::hib::embedding::HedgedEmbedding;
use crate::hib::exact::match_probability::mean_over_component_pairs;

/// The self-mismatch of a hedged embedding, exactly: `1 −` the mean over component pairs
/// `(c, c')` of the match probability of `z ~ N(μ_c, σ_c²)` and an independent
/// `z' ~ N(μ_{c'}, σ_{c'}²)`. The reference for `hib::self_mismatch`.
///
/// **Properties** (`proofs/hib_self_mismatch.rs`). For a point mass `η = 1 − sigmoid(b)`
/// (`Δ = 0`), *not* 0; for a Gaussian, `‖Δ‖` with `Δ ~ N(0, 2 diag σ²)`
/// is stochastically increasing in every `σ_k²` and `sigmoid(−ar + b)` is decreasing in `r`,
/// so `η` increases with every variance and is smallest for the point mass.
///
/// # Formula
///
/// $$ \eta(x) = 1 - \frac{1}{C^2} \sum_{c, c'} \mathbb E\\,\operatorname{sigmoid}\big(-a \lVert z_c - \tilde z_{c'} \rVert + b\big), \quad z_c - \tilde z_{c'} \sim \mathcal N(\mu_c - \mu_{c'}, \operatorname{diag}(\sigma_c^2 + \sigma_{c'}^2)) $$
///
/// # Errors
///
/// [`Error::OutOfDomain`](crate::Error::OutOfDomain) for `a ≤ 0`;
/// [`Error::NotFinite`](crate::Error::NotFinite) for a non-finite `a` or `b`.
///
/// # Examples
///
/// ```
/// use probdml::hib::{exact, HedgedEmbedding};
/// let point = HedgedEmbedding::from_gaussian(probdml::Gaussian { mu: &[1.0, 2.0], var: &[0.0, 0.0] })?;
/// let eta0 = exact::self_mismatch(&point, 2.0, 1.5)?;
/// assert!((eta0 - 0.18242552380635635).abs() < 1e-15); // 1 − sigmoid(1.5), not 0
/// let spread = HedgedEmbedding::from_gaussian(probdml::Gaussian { mu: &[1.0, 2.0], var: &[0.1, 0.0] })?;
/// assert!(exact::self_mismatch(&spread, 2.0, 1.5)? > eta0);
/// # Ok::<(), probdml::Error>(())
/// ```
///
/// Cited: HIB eq. (9), §2.4 (corrected: not 0 for a point mass).
pub fn self_mismatch(x: &HedgedEmbedding, a: f64, b: f64) -> Result<f64> {
    checks::soft_threshold(a, b)?;
    Ok(1.0 - mean_over_component_pairs(x, x, a, b)?)
}
