//! Chapter 06 at the sizes the nivMF paper trains with (M = 128 and 512, embedding norms 10–140,
//! batches of ~100 against ~100 proxies): exact (quadrature, 256-bit, central differences)
//! against fast, and the batched normaliser against the scalar loop.
//!
//! Run: `cargo bench --bench nivmf -- --warm-up-time 1 --measurement-time 3`. Criterion reports
//! the median per call.
// The positional nivMF densities `(x, mu, …)` are the registry's fast items (deprecated for
// users: the distribution's `ln_pdf` names its arguments and calls the same code).
#![allow(deprecated)]

// derivation: nivmf::kl_vmf
// derivation: nivmf::log_ppk
// derivation: nivmf::log_density
// derivation: nivmf::log_density_heuristic
// derivation: nivmf::NonIsotropicVmf::sample
// derivation: nivmf::proxy_nca_loss
// derivation: nivmf::proxy_anchor_loss
// derivation: nivmf::joint_proxy_loss
// derivation: vmf::log_norm_const_batch

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use probdml::nivmf::{self, ProxyBatch, ProxyDistance};
use probdml::vmf;
use probdml::Labels;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use std::hint::black_box;
use std::time::Duration;

fn unit(dim: usize, seed: u64) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let v: Vec<f64> = (0..dim).map(|_| rng.sample(StandardNormal)).collect();
    let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    v.iter().map(|x| x / n).collect()
}

fn quick(group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>) {
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
}

fn bench_divergences(c: &mut Criterion) {
    let mut group = c.benchmark_group("nivmf");
    quick(&mut group);
    for dim in [3usize, 128] {
        let (mz, mp) = (unit(dim, 1), unit(dim, 2));
        let nz: Vec<f64> = mz.iter().map(|v| v * 50.0).collect();
        let np: Vec<f64> = mp.iter().map(|v| v * 60.0).collect();
        group.bench_function(BenchmarkId::new("kl_vmf/fast", dim), |b| {
            b.iter(|| {
                nivmf::kl_vmf(
                    black_box(&mz),
                    black_box(50.0),
                    black_box(&mp),
                    black_box(60.0),
                )
            })
        });
        group.bench_function(BenchmarkId::new("kl_vmf/fast_near", dim), |b| {
            b.iter(|| {
                nivmf::kl_vmf(
                    black_box(&mz),
                    black_box(50.0),
                    black_box(&mz),
                    black_box(50.5),
                )
            })
        });
        group.bench_function(BenchmarkId::new("log_ppk/fast_gamma1", dim), |b| {
            b.iter(|| nivmf::log_ppk(black_box(&nz), black_box(&np), black_box(1.0)))
        });
        group.bench_function(BenchmarkId::new("log_ppk/fast_gamma_half", dim), |b| {
            b.iter(|| nivmf::log_ppk(black_box(&nz), black_box(&np), black_box(0.5)))
        });
        group.bench_function(BenchmarkId::new("kl_vmf/exact", dim), |b| {
            b.iter(|| {
                nivmf::exact::kl_vmf(
                    black_box(&mz),
                    black_box(50.0),
                    black_box(&mp),
                    black_box(60.0),
                )
            })
        });
        group.bench_function(BenchmarkId::new("log_ppk/exact", dim), |b| {
            b.iter(|| nivmf::exact::log_ppk(black_box(&nz), black_box(&np), black_box(1.0)))
        });
        let kappas: Vec<f64> = (0..dim).map(|i| 10.0 + (i % 7) as f64 * 5.0).collect();
        group.bench_function(BenchmarkId::new("log_density/fast", dim), |b| {
            b.iter(|| nivmf::log_density(black_box(&mz), black_box(&mp), black_box(&kappas)))
        });
        group.bench_function(BenchmarkId::new("log_density/exact", dim), |b| {
            b.iter(|| nivmf::exact::log_density(black_box(&mz), black_box(&mp), black_box(&kappas)))
        });
        group.bench_function(BenchmarkId::new("log_density_heuristic/fast", dim), |b| {
            b.iter(|| {
                nivmf::log_density_heuristic(black_box(&mz), black_box(&mp), black_box(&kappas))
            })
        });
        group.bench_function(BenchmarkId::new("log_density_heuristic/exact", dim), |b| {
            b.iter(|| {
                nivmf::exact::log_density_heuristic(
                    black_box(&mz),
                    black_box(&mp),
                    black_box(&kappas),
                )
            })
        });
        let law = nivmf::NonIsotropicVmf::new(&mp, &kappas).unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        group.bench_function(BenchmarkId::new("NonIsotropicVmf::sample", dim), |b| {
            b.iter(|| law.sample(&mut rng))
        });
    }
    group.finish();
}

fn bench_normaliser(c: &mut Criterion) {
    let mut group = c.benchmark_group("vmf::log_norm_const_batch");
    quick(&mut group);
    let n = 4096;
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let kappas: Vec<f64> = (0..n)
        .map(|_| 10f64.powf(rng.random_range(-3.0..5.0)))
        .collect();
    let mut out = vec![0.0; n];
    group.throughput(Throughput::Elements(n as u64));
    // M = 16 (ν = 7): the series and Hankel lanes of small orders; M = 3: the closed form;
    // M = 128, 512: the Debye lanes. Random κ, so chunks straddle regimes.
    for dim in [3usize, 16, 128, 512] {
        group.bench_function(BenchmarkId::new("log_norm_const_batch", dim), |b| {
            b.iter(|| vmf::log_norm_const_batch(dim, black_box(&kappas), &mut out))
        });
        group.bench_function(BenchmarkId::new("scalar_loop", dim), |b| {
            b.iter(|| {
                for (o, &k) in out.iter_mut().zip(&kappas) {
                    *o = vmf::log_norm_const(dim, black_box(k));
                }
            })
        });
    }
    group.finish();
}

fn batch(dim: usize, b: usize, c: usize) -> (Vec<f64>, Vec<usize>, Vec<f64>, Vec<f64>) {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let z: Vec<f64> = (0..b * dim)
        .map(|_| 5.0 * rng.sample::<f64, _>(StandardNormal))
        .collect();
    let labels: Vec<usize> = (0..b).map(|i| i % c).collect();
    let p: Vec<f64> = (0..c * dim)
        .map(|_| 4.0 * rng.sample::<f64, _>(StandardNormal))
        .collect();
    let k: Vec<f64> = (0..c * dim).map(|_| rng.random_range(5.0..50.0)).collect();
    (z, labels, p, k)
}

fn bench_losses(c: &mut Criterion) {
    let mut group = c.benchmark_group("nivmf::proxy_nca_loss");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    // The training size of ProxyNCA++: B = 256, C = 100, M = 128.
    let (z, labels, p, k) = batch(128, 256, 100);
    let full = ProxyBatch {
        embeddings: &z,
        labels: Labels::Usize(&labels),
        proxies: &p,
        concentrations: &k,
        dim: 128,
    };
    for (name, kind) in [
        ("proxy_nca_loss/ElVmf", ProxyDistance::ElVmf),
        ("proxy_nca_loss/KlVmf", ProxyDistance::KlVmf),
        ("proxy_nca_loss/BVmf", ProxyDistance::BVmf),
        ("proxy_nca_loss/Cosine", ProxyDistance::Cosine),
        ("proxy_nca_loss/NivMf", ProxyDistance::NivMf),
    ] {
        group.bench_function(BenchmarkId::new(name, "B256_C100_M128"), |b| {
            b.iter(|| nivmf::proxy_nca_loss(kind, black_box(&full), 0.5))
        });
    }
    let (z, labels, p, k) = batch(128, 32, 20);
    let small = ProxyBatch {
        embeddings: &z,
        labels: Labels::Usize(&labels),
        proxies: &p,
        concentrations: &k,
        dim: 128,
    };
    group.bench_function(
        BenchmarkId::new("proxy_nca_loss/ElNivMf_N5", "B32_C20_M128"),
        |b| {
            b.iter(|| {
                nivmf::proxy_nca_loss(
                    ProxyDistance::ElNivMf {
                        samples: 5,
                        seed: 1,
                    },
                    black_box(&small),
                    0.5,
                )
            })
        },
    );
    group.bench_function(BenchmarkId::new("proxy_anchor_loss", "B32_C20_M128"), |b| {
        b.iter(|| nivmf::proxy_anchor_loss(black_box(&small), 32.0, 0.1))
    });
    group.bench_function(BenchmarkId::new("joint_proxy_loss", "B32_C20_M128"), |b| {
        b.iter(|| nivmf::joint_proxy_loss(black_box(&small), 5, 1, 0.5, 0.5, 32.0, 0.1))
    });
    // The references at a size they can do: B = 4, C = 3, M = 8.
    let (z, labels, p, k) = batch(8, 4, 3);
    let tiny = ProxyBatch {
        embeddings: &z,
        labels: Labels::Usize(&labels),
        proxies: &p,
        concentrations: &k,
        dim: 8,
    };
    group.bench_function(
        BenchmarkId::new("proxy_nca_loss/ElVmf_fast", "B4_C3_M8"),
        |b| b.iter(|| nivmf::proxy_nca_loss(ProxyDistance::ElVmf, black_box(&tiny), 0.5)),
    );
    group.bench_function(
        BenchmarkId::new("proxy_nca_loss/ElVmf_exact", "B4_C3_M8"),
        |b| b.iter(|| nivmf::exact::proxy_nca_loss(ProxyDistance::ElVmf, black_box(&tiny), 0.5)),
    );
    group.bench_function(
        BenchmarkId::new("proxy_anchor_loss/exact", "B4_C3_M8"),
        |b| b.iter(|| nivmf::exact::proxy_anchor_loss(black_box(&tiny), 32.0, 0.1)),
    );
    group.finish();
}

criterion_group!(benches, bench_divergences, bench_normaliser, bench_losses);
criterion_main!(benches);
