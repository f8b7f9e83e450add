//! Chapter 04, Laplace: the diagonal posterior against its dense Cholesky twin, the online
//! update, the vMF predictive and the evidence. Bench ids name the functions:
//! `posthoc_precision`, `sample_posterior`, `online_update`, `predictive_summary`,
//! `log_marginal_likelihood`, `optimal_prior_precision`, `output_variance`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use probdml::laplace::{self, exact};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

/// Deterministic values in [0, 1) (golden-ratio sequence).
fn values(n: usize, offset: usize) -> Vec<f64> {
    (0..n)
        .map(|s| ((s + offset) as f64 * 0.618_033_988_749_895).fract())
        .collect()
}

fn posterior(c: &mut Criterion) {
    let mut group = c.benchmark_group("laplace::posthoc_precision");
    group.sample_size(10);
    for p in [64usize, 512] {
        let h = values(p, 3);
        let mut dense = vec![0.0; p * p];
        for k in 0..p {
            dense[k * p + k] = h[k];
        }
        group.bench_function(BenchmarkId::new("fast/posthoc_precision", p), |b| {
            b.iter(|| laplace::posthoc_precision(black_box(&h), 1.0, 1.0).unwrap())
        });
        group.bench_function(BenchmarkId::new("exact/posthoc_precision", p), |b| {
            b.iter(|| exact::posthoc_precision(black_box(&dense), 1.0, 1.0).unwrap())
        });
    }
    group.finish();

    let mut group = c.benchmark_group("laplace::sample_posterior");
    group.sample_size(10);
    for p in [64usize, 512] {
        let mean = values(p, 5);
        let lambda = laplace::posthoc_precision(&values(p, 3), 1.0, 1.0).unwrap();
        let mut dense = vec![0.0; p * p];
        for k in 0..p {
            dense[k * p + k] = lambda[k];
        }
        let mut out = vec![0.0; p];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        group.bench_function(BenchmarkId::new("fast/sample_posterior", p), |b| {
            b.iter(|| {
                laplace::sample_posterior(black_box(&mean), &lambda, &mut rng, &mut out).unwrap()
            })
        });
        group.bench_function(BenchmarkId::new("exact/sample_posterior", p), |b| {
            b.iter(|| {
                exact::sample_posterior(black_box(&mean), &dense, &mut rng, &mut out).unwrap()
            })
        });
    }
    group.finish();
}

fn online_and_predictive(c: &mut Criterion) {
    let mut group = c.benchmark_group("laplace::online_update");
    group.sample_size(10);
    // M = 3, F = 9216 (the Fashion-MNIST last layer), S = 8 samples, a quadratic loss.
    let p = 3 * 9216;
    let mut mean = values(p, 7);
    let mut precision = laplace::prior_precision(p, 1.0).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    group.bench_function("fast/online_update/P27648_S8", |b| {
        b.iter(|| online_update_step(&mut mean, &mut precision, &mut rng))
    });
    group.finish();

    let mut group = c.benchmark_group("laplace::predictive_summary");
    group.sample_size(10);
    for (m, f, s) in [(3usize, 9216usize, 32usize), (128, 2048, 16)] {
        let x = values(f, 11);
        let w: Vec<f64> = values(s * m * f, 13).iter().map(|v| v - 0.5).collect();
        group.bench_function(
            BenchmarkId::new("fast/predictive_summary", format!("M{m}_F{f}_S{s}")),
            |b| b.iter(|| laplace::predictive_summary(black_box(&w), m, &x).unwrap()),
        );
    }
    group.finish();
}

fn online_update_step(mean: &mut [f64], precision: &mut [f64], rng: &mut ChaCha8Rng) {
    laplace::online_update(mean, precision, rng, 8, 1e-3, 1e-3, |theta, g, h| {
        g.copy_from_slice(theta);
        h.fill(1.0);
    })
    .unwrap();
}

fn evidence(c: &mut Criterion) {
    let mut group = c.benchmark_group("laplace::log_marginal_likelihood");
    group.sample_size(10);
    for p in [64usize, 512] {
        let h: Vec<f64> = values(p, 3).iter().map(|v| 100.0 * v).collect();
        let theta: Vec<f64> = values(p, 7).iter().map(|v| v - 0.5).collect();
        let mut dense = vec![0.0; p * p];
        for k in 0..p {
            dense[k * p + k] = h[k];
        }
        group.bench_function(BenchmarkId::new("fast/log_marginal_likelihood", p), |b| {
            b.iter(|| laplace::log_marginal_likelihood(0.0, black_box(&theta), &h, 0.5).unwrap())
        });
        group.bench_function(BenchmarkId::new("exact/log_marginal_likelihood", p), |b| {
            b.iter(|| exact::log_marginal_likelihood(0.0, black_box(&theta), &dense, 0.5).unwrap())
        });
        group.bench_function(BenchmarkId::new("fast/optimal_prior_precision", p), |b| {
            b.iter(|| laplace::optimal_prior_precision(black_box(&theta), &h).unwrap())
        });
        if p <= 64 {
            group.bench_function(BenchmarkId::new("exact/optimal_prior_precision", p), |b| {
                b.iter(|| exact::optimal_prior_precision(black_box(&theta), &dense).unwrap())
            });
        }
    }
    group.finish();
}

fn output_variance(c: &mut Criterion) {
    let mut group = c.benchmark_group("laplace::output_variance");
    group.sample_size(10);
    // M = 3 outputs; F = 64 (dense twin feasible) and F = 9216 (the training module's layer).
    for f in [64usize, 9216] {
        let m = 3;
        let w: Vec<f64> = values(m * f, 3).iter().map(|v| 1.0 + 100.0 * v).collect();
        let b = [2.0, 3.0, 4.0];
        let x: Vec<f64> = values(f, 5);
        group.bench_function(BenchmarkId::new("fast/output_variance", f), |bch| {
            bch.iter(|| laplace::output_variance(black_box(&w), &b, &x).unwrap())
        });
        if f <= 64 {
            let p = m * f + m;
            let mut dense = vec![0.0; p * p];
            for (k, &v) in w.iter().chain(&b).enumerate() {
                dense[k * p + k] = v;
            }
            group.bench_function(BenchmarkId::new("exact/output_variance", f), |bch| {
                bch.iter(|| exact::output_variance(black_box(&dense), m, &x).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(
    benches,
    posterior,
    online_and_predictive,
    evidence,
    output_variance
);
criterion_main!(benches);
