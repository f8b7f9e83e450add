//! # Self-mismatch uncertainty (HIB eq. 9, corrected)
//!
//! `η(x) = 1 − p(m | x, x)`, two independent draws from the same `p(z | x)`. Claims:
//!
//! 1. **Monte Carlo = exact**: the mean of `hib::self_mismatch` over 4000 seeds lies within
//!    `MONTE_CARLO_SIGMAS = 6` standard errors of `hib::exact::self_mismatch`, for a Gaussian and
//!    for a two-component mixture.
//! 2. **Refutation of "η = 0 for a point mass".** For a point mass
//!    `Δ = z − z' = 0`, so `η = 1 − sigmoid(b)`, which is 0 for no finite `b`. Pinned: `b = 1.5`,
//!    `a = 2`: `η = 0.18242552380635634…` (mpmath, `scripts/reference/hib_values.txt`), for both
//!    twins and any `K`.
//! 3. **Corrected theorem.** For a Gaussian embedding, `η` increases strictly with every `σ_k²`
//!    (`‖Δ‖` with `Δ ~ N(0, 2 diag σ²)` is stochastically increasing in each `σ_k²`, and
//!    `sigmoid(−ar + b)` is decreasing in `r`), so it is smallest, `1 − sigmoid(b)`, at the point
//!    mass: checked on generated Gaussians by raising one variance at a time.
//! 4. **Against mpmath**: `η` at `D = 2`, `σ² = (0.1, 0.1)`, `a = 2`, `b = 1.5` within `10⁻⁹`.
// The positional forms are the registry's fast items (deprecated for users: the
// named form `hib::SoftThreshold` calls the same code).
#![allow(deprecated)]

// derivation: hib::self_mismatch

use crate::hib_reference;
use crate::support;
use hib_reference::reference;
use probdml::hib::{self, exact, HedgedEmbedding};
use probdml_proofs::registry::budget::{HIB_MATCH_ABSOLUTE, MONTE_CARLO_SIGMAS};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use support::{config, log_uniform};

fn assert_monte_carlo_matches(x: &HedgedEmbedding, a: f64, b: f64, k: usize) {
    let want = exact::self_mismatch(x, a, b).unwrap();
    let n = 4000;
    let estimates: Vec<f64> = (0..n)
        .map(|seed| hib::self_mismatch(x, a, b, k, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap())
        .collect();
    let mean = estimates.iter().sum::<f64>() / n as f64;
    let var = estimates.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let se = (var / n as f64).sqrt();
    assert!(
        (mean - want).abs() <= MONTE_CARLO_SIGMAS * se,
        "{mean} vs {want} (se {se})"
    );
    assert!(se < 2e-3);
}

#[test]
fn monte_carlo_matches_exact() {
    let g = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &[0.3, -0.2, 1.0],
        var: &[0.2, 0.05, 0.4],
    })
    .unwrap();
    assert_monte_carlo_matches(&g, 2.0, 1.5, 8);
    let mix = HedgedEmbedding::from_components(
        probdml::Gaussian {
            mu: &[0.0, 0.0, 1.5, 0.5],
            var: &[0.1, 0.1, 0.2, 0.05],
        },
        2,
    )
    .unwrap();
    assert_monte_carlo_matches(&mix, 2.0, 1.5, 4);
}

#[test]
fn refutation_point_mass_has_eta_one_minus_sigmoid_b_not_zero() {
    let point = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &[0.7, -0.4],
        var: &[0.0, 0.0],
    })
    .unwrap();
    let want = reference("eta_point_mass(b=1.5)");
    let eta = exact::self_mismatch(&point, 2.0, 1.5).unwrap();
    assert!((eta - want).abs() <= 1e-15, "{eta} vs {want}");
    assert!(
        eta > 0.18,
        "η = 0 is the claim refuted here: a point mass still mismatches itself"
    );
    for k in [1, 8] {
        let fast =
            hib::self_mismatch(&point, 2.0, 1.5, k, &mut ChaCha8Rng::seed_from_u64(3)).unwrap();
        assert!((fast - want).abs() <= 1e-15, "K = {k}: {fast}");
    }
}

#[test]
fn agrees_with_mpmath() {
    let x = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &[0.4, 2.0],
        var: &[0.1, 0.1],
    })
    .unwrap();
    let want = reference("eta_gaussian(D=2, var=(0.1, 0.1), a=2, b=1.5)");
    let eta = exact::self_mismatch(&x, 2.0, 1.5).unwrap();
    assert!((eta - want).abs() <= HIB_MATCH_ABSOLUTE, "{eta} vs {want}");
}

proptest! {
    #![proptest_config(config(256, 0x4869_6209))]

    /// Claim 3: raising any one variance raises η; the point mass is the minimum.
    #[test]
    fn eta_increases_with_every_variance(
        var in prop::collection::vec(log_uniform(1e-3, 2.0), 1..6),
        which in 0usize..6,
        factor in 1.2..4.0f64,
        (a, b) in (log_uniform(0.3, 5.0), -2.0..4.0f64),
    ) {
        let dim = var.len();
        let mu: Vec<f64> = (0..dim).map(|k| k as f64 * 0.3).collect();
        let k = which % dim;
        let mut raised = var.clone();
        raised[k] *= factor;
        let eta = exact::self_mismatch(&HedgedEmbedding::from_gaussian(probdml::Gaussian { mu: &mu, var: &var }).unwrap(), a, b).unwrap();
        let eta_raised = exact::self_mismatch(&HedgedEmbedding::from_gaussian(probdml::Gaussian { mu: &mu, var: &raised }).unwrap(), a, b).unwrap();
        let floor = 1.0 / (1.0 + b.exp()); // 1 − sigmoid(b)
        prop_assert!(eta_raised > eta, "σ²[{k}] × {factor}: η {eta} → {eta_raised}");
        prop_assert!(eta > floor, "η {eta} below the point-mass value {floor}");
    }
}
