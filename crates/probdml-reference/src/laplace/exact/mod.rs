//! Dense twins of the diagonal Laplace: the full precision matrix and Cholesky sampling
//! (`faer`). O(P²) memory and O(P³) time for P parameters: a reference for small layers.

mod marginal_likelihood;
mod output_variance;

pub use marginal_likelihood::{log_marginal_likelihood, optimal_prior_precision};
pub use output_variance::output_variance;

use rand::{Rng, RngExt};
use rand_distr::StandardNormal;

use num_dual::HyperDual64;

use crate::error::{Error, Result};
use crate::ggn::exact::hyperdual_hessian;
use crate::laplace::input::{check_beta, check_finite_elements, check_len, check_prior_variance};

/// Side n of a row-major n×n matrix stored in `values` (n ≥ 1).
fn square_side(arg: &'static str, values: &[f64]) -> Result<usize> {
    if values.is_empty() {
        return Err(Error::TooFew {
            arg,
            min: 1,
            got: 0,
        });
    }
    let n = (values.len() as f64).sqrt().round() as usize;
    check_len(arg, n * n, values.len())?;
    Ok(n)
}

/// The lower Cholesky factor L of a dense precision Λ = LLᵀ (row-major n×n), by `faer`.
///
/// # Errors
///
/// [`Error::Undefined`] naming `precision` if Λ is not positive definite.
fn precision_cholesky(precision: &[f64], n: usize) -> Result<faer::Mat<f64>> {
    let a = faer::Mat::<f64>::from_fn(n, n, |i, j| precision[i * n + j]);
    let llt = a.llt(faer::Side::Lower).map_err(|_| Error::Undefined {
        arg: "precision",
        quantity: "the Cholesky factor of the precision",
        reason: "the precision matrix is not positive definite",
    })?;
    Ok(llt.L().to_owned())
}

/// Twin of `crate::laplace::posthoc_precision` for a dense Hessian: the precision of the
/// Laplace posterior taken from its definition, the Hessian of the negative log posterior at
/// the mode, rather than from the closed form `βH + σ⁻²I`.
///
/// # Formula
///
/// $$ \Lambda = \nabla^2_\theta\Big[\tfrac{\beta}{2}\\,\theta^\top H\\,\theta - \ln \mathcal N(\theta; 0, \sigma_{\text{prior}}^2 I)\Big] = \beta\\,H_\theta(\theta^*) + \sigma_{\text{prior}}^{-2} I $$
///
/// (LAM App. E): the tempered second-order data term and the Gaussian prior's negative log
/// density, written out with its normaliser, differentiated twice by hyper-dual numbers
/// (exact to rounding; the same differentiation as the dense GGN of [`crate::ggn::exact`]).
/// The data term's Hessian is `β(H + Hᵀ)/2`, which is `βH` for the symmetric `H` a GGN is.
///
/// # Errors
///
/// As the fast twin, with `hessian` in place of `hessian_diagonal`;
/// [`Error::DimensionMismatch`] naming `hessian` if its length is not a square.
///
/// # Examples
///
/// ```
/// use probdml::laplace::exact::posthoc_precision;
/// let lambda = posthoc_precision(&[1.0, 0.5, 0.5, 2.0], 2.0, 1.0).unwrap();
/// assert_eq!(lambda, vec![3.0, 1.0, 1.0, 5.0]);
/// ```
pub fn posthoc_precision(hessian: &[f64], beta: f64, prior_var: f64) -> Result<Vec<f64>> {
    check_beta(beta)?;
    check_prior_variance(prior_var)?;
    let n = square_side("hessian", hessian)?;
    check_finite_elements("hessian", hessian)?;
    let negative_log_posterior = |theta: &[HyperDual64]| {
        let mut data = HyperDual64::from_re(0.0);
        for (a, &ta) in theta.iter().enumerate() {
            for (b, &tb) in theta.iter().enumerate() {
                data += ta * tb * hessian[a * n + b];
            }
        }
        // −ln N(θ; 0, σ²I) = ‖θ‖²/(2σ²) + (n/2) ln(2πσ²).
        let squared_norm = theta
            .iter()
            .fold(HyperDual64::from_re(0.0), |acc, &t| acc + t * t);
        let log_prior = squared_norm / (-2.0 * prior_var)
            - 0.5 * n as f64 * (2.0 * std::f64::consts::PI * prior_var).ln();
        data * (0.5 * beta) - log_prior
    };
    // The objective is quadratic, so its Hessian is the same at every θ; θ* = 0 by translation.
    Ok(hyperdual_hessian(&vec![0.0; n], negative_log_posterior))
}

/// Twin of `crate::laplace::sample_posterior` for a dense precision: factor Λ = LLᵀ
/// (`faer`'s Cholesky) and solve Lᵀ(θ − μ) = z, so that Cov θ = L⁻ᵀL⁻¹ = Λ⁻¹.
///
/// Consumes the same `n` standard normals as the fast twin, in the same order; for a diagonal
/// Λ, L = diag(√Λ_kk) and the two draws agree to rounding.
///
/// # Formula
///
/// $$ \theta = \mu + L^{-\top} z, \qquad \Lambda = L L^\top,\ z \sim \mathcal N(0, I) $$
///
/// (LAM App. E.)
///
/// # Errors
///
/// As the fast twin, with [`Error::DimensionMismatch`] naming `precision` unless it is
/// `n × n`, and [`Error::Undefined`] naming `precision` if it is not positive definite.
///
/// # Examples
///
/// ```
/// use probdml::laplace::exact::sample_posterior;
/// use probdml::rand::SeedableRng;
/// let mut rng = probdml::rand::rngs::StdRng::seed_from_u64(1);
/// let mut theta = [0.0; 2];
/// sample_posterior(&[1.0, -2.0], &[1e12, 0.0, 0.0, 1e12], &mut rng, &mut theta).unwrap();
/// assert!((theta[0] - 1.0).abs() < 1e-5 && (theta[1] + 2.0).abs() < 1e-5);
/// // Indefinite: no Cholesky factor.
/// assert!(sample_posterior(&[0.0, 0.0], &[1.0, 2.0, 2.0, 1.0], &mut rng, &mut theta).is_err());
/// ```
pub fn sample_posterior<R: Rng + ?Sized>(
    mu: &[f64],
    precision: &[f64],
    rng: &mut R,
    out: &mut [f64],
) -> Result<()> {
    let n = mu.len();
    if n == 0 {
        return Err(Error::TooFew {
            arg: "mu",
            min: 1,
            got: 0,
        });
    }
    check_len("precision", n * n, precision.len())?;
    check_len("out", n, out.len())?;
    check_finite_elements("mu", mu)?;
    check_finite_elements("precision", precision)?;
    let l = precision_cholesky(precision, n)?;
    let z: Vec<f64> = (0..n).map(|_| rng.sample(StandardNormal)).collect();
    // Back substitution Lᵀ v = z: row k of Lᵀ is column k of L, entries L[j, k] for j ≥ k.
    let mut v = vec![0.0; n];
    for k in (0..n).rev() {
        let mut acc = z[k];
        for j in k + 1..n {
            acc -= l[(j, k)] * v[j];
        }
        v[k] = acc / l[(k, k)];
    }
    for ((o, &m), &d) in out.iter_mut().zip(mu).zip(&v) {
        *o = m + d;
    }
    Ok(())
}
