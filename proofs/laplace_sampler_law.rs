//! # The whole law of the Laplace posterior samplers, with measured power (LAM App. E)
//!
//! **Claims.** `laplace::sample_posterior(μ, diag Λ)` draws `θ ~ N(μ, Λ⁻¹)` for a diagonal
//! precision, and `laplace::exact::sample_posterior(μ, Λ)` (Cholesky `Λ = LLᵀ`,
//! `θ = μ + L⁻ᵀz`) for a dense one — the whole Gaussian law, not its marginal moments only.
//!
//! **Test.** The battery of `support/gaussian_law.rs` at `p = 4`: the four marginals, the twelve
//! pair projections `θ_i ± θ_j` (whose variances `Σ_ii + Σ_jj ± 2Σ_ij` carry every covariance
//! and its sign) against `N(0, 1)`, and the squared Mahalanobis distance against `χ²_4`; 17 KS
//! statistics at `α = SAMPLER_ALPHA = 10⁻⁶` each. The references are `Φ` from `libm::erfc`, the
//! closed-form `χ²_4`, and `Σ = Λ⁻¹` by a Gauss–Jordan inversion written here; nothing of the
//! samplers. Fixed seeds (`ChaCha8Rng`), `n = N = 700 000` draws per run.
//!
//! **Negative controls** (the same battery, `n` and `α`, on a wrong sampler) must reject:
//!
//! | sampler | control | `δ` (KS distance, best statistic) | power ≥ |
//! |---|---|---|---|
//! | diagonal | `Var θ_2 × 1.05` | 5.90·10⁻³ (`θ_2`) | 0.99992 |
//! | diagonal | `Var θ_0 × 0.95` | 6.21·10⁻³ (`θ_0`) | 0.999992 |
//! | dense | `Λ_03 = 0.2` given as `−0.2` | 3.11·10⁻² | 1 − 10⁻⁴⁷² |
//! | dense | `Var θ_1 × 1.05`, correlations kept | 5.90·10⁻³ (`θ_1`) | 0.99992 |
//!
//! `δ` is the largest, over the projections, of the KS distance between `N(0, 1)` and the
//! wrong law of the standardised projection, `N(0, s²)` with `s² = aᵀΣ'a/aᵀΣa` (closed form,
//! `support/normal_law.rs`); the power bound `1 − 2e^{−2n(δ−c)²}`, `c` the KS critical value at
//! `n` and `α`, is the Dvoretzky–Kiefer–Wolfowitz–Massart inequality (`support/ks_power.rs`).
//! A variance 5 % off in one coordinate is the hardest control (`δ = 5.9·10⁻³`); it sets
//! `n`: 618 597 draws give power `0.999`, so `N = 700 000`. Each control asserts its bound
//! before it runs. (`cargo test --release --test laplace_sampler_law -- --nocapture` prints the
//! table.) Run time: 39 s for the whole target
//! (`cargo test --release --test laplace_sampler_law`, two shared cores).

// derivation: laplace::sample_posterior

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
use probdml::laplace;
use probdml::registry::budget::SAMPLER_ALPHA;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use statistic::{describe, smallest_p};

/// Draws per run.
const N: usize = 700_000;
/// The power every control must have.
const POWER: f64 = 0.999;

const MEAN: [f64; 4] = [0.5, -1.0, 2.0, 0.0];
/// The diagonal precision: variances from 10⁻⁴ to 4.
const DIAGONAL: [f64; 4] = [0.25, 1.0, 16.0, 1e4];
/// A dense precision, strictly diagonally dominant (so positive definite with either sign of
/// any one off-diagonal pair), off-diagonal entries of both signs.
const DENSE: [f64; 16] = [
    4.0, 1.0, -0.5, 0.2, //
    1.0, 3.0, 0.8, -0.4, //
    -0.5, 0.8, 2.0, 0.3, //
    0.2, -0.4, 0.3, 1.0,
];

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

fn diagonal_draws(precision: &[f64], seed: u64) -> Vec<Vec<f64>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..N)
        .map(|_| {
            let mut theta = vec![0.0; MEAN.len()];
            laplace::sample_posterior(&MEAN, precision, &mut rng, &mut theta).unwrap();
            theta
        })
        .collect()
}

fn dense_draws(precision: &[f64], seed: u64) -> Vec<Vec<f64>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..N)
        .map(|_| {
            let mut theta = vec![0.0; MEAN.len()];
            laplace::exact::sample_posterior(&MEAN, precision, &mut rng, &mut theta).unwrap();
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

fn accept(label: &str, draws: &[Vec<f64>], covariance: &[f64], precision: &[f64]) {
    let stats = gaussian_statistics(draws, &MEAN, covariance, precision);
    println!("{label}: smallest p = {:.3e}", smallest_p(&stats));
    assert!(
        smallest_p(&stats) >= SAMPLER_ALPHA,
        "{label}: {}",
        describe(&stats)
    );
}

/// Runs a control: the power bound first, then the battery on the wrong draws must reject.
fn reject(label: &str, draws: &[Vec<f64>], covariance: &[f64], precision: &[f64], wrong: &[f64]) {
    let delta = control_distance(covariance, &inverse(wrong));
    let power = power_lower_bound(delta, N, SAMPLER_ALPHA);
    println!(
        "{label}: δ ≥ {delta:.4e}, power ≥ {power:.6} at n = {N} (n for {POWER}: {})",
        ks_power::smallest_n(delta, SAMPLER_ALPHA, POWER)
    );
    assert!(power >= POWER, "{label}: power bound {power}");
    let stats = gaussian_statistics(draws, &MEAN, covariance, precision);
    assert!(
        smallest_p(&stats) < SAMPLER_ALPHA,
        "{label}: the battery missed the wrong sampler: {}",
        describe(&stats)
    );
}

/// Claim, diagonal sampler.
#[test]
fn diagonal_sampler_whole_law() {
    let precision = diagonal_matrix(&DIAGONAL);
    let covariance = inverse(&precision);
    accept(
        "diagonal",
        &diagonal_draws(&DIAGONAL, 1),
        &covariance,
        &precision,
    );
}

/// Negative controls, diagonal sampler: one variance 5 % high, one 5 % low.
#[test]
fn diagonal_sampler_controls() {
    let precision = diagonal_matrix(&DIAGONAL);
    let covariance = inverse(&precision);
    for (k, f, seed) in [(2usize, 1.05, 2u64), (0, 0.95, 3)] {
        let mut wrong = DIAGONAL;
        wrong[k] /= f;
        reject(
            &format!("diagonal, Var θ_{k} × {f}"),
            &diagonal_draws(&wrong, seed),
            &covariance,
            &precision,
            &diagonal_matrix(&wrong),
        );
    }
}

/// Claim, dense sampler.
#[test]
fn dense_sampler_whole_law() {
    let covariance = inverse(&DENSE);
    accept("dense", &dense_draws(&DENSE, 4), &covariance, &DENSE);
}

/// Negative controls, dense sampler: one off-diagonal precision entry of the wrong sign (the
/// smallest, `Λ_03 = 0.2`), one variance 5 % high with the correlations kept.
#[test]
fn dense_sampler_controls() {
    let covariance = inverse(&DENSE);
    let flipped = sign_flipped(&DENSE, 0, 3);
    reject(
        "dense, Λ_03 of the wrong sign",
        &dense_draws(&flipped, 5),
        &covariance,
        &DENSE,
        &flipped,
    );
    let scaled = variance_scaled(&DENSE, 1, 1.05);
    reject(
        "dense, Var θ_1 × 1.05",
        &dense_draws(&scaled, 6),
        &covariance,
        &DENSE,
        &scaled,
    );
}

/// The reference inverse is one: `ΛΣ = I` to rounding.
#[test]
fn reference_inverse() {
    let sigma = inverse(&DENSE);
    for i in 0..4 {
        for j in 0..4 {
            let e: f64 = (0..4).map(|k| DENSE[i * 4 + k] * sigma[k * 4 + j]).sum();
            let want = if i == j { 1.0 } else { 0.0 };
            assert!((e - want).abs() < 1e-14, "({i}, {j}): {e}");
        }
    }
}
