//! Exact vs fast for the special functions of chapter 01, and the per-call cost of the fast
//! twins over the grids with speed targets (log_norm_const ≤ 30 ns over
//! M ∈ {3, 128, 512, 2048, 10⁴} × κ ∈ [10⁻³, 10⁵]; bessel_i_ratio ≤ 40 ns).
//!
//! Run: `cargo bench --bench special` (one thread; criterion reports the median per iteration,
//! and the grid benches divide by the number of points they evaluate).
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use probdml::{special, vmf};
use std::hint::black_box;
use std::time::Duration;

const DIMS: [usize; 5] = [3, 128, 512, 2048, 10_000];

/// 32 log-spaced κ in [10⁻³, 10⁵].
fn kappa_grid() -> Vec<f64> {
    (0..32)
        .map(|i| 10f64.powf(-3.0 + 8.0 * i as f64 / 31.0))
        .collect()
}

fn grid_points() -> Vec<(usize, f64)> {
    let kappas = kappa_grid();
    DIMS.iter()
        .flat_map(|&m| kappas.iter().map(move |&k| (m, k)))
        .collect()
}

fn bench_grids(c: &mut Criterion) {
    let points = grid_points();
    let mut group = c.benchmark_group("grid");
    group.throughput(Throughput::Elements(points.len() as u64));
    group.bench_function("log_norm_const/fast", |b| {
        b.iter(|| {
            let mut acc = 0.0;
            for &(m, k) in &points {
                acc += vmf::log_norm_const(black_box(m), black_box(k));
            }
            acc
        })
    });
    group.bench_function("mean_resultant_length/fast", |b| {
        b.iter(|| {
            let mut acc = 0.0;
            for &(m, k) in &points {
                acc += vmf::mean_resultant_length(black_box(m), black_box(k));
            }
            acc
        })
    });
    group.bench_function("bessel_i_ratio/fast", |b| {
        b.iter(|| {
            let mut acc = 0.0;
            for &(m, k) in &points {
                acc += special::bessel_i_ratio(black_box(m as f64 / 2.0 - 1.0), black_box(k));
            }
            acc
        })
    });
    group.bench_function("log_bessel_i/fast", |b| {
        b.iter(|| {
            let mut acc = 0.0;
            for &(m, k) in &points {
                acc += special::log_bessel_i(black_box(m as f64 / 2.0 - 1.0), black_box(k));
            }
            acc
        })
    });
    group.finish();
}

/// Single points, one per regime, exact against fast.
fn bench_exact_vs_fast(c: &mut Criterion) {
    let cases: [(&str, f64, f64); 6] = [
        ("series nu=2.5 x=10", 2.5, 10.0),
        ("hankel nu=0 x=1e4", 0.0, 1e4),
        ("recurrence nu=15 x=100", 15.0, 100.0),
        ("debye nu=255 x=50", 255.0, 50.0),
        ("debye nu=4999 x=1e4", 4999.0, 1e4),
        ("half nu=0.5 x=5", 0.5, 5.0),
    ];
    let mut group = c.benchmark_group("exact_vs_fast");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2));
    for (name, nu, x) in cases {
        group.bench_with_input(
            BenchmarkId::new("log_bessel_i/fast", name),
            &(nu, x),
            |b, &(nu, x)| b.iter(|| special::log_bessel_i(black_box(nu), black_box(x))),
        );
        group.bench_with_input(
            BenchmarkId::new("log_bessel_i/exact", name),
            &(nu, x),
            |b, &(nu, x)| b.iter(|| special::exact::log_bessel_i(black_box(nu), black_box(x))),
        );
        group.bench_with_input(
            BenchmarkId::new("bessel_i_ratio/fast", name),
            &(nu, x),
            |b, &(nu, x)| b.iter(|| special::bessel_i_ratio(black_box(nu), black_box(x))),
        );
        group.bench_with_input(
            BenchmarkId::new("bessel_i_ratio/exact", name),
            &(nu, x),
            |b, &(nu, x)| b.iter(|| special::exact::bessel_i_ratio(black_box(nu), black_box(x))),
        );
        let dim = (2.0 * nu + 2.0) as usize;
        group.bench_with_input(
            BenchmarkId::new("log_norm_const/fast", name),
            &(dim, x),
            |b, &(m, k)| b.iter(|| vmf::log_norm_const(black_box(m), black_box(k))),
        );
        group.bench_with_input(
            BenchmarkId::new("log_norm_const/exact", name),
            &(dim, x),
            |b, &(m, k)| b.iter(|| vmf::exact::log_norm_const(black_box(m), black_box(k))),
        );
        group.bench_with_input(
            BenchmarkId::new("mean_resultant_length/fast", name),
            &(dim, x),
            |b, &(m, k)| b.iter(|| vmf::mean_resultant_length(black_box(m), black_box(k))),
        );
        group.bench_with_input(
            BenchmarkId::new("mean_resultant_length/exact", name),
            &(dim, x),
            |b, &(m, k)| b.iter(|| vmf::exact::mean_resultant_length(black_box(m), black_box(k))),
        );
    }
    group.finish();
}

/// One order, 4096 log-spaced arguments in [10⁻³, 10⁵]: the batch kernel against the loop of
/// scalar calls it replaces, below (ν = 0, 1.5, 10: the series, Hankel and recurrence lanes;
/// ν = ½: the closed form in lanes) and above (ν = 63, 255, Debye lanes) the Debye threshold.
fn bench_log_bessel_i_batch(c: &mut Criterion) {
    let xs: Vec<f64> = (0..4096)
        .map(|i| 10f64.powf(-3.0 + 8.0 * i as f64 / 4095.0))
        .collect();
    let mut out = vec![0.0; xs.len()];
    let mut group = c.benchmark_group("special::log_bessel_i_batch");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(xs.len() as u64));
    for nu in [0.0, 0.5, 1.5, 10.0, 63.0, 255.0] {
        group.bench_with_input(BenchmarkId::new("log_bessel_i_batch", nu), &nu, |b, &nu| {
            b.iter(|| special::log_bessel_i_batch(nu, black_box(&xs), &mut out).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("scalar_loop", nu), &nu, |b, &nu| {
            b.iter(|| {
                for (o, &x) in out.iter_mut().zip(black_box(&xs)) {
                    *o = special::log_bessel_i(nu, x);
                }
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    bench_grids,
    bench_exact_vs_fast,
    bench_log_bessel_i_batch
);
criterion_main!(benches);
