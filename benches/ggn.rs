//! Chapter 04: the fast last-layer GGN diagonal against the dense hyper-dual route, and the
//! closed-form output Hessians against their hyper-dual twins. Bench ids name the functions:
//! `last_layer_ggn_diagonal`, `euclidean_output_hessian`, `arccos_output_hessian`,
//! `fixed_weights`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use probdml::contrastive::{pair_targets, PairTarget};
use probdml::ggn::{self, exact, Approximation, Split};
use std::hint::black_box;

/// Deterministic values in [−1, 1) (golden-ratio sequence): no RNG in the benches.
fn values(n: usize, offset: usize) -> Vec<f64> {
    (0..n)
        .map(|s| (((s + offset) as f64 * 0.618_033_988_749_895).fract() - 0.5) * 2.0)
        .collect()
}

/// B embeddings, all ordered pairs (margin 2: every negative inside), 4 classes.
fn problem(b: usize, m: usize, f: usize) -> (Vec<f64>, Vec<f64>, Vec<PairTarget>) {
    let (w, x) = (values(m * f, 7), values(b * f, 1_000_003));
    let y: Vec<f64> = x
        .chunks_exact(f)
        .flat_map(|xi| {
            (0..m)
                .map(|k| (0..f).map(|l| w[k * f + l] * xi[l]).sum::<f64>())
                .collect::<Vec<_>>()
        })
        .collect();
    let z: Vec<f64> = y
        .chunks_exact(m)
        .flat_map(|v| {
            let r = v.iter().map(|a| a * a).sum::<f64>().sqrt();
            v.iter().map(|a| a / r).collect::<Vec<_>>()
        })
        .collect();
    let labels: Vec<usize> = (0..b).map(|i| i % 4).collect();
    let pairs = pair_targets(&z, m, &labels, 2.0).unwrap();
    (w, x, pairs)
}

fn diagonal(c: &mut Criterion) {
    let mut group = c.benchmark_group("ggn::last_layer_ggn_diagonal");
    group.sample_size(10);
    for (b, m, f) in [(64usize, 3usize, 9216usize), (256, 128, 2048)] {
        let (w, x, pairs) = problem(b, m, f);
        for approximation in Approximation::ALL {
            let id = BenchmarkId::new(format!("fast/{approximation:?}"), format!("B{b}_M{m}_F{f}"));
            group.bench_with_input(id, &approximation, |bench, &a| {
                bench.iter(|| {
                    ggn::last_layer_ggn_diagonal(
                        black_box(&w),
                        black_box(&x),
                        f,
                        &pairs,
                        Split::Euclidean,
                        a,
                    )
                    .unwrap()
                })
            });
        }
        let id = BenchmarkId::new("fast/all_six", format!("B{b}_M{m}_F{f}"));
        group.bench_function(id, |bench| {
            bench.iter(|| {
                ggn::last_layer_ggn_diagonals(black_box(&w), black_box(&x), f, &pairs).unwrap()
            })
        });
    }
    // Where the dense route fits: P = M·F parameters, a P×P matrix per call.
    for (b, m, f) in [(8usize, 3usize, 16usize), (16, 3, 32)] {
        let (w, x, pairs) = problem(b, m, f);
        let id = format!("B{b}_M{m}_F{f}");
        group.bench_function(BenchmarkId::new("fast/Full", &id), |bench| {
            bench.iter(|| {
                ggn::last_layer_ggn_diagonal(
                    black_box(&w),
                    &x,
                    f,
                    &pairs,
                    Split::Arccos,
                    Approximation::Full,
                )
                .unwrap()
            })
        });
        group.bench_function(BenchmarkId::new("exact/Full", &id), |bench| {
            bench.iter(|| {
                exact::last_layer_ggn_diagonal(
                    black_box(&w),
                    &x,
                    f,
                    &pairs,
                    Split::Arccos,
                    Approximation::Full,
                )
                .unwrap()
            })
        });
    }
    group.finish();
}

fn output_hessians(c: &mut Criterion) {
    let mut group = c.benchmark_group("ggn::output_hessian");
    let (yi, yj) = (values(16, 3), values(16, 11));
    group.bench_function("euclidean_output_hessian/fast", |b| {
        b.iter(|| ggn::euclidean_output_hessian(black_box(&yi), &yj, 0.5).unwrap())
    });
    group.bench_function("euclidean_output_hessian/exact", |b| {
        b.iter(|| exact::euclidean_output_hessian(black_box(&yi), &yj, 0.5).unwrap())
    });
    group.bench_function("arccos_output_hessian/fast", |b| {
        b.iter(|| ggn::arccos_output_hessian(black_box(&yi), &yj, 0.5).unwrap())
    });
    group.bench_function("arccos_output_hessian/exact", |b| {
        b.iter(|| exact::arccos_output_hessian(black_box(&yi), &yj, 0.5).unwrap())
    });
    let (_, _, pairs) = problem(64, 3, 8);
    group.bench_function("fixed_weights/fast", |b| {
        b.iter(|| ggn::fixed_weights(black_box(&pairs), 64).unwrap())
    });
    group.finish();
}

criterion_group!(benches, diagonal, output_hessians);
criterion_main!(benches);
