//! Chapter 03: exact against fast contrastive losses, the likelihood, the rescaled estimator.
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use probdml::contrastive::{self, exact, LossForm, PairBatch};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use rand_distr::StandardNormal;
use std::hint::black_box;

fn batch(n: usize, dim: usize, classes: usize) -> (Vec<f64>, Vec<usize>) {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let mut z = Vec::with_capacity(n * dim);
    for _ in 0..n {
        let v: Vec<f64> = (0..dim)
            .map(|_| rng.sample::<f64, _>(StandardNormal))
            .collect();
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        z.extend(v.iter().map(|x| x / norm));
    }
    (z, (0..n).map(|i| i % classes).collect())
}

fn losses(c: &mut Criterion) {
    let mut group = c.benchmark_group("contrastive");
    for (n, dim) in [(64usize, 3usize), (256, 128)] {
        let (z, labels) = batch(n, dim, 8);
        let size = format!("n{n}_M{dim}");
        group.bench_with_input(BenchmarkId::new("loss/fast", &size), &(), |b, _| {
            b.iter(|| {
                contrastive::loss(black_box(&z), dim, &labels, 1.0, LossForm::Squared).unwrap()
            })
        });
        group.bench_with_input(BenchmarkId::new("loss/exact", &size), &(), |b, _| {
            b.iter(|| exact::loss(black_box(&z), dim, &labels, 1.0, LossForm::Squared).unwrap())
        });
        group.bench_with_input(
            BenchmarkId::new("loss_gradient/fast", &size),
            &(),
            |b, _| b.iter(|| contrastive::loss_gradient(black_box(&z), dim, &labels, 1.0).unwrap()),
        );
        group.bench_with_input(
            BenchmarkId::new("loss_gradient/exact", &size),
            &(),
            |b, _| b.iter(|| exact::loss_gradient(black_box(&z), dim, &labels, 1.0).unwrap()),
        );
        group.bench_with_input(
            BenchmarkId::new("hard_negatives/fast", &size),
            &(),
            |b, _| {
                b.iter(|| contrastive::hard_negatives(black_box(&z), dim, &labels, 1.0).unwrap())
            },
        );
        group.bench_with_input(
            BenchmarkId::new("negative_log_likelihood/fast", &size),
            &(),
            |b, _| {
                b.iter(|| {
                    contrastive::negative_log_likelihood(black_box(&z), dim, &labels, 1.0).unwrap()
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("negative_log_likelihood/exact", &size),
            &(),
            |b, _| {
                b.iter(|| exact::negative_log_likelihood(black_box(&z), dim, &labels, 1.0).unwrap())
            },
        );
        group.bench_with_input(
            BenchmarkId::new("likelihood_constant/fast", &size),
            &(),
            |b, _| {
                let counts = contrastive::pair_counts(&z, dim, &labels, 1.0).unwrap();
                b.iter(|| contrastive::likelihood_constant(dim, black_box(&counts), 1.0).unwrap())
            },
        );
        group.bench_with_input(
            BenchmarkId::new("class_likelihood/fast", &size),
            &(),
            |b, _| {
                b.iter(|| {
                    contrastive::class_likelihood(black_box(&z), dim, &labels, 0, 0.5, 0.5).unwrap()
                })
            },
        );
        // A batch of 256 positive and 256 negative pairs.
        let mut rng = ChaCha20Rng::seed_from_u64(5);
        let mut pairs = PairBatch::default();
        while pairs.positives.len() < 256 || pairs.negatives.len() < 256 {
            let (i, j) = (rng.random_range(0..n), rng.random_range(0..n));
            let set = if labels[i] == labels[j] {
                &mut pairs.positives
            } else {
                &mut pairs.negatives
            };
            if set.len() < 256 {
                set.push((i, j));
            }
        }
        group.bench_with_input(
            BenchmarkId::new("rescaled_loss/fast", &size),
            &(),
            |b, _| {
                b.iter(|| {
                    contrastive::rescaled_loss(black_box(&z), dim, &labels, 1.0, &pairs).unwrap()
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("rescaled_loss/exact", &size),
            &(),
            |b, _| {
                b.iter(|| exact::rescaled_loss(black_box(&z), dim, &labels, 1.0, &pairs).unwrap())
            },
        );
        group.bench_with_input(
            BenchmarkId::new("rescaled_gradient/fast", &size),
            &(),
            |b, _| {
                b.iter(|| {
                    contrastive::rescaled_gradient(black_box(&z), dim, &labels, 1.0, &pairs)
                        .unwrap()
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, losses);
criterion_main!(benches);
