//! Chapter 07 (hedged instance embeddings): exact against fast, at the paper's sizes.
//!
//! * `hib::match_probability`: exact (1-D quadrature against the law of ‖Δ‖²) at D ∈ {1, 4, 128},
//!   isotropic (non-central χ²) and anisotropic (chapter 05's quadratic-form CDF); the paper's
//!   Monte Carlo at K = 1 and K = 8 (64 pairs) at D = 128;
//! * `hib::match_probability_moment_matched` at D = 128 (target: within 2× of MC at K = 1);
//! * `hib::vib_loss` + gradient: a batch of 256 pairs at D = 128, K = 8 (fast), one pair (exact);
//! * `hib::self_mismatch`, `hib::kl_to_standard_normal`, and the metrics
//!   `metrics::verification_average_precision` (10 000 pairs) and `metrics::knn_identification`
//!   (K = 5, 2 000 embeddings at D = 3).
//!
//! Run (one thread; the machine is shared): `RAYON_NUM_THREADS=1 cargo bench --bench hib --
//! --warm-up-time 1 --measurement-time 3`.
// The positional forms are the registry's fast items (deprecated for users: the
// named form `hib::SoftThreshold` calls the same code).
#![allow(deprecated)]

// derivation: hib::match_probability
// derivation: hib::match_probability_moment_matched
// derivation: hib::self_mismatch
// derivation: hib::kl_to_standard_normal
// derivation: hib::vib_loss
// derivation: metrics::verification_average_precision
// derivation: metrics::knn_identification

use criterion::{criterion_group, criterion_main, Criterion};
use probdml::hib::{self, exact, HedgedEmbedding, VibPair};
use probdml::metrics::{self, Distance, Embeddings, Retrieval};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use std::hint::black_box;

fn normals(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|_| rng.sample(StandardNormal)).collect()
}

/// A pair of Gaussian embeddings at dimension `d`: means ~ N(0, 0.1²) apart, variances either
/// all 0.01 (isotropic) or spread over [0.005, 0.02].
fn pair(d: usize, isotropic: bool) -> (Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>) {
    let mu1: Vec<f64> = normals(d, 1).iter().map(|x| 0.1 * x).collect();
    let mu2: Vec<f64> = normals(d, 2).iter().map(|x| 0.1 * x).collect();
    let var = |k: usize| {
        if isotropic {
            0.01
        } else {
            0.005 + 0.015 * k as f64 / d as f64
        }
    };
    let var1: Vec<f64> = (0..d).map(var).collect();
    (mu1, var1.clone(), mu2, var1)
}

fn bench_match_probability(c: &mut Criterion) {
    let mut group = c.benchmark_group("hib::match_probability");
    for (d, isotropic) in [(1, true), (4, true), (4, false), (128, true), (128, false)] {
        let (mu1, var1, mu2, var2) = pair(d, isotropic);
        let kind = if isotropic {
            "isotropic"
        } else {
            "anisotropic"
        };
        group.bench_function(format!("exact/D={d}/{kind}"), |b| {
            b.iter(|| exact::match_probability(black_box(&mu1), &var1, &mu2, &var2, 2.0, 3.0))
        });
    }
    let (mu1, var1, mu2, var2) = pair(128, false);
    let x1 = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &mu1,
        var: &var1,
    })
    .unwrap();
    let x2 = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &mu2,
        var: &var2,
    })
    .unwrap();
    for k in [1usize, 8] {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        group.bench_function(format!("monte_carlo/D=128/K={k}"), |b| {
            b.iter(|| hib::match_probability(black_box(&x1), &x2, 2.0, 3.0, k, &mut rng))
        });
    }
    group.bench_function("match_probability_moment_matched/D=128", |b| {
        b.iter(|| {
            hib::match_probability_moment_matched(black_box(&mu1), &var1, &mu2, &var2, 2.0, 3.0)
        })
    });
    group.finish();
}

fn bench_self_mismatch_and_kl(c: &mut Criterion) {
    let (mu1, var1, _, _) = pair(128, false);
    let x = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &mu1,
        var: &var1,
    })
    .unwrap();
    let mut group = c.benchmark_group("hib::self_mismatch");
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    group.bench_function("fast/D=128/K=8", |b| {
        b.iter(|| hib::self_mismatch(black_box(&x), 2.0, 3.0, 8, &mut rng))
    });
    group.bench_function("exact/D=128", |b| {
        b.iter(|| exact::self_mismatch(black_box(&x), 2.0, 3.0))
    });
    group.finish();
    let mut group = c.benchmark_group("hib::kl_to_standard_normal");
    group.bench_function("fast/D=128", |b| {
        b.iter(|| hib::kl_to_standard_normal(black_box(&mu1), &var1))
    });
    group.bench_function("exact/D=128", |b| {
        b.iter(|| exact::kl_to_standard_normal(black_box(&mu1), &var1))
    });
    group.finish();
}

fn bench_vib_loss(c: &mut Criterion) {
    const D: usize = 128;
    const K: usize = 8;
    const BATCH: usize = 256;
    let means = normals(2 * BATCH * D, 11);
    let variances: Vec<f64> = normals(2 * BATCH * D, 12)
        .iter()
        .map(|x| 0.01 * (0.5 * x).exp())
        .collect();
    let noise = normals(2 * BATCH * K * D, 13);
    let pair_at = |i: usize| VibPair {
        mu1: &means[2 * i * D..(2 * i + 1) * D],
        var1: &variances[2 * i * D..(2 * i + 1) * D],
        mu2: &means[(2 * i + 1) * D..(2 * i + 2) * D],
        var2: &variances[(2 * i + 1) * D..(2 * i + 2) * D],
        noise1: &noise[2 * i * K * D..(2 * i + 1) * K * D],
        noise2: &noise[(2 * i + 1) * K * D..(2 * i + 2) * K * D],
        is_match: i.is_multiple_of(2),
    };
    let mut group = c.benchmark_group("hib::vib_loss");
    group.sample_size(20);
    group.bench_function("fast/batch=256/D=128/K=8", |b| {
        b.iter(|| {
            let mut total = 0.0;
            for i in 0..BATCH {
                total += hib::vib_loss(black_box(&pair_at(i)), 2.0, 3.0, 1e-3)
                    .unwrap()
                    .loss;
            }
            total
        })
    });
    group.bench_function("exact/one pair/D=128/K=8", |b| {
        b.iter(|| exact::vib_loss(black_box(&pair_at(0)), 2.0, 3.0, 1e-3))
    });
    group.finish();
}

fn bench_metrics(c: &mut Criterion) {
    let scores: Vec<f64> = normals(10_000, 21);
    let is_match: Vec<bool> = normals(10_000, 22)
        .iter()
        .zip(&scores)
        .map(|(n, s)| n + s > 0.0)
        .collect();
    let mut group = c.benchmark_group("metrics::verification_average_precision");
    group.bench_function("fast/10000 pairs", |b| {
        b.iter(|| metrics::verification_average_precision(black_box(&scores), &is_match))
    });
    group.bench_function("exact/10000 pairs", |b| {
        b.iter(|| metrics::exact::verification_average_precision(black_box(&scores), &is_match))
    });
    group.finish();
    let points = normals(2000 * 3, 23);
    let labels: Vec<usize> = (0..2000).map(|i| i % 10).collect();
    let task = Retrieval::leave_one_out(
        Embeddings::new(&points, 3).unwrap(),
        &labels,
        Distance::Euclidean,
    )
    .unwrap();
    let mut group = c.benchmark_group("metrics::knn_identification");
    group.sample_size(10);
    group.bench_function("fast/n=2000/K=5", |b| {
        b.iter(|| metrics::knn_identification(black_box(&task), 5))
    });
    group.bench_function("exact/n=2000/K=5", |b| {
        b.iter(|| metrics::exact::knn_identification(black_box(&task), 5))
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_match_probability,
    bench_self_mismatch_and_kl,
    bench_vib_loss,
    bench_metrics
);
criterion_main!(benches);
