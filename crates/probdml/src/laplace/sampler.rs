//! Sampling the diagonal Laplace posterior N(μ, Λ⁻¹).

use rand::{Rng, RngExt};
use rand_distr::StandardNormal;

use super::{check_finite_elements, check_len, check_positive_elements};
use crate::error::{Error, Result};

/// Writes one draw θ ~ N(μ, Λ⁻¹) of a diagonal Gaussian into `out`.
///
/// Consumes exactly `n` standard normals from `rng`, in coordinate order; the exact twin
/// [`exact::sample_posterior`](super::exact::sample_posterior) consumes the same ones, so with a
/// diagonal dense precision both return the same draw.
///
/// # Formula
///
/// $$ \theta_k = \mu_k + z_k/\sqrt{\Lambda_{kk}}, \qquad z_k \sim \mathcal N(0, 1) $$
///
/// (LAM App. E: the diagonal Laplace posterior of the last layer.)
///
/// # Errors
///
/// * [`Error::TooFew`] if `mean` is empty;
/// * [`Error::DimensionMismatch`] naming `precision` or `out` if their lengths differ from
///   `mean`'s;
/// * [`Error::NotFiniteElement`] naming `mean` or `precision` for a NaN or infinite entry;
/// * [`Error::OutOfDomainElement`] naming `precision` and the index if an entry is ≤ 0.
///
/// # Examples
///
/// ```
/// use probdml::laplace::sample_posterior;
/// use probdml::rand::SeedableRng;
/// let mut rng = probdml::rand::rngs::StdRng::seed_from_u64(1);
/// let mut theta = [0.0; 2];
/// // Precision 10¹²: the draw sits within 10⁻⁵ of the mean.
/// sample_posterior(&[1.0, -2.0], &[1e12, 1e12], &mut rng, &mut theta).unwrap();
/// assert!((theta[0] - 1.0).abs() < 1e-5 && (theta[1] + 2.0).abs() < 1e-5);
/// assert!(sample_posterior(&[1.0], &[0.0], &mut rng, &mut theta[..1]).is_err());
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn sample_posterior<R: Rng + ?Sized>(
    mu: &[f64],
    precision: &[f64],
    rng: &mut R,
    out: &mut [f64],
) -> Result<()> {
    if mu.is_empty() {
        return Err(Error::TooFew {
            arg: "mu",
            min: 1,
            got: 0,
        });
    }
    check_len("precision", mu.len(), precision.len())?;
    check_len("out", mu.len(), out.len())?;
    check_finite_elements("mu", mu)?;
    check_positive_elements("precision", precision)?;
    sample_diagonal_unchecked(mu, precision, rng, out);
    Ok(())
}

/// The kernel of [`sample_posterior`]. Preconditions: equal lengths, finite `mean`, finite
/// positive `precision`.
pub(crate) fn sample_diagonal_unchecked<R: Rng + ?Sized>(
    mu: &[f64],
    precision: &[f64],
    rng: &mut R,
    out: &mut [f64],
) {
    for ((o, &m), &p) in out.iter_mut().zip(mu).zip(precision) {
        let z: f64 = rng.sample(StandardNormal);
        *o = m + z / p.sqrt();
    }
}
