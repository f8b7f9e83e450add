//! # The whole law of the Laplace posterior samplers, with measured power (LAM App. E)
//!
//! **Claims.** `laplace::sample_posterior(μ, diag Λ)` draws `θ ~ N(μ, Λ⁻¹)` for a diagonal
//! precision, and `laplace::exact::sample_posterior(μ, Λ)` (Cholesky `Λ = LLᵀ`,
//! `θ = μ + L⁻ᵀz`) for a dense one — the whole Gaussian law, not its marginal moments only —
//! in every dimension: `p = 1`, 3 and 16 here.
//!
//! **Test.** The whitened battery of `support/gaussian_law.rs`: with `Σ = Λ⁻¹` (Gauss–Jordan,
//! written here) and its Cholesky factor `Σ = CCᵀ` (written there), `w = C⁻¹(θ − μ)` must be
//! `N(0, I_p)`: every `w_k` against `Φ` and `‖w‖²` against `χ²_p` (KS), every `Σ_i w_ik/√n`
//! against `N(0, 1)`, and for each of the `p²` projections `a ∈ {e_k, (e_j ± e_k)/√2}` the sum
//! `Σ_i (aᵀw_i)²` against `χ²_n` (exact for Gaussian draws; two-sided). That is `2p + 1 + p²`
//! statistics per run (4, 16 and 289 at `p = 1`, 3, 16). References: `Φ` from `libm::erfc`,
//! the χ² law in closed form (`support/chi_squared.rs`, checked against mpmath); nothing of the
//! samplers. Fixed seeds (`ChaCha8Rng`), `n = N = 100 000` draws per run.
//!
//! **Level.** Each statistic rejects at `p < α = SAMPLER_ALPHA = 10⁻⁶` (KS by Kolmogorov's law
//! with Stephens' correction; the mean and variance tests exactly). The claim tests run each
//! sampler once per dimension, `2·(4 + 16 + 289) = 618` statistics, so a correct sampler
//! fails this file with probability at most `6.2·10⁻⁴` (Bonferroni).
//!
//! **Negative controls** (the same battery, `n` and `α`, on a wrong sampler) must reject, in
//! every dimension:
//!
//! | sampler | control | best statistic | miss probability (exact) |
//! |---|---|---|---|
//! | diagonal | `Var θ_{p−1} × 1.05` | `Σ w_{p−1}²` (`r = 1.05`) | `9.3·10⁻¹⁰` |
//! | diagonal | `Var θ_0 × 0.95` | `Σ w_0²` (`r = 0.95`) | `2.2·10⁻¹¹` |
//! | dense (`p ≥ 2`) | `Λ_01` of the wrong sign | `Σ w_1²` (`r = 1.96`, 1.73 at `p = 3`, 16) | `< 10⁻³⁰⁰` |
//! | dense | `Var θ_{p−1} × 1.05`, correlations kept | `Σ w_{p−1}²` (`r = 1.05`) | `9.3·10⁻¹⁰` |
//!
//! A draw of `N(μ, Σ')` makes `Σ_i (aᵀw_i)²` exactly `r·χ²_n` with `r = aᵀC⁻¹Σ'C⁻ᵀa`, so each
//! variance test's power is `P(rχ²_n ∉ [q_lo, q_hi])` (`q` the `χ²_n` quantiles at `α/2`), the
//! battery's at least the best of them (`gaussian_law::whitened_control_power`). A variance 5 %
//! high needs 53 500 draws for power 0.999, 5 % low 49 000 (a KS test of the marginal needs
//! 618 597), so `N = 100 000`. Each control asserts its power before it runs, and that the statistic it is
//! for rejects. (`cargo test --release --test proofs -- laplace_sampler_law:: --nocapture` prints the
//! table.) Run time: 4.8 s for the whole target
//! (`cargo test --release --test proofs -- laplace_sampler_law::`, two shared cores).

// derivation: laplace::sample_posterior

use crate::gaussian_law;
use crate::statistic;
use gaussian_law::{whitened_control_power, whitened_statistics};
use probdml::laplace;
use probdml_proofs::registry::budget::SAMPLER_ALPHA;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use statistic::{describe, smallest_p};

/// Draws per run.
const N: usize = 100_000;
/// The power every control must have.
const POWER: f64 = 0.999;
/// The dimensions tested.
const DIMS: [usize; 3] = [1, 3, 16];

/// A mean of dimension `p`: entries of both signs and magnitudes up to 2.
fn mean(p: usize) -> Vec<f64> {
    (0..p).map(|k| [0.5, -1.0, 2.0, 0.0, -0.3][k % 5]).collect()
}

/// A diagonal precision of dimension `p`: variances from 10⁻⁴ to 100.
fn diagonal_precision(p: usize) -> Vec<f64> {
    (0..p)
        .map(|k| [0.25, 1.0, 16.0, 1e4, 0.01, 3.0, 400.0][k % 7])
        .collect()
}

/// A dense precision of dimension `p`, strictly diagonally dominant (so positive definite with
/// either sign of any off-diagonal pair), off-diagonal entries of both signs: the first is
/// `(0, 1)`, `1.0`.
fn dense_precision(p: usize) -> Vec<f64> {
    if p == 1 {
        return vec![2.5];
    }
    let mut a = vec![0.0; p * p];
    for i in 0..p {
        for j in 0..p {
            if i != j {
                let sign = if (i * 7 + j * 7 + i * j) % 3 == 0 {
                    -1.0
                } else {
                    1.0
                };
                a[i * p + j] = sign / (1.0 + (i as f64 - j as f64).abs()).powi(2);
            }
        }
    }
    for i in 0..p {
        let off: f64 = (0..p).filter(|&j| j != i).map(|j| a[i * p + j].abs()).sum();
        a[i * p + i] = off + 1.0 + i as f64 / 4.0;
    }
    a[1] = 1.0;
    a[p] = 1.0;
    let off: f64 = (1..p).map(|j| a[j].abs()).sum();
    a[0] = off + 1.0;
    let off: f64 = (0..p).filter(|&j| j != 1).map(|j| a[p + j].abs()).sum();
    a[p + 1] = off + 1.25;
    a
}

/// `A⁻¹` by Gauss–Jordan elimination with partial pivoting (row-major `p × p`).
fn inverse(a: &[f64]) -> Vec<f64> {
    let p = (a.len() as f64).sqrt() as usize;
    let mut m: Vec<Vec<f64>> = (0..p)
        .map(|i| {
            let mut row = a[i * p..(i + 1) * p].to_vec();
            row.extend((0..p).map(|j| if i == j { 1.0 } else { 0.0 }));
            row
        })
        .collect();
    for col in 0..p {
        let pivot = (col..p)
            .max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))
            .unwrap();
        m.swap(col, pivot);
        let d = m[col][col];
        m[col].iter_mut().for_each(|v| *v /= d);
        for row in 0..p {
            if row != col {
                let f = m[row][col];
                let pivot_row = m[col].clone();
                m[row]
                    .iter_mut()
                    .zip(&pivot_row)
                    .for_each(|(v, w)| *v -= f * w);
            }
        }
    }
    m.iter().flat_map(|row| row[p..].to_vec()).collect()
}

fn diagonal_matrix(d: &[f64]) -> Vec<f64> {
    let p = d.len();
    (0..p * p)
        .map(|k| if k / p == k % p { d[k / p] } else { 0.0 })
        .collect()
}

fn diagonal_draws(mu: &[f64], precision: &[f64], seed: u64) -> Vec<Vec<f64>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..N)
        .map(|_| {
            let mut theta = vec![0.0; mu.len()];
            laplace::sample_posterior(mu, precision, &mut rng, &mut theta).unwrap();
            theta
        })
        .collect()
}

fn dense_draws(mu: &[f64], precision: &[f64], seed: u64) -> Vec<Vec<f64>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..N)
        .map(|_| {
            let mut theta = vec![0.0; mu.len()];
            laplace::exact::sample_posterior(mu, precision, &mut rng, &mut theta).unwrap();
            theta
        })
        .collect()
}

/// `D Λ D` with `D = diag(1, …, 1/√f, …, 1)` at `k`: the covariance `D⁻¹ΣD⁻¹` has variance
/// `k` scaled by `f` and every correlation unchanged.
fn variance_scaled(precision: &[f64], k: usize, f: f64) -> Vec<f64> {
    let p = (precision.len() as f64).sqrt() as usize;
    let d: Vec<f64> = (0..p)
        .map(|i| if i == k { f.sqrt().recip() } else { 1.0 })
        .collect();
    (0..p * p)
        .map(|idx| precision[idx] * d[idx / p] * d[idx % p])
        .collect()
}

/// `Λ` with the off-diagonal pair `(i, j)` negated.
fn sign_flipped(precision: &[f64], i: usize, j: usize) -> Vec<f64> {
    let p = (precision.len() as f64).sqrt() as usize;
    let mut out = precision.to_vec();
    out[i * p + j] = -out[i * p + j];
    out[j * p + i] = -out[j * p + i];
    out
}

fn accept(label: &str, draws: &[Vec<f64>], mu: &[f64], covariance: &[f64]) {
    let stats = whitened_statistics(draws, mu, covariance);
    println!(
        "{label}: {} statistics, smallest p = {:.3e}",
        stats.len(),
        smallest_p(&stats)
    );
    assert!(
        smallest_p(&stats) >= SAMPLER_ALPHA,
        "{label}: {}",
        describe(&stats)
    );
}

/// Runs a control: the exact power first, then the statistic it is for must reject on the
/// wrong draws (`wrong` the precision they were drawn with).
fn reject(label: &str, draws: &[Vec<f64>], mu: &[f64], covariance: &[f64], wrong: &[f64]) {
    let (name, r, miss) = whitened_control_power(covariance, &inverse(wrong), N, SAMPLER_ALPHA);
    println!("{label}: {name}, ratio {r:.4}, miss probability {miss:.2e} at n = {N}");
    assert!(miss <= 1.0 - POWER, "{label}: miss probability {miss}");
    let stats = whitened_statistics(draws, mu, covariance);
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

/// Claim, diagonal sampler, at `p = 1`, 3, 16.
#[test]
fn diagonal_sampler_whole_law() {
    for (i, p) in DIMS.into_iter().enumerate() {
        let (mu, precision) = (mean(p), diagonal_precision(p));
        let covariance = inverse(&diagonal_matrix(&precision));
        accept(
            &format!("diagonal, p = {p}"),
            &diagonal_draws(&mu, &precision, 1 + 100 * i as u64),
            &mu,
            &covariance,
        );
    }
}

/// Negative controls, diagonal sampler: the last variance 5 % high, the first 5 % low.
#[test]
fn diagonal_sampler_controls() {
    for (i, p) in DIMS.into_iter().enumerate() {
        let (mu, precision) = (mean(p), diagonal_precision(p));
        let covariance = inverse(&diagonal_matrix(&precision));
        for (k, f, seed) in [(p - 1, 1.05, 2u64), (0, 0.95, 3)] {
            let mut wrong = precision.clone();
            wrong[k] /= f;
            reject(
                &format!("diagonal, p = {p}, Var θ_{k} × {f}"),
                &diagonal_draws(&mu, &wrong, seed + 100 * i as u64),
                &mu,
                &covariance,
                &diagonal_matrix(&wrong),
            );
        }
    }
}

/// Claim, dense sampler, at `p = 1`, 3, 16.
#[test]
fn dense_sampler_whole_law() {
    for (i, p) in DIMS.into_iter().enumerate() {
        let (mu, precision) = (mean(p), dense_precision(p));
        let covariance = inverse(&precision);
        accept(
            &format!("dense, p = {p}"),
            &dense_draws(&mu, &precision, 4 + 100 * i as u64),
            &mu,
            &covariance,
        );
    }
}

/// Negative controls, dense sampler: `Λ_01` of the wrong sign (`p ≥ 2`), and one variance 5 %
/// high with the correlations kept (the last coordinate).
#[test]
fn dense_sampler_controls() {
    for (i, p) in DIMS.into_iter().enumerate() {
        let (mu, precision) = (mean(p), dense_precision(p));
        let covariance = inverse(&precision);
        if p >= 2 {
            let flipped = sign_flipped(&precision, 0, 1);
            reject(
                &format!("dense, p = {p}, Λ_01 of the wrong sign"),
                &dense_draws(&mu, &flipped, 5 + 100 * i as u64),
                &mu,
                &covariance,
                &flipped,
            );
        }
        let scaled = variance_scaled(&precision, p - 1, 1.05);
        reject(
            &format!("dense, p = {p}, Var θ_{} × 1.05", p - 1),
            &dense_draws(&mu, &scaled, 6 + 100 * i as u64),
            &mu,
            &covariance,
            &scaled,
        );
    }
}

/// The reference inverse is one: `ΛΣ = I` to rounding, at every dimension's dense precision.
#[test]
fn reference_inverse() {
    for p in DIMS {
        let a = dense_precision(p);
        let sigma = inverse(&a);
        for i in 0..p {
            for j in 0..p {
                let e: f64 = (0..p).map(|k| a[i * p + k] * sigma[k * p + j]).sum();
                let want = if i == j { 1.0 } else { 0.0 };
                assert!((e - want).abs() < 1e-14, "p = {p}, ({i}, {j}): {e}");
            }
        }
    }
}
