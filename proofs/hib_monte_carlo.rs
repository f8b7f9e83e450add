//! # The Monte Carlo match probability (HIB eq. 5)
//!
//! `p̂ = (KC)⁻² Σ_ij sigmoid(−a‖z₁⁽ⁱ⁾ − z₂⁽ʲ⁾‖ + b)` with `K` draws per mixture component of each
//! input (stratified, HIB §2.2). Claims, against `hib::exact`:
//!
//! 1. **Unbiased**: over `n = 4000` independent seeds (ChaCha8, seed = index), the mean of
//!    `p̂` lies within `MONTE_CARLO_SIGMAS = 6` standard errors (the sample standard deviation
//!    over `√n`) of the exact value — for Gaussians at `D = 2` and `D = 16`, and for mixtures
//!    (`C = 2` against `C = 3`, stratified). Under the null a 6σ band fails with probability
//!    `≈ 2·10⁻⁹` per check (normal approximation; `n = 4000` means of bounded variables).
//! 2. **Variance falls as a two-sample V-statistic**: `Var p̂_K = A/K + B/K²` with `A, B ≥ 0`
//!    (Hoeffding: `A = ζ₁ + ζ₂`, the variances of the conditional means; `B = σ² − ζ₁ − ζ₂`),
//!    so `Var p̂_{2K} / Var p̂_K ∈ [¼, ½]`: checked for `K = 1, 2, 4, 8, 16` with each variance
//!    from `n = 4000` seeds and the ratio's band widened by 6 of its standard errors (from the
//!    fourth moments).
//! 3. **Value stability**: a seeded estimate equals an independent re-derivation of eq. 5 that
//!    draws from the same RNG in the documented order (input 1 then input 2; component, draw,
//!    coordinate).
// The positional forms are the registry's fast items (deprecated for users: the
// named form `hib::SoftThreshold` calls the same code).
#![allow(deprecated)]

// derivation: hib::match_probability

use probdml::hib::{self, exact, HedgedEmbedding};
use probdml_proofs::registry::budget::MONTE_CARLO_SIGMAS;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

const SEEDS: u64 = 4000;

/// Mean, variance and the standard error of the variance of `n` seeded estimates.
fn moments(estimates: &[f64]) -> (f64, f64, f64) {
    let n = estimates.len() as f64;
    let mean = estimates.iter().sum::<f64>() / n;
    let var = estimates.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let m4 = estimates.iter().map(|e| (e - mean).powi(4)).sum::<f64>() / n;
    (mean, var, ((m4 - var * var) / n).sqrt())
}

fn estimates(
    x1: &HedgedEmbedding,
    x2: &HedgedEmbedding,
    a: f64,
    b: f64,
    k: usize,
    salt: u64,
) -> Vec<f64> {
    (0..SEEDS)
        .map(|seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (salt << 32));
            hib::match_probability(x1, x2, a, b, k, &mut rng).unwrap()
        })
        .collect()
}

fn assert_unbiased(
    x1: &HedgedEmbedding,
    x2: &HedgedEmbedding,
    a: f64,
    b: f64,
    k: usize,
    salt: u64,
) {
    let exact = exact::mixture_match_probability(x1, x2, a, b).unwrap();
    let (mean, var, _) = moments(&estimates(x1, x2, a, b, k, salt));
    let se = (var / SEEDS as f64).sqrt();
    assert!(
        (mean - exact).abs() <= MONTE_CARLO_SIGMAS * se,
        "mean {mean} vs exact {exact}: {:.2} standard errors",
        (mean - exact).abs() / se
    );
    // A band that is not vacuous: the standard error resolves the third digit.
    assert!(se < 2e-3, "standard error {se}");
}

#[test]
fn unbiased_for_gaussians() {
    let x1 = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &[0.0, 0.0],
        var: &[0.3, 0.3],
    })
    .unwrap();
    let x2 = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &[1.0, 0.5],
        var: &[0.2, 0.4],
    })
    .unwrap();
    assert_unbiased(&x1, &x2, 2.0, 1.0, 8, 1);
    let mu1: Vec<f64> = (0..16).map(|k| (k as f64 * 0.7).sin()).collect();
    let mu2: Vec<f64> = (0..16).map(|k| (k as f64 * 0.3).cos() * 0.5).collect();
    let x1 = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &mu1,
        var: &[0.05; 16],
    })
    .unwrap();
    let x2 = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &mu2,
        var: &[0.1; 16],
    })
    .unwrap();
    assert_unbiased(&x1, &x2, 1.0, 3.0, 8, 2);
}

#[test]
fn unbiased_for_stratified_mixtures() {
    let x1 = HedgedEmbedding::from_components(
        probdml::Gaussian {
            mu: &[0.0, 0.0, 2.0, 1.0],
            var: &[0.2, 0.3, 0.1, 0.4],
        },
        2,
    )
    .unwrap();
    let x2 = HedgedEmbedding::from_components(
        probdml::Gaussian {
            mu: &[1.0, 0.0, -1.0, 0.5, 0.0, 3.0],
            var: &[0.5, 0.5, 0.2, 0.1, 0.3, 0.3],
        },
        2,
    )
    .unwrap();
    assert_unbiased(&x1, &x2, 1.5, 1.0, 4, 3);
}

#[test]
fn variance_falls_like_a_two_sample_v_statistic() {
    let x1 = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &[0.0, 0.0],
        var: &[0.3, 0.3],
    })
    .unwrap();
    let x2 = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &[1.0, 0.5],
        var: &[0.2, 0.4],
    })
    .unwrap();
    let mut previous: Option<(f64, f64)> = None;
    for (i, k) in [1usize, 2, 4, 8, 16].into_iter().enumerate() {
        let (_, var, se_var) = moments(&estimates(&x1, &x2, 2.0, 1.0, k, 10 + i as u64));
        if let Some((var_half, se_half)) = previous {
            let ratio = var / var_half;
            let se_ratio = ratio * ((se_var / var).powi(2) + (se_half / var_half).powi(2)).sqrt();
            let band = MONTE_CARLO_SIGMAS * se_ratio;
            assert!(
                (0.25 - band..=0.5 + band).contains(&ratio),
                "K = {k}: Var ratio {ratio} (± {se_ratio}) outside [1/4, 1/2]"
            );
        }
        previous = Some((var, se_var));
    }
}

#[test]
fn seeded_value_equals_an_independent_rederivation() {
    let means = [0.1, -0.4, 1.2, 0.3, 0.0, 0.9];
    let variances = [0.2, 0.1, 0.4, 0.3, 0.05, 0.6];
    let x1 = HedgedEmbedding::from_components(
        probdml::Gaussian {
            mu: &means[..4],
            var: &variances[..4],
        },
        2,
    )
    .unwrap();
    let x2 = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &means[4..],
        var: &variances[4..],
    })
    .unwrap();
    let (a, b, k) = (2.5, 0.7, 3);
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let fast = hib::match_probability(&x1, &x2, a, b, k, &mut rng).unwrap();
    // Re-derivation: the draws in the documented order, then the K² mean written out.
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let mut draw = |mean: &[f64], var: &[f64]| -> Vec<f64> {
        (0..2)
            .map(|d| mean[d] + var[d].sqrt() * rng.sample::<f64, _>(StandardNormal))
            .collect()
    };
    let mut z1 = Vec::new();
    for c in 0..2 {
        for _ in 0..k {
            z1.push(draw(&means[2 * c..2 * c + 2], &variances[2 * c..2 * c + 2]));
        }
    }
    let z2: Vec<Vec<f64>> = (0..k).map(|_| draw(&means[4..], &variances[4..])).collect();
    let mut total = 0.0;
    for p in &z1 {
        for q in &z2 {
            let d = ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt();
            total += 1.0 / (1.0 + (a * d - b).exp());
        }
    }
    let rederived = total / (z1.len() * z2.len()) as f64;
    assert!((fast - rederived).abs() <= 1e-15, "{fast} vs {rederived}");
}
