//! Chapter-08 metrics: the two speed targets and exact against fast on small inputs.
//!
//! * `ood/auroc+auprc n=1e6+1e6` — AUROC and AUPRC of 10⁶ ID and 10⁶ OOD scores (target
//!   ≤ 300 ms for both);
//! * `retrieval/evaluate_retrieval map_at_k@10 recall_at_k@1,5,10 n=10000 D=128` — mAP@10 and
//!   recall@{1, 5, 10} for 10⁴ queries against themselves at D = 128, Euclidean, on every core
//!   rayon sees (target ≤ 3 s with two cores);
//! * `retrieval/evaluate_retrieval f32 threads=<t> …` — the same search on `f32` embeddings
//!   (borrowed, no copy) at one and two threads (`Retrieval::with_threads`): the rows that
//!   `scripts/compare-peers.sh` sets against faiss-cpu's `IndexFlatL2` (target: ≥ 1.5× faster
//!   at one thread and at two, with the exact twin's results);
//! * `exact_vs_fast/<function>/{fast,exact}` — each registered metric on a small input.
//!
//! Run: `cargo bench --bench metrics` (quick look:
//! `cargo bench --bench metrics -- --warm-up-time 1 --measurement-time 3`). Criterion reports
//! the median time per iteration.
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use probdml::metrics::{self, exact, Distance, Embeddings, Retrieval};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};
use std::hint::black_box;
use std::time::Duration;

/// Scores of an OOD detector: ID ~ N(0, 1), OOD ~ N(1, 1), rounded to 1/1000 so that ties occur.
fn scores(n: usize, seed: u64) -> (Vec<f64>, Vec<f64>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut draw = |shift: f64| -> Vec<f64> {
        (0..n)
            .map(|_| {
                let z: f64 = StandardNormal.sample(&mut rng);
                ((z + shift) * 1000.0).round() / 1000.0
            })
            .collect()
    };
    let id = draw(0.0);
    let ood = draw(1.0);
    (id, ood)
}

/// `n` unit embeddings in `classes` Gaussian clusters of dimension `dim`, with their labels.
fn clustered(n: usize, dim: usize, classes: usize, seed: u64) -> (Vec<f64>, Vec<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let centres: Vec<f64> = (0..classes * dim)
        .map(|_| StandardNormal.sample(&mut rng))
        .collect();
    let mut data = Vec::with_capacity(n * dim);
    let mut labels = Vec::with_capacity(n);
    for _ in 0..n {
        let c = rng.random_range(0..classes);
        let row: Vec<f64> = (0..dim)
            .map(|d| {
                let z: f64 = StandardNormal.sample(&mut rng);
                centres[c * dim + d] + 0.8 * z
            })
            .collect();
        let norm = row.iter().map(|x| x * x).sum::<f64>().sqrt();
        data.extend(row.iter().map(|x| x / norm));
        labels.push(c);
    }
    (data, labels)
}

fn bench_ood(c: &mut Criterion) {
    let (id, ood) = scores(1_000_000, 1);
    let mut group = c.benchmark_group("ood");
    group.sample_size(10);
    group.bench_function("auroc+auprc n=1e6+1e6", |b| {
        b.iter(|| {
            let roc = metrics::OodScores {
                id: black_box(&id),
                ood: black_box(&ood),
            }
            .auroc()
            .unwrap();
            let pr = metrics::OodScores {
                id: black_box(&id),
                ood: black_box(&ood),
            }
            .auprc()
            .unwrap();
            roc + pr
        })
    });
    group.bench_function("auroc/fast n=1e6+1e6", |b| {
        b.iter(|| {
            metrics::OodScores {
                id: black_box(&id),
                ood: black_box(&ood),
            }
            .auroc()
            .unwrap()
        })
    });
    group.bench_function("auprc/fast n=1e6+1e6", |b| {
        b.iter(|| {
            metrics::OodScores {
                id: black_box(&id),
                ood: black_box(&ood),
            }
            .auprc()
            .unwrap()
        })
    });
    group.finish();
}

fn bench_retrieval(c: &mut Criterion) {
    let (data, labels) = clustered(10_000, 128, 100, 2);
    let task = Retrieval::leave_one_out(
        Embeddings::new(&data, 128).unwrap(),
        &labels,
        Distance::Euclidean,
    )
    .unwrap();
    let mut group = c.benchmark_group("retrieval");
    group.sample_size(10);
    group.bench_function(
        "evaluate_retrieval map_at_k@10 recall_at_k@1,5,10 n=10000 D=128",
        |b| b.iter(|| metrics::evaluate_retrieval(black_box(&task), &[1, 5, 10]).unwrap()),
    );
    let cosine = Retrieval::leave_one_out(
        Embeddings::new(&data, 128).unwrap(),
        &labels,
        Distance::Cosine,
    )
    .unwrap();
    group.bench_function("nearest_neighbours/fast k=10 cosine n=10000 D=128", |b| {
        b.iter(|| metrics::nearest_neighbours(black_box(&cosine), 10).unwrap())
    });
    let data32: Vec<f32> = data.iter().map(|&x| x as f32).collect();
    let task32 = Retrieval::leave_one_out(
        Embeddings::from_f32(&data32, 128).unwrap(),
        &labels,
        Distance::Euclidean,
    )
    .unwrap();
    for threads in [1, 2] {
        let task = task32.with_threads(threads).unwrap();
        group.bench_function(
            format!(
                "evaluate_retrieval f32 threads={threads} map_at_k@10 recall_at_k@1,5,10 n=10000 D=128"
            ),
            |b| b.iter(|| metrics::evaluate_retrieval(black_box(&task), &[1, 5, 10]).unwrap()),
        );
    }
    group.finish();
}

/// Each registered metric, fast against exact, on inputs the exact twin handles in
/// milliseconds.
fn bench_exact_vs_fast(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact_vs_fast");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));

    let (data, labels) = clustered(400, 16, 10, 3);
    let task = Retrieval::leave_one_out(
        Embeddings::new(&data, 16).unwrap(),
        &labels,
        Distance::Euclidean,
    )
    .unwrap();
    type RetrievalMetric = fn(&Retrieval<'_>) -> f64;
    let retrieval: [(&str, RetrievalMetric, RetrievalMetric); 6] = [
        (
            "nearest_neighbours",
            |t| metrics::nearest_neighbours(t, 10).unwrap().distances(0)[0],
            |t| exact::nearest_neighbours(t, 10).unwrap().distances(0)[0],
        ),
        (
            "recall_at_k",
            |t| metrics::recall_at_k(t, 5).unwrap(),
            |t| exact::recall_at_k(t, 5).unwrap(),
        ),
        (
            "precision_at_k",
            |t| metrics::precision_at_k(t, 5).unwrap(),
            |t| exact::precision_at_k(t, 5).unwrap(),
        ),
        (
            "map_at_k",
            |t| metrics::map_at_k(t, 5).unwrap(),
            |t| exact::map_at_k(t, 5).unwrap(),
        ),
        (
            "map_at_r",
            |t| metrics::map_at_r(t).unwrap(),
            |t| exact::map_at_r(t).unwrap(),
        ),
        (
            "r_precision",
            |t| metrics::r_precision(t).unwrap(),
            |t| exact::r_precision(t).unwrap(),
        ),
    ];
    for (name, fast, slow) in retrieval {
        group.bench_with_input(
            BenchmarkId::new(format!("{name}/fast"), "n=400 D=16"),
            &task,
            |b, t| b.iter(|| fast(black_box(t))),
        );
        group.bench_with_input(
            BenchmarkId::new(format!("{name}/exact"), "n=400 D=16"),
            &task,
            |b, t| b.iter(|| slow(black_box(t))),
        );
    }

    let (id, ood) = scores(1000, 4);
    group.bench_function("auroc/fast n=1000+1000", |b| {
        b.iter(|| {
            metrics::OodScores {
                id: black_box(&id),
                ood: black_box(&ood),
            }
            .auroc()
        })
    });
    group.bench_function("auroc/exact n=1000+1000", |b| {
        b.iter(|| exact::auroc(black_box(&id), black_box(&ood)))
    });
    group.bench_function("auprc/fast n=1000+1000", |b| {
        b.iter(|| {
            metrics::OodScores {
                id: black_box(&id),
                ood: black_box(&ood),
            }
            .auprc()
        })
    });
    group.bench_function("auprc/exact n=1000+1000", |b| {
        b.iter(|| exact::auprc(black_box(&id), black_box(&ood)))
    });
    group.bench_function("kendall_tau_b/fast n=1000", |b| {
        b.iter(|| metrics::kendall_tau_b(black_box(&id), black_box(&ood)))
    });
    group.bench_function("kendall_tau_b/exact n=1000", |b| {
        b.iter(|| exact::kendall_tau_b(black_box(&id), black_box(&ood)))
    });

    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let uncertainty: Vec<f64> = (0..1000).map(|_| rng.random::<f64>()).collect();
    let performance: Vec<f64> = uncertainty
        .iter()
        .map(|&u| if rng.random::<f64>() > u { 1.0 } else { 0.0 })
        .collect();
    group.bench_function("sparsification_curve/fast n=1000", |b| {
        b.iter(|| metrics::sparsification_curve(black_box(&uncertainty), black_box(&performance)))
    });
    group.bench_function("sparsification_curve/exact n=1000", |b| {
        b.iter(|| exact::sparsification_curve(black_box(&uncertainty), black_box(&performance)))
    });
    group.bench_function("ece_at_k/fast n=1000", |b| {
        b.iter(|| metrics::ece_at_k(black_box(&uncertainty), black_box(&performance), 10))
    });
    group.bench_function("ece_at_k/exact n=1000", |b| {
        b.iter(|| exact::ece_at_k(black_box(&uncertainty), black_box(&performance), 10))
    });
    group.bench_function("binned_kendall_tau/fast n=1000", |b| {
        b.iter(|| metrics::binned_kendall_tau(black_box(&uncertainty), black_box(&performance), 20))
    });
    group.bench_function("binned_kendall_tau/exact n=1000", |b| {
        b.iter(|| exact::binned_kendall_tau(black_box(&uncertainty), black_box(&performance), 20))
    });
    let confidence: Vec<f64> = uncertainty.iter().map(|u| 1.0 - u).collect();
    let correct: Vec<bool> = performance.iter().map(|&p| p == 1.0).collect();
    group.bench_function("expected_calibration_error/fast n=1000", |b| {
        b.iter(|| {
            metrics::expected_calibration_error(black_box(&confidence), black_box(&correct), 10)
        })
    });
    group.bench_function("expected_calibration_error/exact n=1000", |b| {
        b.iter(|| {
            exact::expected_calibration_error(black_box(&confidence), black_box(&correct), 10)
        })
    });
    let votes: Vec<Vec<usize>> = (0..1000)
        .map(|_| (0..20).map(|_| rng.random_range(0..3)).collect())
        .collect();
    let truth: Vec<usize> = (0..1000).map(|_| rng.random_range(0..3)).collect();
    group.bench_function("closed_set_ece/fast n=1000 S=20", |b| {
        b.iter(|| metrics::closed_set_ece(black_box(&votes), black_box(&truth), 10))
    });
    group.bench_function("closed_set_ece/exact n=1000 S=20", |b| {
        b.iter(|| exact::closed_set_ece(black_box(&votes), black_box(&truth), 10))
    });
    group.finish();
}

criterion_group!(benches, bench_ood, bench_retrieval, bench_exact_vs_fast);
criterion_main!(benches);
