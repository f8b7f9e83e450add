//! Chapter 05: the Bayesian triplet loss — moments (fast against the dense quadratic form), the
//! batch NLL with its full gradient at D = 2048 (target ≤ 5 µs per triplet on one thread), the
//! CLT likelihood, and the exact CDF of τ (generalised χ², characteristic-function inversion) at
//! D = 1, 8, 128.
//!
//! Criterion runs on one thread (the library spawns none on these paths). Time per triplet of
//! the batch bench = reported time / B.
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use probdml::gaussian_quadratic_form::GaussianQuadraticForm;
use probdml::special;
use probdml::triplet::{self, exact, Triplet, TripletGradient};
use probdml::Gaussian;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use std::hint::black_box;

/// Six row-major `B × D` matrices: means around the unit sphere's scale, variances ~ 1/D.
fn inputs(batch: usize, dim: usize, seed: u64) -> [Vec<f64>; 6] {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let scale = 1.0 / (dim as f64).sqrt();
    std::array::from_fn(|k| {
        (0..batch * dim)
            .map(|_| {
                if k % 2 == 0 {
                    rng.random_range(-1.0..1.0) * scale
                } else {
                    rng.random_range(0.1..1.0) * scale * scale
                }
            })
            .collect()
    })
}

fn batch_gradient(c: &mut Criterion) {
    let mut group = c.benchmark_group("triplet");
    let (batch, dim) = (32usize, 2048usize);
    let [ma, va, mp, vp, mn, vn] = inputs(batch, dim, 5);
    let mut out = TripletGradient::default();
    group.throughput(Throughput::Elements(batch as u64));
    group.bench_function(
        BenchmarkId::new("nll_gradient/fast", format!("B{batch}_D{dim}")),
        |b| {
            b.iter(|| {
                triplet::nll_gradient_into(
                    black_box(&ma),
                    &va,
                    &mp,
                    &vp,
                    &mn,
                    &vn,
                    dim,
                    0.1,
                    &mut out,
                )
                .unwrap()
            })
        },
    );
    group.finish();
    // The reference is O(B·D³): time it on one small triplet.
    let mut group = c.benchmark_group("triplet");
    let [ma, va, mp, vp, mn, vn] = inputs(1, 8, 6);
    group.bench_function("nll_gradient/exact/B1_D8", |b| {
        b.iter(|| exact::nll_gradient(black_box(&ma), &va, &mp, &vp, &mn, &vn, 8, 0.1).unwrap())
    });
    group.finish();
}

fn moments(c: &mut Criterion) {
    let mut group = c.benchmark_group("triplet");
    let dim = 128;
    let [ma, va, mp, vp, mn, vn] = inputs(1, dim, 7);
    let triplet = Triplet {
        anchor: Gaussian { mu: &ma, var: &va },
        positive: Gaussian { mu: &mp, var: &vp },
        negative: Gaussian { mu: &mn, var: &vn },
    };
    group.bench_function(BenchmarkId::new("moments/fast", format!("D{dim}")), |b| {
        b.iter(|| black_box(triplet).moments().unwrap())
    });
    group.bench_function(BenchmarkId::new("moments/exact", format!("D{dim}")), |b| {
        b.iter(|| exact::moments(black_box(&ma), &va, &mp, &vp, &mn, &vn).unwrap())
    });
    group.bench_function(
        BenchmarkId::new("log_likelihood/fast", format!("D{dim}")),
        |b| b.iter(|| black_box(triplet).log_likelihood(0.1).unwrap()),
    );
    group.finish();
}

fn exact_cdf(c: &mut Criterion) {
    let mut group = c.benchmark_group("triplet");
    group.sample_size(10);
    for dim in [1usize, 8, 128] {
        let [ma, va, mp, vp, mn, vn] = inputs(1, dim, 8);
        group.bench_function(
            BenchmarkId::new("log_likelihood/exact", format!("D{dim}")),
            |b| {
                b.iter(|| {
                    exact::log_likelihood(black_box(&ma), &va, &mp, &vp, &mn, &vn, 0.1).unwrap()
                })
            },
        );
    }
    group.finish();
}

fn log_normal_cdf(c: &mut Criterion) {
    let mut group = c.benchmark_group("special");
    for z in [-1.0f64, -30.0, -1e5] {
        group.bench_function(BenchmarkId::new("log_normal_cdf/fast", z), |b| {
            b.iter(|| special::log_normal_cdf(black_box(z)))
        });
        group.bench_function(BenchmarkId::new("log_normal_cdf/exact", z), |b| {
            b.iter(|| special::exact::log_normal_cdf(black_box(z)))
        });
    }
    group.finish();
}

fn priors_and_quadratic_form(c: &mut Criterion) {
    let mut group = c.benchmark_group("triplet");
    let dim = 2048;
    let [ma, va, ..] = inputs(1, dim, 9);
    let prior = triplet::gaussian_prior_variance(dim).unwrap();
    group.bench_function(
        BenchmarkId::new("gaussian_kl/fast", format!("D{dim}")),
        |b| b.iter(|| triplet::gaussian_kl(black_box(&ma), &va, prior).unwrap()),
    );
    group.sample_size(10);
    group.bench_function("gaussian_kl/exact/D8", |b| {
        b.iter(|| exact::gaussian_kl(black_box(&ma[..8]), &va[..8], prior).unwrap())
    });
    group.finish();
    // The quadratic form on its own: a far-tail ln_cdf of a 16-term mixed-sign form.
    let mut group = c.benchmark_group("gaussian_quadratic_form");
    let weights: Vec<f64> = (0..16)
        .map(|k| if k % 2 == 0 { 1.0 + k as f64 } else { -0.5 })
        .collect();
    let q = GaussianQuadraticForm::new(&weights, &[0.3; 16], 0.0).unwrap();
    for x in [0.0, -500.0] {
        group.bench_function(BenchmarkId::new("ln_cdf/K16", x), |b| {
            b.iter(|| q.ln_cdf(black_box(x)))
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    batch_gradient,
    moments,
    exact_cdf,
    log_normal_cdf,
    priors_and_quadratic_form
);
criterion_main!(benches);
