//! # The law of the HIB Monte Carlo draws, with measured power (HIB eq. (5), §2.2)
//!
//! **Claim.** `hib::match_probability` averages `sigmoid(−a‖z₁ − z₂‖ + b)` over reparametrised
//! draws `z = μ + σ ⊙ ε`, `ε ~ N(0, I)`: each draw of a Gaussian embedding has the law
//! `N(μ, diag σ²)` — the whole law, not only the estimator's mean (which
//! `proofs/hib_monte_carlo.rs` checks against the exact match probability).
//!
//! **The draws, through the public API.** With `K = 1` draw, `x₂` a point mass at `q` and
//! `b = 0`, the estimate is `p = sigmoid(−a‖z − q‖)`, so `‖z − q‖ = ln((1 − p)/p)/a` exactly; the
//! draws of `x₁` come first in the random stream (documented), so the same seed replays the same
//! `z` against `q₀ = 0` and `q_k = e_k`, `k = 1 … D`, and
//! `z_k = (‖z‖² − ‖z − e_k‖² + 1)/2` recovers the draw (to `~10⁻¹²` with `a = 10⁻²`, where
//! `p ≈ ½` keeps the logit accurate).
//!
//! **Test.** The Gaussian battery of `support/gaussian_law.rs` on the recovered draws at
//! `D = 4` (marginals, the twelve pair projections `z_i ± z_j`, Mahalanobis² against `χ²_4`),
//! 17 KS statistics at `α = SAMPLER_ALPHA = 10⁻⁶`, fixed seeds, `n = N = 700 000`.
//!
//! **Negative controls** (the same battery, `n` and `α`; the sampler is given the wrong
//! embedding, the battery the right one):
//!
//! | control | `δ` (best statistic) | power ≥ |
//! |---|---|---|
//! | `Var z_2 × 1.05` | 5.90·10⁻³ | 0.99992 |
//! | `Var z_0 × 0.95` | 6.21·10⁻³ | 0.999992 |
//!
//! `δ` is the KS distance between `N(0, 1)` and `N(0, s²)`, `s²` the variance ratio (closed
//! form, `support/normal_law.rs`); the miss probability is at most `2e^{−2n(δ−c)²}`, `c` the KS
//! critical value (`support/ks_power.rs`, Dvoretzky–Kiefer–Wolfowitz–Massart): 618 597 draws
//! give power `0.999` against the first. Each control asserts its bound before it runs.
//!
//! Mixtures: the stratified draws of a mixture are the same loop, component by component, and
//! the estimate then averages `(KC)²` terms, which this inversion cannot separate; their
//! unbiasedness is `proofs/hib_monte_carlo.rs`'s. Run time: 16 s for the whole target
//! (`cargo test --release --test hib_monte_carlo_law`, two shared cores).

// derivation: hib::match_probability

#[path = "support/chi_squared.rs"]
mod chi_squared;
#[path = "support/gaussian_law.rs"]
mod gaussian_law;
#[path = "support/ks.rs"]
mod ks;
#[path = "support/ks_power.rs"]
mod ks_power;
#[path = "support/normal_law.rs"]
mod normal_law;
#[path = "support/statistic.rs"]
mod statistic;

use gaussian_law::{control_distance, gaussian_statistics};
use ks_power::power_lower_bound;
use probdml::hib::{self, HedgedEmbedding};
use probdml::registry::budget::SAMPLER_ALPHA;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use statistic::{describe, smallest_p};

const N: usize = 700_000;
const POWER: f64 = 0.999;
const MEAN: [f64; 4] = [0.3, -1.2, 2.0, 0.0];
const VARIANCE: [f64; 4] = [0.25, 1.0, 0.04, 2.0];
/// The slope of the soft threshold: small, so that `p ≈ ½` and its logit loses nothing.
const SLOPE: f64 = 1e-2;

/// Point masses at `0, e₁, …, e_D`.
fn targets(dim: usize) -> Vec<HedgedEmbedding> {
    (0..=dim)
        .map(|k| {
            let mut q = vec![0.0; dim];
            if k > 0 {
                q[k - 1] = 1.0;
            }
            HedgedEmbedding::gaussian(&q, &vec![0.0; dim]).unwrap()
        })
        .collect()
}

/// The draw of `x` that `match_probability` makes with `seed`, recovered by trilateration
/// (module docs).
fn recover(x: &HedgedEmbedding, targets: &[HedgedEmbedding], seed: u64) -> Vec<f64> {
    let squared: Vec<f64> = targets
        .iter()
        .map(|q| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let p = hib::match_probability(x, q, SLOPE, 0.0, 1, &mut rng).unwrap();
            let d = ((1.0 - p) / p).ln() / SLOPE;
            d * d
        })
        .collect();
    (1..targets.len())
        .map(|k| 0.5 * (squared[0] - squared[k] + 1.0))
        .collect()
}

/// The `N` draws with seeds `base + i`.
fn recovered_draws(mean: &[f64], variance: &[f64], base: u64) -> Vec<Vec<f64>> {
    let x = HedgedEmbedding::gaussian(mean, variance).unwrap();
    let targets = targets(mean.len());
    (0..N as u64)
        .map(|i| recover(&x, &targets, base.wrapping_add(i)))
        .collect()
}

fn diagonal(d: &[f64]) -> Vec<f64> {
    let p = d.len();
    (0..p * p)
        .map(|k| if k / p == k % p { d[k / p] } else { 0.0 })
        .collect()
}

/// The inversion is exact: a point mass is recovered to `10⁻¹¹`.
#[test]
fn trilateration_recovers_a_point() {
    let point = [0.7, -2.0, 0.1, 3.0];
    let x = HedgedEmbedding::gaussian(&point, &[0.0; 4]).unwrap();
    let got = recover(&x, &targets(4), 1);
    for (g, want) in got.iter().zip(&point) {
        assert!((g - want).abs() < 1e-11, "{got:?}");
    }
}

/// Claim: the draws have the law `N(μ, diag σ²)`.
#[test]
fn draws_have_the_gaussian_law() {
    let covariance = diagonal(&VARIANCE);
    let precision = diagonal(&VARIANCE.map(|v| 1.0 / v));
    let stats = gaussian_statistics(
        &recovered_draws(&MEAN, &VARIANCE, 0x07_0000_0000),
        &MEAN,
        &covariance,
        &precision,
    );
    println!("HIB draws: smallest p = {:.3e}", smallest_p(&stats));
    assert!(smallest_p(&stats) >= SAMPLER_ALPHA, "{}", describe(&stats));
}

/// Negative controls: one variance 5 % high, one 5 % low in the sampler's embedding.
#[test]
fn controls_variance_five_percent_off() {
    let covariance = diagonal(&VARIANCE);
    let precision = diagonal(&VARIANCE.map(|v| 1.0 / v));
    for (k, f, base) in [(2usize, 1.05, 0x07_1000_0000u64), (0, 0.95, 0x07_2000_0000)] {
        let mut wrong = VARIANCE;
        wrong[k] *= f;
        let delta = control_distance(&covariance, &diagonal(&wrong));
        let power = power_lower_bound(delta, N, SAMPLER_ALPHA);
        println!("Var z_{k} × {f}: δ ≥ {delta:.4e}, power ≥ {power:.6} at n = {N}");
        assert!(power >= POWER, "power bound {power}");
        let stats = gaussian_statistics(
            &recovered_draws(&MEAN, &wrong, base),
            &MEAN,
            &covariance,
            &precision,
        );
        assert!(
            smallest_p(&stats) < SAMPLER_ALPHA,
            "Var z_{k} × {f}: the battery missed the wrong sampler: {}",
            describe(&stats)
        );
    }
}
