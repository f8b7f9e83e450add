//! # The law of the HIB Monte Carlo draws, with measured power (HIB eq. (5), §2.2)
//!
//! **Claim.** `hib::match_probability` averages `sigmoid(−a‖z₁ − z₂‖ + b)` over reparametrised
//! draws `z = μ + σ ⊙ ε`, `ε ~ N(0, I)`: each draw of a Gaussian embedding has the law
//! `N(μ, diag σ²)`, and the draws of an equal-weight mixture of `C` Gaussians are stratified,
//! `K` from each component with that component's law (HIB §2.2) — the whole law, not only the
//! estimator's mean (which `proofs/hib_monte_carlo.rs` checks against the exact match
//! probability). Tested at `D = 1`, 3 and 16, and for a mixture of `C = 3` components in
//! `D = 3`.
//!
//! **The draws, through the public API.** With `K = 1` draw, `x₂` a point mass at `q` and
//! `b = 0`, the estimate is `p = sigmoid(−a‖z − q‖)`, so `‖z − q‖ = ln((1 − p)/p)/a` exactly; the
//! draws of `x₁` come first in the random stream (documented), so the same seed replays the same
//! `z` against `q₀` and `q_k = q₀ + e_k`, `k = 1 … D`, and
//! `z_k − q₀_k = (‖z − q₀‖² − ‖z − q_k‖² + 1)/2` recovers the draw (to `~10⁻¹²` with `a = 10⁻²`,
//! where `p ≈ ½` keeps the logit accurate). A mixture's estimate is the mean over its `C` draws;
//! with components 1000 apart and `a = 1`, `sigmoid(−a‖z − q‖)` is exactly 0 (it underflows)
//! for every draw but the one near `q`, so `q₀ = μ_c` recovers component `c`'s draw, and a
//! response of exactly 0 says that no draw came from near `μ_c`.
//!
//! **Test.** On the recovered draws of a Gaussian embedding, and of each mixture component,
//! the whitened battery of `support/gaussian_law.rs` against that component's `N(μ, diag σ²)`:
//! `w = (z − μ)/σ` coordinate-wise, every `w_k` against `Φ` and `‖w‖²` against `χ²_D` (KS),
//! every `Σ_i w_ik/√n` against `N(0, 1)`, and `Σ_i (aᵀw_i)²` against `χ²_n` for the `D²`
//! projections `a ∈ {e_k, (e_j ± e_k)/√2}` (exact for Gaussian draws, two-sided): `2D + 1 + D²`
//! statistics. For the mixture, also the component counts: every estimate (`K = 1` draw per
//! component, `C` in all) must see a draw near each of the `C` component means. Fixed seeds, `n = N = 100 000` draws
//! (estimates) per run.
//!
//! **Level.** Each statistic rejects at `p < α = SAMPLER_ALPHA = 10⁻⁶` (KS by Kolmogorov's law;
//! the mean and variance tests exactly). The claim tests compute `4 + 16 + 289` statistics for
//! the Gaussians at `D = 1, 3, 16` and `3 × 16` for the mixture's components, 357 in all, so a
//! correct sampler fails this file with probability at most `3.6·10⁻⁴` (Bonferroni). The counts
//! fail a correct sampler only if a draw lands 255 or more from its own mean (`σ ≤ 1.5`):
//! probability below `10⁻⁶⁰⁰⁰`.
//!
//! **Negative controls** (the same battery, `n` and `α`; the sampler is given the wrong
//! embedding, the battery the right one):
//!
//! | embedding | control | statistic | miss probability (exact) |
//! |---|---|---|---|
//! | Gaussian, `D = 1, 3, 16` | `Var z_{D−1} × 1.05` | `Σ w_{D−1}²` | `9.3·10⁻¹⁰` |
//! | Gaussian, `D = 1, 3, 16` | `Var z_0 × 0.95` | `Σ w_0²` | `2.2·10⁻¹¹` |
//! | mixture | component 1's `Var z_2 × 1.05` | component 1's `Σ w_2²` | `9.3·10⁻¹⁰` |
//! | mixture | component 1 drawn with component 0's law | the counts | 0 |
//!
//! A draw of `N(μ, diag σ'²)` makes `Σ_i w_ik²` exactly `(σ'_k²/σ_k²)·χ²_n`, so the power is
//! `P(rχ²_n ∉ [q_lo, q_hi])` exactly (`gaussian_law::whitened_control_power`); 53 500 draws give
//! power 0.999 against `r = 1.05`. The last control leaves no draw within 745 of `μ₁`
//! (component 0's mean is 1000 away), so every estimate's response at `μ₁` is 0: it fails with
//! certainty. Each control asserts its power before it runs, and that its statistic rejects.
//! Run time: 6.0 s for the whole target
//! (`cargo test --release --test proofs -- hib_monte_carlo_law::`, two shared cores).
// The positional forms are the registry's fast items (deprecated for users: the
// named form `hib::SoftThreshold` calls the same code).
#![allow(deprecated)]

// derivation: hib::match_probability

use crate::gaussian_law;
use crate::statistic;
use gaussian_law::{whitened_control_power, whitened_statistics};
use probdml::hib::{self, HedgedEmbedding};
use probdml_proofs::registry::budget::SAMPLER_ALPHA;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use statistic::{describe, smallest_p};

const N: usize = 100_000;
const POWER: f64 = 0.999;
/// The dimensions of the Gaussian embeddings.
const DIMS: [usize; 3] = [1, 3, 16];
/// The slope of the soft threshold for a Gaussian: small, so that `p ≈ ½` and its logit loses
/// nothing.
const SLOPE: f64 = 1e-2;
/// The slope for the mixture: `sigmoid(−990)` underflows to 0, so the components 1000 apart
/// do not see each other.
const MIXTURE_SLOPE: f64 = 1.0;
/// The mixture: `C = 3` components in `D = 3`, 1000 apart, variances from 0.04 to 2.25.
const MIXTURE_DIM: usize = 3;
const MIXTURE_MU: [f64; 9] = [
    0.3, -1.2, 2.0, //
    1000.5, 0.0, -0.7, //
    -0.4, 1001.0, 0.9,
];
const MIXTURE_VAR: [f64; 9] = [
    0.25, 1.0, 0.04, //
    2.25, 0.5, 1.0, //
    0.09, 1.44, 0.64,
];

fn mean(dim: usize) -> Vec<f64> {
    (0..dim)
        .map(|k| [0.3, -1.2, 2.0, 0.0, 0.7][k % 5])
        .collect()
}

fn variance(dim: usize) -> Vec<f64> {
    (0..dim)
        .map(|k| [0.25, 1.0, 0.04, 2.0, 0.5, 2.25][k % 6])
        .collect()
}

/// Point masses at `q₀` and `q₀ + e_k`, `k = 1 … D`.
fn targets(q0: &[f64]) -> Vec<HedgedEmbedding> {
    let dim = q0.len();
    (0..=dim)
        .map(|k| {
            let mut q = q0.to_vec();
            if k > 0 {
                q[k - 1] += 1.0;
            }
            HedgedEmbedding::from_gaussian(probdml::Gaussian {
                mu: &q,
                var: &vec![0.0; dim],
            })
            .unwrap()
        })
        .collect()
}

/// The draw of `x` near `targets[0]` that `match_probability` makes with `seed`, recovered by
/// trilateration (module docs); `None` if no draw of `x` is near (an estimate of exactly 0).
fn recover(
    x: &HedgedEmbedding,
    targets: &[HedgedEmbedding],
    slope: f64,
    seed: u64,
) -> Option<Vec<f64>> {
    let components = x.components() as f64;
    let mut squared = Vec::with_capacity(targets.len());
    for q in targets {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // The mean over the C draws, of which only the near one is not 0.
        let p = components * hib::match_probability(x, q, slope, 0.0, 1, &mut rng).unwrap();
        if p == 0.0 {
            return None;
        }
        let d = ((1.0 - p) / p).ln() / slope;
        squared.push(d * d);
    }
    let q0 = targets[0].mu(0);
    Some(
        (1..targets.len())
            .map(|k| q0[k - 1] + 0.5 * (squared[0] - squared[k] + 1.0))
            .collect(),
    )
}

/// The `N` draws of a Gaussian embedding with seeds `base + i`.
fn gaussian_draws(mean: &[f64], variance: &[f64], base: u64) -> Vec<Vec<f64>> {
    let x = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: mean,
        var: variance,
    })
    .unwrap();
    let targets = targets(&vec![0.0; mean.len()]);
    (0..N as u64)
        .map(|i| recover(&x, &targets, SLOPE, base.wrapping_add(i)).expect("p > 0"))
        .collect()
}

/// The `N` estimates of a mixture with seeds `base + i`: for each component of the claim, its
/// recovered draws and the number of estimates that saw none near its mean.
fn mixture_draws(mu: &[f64], var: &[f64], base: u64) -> Vec<(Vec<Vec<f64>>, usize)> {
    let x = HedgedEmbedding::from_components(probdml::Gaussian { mu, var }, MIXTURE_DIM).unwrap();
    (0..MIXTURE_MU.len() / MIXTURE_DIM)
        .map(|c| {
            let targets = targets(&MIXTURE_MU[c * MIXTURE_DIM..(c + 1) * MIXTURE_DIM]);
            let mut draws = Vec::with_capacity(N);
            let mut missing = 0;
            for i in 0..N as u64 {
                match recover(&x, &targets, MIXTURE_SLOPE, base.wrapping_add(i)) {
                    Some(z) => draws.push(z),
                    None => missing += 1,
                }
            }
            (draws, missing)
        })
        .collect()
}

fn diagonal(d: &[f64]) -> Vec<f64> {
    let p = d.len();
    (0..p * p)
        .map(|k| if k / p == k % p { d[k / p] } else { 0.0 })
        .collect()
}

/// The inversion is exact: a point mass is recovered to `10⁻¹¹` at `D = 16`, and each
/// component of a mixture of point masses to `10⁻¹¹` from the one estimate.
#[test]
fn trilateration_recovers_a_point() {
    let point: Vec<f64> = (0..16).map(|k| 0.7 - 0.3 * k as f64).collect();
    let x = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &point,
        var: &[0.0; 16],
    })
    .unwrap();
    let got = recover(&x, &targets(&[0.0; 16]), SLOPE, 1).unwrap();
    for (g, want) in got.iter().zip(&point) {
        assert!((g - want).abs() < 1e-11, "{got:?}");
    }
    let points: Vec<f64> = MIXTURE_MU.iter().map(|m| m + 0.37).collect();
    let x = HedgedEmbedding::from_components(
        probdml::Gaussian {
            mu: &points,
            var: &[0.0; 9],
        },
        MIXTURE_DIM,
    )
    .unwrap();
    for c in 0..3 {
        let near = &MIXTURE_MU[c * MIXTURE_DIM..(c + 1) * MIXTURE_DIM];
        let got = recover(&x, &targets(near), MIXTURE_SLOPE, 1).unwrap();
        for (g, want) in got.iter().zip(&points[c * MIXTURE_DIM..]) {
            assert!((g - want).abs() < 1e-11, "component {c}: {got:?}");
        }
    }
}

/// Claim: the draws of a Gaussian embedding have the law `N(μ, diag σ²)`, at `D = 1`, 3, 16.
#[test]
fn draws_have_the_gaussian_law() {
    for (i, dim) in DIMS.into_iter().enumerate() {
        let (mu, var) = (mean(dim), variance(dim));
        let stats = whitened_statistics(
            &gaussian_draws(&mu, &var, 0x07_0000_0000 + ((i as u64) << 28)),
            &mu,
            &diagonal(&var),
        );
        println!(
            "HIB draws, D = {dim}: {} statistics, smallest p = {:.3e}",
            stats.len(),
            smallest_p(&stats)
        );
        assert!(
            smallest_p(&stats) >= SAMPLER_ALPHA,
            "D = {dim}: {}",
            describe(&stats)
        );
    }
}

/// Runs a variance control on recovered draws: the exact power first, then the statistic it is
/// for must reject.
fn reject(label: &str, draws: &[Vec<f64>], mu: &[f64], var: &[f64], wrong: &[f64]) {
    let (name, r, miss) =
        whitened_control_power(&diagonal(var), &diagonal(wrong), N, SAMPLER_ALPHA);
    println!("{label}: {name}, ratio {r:.4}, miss probability {miss:.2e} at n = {N}");
    assert!(miss <= 1.0 - POWER, "{label}: miss probability {miss}");
    let stats = whitened_statistics(draws, mu, &diagonal(var));
    let target = stats
        .iter()
        .find(|s| s.name == format!("{name} vs χ²_n"))
        .expect("the battery has every variance test");
    assert!(
        target.p < SAMPLER_ALPHA,
        "{label}: {} missed the wrong sampler: {}",
        target.name,
        describe(&stats)
    );
}

/// Negative controls: the last variance 5 % high, the first 5 % low, in the sampler's
/// embedding, at `D = 1`, 3, 16.
#[test]
fn controls_variance_five_percent_off() {
    for (i, dim) in DIMS.into_iter().enumerate() {
        let (mu, var) = (mean(dim), variance(dim));
        for (k, f, base) in [
            (dim - 1, 1.05, 0x07_1000_0000u64),
            (0, 0.95, 0x07_2000_0000),
        ] {
            let mut wrong = var.clone();
            wrong[k] *= f;
            reject(
                &format!("D = {dim}, Var z_{k} × {f}"),
                &gaussian_draws(&mu, &wrong, base + ((i as u64) << 24)),
                &mu,
                &var,
                &wrong,
            );
        }
    }
}

/// Claim: a mixture's estimates see one draw near each component mean, and each component's
/// draws have its law.
#[test]
fn mixture_draws_have_the_stratified_law() {
    let components = mixture_draws(&MIXTURE_MU, &MIXTURE_VAR, 0x07_3000_0000);
    for (c, (draws, missing)) in components.iter().enumerate() {
        assert_eq!(
            *missing, 0,
            "component {c}: {missing} estimates saw no draw near it"
        );
        let range = c * MIXTURE_DIM..(c + 1) * MIXTURE_DIM;
        let stats = whitened_statistics(
            draws,
            &MIXTURE_MU[range.clone()],
            &diagonal(&MIXTURE_VAR[range]),
        );
        println!(
            "mixture, component {c}: {} draws, {} statistics, smallest p = {:.3e}",
            draws.len(),
            stats.len(),
            smallest_p(&stats)
        );
        assert!(
            smallest_p(&stats) >= SAMPLER_ALPHA,
            "component {c}: {}",
            describe(&stats)
        );
    }
}

/// Negative controls on the mixture: one component's variance 5 % high; one component drawn
/// with another's law.
#[test]
fn mixture_controls() {
    let mut wrong = MIXTURE_VAR;
    wrong[MIXTURE_DIM + 2] *= 1.05;
    let components = mixture_draws(&MIXTURE_MU, &wrong, 0x07_4000_0000);
    let (draws, missing) = &components[1];
    assert_eq!(*missing, 0);
    let range = MIXTURE_DIM..2 * MIXTURE_DIM;
    reject(
        "mixture, component 1's Var z_2 × 1.05",
        draws,
        &MIXTURE_MU[range.clone()],
        &MIXTURE_VAR[range.clone()],
        &wrong[range],
    );

    let (mut mu, mut var) = (MIXTURE_MU, MIXTURE_VAR);
    mu.copy_within(0..MIXTURE_DIM, MIXTURE_DIM);
    var.copy_within(0..MIXTURE_DIM, MIXTURE_DIM);
    let components = mixture_draws(&mu, &var, 0x07_5000_0000);
    println!(
        "mixture, component 1 drawn with component 0's law: {} of {N} estimates saw no draw \
         near μ₁",
        components[1].1
    );
    assert!(
        components[1].1 > 0,
        "the counts missed a component drawn with another's law"
    );
}
