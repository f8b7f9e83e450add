// derivation: laplace::posthoc_precision
// derivation: laplace::sample_posterior
//! # The post-hoc Laplace posterior and its sampler (LAM App. E)
//!
//! **Claim 1 (post-hoc, β scaling).** Λ = β·H + σ_prior⁻²·I: β = 0 gives the prior precision
//! exactly, and Λ(β) − σ⁻² = β·(Λ(1) − σ⁻²) within the `LAPLACE` budget.
//!
//! **Claim 2 (dense restricted to diagonal = fast).** For a diagonal Hessian the dense twin
//! `exact::posthoc_precision` is the diagonal matrix of the fast precision (relative 10⁻¹², zero
//! off the diagonal), and for any dense H its diagonal is the fast precision of diag H. With the
//! same seed, the Cholesky draw of `exact::sample_posterior` on that diagonal precision equals
//! the fast draw within relative 10⁻¹².
//!
//! **Claim 3 (sampler moments).** Over N fixed-seed draws, the sample mean of coordinate k lies
//! within 6·σ_k/√N of μ_k and the sample variance within 6·σ_k²·√(2/(N − 1)) of σ_k² = 1/Λ_kk
//! (the exact standard error of a Gaussian sample variance), for the fast sampler and for the
//! dense sampler on a correlated precision (σ_k² = (Λ⁻¹)_kk, computed by inversion).
use crate::support;
use probdml::laplace::{self, exact};
use probdml_proofs::registry::budget::{LAPLACE_DRAW, MONTE_CARLO_SIGMAS};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use support::{check_at, check_with_magnitude, config};

const NAME: &str = "laplace::posthoc_precision";

/// Positive diagonal curvature values (a ReLU-clamped GGN diagonal), zeros included.
fn hessian_entry() -> impl Strategy<Value = f64> {
    prop_oneof![1 => Just(0.0), 3 => support::log_uniform(1e-6, 1e6)]
}

proptest! {
    #![proptest_config(config(300, 0x04_1a_01))]

    #[test]
    fn claim1_beta_scaling(h in prop::collection::vec(hessian_entry(), 1..12),
                           beta in prop_oneof![Just(0.0), Just(1.0), support::log_uniform(1e-3, 1e3)],
                           prior_variance in support::log_uniform(1e-4, 1e4)) {
        let prior = 1.0 / prior_variance;
        let zero = laplace::posthoc_precision(&h, 0.0, prior_variance).unwrap();
        prop_assert!(zero.iter().all(|&v| v == prior));
        let one = laplace::posthoc_precision(&h, 1.0, prior_variance).unwrap();
        let lambda = laplace::posthoc_precision(&h, beta, prior_variance).unwrap();
        for ((l, o), hk) in lambda.iter().zip(&one).zip(&h) {
            // Λ(β) − σ⁻² = βH, compared at the scale of Λ (the subtraction cancels otherwise).
            check_with_magnitude(NAME, format!("Λ(β) − σ⁻² = βH, H = {hk}"), l - prior, beta * (o - prior), l.abs() + beta * o.abs());
            check_at(NAME, format!("Λ = βH + σ⁻², H = {hk}"), *l, beta * hk + prior);
        }
    }

    #[test]
    fn claim2_dense_restricted_to_diagonal(h in prop::collection::vec(hessian_entry(), 1..8),
                                           off in prop::collection::vec(-1.0..1.0f64, 64),
                                           beta in support::log_uniform(1e-2, 1e2),
                                           prior_variance in support::log_uniform(1e-2, 1e2),
                                           seed in any::<u64>()) {
        let n = h.len();
        let fast = laplace::posthoc_precision(&h, beta, prior_variance).unwrap();
        let mut dense_h = vec![0.0; n * n];
        for k in 0..n { dense_h[k * n + k] = h[k]; }
        let dense = exact::posthoc_precision(&dense_h, beta, prior_variance).unwrap();
        for i in 0..n {
            for j in 0..n {
                if i == j { check_at(NAME, format!("diagonal H, entry {i}"), fast[i], dense[i * n + i]); }
                else { prop_assert_eq!(dense[i * n + j], 0.0); }
            }
        }
        // A full symmetric H: its diagonal still gives the fast precision.
        let mut full = dense_h.clone();
        for i in 0..n { for j in 0..i { full[i * n + j] = off[i * 8 + j]; full[j * n + i] = off[i * 8 + j]; } }
        let dense_full = exact::posthoc_precision(&full, beta, prior_variance).unwrap();
        for k in 0..n { check_at(NAME, format!("full H, entry {k}"), fast[k], dense_full[k * n + k]); }
        // Same seed, same normals: the Cholesky draw equals the diagonal draw.
        let mean: Vec<f64> = (0..n).map(|k| k as f64 - 1.5).collect();
        let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
        laplace::sample_posterior(&mean, &fast, &mut ChaCha8Rng::seed_from_u64(seed), &mut a).unwrap();
        exact::sample_posterior(&mean, &dense, &mut ChaCha8Rng::seed_from_u64(seed), &mut b).unwrap();
        for k in 0..n {
            // Relative to the scale of the draw: |μ| + σ|z|.
            let scale = mean[k].abs() + (a[k] - mean[k]).abs();
            prop_assert!((a[k] - b[k]).abs() <= LAPLACE_DRAW * scale, "{} {}", a[k], b[k]);
        }
    }
}

/// Sample mean and variance of each coordinate of `draws` (N × n row-major), against the
/// computed 6σ bands for N(μ, diag σ²).
fn assert_moments(
    draws: &[f64],
    n: usize,
    mean: &[f64],
    variance: &[f64],
) -> std::result::Result<(), TestCaseError> {
    let count = draws.len() / n;
    let nf = count as f64;
    for k in 0..n {
        let m = draws.iter().skip(k).step_by(n).sum::<f64>() / nf;
        let v = draws
            .iter()
            .skip(k)
            .step_by(n)
            .map(|x| (x - m) * (x - m))
            .sum::<f64>()
            / (nf - 1.0);
        let sigma = variance[k].sqrt();
        let mean_band = MONTE_CARLO_SIGMAS * sigma / nf.sqrt();
        let var_band = MONTE_CARLO_SIGMAS * variance[k] * (2.0 / (nf - 1.0)).sqrt();
        prop_assert!(
            (m - mean[k]).abs() <= mean_band,
            "coordinate {k}: mean {m} vs {} ± {mean_band}",
            mean[k]
        );
        prop_assert!(
            (v - variance[k]).abs() <= var_band,
            "coordinate {k}: variance {v} vs {} ± {var_band}",
            variance[k]
        );
    }
    Ok(())
}

const DRAWS: usize = 4000;

proptest! {
    #![proptest_config(config(256, 0x04_1a_02))]

    #[test]
    fn claim3_fast_sampler_moments(precision in prop::collection::vec(support::log_uniform(1e-3, 1e6), 1..5),
                                   mean_scale in -10.0..10.0f64, seed in any::<u64>()) {
        let n = precision.len();
        let mean: Vec<f64> = (0..n).map(|k| mean_scale * (k as f64 + 1.0)).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut draws = vec![0.0; DRAWS * n];
        for row in draws.chunks_exact_mut(n) {
            laplace::sample_posterior(&mean, &precision, &mut rng, row).unwrap();
        }
        let variance: Vec<f64> = precision.iter().map(|p| 1.0 / p).collect();
        assert_moments(&draws, n, &mean, &variance)?;
    }

    #[test]
    fn claim3_dense_sampler_moments(a in 0.5..4.0f64, c in 0.5..4.0f64, rho in -0.9..0.9f64, seed in any::<u64>()) {
        // Λ = [[a, b], [b, c]] with |b| < √(ac): positive definite; Λ⁻¹ = [[c, −b], [−b, a]]/det.
        let b = rho * (a * c).sqrt();
        let det = a * c - b * b;
        let precision = [a, b, b, c];
        let mean = [0.5, -1.0];
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut draws = vec![0.0; DRAWS * 2];
        for row in draws.chunks_exact_mut(2) {
            exact::sample_posterior(&mean, &precision, &mut rng, row).unwrap();
        }
        assert_moments(&draws, 2, &mean, &[c / det, a / det])?;
    }
}

/// Claim 2 on a real curvature: the post-hoc precision of a last layer, fast from the diagonal
/// of the dual-number dense GGN of `ggn::exact` and dense from that whole GGN (through
/// `exact::posthoc_precision`, the Hessian of the negative log posterior), agree on the diagonal
/// within the registered budget of `laplace::posthoc_precision`.
#[test]
fn claim2_posthoc_precision_from_the_dense_ggn() {
    use probdml::contrastive::pair_targets;
    use probdml::ggn::{Approximation, Split};
    use rand::RngExt;
    let mut rng = ChaCha8Rng::seed_from_u64(0x04_1a_05);
    let (n, m, f) = (6usize, 3usize, 4usize);
    for _ in 0..8 {
        let w: Vec<f64> = (0..m * f).map(|_| rng.random_range(-1.0..1.0)).collect();
        let x: Vec<f64> = (0..n * f).map(|_| rng.random_range(-1.0..1.0)).collect();
        let labels: Vec<usize> = (0..n).map(|i| i % 2).collect();
        let z: Vec<f64> = x
            .chunks(f)
            .flat_map(|xi| {
                let y: Vec<f64> = (0..m)
                    .map(|k| (0..f).map(|l| w[k * f + l] * xi[l]).sum())
                    .collect();
                let r = y.iter().map(|v| v * v).sum::<f64>().sqrt();
                y.into_iter().map(move |v| v / r)
            })
            .collect();
        let pairs = pair_targets(&z, m, &labels, 1.5).unwrap();
        for split in [Split::Euclidean, Split::Arccos] {
            let model = probdml::ggn::exact::LastLayer::new(&w, &x, f).unwrap();
            let dense =
                probdml::ggn::exact::ggn_dense(&model, &pairs, split, Approximation::Positive)
                    .unwrap();
            let p = m * f;
            // The fast formula on the dense GGN's own diagonal, so that this compares only the
            // precision step (the GGN diagonal itself is ggn_diagonal.rs's).
            let diagonal: Vec<f64> = (0..p).map(|k| dense[k * p + k]).collect();
            let (beta, prior_variance) = (0.7, 0.3);
            let fast = laplace::posthoc_precision(&diagonal, beta, prior_variance).unwrap();
            let slow = exact::posthoc_precision(&dense, beta, prior_variance).unwrap();
            for k in 0..p {
                check_at(
                    NAME,
                    format!("{split:?}, k = {k}"),
                    fast[k],
                    slow[k * p + k],
                );
            }
        }
    }
}
