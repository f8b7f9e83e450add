//! The online Laplace: one Monte Carlo EM step (LAM App. E).

use rand::Rng;

use super::sampler::sample_diagonal_unchecked;
use super::{check_finite_elements, check_len, check_positive_elements};
use crate::error::{require_finite, Error, Result};

/// One step of the online Laplace (Monte Carlo EM) on q_t = N(θ_t, Λ_t⁻¹), in place.
///
/// Draws `n_samples` parameter vectors θ_s ~ q_t ([`sample_posterior`](super::sample_posterior)),
/// calls `per_sample(θ_s, gradient, hessian_diagonal)` for each — it must write ∇L(θ_s) and
/// diag H_θ(θ_s) into the two buffers (zeroed before each call), so the update is independent
/// of the model — and then sets
/// `mean ← mean − learning_rate · mean_s ∇L(θ_s)` and
/// `precision ← (1 − alpha) · precision + mean_s ReLU(H_θ(θ_s))`.
///
/// # Formula
///
/// $$ \theta_{t+1} = \theta_t - \lambda\\,\frac1S\sum_s \nabla L(\theta_s), \qquad
///    \Lambda_{t+1} = (1-\alpha)\\,\Lambda_t + \frac1S\sum_s \max(0, H_\theta(\theta_s)) $$
///
/// with θ_s ~ N(θ_t, Λ_t⁻¹) (LAM App. E; memory factor 1 − α = 0.999 in the reference
/// configurations; start from Λ₀ = σ_prior⁻²·I, [`prior_precision`](super::prior_precision)).
/// The ReLU keeps Λ_t ≥ (1 − α)Λ_{t−1} > 0 for α < 1, so every step can sample (α = 1 with a
/// zero Hessian leaves Λ = 0, which the next step rejects).
///
/// # Errors
///
/// * [`Error::TooFew`] naming `n_samples` if S = 0, or `mu` if it is empty;
/// * [`Error::DimensionMismatch`] naming `precision` if its length differs from `mu`'s;
/// * [`Error::NotFinite`] / [`Error::OutOfDomain`] naming `learning_rate` (finite, ≥ 0) or
///   `alpha` (in [0, 1]);
/// * [`Error::NotFiniteElement`] naming `mu`, `precision`, `gradient` or `hessian_diagonal`
///   for a NaN or infinite entry (the last two as returned by `per_sample`);
/// * [`Error::OutOfDomainElement`] naming `precision` and the index if an entry is ≤ 0.
///
/// On error `mu` and `precision` are left unchanged.
///
/// # Examples
///
/// ```
/// use probdml::laplace::{online_update, prior_precision};
/// use probdml::rand::SeedableRng;
/// let mut rng = probdml::rand::rngs::StdRng::seed_from_u64(3);
/// // L(θ) = ½‖θ‖²: ∇L = θ, H = I. With λ = 0 the mean stays; with α = ½ the precision
/// // goes 4 → ½·4 + 1 = 3.
/// let (mut mean, mut precision) = (vec![1.0, 2.0], prior_precision(2, 0.25).unwrap());
/// online_update(&mut mean, &mut precision, &mut rng, 4, 0.0, 0.5, |theta, g, h| {
///     g.copy_from_slice(theta);
///     h.fill(1.0);
/// }).unwrap();
/// assert_eq!(mean, vec![1.0, 2.0]);
/// assert_eq!(precision, vec![3.0, 3.0]);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn online_update<R, F>(
    mu: &mut [f64],
    precision: &mut [f64],
    rng: &mut R,
    n_samples: usize,
    learning_rate: f64,
    alpha: f64,
    mut per_sample: F,
) -> Result<()>
where
    R: Rng + ?Sized,
    F: FnMut(&[f64], &mut [f64], &mut [f64]),
{
    let n = mu.len();
    if n == 0 {
        return Err(Error::TooFew {
            arg: "mu",
            min: 1,
            got: 0,
        });
    }
    check_len("precision", n, precision.len())?;
    if n_samples == 0 {
        return Err(Error::TooFew {
            arg: "n_samples",
            min: 1,
            got: 0,
        });
    }
    require_finite("learning_rate", learning_rate)?;
    if learning_rate < 0.0 {
        return Err(Error::OutOfDomain {
            arg: "learning_rate",
            value: learning_rate,
            rule: "the step size must be >= 0",
        });
    }
    require_finite("alpha", alpha)?;
    if !(0.0..=1.0).contains(&alpha) {
        return Err(Error::OutOfDomain {
            arg: "alpha",
            value: alpha,
            rule: "must satisfy 0 <= alpha <= 1 (memory factor 1 - alpha)",
        });
    }
    check_finite_elements("mu", mu)?;
    check_positive_elements("precision", precision)?;

    let mut theta = vec![0.0; n];
    let mut gradient = vec![0.0; n];
    let mut hessian = vec![0.0; n];
    let mut gradient_sum = vec![0.0; n];
    let mut hessian_sum = vec![0.0; n];
    for _ in 0..n_samples {
        sample_diagonal_unchecked(mu, precision, rng, &mut theta);
        gradient.fill(0.0);
        hessian.fill(0.0);
        per_sample(&theta, &mut gradient, &mut hessian);
        check_finite_elements("gradient", &gradient)?;
        check_finite_elements("hessian_diagonal", &hessian)?;
        for (acc, g) in gradient_sum.iter_mut().zip(&gradient) {
            *acc += g;
        }
        for (acc, h) in hessian_sum.iter_mut().zip(&hessian) {
            *acc += h.max(0.0);
        }
    }
    let s = n_samples as f64;
    let keep = 1.0 - alpha;
    for (m, g) in mu.iter_mut().zip(&gradient_sum) {
        *m -= learning_rate * (g / s);
    }
    for (p, h) in precision.iter_mut().zip(&hessian_sum) {
        *p = keep * *p + h / s;
    }
    Ok(())
}
