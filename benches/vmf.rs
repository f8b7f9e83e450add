//! Exact vs fast for the vMF derivations of chapter 02, at the sizes the papers use
//! (embedding dimension M = 512, concentration κ = 50: nivMF's embedding norms at M = 512 run
//! from 46 to 140), and Wood's sampler against the cost of the `M` standard normals it needs
//! anyway.
//!
//! Run: `cargo bench --bench vmf` (or `-- --quick`). Criterion reports the median per call.

// derivation: vmf::log_density
// derivation: vmf::entropy
// derivation: vmf::kl_to_uniform
// derivation: vmf::VonMisesFisher::sample
// derivation: vmf::kappa_mle
// derivation: vmf::kappa_sra
// derivation: vmf::mean_resultant
// derivation: vmf::mean_resultant_length_batch
// derivation: vmf::kappa_mle_batch
// derivation: vmf::kappa_sra_batch
// derivation: vmf::VonMisesFisher::sample_n_into
// derivation: ziggurat::fill_standard_normal

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use probdml::vmf;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use std::hint::black_box;
use std::time::Duration;

const DIM: usize = 512;
const KAPPA: f64 = 50.0;

/// A seeded unit vector of length `dim`.
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

fn bench_density(c: &mut Criterion) {
    let mu = unit(DIM, 1);
    let x = unit(DIM, 2);
    let mut group = c.benchmark_group("vmf::log_density");
    quick(&mut group);
    group.bench_function("fast", |b| {
        b.iter(|| vmf::log_density(black_box(&x), black_box(&mu), black_box(KAPPA)))
    });
    group.bench_function("exact", |b| {
        b.iter(|| vmf::exact::log_density(black_box(&x), black_box(&mu), black_box(KAPPA)))
    });
    group.finish();

    for (name, fast, exact) in [
        (
            "vmf::entropy",
            vmf::entropy as fn(usize, f64) -> f64,
            vmf::exact::entropy as fn(usize, f64) -> f64,
        ),
        (
            "vmf::kl_to_uniform",
            vmf::kl_to_uniform,
            vmf::exact::kl_to_uniform,
        ),
    ] {
        let mut group = c.benchmark_group(name);
        quick(&mut group);
        // κ = 50 at M = 512 is in the series regime of the KL (κ² ≤ 32M); κ = 500 is not.
        for kappa in [KAPPA, 500.0] {
            group.bench_with_input(BenchmarkId::new("fast", kappa), &kappa, |b, &k| {
                b.iter(|| fast(black_box(DIM), black_box(k)))
            });
            group.bench_with_input(BenchmarkId::new("exact", kappa), &kappa, |b, &k| {
                b.iter(|| exact(black_box(DIM), black_box(k)))
            });
        }
        group.finish();
    }
}

fn bench_kappa(c: &mut Criterion) {
    // R̄ = A_512(50) ≈ 0.095 (plain branch) and R̄ = 0.99 (complement branch).
    let rbars = [vmf::mean_resultant_length(DIM, KAPPA), 0.99];
    let mut group = c.benchmark_group("vmf::kappa_mle");
    quick(&mut group);
    for rbar in rbars {
        group.bench_with_input(BenchmarkId::new("fast", rbar), &rbar, |b, &r| {
            b.iter(|| vmf::kappa_mle(black_box(DIM), black_box(r)))
        });
        group.bench_with_input(BenchmarkId::new("exact", rbar), &rbar, |b, &r| {
            b.iter(|| vmf::exact::kappa_mle(black_box(DIM), black_box(r)))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("vmf::kappa_sra");
    quick(&mut group);
    for rbar in rbars {
        for steps in 0..=2usize {
            let id = format!("R̄={rbar:.3}/steps={steps}");
            group.bench_with_input(
                BenchmarkId::new("fast", &id),
                &(rbar, steps),
                |b, &(r, s)| b.iter(|| vmf::kappa_sra(black_box(DIM), black_box(r), black_box(s))),
            );
            group.bench_with_input(
                BenchmarkId::new("exact", &id),
                &(rbar, steps),
                |b, &(r, s)| {
                    b.iter(|| vmf::exact::kappa_sra(black_box(DIM), black_box(r), black_box(s)))
                },
            );
        }
    }
    group.finish();

    let mut group = c.benchmark_group("vmf::mean_resultant_length_complement");
    quick(&mut group);
    for kappa in [KAPPA, 1e6] {
        group.bench_with_input(BenchmarkId::new("fast", kappa), &kappa, |b, &k| {
            b.iter(|| vmf::mean_resultant_length_complement(black_box(DIM), black_box(k)))
        });
        group.bench_with_input(BenchmarkId::new("exact", kappa), &kappa, |b, &k| {
            b.iter(|| vmf::exact::mean_resultant_length_complement(black_box(DIM), black_box(k)))
        });
    }
    group.finish();
}

fn bench_mean_resultant(c: &mut Criterion) {
    // S = 1000 sampled embeddings of dimension 512 (LAM's uncertainty from sampled networks).
    let n = 1000;
    let vmf = vmf::VonMisesFisher::new(&unit(DIM, 3), KAPPA).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let samples: Vec<f64> = (0..n).flat_map(|_| vmf.sample(&mut rng)).collect();
    let mut group = c.benchmark_group("vmf::mean_resultant");
    quick(&mut group);
    group.bench_function("fast", |b| {
        b.iter(|| vmf::mean_resultant(black_box(&samples), DIM))
    });
    group.bench_function("exact", |b| {
        b.iter(|| vmf::exact::mean_resultant(black_box(&samples), DIM))
    });
    group.bench_function("lam_uncertainty/fast", |b| {
        b.iter(|| vmf::lam_uncertainty(black_box(&samples), DIM))
    });
    group.finish();
}

fn bench_sampler(c: &mut Criterion) {
    let mu = unit(DIM, 5);
    let fast = vmf::VonMisesFisher::new(&mu, KAPPA).unwrap();
    let exact = vmf::exact::VonMisesFisher::new(&mu, KAPPA).unwrap();
    let mut out = vec![0.0; DIM];
    let mut group = c.benchmark_group("vmf::sample");
    quick(&mut group);
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    group.bench_function("fast/sample_into", |b| {
        b.iter(|| {
            fast.sample_into(&mut rng, &mut out).unwrap();
            black_box(out[0])
        })
    });
    group.bench_function("fast/sample_cosine", |b| {
        b.iter(|| fast.sample_cosine(&mut rng))
    });
    group.bench_function("exact/sample_into", |b| {
        b.iter(|| {
            exact.sample_into(&mut rng, &mut out).unwrap();
            black_box(out[0])
        })
    });
    group.bench_function("exact/sample_cosine", |b| {
        b.iter(|| exact.sample_cosine(&mut rng))
    });
    // The floor: the M standard normals (M − 1 for the tangent direction) any method draws,
    // by the crate's ziggurat (what the sampler uses) and by rand_distr's (what a user would
    // call instead).
    group.bench_function("baseline/512_standard_normals", |b| {
        b.iter(|| {
            probdml::ziggurat::fill_standard_normal(&mut rng, &mut out);
            black_box(out[0])
        })
    });
    group.bench_function("baseline/512_standard_normals_rand_distr", |b| {
        b.iter(|| {
            for v in out.iter_mut() {
                *v = rng.sample(StandardNormal);
            }
            black_box(out[0])
        })
    });
    group.bench_function("construct/fast", |b| {
        b.iter(|| vmf::VonMisesFisher::new(black_box(&mu), KAPPA))
    });
    group.bench_function("construct/exact", |b| {
        b.iter(|| vmf::exact::VonMisesFisher::new(black_box(&mu), KAPPA))
    });
    group.finish();
}

/// The ziggurat against rand_distr's `StandardNormal` (the same algorithm, what a user would call
/// instead), 4096 draws per call from the same generator: ChaCha8, and the crate's eight-lane
/// generator, whose words come in bulk.
fn bench_standard_normal(c: &mut Criterion) {
    let mut group = c.benchmark_group("ziggurat::fill_standard_normal");
    quick(&mut group);
    normals_against_rand_distr(&mut group, "", ChaCha8Rng::seed_from_u64(9));
    normals_against_rand_distr(
        &mut group,
        "eight_lanes/",
        probdml::xoshiro_x8::Xoshiro256PlusPlusX8::seed_from_u64(9),
    );
    group.finish();
}

/// The two normal samplers of [`bench_standard_normal`] on one generator (`label` names it in
/// the bench ids).
fn normals_against_rand_distr<G: Rng>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    label: &str,
    mut rng: G,
) {
    let mut out = vec![0.0; 4096];
    group.bench_function(format!("fast/fill_standard_normal/{label}4096"), |b| {
        b.iter(|| {
            probdml::ziggurat::fill_standard_normal(&mut rng, &mut out);
            black_box(out[0])
        })
    });
    group.bench_function(format!("peer/rand_distr_StandardNormal/{label}4096"), |b| {
        b.iter(|| {
            for v in out.iter_mut() {
                *v = rng.sample(StandardNormal);
            }
            black_box(out[0])
        })
    });
}

/// The batch kernels against the loops of scalar calls they replace: 4096 κ (A_M) or R̄ (κ̂)
/// per call at M ∈ {16, 128} (and Sra's two steps at M ∈ {128, 512}), and 10⁴ draws of one vMF at M = 128, κ = 50 against as many
/// single draws and against the 10⁴·128 standard normals alone.
fn bench_batches(c: &mut Criterion) {
    let kappas: Vec<f64> = (0..4096)
        .map(|i| 10f64.powf(-3.0 + 8.0 * i as f64 / 4095.0))
        .collect();
    let rbars: Vec<f64> = (0..4096)
        .map(|i| 0.001 + 0.998 * i as f64 / 4095.0)
        .collect();
    let mut out = vec![0.0; 4096];
    let mut group = c.benchmark_group("vmf::batch");
    quick(&mut group);
    for dim in [16usize, 128] {
        group.bench_with_input(
            BenchmarkId::new("mean_resultant_length_batch", dim),
            &dim,
            |b, &dim| {
                b.iter(|| vmf::mean_resultant_length_batch(dim, black_box(&kappas), &mut out))
            },
        );
        group.bench_with_input(
            BenchmarkId::new("mean_resultant_length/scalar_loop", dim),
            &dim,
            |b, &dim| {
                b.iter(|| {
                    for (o, &k) in out.iter_mut().zip(black_box(&kappas)) {
                        *o = vmf::mean_resultant_length(dim, k);
                    }
                })
            },
        );
        group.bench_with_input(BenchmarkId::new("kappa_mle_batch", dim), &dim, |b, &dim| {
            b.iter(|| vmf::kappa_mle_batch(dim, black_box(&rbars), &mut out))
        });
        group.bench_with_input(
            BenchmarkId::new("kappa_mle/scalar_loop", dim),
            &dim,
            |b, &dim| {
                b.iter(|| {
                    for (o, &r) in out.iter_mut().zip(black_box(&rbars)) {
                        *o = vmf::kappa_mle(dim, r).unwrap();
                    }
                })
            },
        );
    }
    for dim in [128usize, 512] {
        group.bench_with_input(BenchmarkId::new("kappa_sra_batch", dim), &dim, |b, &dim| {
            b.iter(|| vmf::kappa_sra_batch(dim, black_box(&rbars), 2, &mut out))
        });
        group.bench_with_input(
            BenchmarkId::new("kappa_sra/scalar_loop", dim),
            &dim,
            |b, &dim| {
                b.iter(|| {
                    for (o, &r) in out.iter_mut().zip(black_box(&rbars)) {
                        *o = vmf::kappa_sra(dim, r, 2).unwrap();
                    }
                })
            },
        );
    }
    let (dim, n) = (128usize, 10_000usize);
    let sampler = vmf::VonMisesFisher::new(&unit(dim, 5), KAPPA).unwrap();
    let mut rows = vec![0.0; n * dim];
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    group.bench_function("sample_n_into/128x10000", |b| {
        b.iter(|| sampler.sample_n_into(&mut rng, n, &mut rows).unwrap())
    });
    group.bench_function("sample_into_loop/128x10000", |b| {
        b.iter(|| {
            for row in rows.chunks_exact_mut(dim) {
                sampler.sample_into(&mut rng, row).unwrap();
            }
        })
    });
    group.bench_function("baseline/128x10000_standard_normals", |b| {
        b.iter(|| {
            probdml::ziggurat::fill_standard_normal(&mut rng, &mut rows);
            black_box(rows[0])
        })
    });
    group.bench_function("baseline/128x10000_standard_normals_rand_distr", |b| {
        b.iter(|| {
            for v in rows.iter_mut() {
                *v = rng.sample(StandardNormal);
            }
            black_box(rows[0])
        })
    });
    group.finish();
}

/// `vmf::log_norm_const_batch` on the inputs of `examples/compare_peers.rs` (2500 κ log-spaced
/// over 10⁻³ … 10⁴ per M, sorted) and the same κ shuffled, where the small orders' regimes
/// (series, recurrence, Hankel) would otherwise straddle most chunks of lanes; the scalar loop
/// beside them. Per value: divide the median by 2500.
fn bench_log_norm_const_peers(c: &mut Criterion) {
    let n = 2500;
    let sorted: Vec<f64> = (0..n)
        .map(|i| 10f64.powf(-3.0 + 7.0 * i as f64 / (n - 1) as f64))
        .collect();
    let mut shuffled = sorted.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    for i in (1..n).rev() {
        shuffled.swap(i, rng.random_range(0..=i));
    }
    let mut out = vec![0.0; n];
    let mut group = c.benchmark_group("vmf::log_norm_const_batch/peers");
    quick(&mut group);
    for dim in [3usize, 16, 128, 512] {
        for (order, kappas) in [("sorted", &sorted), ("shuffled", &shuffled)] {
            group.bench_function(BenchmarkId::new(format!("batch/{order}"), dim), |b| {
                b.iter(|| vmf::log_norm_const_batch(dim, black_box(kappas), &mut out))
            });
        }
        group.bench_function(BenchmarkId::new("scalar_loop", dim), |b| {
            b.iter(|| {
                for (o, &k) in out.iter_mut().zip(&sorted) {
                    *o = vmf::log_norm_const(dim, black_box(k));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    bench_density,
    bench_kappa,
    bench_mean_resultant,
    bench_sampler,
    bench_standard_normal,
    bench_batches,
    bench_log_norm_const_peers
);
criterion_main!(benches);
