// derivation: laplace::output_variance
//! # The predictive variance of the raw last-layer output (book chapters 04 and 09)
//!
//! tr Cov(y) of y = W x + b under the Laplace posterior θ = (W, b) ~ N(θ*, Λ⁻¹): in closed form
//! Σ_k Σ_l x_l²/Λ_kl + Σ_k 1/Λ_{b,k} for a diagonal Λ (the fast twin), tr(J Λ⁻¹ Jᵀ) by Cholesky
//! for a dense one (the exact twin).
//!
//! **Claim 1 (diagonal = dense).** With a diagonal Λ the fast twin equals the dense Cholesky
//! route within `LAPLACE` relative (a sum of positive terms: no cancellation).
//!
//! **Claim 2 (the dense route is right off the diagonal).** For M = F = 1, θ = (w, b) and
//! Λ = [[a, c], [c, d]], Var(xw + b) = (x²d − 2xc + a)/(ad − c²) (the 2×2 inverse by hand).
//!
//! **Claim 3 (it is the variance of the samples).** Draws θ_s = θ* + Λ^{−½}ε
//! (`laplace::sample_posterior`) give mean_s ‖y_s − y*‖² within 6 standard errors of tr Cov(y);
//! the standard error √(2 tr(Cov(y)²)/S) is computed from the per-output variances here.
//!
//! **Claim 4 (isotropic posterior = feature norm).** Λ = δ everywhere gives M(‖x‖² + 1)/δ, so
//! the score adds nothing to ‖x‖ unless the curvature makes Λ anisotropic — at F = 10⁵ too.
//!
//! **Edges.** Precisions over 10⁻¹⁵⁰…10¹⁵⁰, zero features (only the bias remains), and bad input
//! (empty, ragged, NaN, non-positive precision, an indefinite dense Λ) is an error naming the
//! argument.
use crate::support;
use probdml::laplace::{self, exact};

use probdml::Error;
use proptest::prelude::*;
use rand::SeedableRng;
use support::config;

fn dense_diagonal(weight: &[f64], bias: &[f64]) -> Vec<f64> {
    let p = weight.len() + bias.len();
    let mut dense = vec![0.0; p * p];
    for (k, &v) in weight.iter().chain(bias).enumerate() {
        dense[k * p + k] = v;
    }
    dense
}

/// (M, F, Λ_W, Λ_b, x) with M ≤ 4, F ≤ 8.
fn layer(lo: f64, hi: f64) -> impl Strategy<Value = (Vec<f64>, Vec<f64>, Vec<f64>)> {
    (1usize..5, 1usize..9).prop_flat_map(move |(m, f)| {
        (
            prop::collection::vec(support::log_uniform(lo, hi), m * f),
            prop::collection::vec(support::log_uniform(lo, hi), m),
            prop::collection::vec(-3.0..3.0f64, f),
        )
    })
}

const NAME: &str = "laplace::output_variance";

proptest! {
    #![proptest_config(config(300, 0x04_0a_01))]

    #[test]
    fn claim1_diagonal_equals_dense((w, b, x) in layer(1e-6, 1e6)) {
        let fast = laplace::output_variance(&w, &b, &x).unwrap();
        let dense = exact::output_variance(&dense_diagonal(&w, &b), b.len(), &x).unwrap();
        prop_assert!(fast > 0.0 && fast.is_finite());
        support::check(NAME, fast, dense);
    }

    #[test]
    fn edges_extreme_precisions_stay_finite((w, b, x) in layer(1e-150, 1e150)) {
        let fast = laplace::output_variance(&w, &b, &x).unwrap();
        prop_assert!(fast.is_finite() && fast > 0.0);
        let dense = exact::output_variance(&dense_diagonal(&w, &b), b.len(), &x).unwrap();
        support::check(NAME, fast, dense);
    }

    #[test]
    fn claim2_two_by_two_inverse(a in support::log_uniform(1e-3, 1e3), d in support::log_uniform(1e-3, 1e3),
                                 rho in -0.9..0.9f64, x in -3.0..3.0f64) {
        let c = rho * (a * d).sqrt();
        let det = a * d - c * c;
        let want = (x * x * d - 2.0 * x * c + a) / det;
        let got = exact::output_variance(&[a, c, c, d], 1, &[x]).unwrap();
        // Rounding of the hand formula: its terms' size over det, and det's own cancellation.
        let size = (x * x * d + 2.0 * (x * c).abs() + a) / det * (a * d + c * c) / det;
        support::check_with_magnitude(NAME, "2 × 2 inverse by hand", got, want, size);
    }
}

#[test]
fn claim3_monte_carlo_matches_the_closed_form() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x04_0a_03);
    let (m, f) = (3usize, 8usize);
    let x: Vec<f64> = (0..f).map(|l| (l as f64 - 3.5) / 2.0).collect();
    // Anisotropic precisions over four decades, W row-major then b.
    let lambda_w: Vec<f64> = (0..m * f)
        .map(|i| 10f64.powf((i % 5) as f64 - 2.0))
        .collect();
    let lambda_b = [0.5, 2.0, 8.0];
    let theta_star: Vec<f64> = (0..m * f + m).map(|i| (i as f64 * 0.37).sin()).collect();
    let precision: Vec<f64> = lambda_w.iter().chain(&lambda_b).copied().collect();
    let y = |theta: &[f64]| -> Vec<f64> {
        (0..m)
            .map(|k| (0..f).map(|l| theta[k * f + l] * x[l]).sum::<f64>() + theta[m * f + k])
            .collect()
    };
    let y_star = y(&theta_star);
    let samples = 40_000;
    let mut theta = vec![0.0; m * f + m];
    let mut total = 0.0;
    for _ in 0..samples {
        laplace::sample_posterior(&theta_star, &precision, &mut rng, &mut theta).unwrap();
        total += y(&theta)
            .iter()
            .zip(&y_star)
            .map(|(a, b)| (a - b) * (a - b))
            .sum::<f64>();
    }
    let mc = total / samples as f64;
    let want = laplace::output_variance(&lambda_w, &lambda_b, &x).unwrap();
    // Per-output variances (independent outputs), for the standard error of ‖y − y*‖².
    let per_output: Vec<f64> = (0..m)
        .map(|k| {
            (0..f)
                .map(|l| x[l] * x[l] / lambda_w[k * f + l])
                .sum::<f64>()
                + 1.0 / lambda_b[k]
        })
        .collect();
    assert!((per_output.iter().sum::<f64>() - want).abs() <= 1e-12 * want);
    let se = (2.0 * per_output.iter().map(|v| v * v).sum::<f64>() / samples as f64).sqrt();
    assert!(
        (mc - want).abs() <= 6.0 * se,
        "Monte Carlo {mc} vs {want} (se {se})"
    );
}

#[test]
fn claim4_isotropic_posterior_is_the_feature_norm() {
    for &(m, f, delta) in &[(3usize, 5usize, 2.5), (2, 100_000, 1e4), (64, 10, 1e-3)] {
        let x: Vec<f64> = (0..f)
            .map(|l| ((l * 7919) % 13) as f64 / 13.0 - 0.4)
            .collect();
        let norm_sq: f64 = x.iter().map(|v| v * v).sum();
        let got = laplace::output_variance(&vec![delta; m * f], &vec![delta; m], &x).unwrap();
        let want = m as f64 * (norm_sq + 1.0) / delta;
        assert!(
            (got - want).abs() <= 1e-12 * want,
            "M {m}, F {f}: {got} vs {want}"
        );
    }
}

#[test]
fn edges_zero_features_leave_the_bias() {
    let v = laplace::output_variance(&[1.0; 6], &[4.0, 2.0], &[0.0; 3]).unwrap();
    assert_eq!(v, 0.75);
    let d = exact::output_variance(&dense_diagonal(&[1.0; 6], &[4.0, 2.0]), 2, &[0.0; 3]).unwrap();
    assert!((d - 0.75).abs() <= 1e-15);
}

#[test]
fn bad_input_is_an_error_naming_the_argument() {
    let names = |r: Result<f64, Error>, arg: &str| {
        let e = r.expect_err(arg).to_string();
        assert!(e.contains(arg), "{arg}: {e}");
    };
    names(
        laplace::output_variance(&[1.0], &[], &[1.0]),
        "bias_precision",
    );
    names(laplace::output_variance(&[], &[1.0], &[]), "features");
    names(
        laplace::output_variance(&[1.0; 3], &[1.0; 2], &[1.0]),
        "weight_precision",
    );
    names(
        laplace::output_variance(&[1.0, 0.0], &[1.0; 2], &[1.0]),
        "weight_precision",
    );
    names(
        laplace::output_variance(&[1.0; 2], &[1.0, -1.0], &[1.0]),
        "bias_precision",
    );
    names(
        laplace::output_variance(&[f64::NAN; 2], &[1.0; 2], &[1.0]),
        "weight_precision",
    );
    names(
        laplace::output_variance(&[1.0; 2], &[1.0; 2], &[f64::INFINITY]),
        "features",
    );
    names(exact::output_variance(&[1.0; 4], 0, &[1.0]), "dim");
    names(exact::output_variance(&[1.0; 4], 1, &[]), "features");
    names(exact::output_variance(&[1.0; 9], 1, &[1.0]), "precision");
    names(
        exact::output_variance(&[1.0, 0.0, 0.0, f64::NAN], 1, &[1.0]),
        "precision",
    );
    // Indefinite: eigenvalues 3 and −1.
    let e = exact::output_variance(&[1.0, 2.0, 2.0, 1.0], 1, &[1.0])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("precision") && e.contains("positive definite"),
        "{e}"
    );
}
