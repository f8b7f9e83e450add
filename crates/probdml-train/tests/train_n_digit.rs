//! N-digit MNIST in the training pipeline (HIB, Oh et al. 2019, §4 and Appendix A): the
//! 28 × 56 and 28 × 84 images through point embeddings and HIB end to end at a tiny scale, the
//! run files of HIB's tasks, of its embedding subset and of the curves, the limits' rule, and
//! HIB's match probability against its η.
//!
//! The end-to-end runs need MNIST's official files (`bash scripts/setup-data.sh`; CI runs it
//! first); without them they say so and check nothing else.

#[path = "train_support/mod.rs"]
mod train_support;

use probdml_train::checkpoint::layout::CURVES;
use probdml_train::config::{
    DataOptions, DatasetChoice, MethodConfig, MethodKind, OptimiserOptions, TrainConfig,
    ValidConfig,
};
use probdml_train::data::default_data_dir;
use probdml_train::evaluate::{CurvesFile, MAX_CURVE_POINTS};
use probdml_train::hib_experiment::{
    read_embedding, read_record, HibEmbedding, HibRunRecord, EMBEDDING_IMAGES,
};
use probdml_train::json::read_json;
use probdml_train::method::hib::{Hib, HibOptions};
use probdml_train::method::Method;
use probdml_train::prediction::{PredictRequest, Prediction};
use tch::{Device, Kind, Tensor};
use train_support::{assert_invalid, scratch, serial};

/// `method` on `digits`-digit MNIST: one epoch at batch 64 on `train` images, tested on `test`
/// images of each twin with 4 samples, in dimension `dim`.
fn n_digit_run(
    method: MethodConfig,
    digits: usize,
    dim: usize,
    train: usize,
    test: usize,
) -> TrainConfig {
    let mut c = TrainConfig {
        method,
        data: DataOptions {
            dataset: if digits == 2 {
                DatasetChoice::NDigitMnist2
            } else {
                DatasetChoice::NDigitMnist3
            },
            train_limit: Some(train),
            test_limit: Some(test),
        },
        optimiser: OptimiserOptions {
            epochs: 1,
            batch_size: 64,
            ..OptimiserOptions::DEFAULT
        },
        seed: 1,
        ..TrainConfig::default()
    };
    c.model.latent_dim = dim;
    c.evaluation.eval_samples = 4;
    c
}

fn hib(components: usize) -> MethodConfig {
    MethodConfig::Hib(HibOptions {
        components,
        ..HibOptions::DEFAULT
    })
}

/// Trains and evaluates `config` into a scratch folder; its `hib_tasks.json`,
/// `hib_embedding.json` and `curves.json`, or None without the MNIST files.
fn run(config: &TrainConfig, name: &str) -> Option<(HibRunRecord, HibEmbedding, CurvesFile)> {
    let data = default_data_dir();
    if !data.join("mnist").exists() {
        eprintln!(
            "note: {} absent, N-digit runs skipped; run `bash scripts/setup-data.sh`",
            data.display()
        );
        return None;
    }
    let out = scratch("train-n-digit", name);
    train_support::train_and_evaluate(config, &data, &out, false, Device::Cpu).unwrap();
    let record = read_record(&out).unwrap();
    let embedding = read_embedding(&out).unwrap();
    let curves: CurvesFile = read_json(&out.join(CURVES)).unwrap();
    let _ = std::fs::remove_dir_all(&out);
    Some((record, embedding, curves))
}

/// The embedding subset agrees with the record: its size, its method, and — when the subset is
/// the whole twin — each twin's mean η, which `hib_tasks.json` computes from all the images by
/// another path. `per_number` is how many test images show each number.
fn assert_embedding(r: &HibRunRecord, e: &HibEmbedding, per_number: usize) {
    assert_eq!(
        (e.method.as_str(), e.digits, e.latent_dim, e.seed),
        (r.method.as_str(), r.digits, r.latent_dim, 1)
    );
    assert_eq!(e.test_images, r.test_images);
    assert_eq!(e.index.len(), EMBEDDING_IMAGES.min(r.test_images));
    for twin in [&e.clean, &e.corrupt] {
        // The means are ℓ₂-normalised (chapter 09's backbone and HIB's means).
        for row in twin.mean.chunks(e.latent_dim) {
            let norm = row
                .iter()
                .map(|v| f64::from(*v).powi(2))
                .sum::<f64>()
                .sqrt();
            assert!((norm - 1.0).abs() < 1e-5, "‖μ‖ = {norm}");
        }
    }
    if e.index.len() == r.test_images {
        assert_eq!(e.index, (0..r.test_images).collect::<Vec<_>>());
        // Every number shows `per_number` times in the generator's test set.
        let mut counts = vec![0usize; 10usize.pow(e.digits as u32)];
        for &l in &e.label {
            counts[l] += 1;
        }
        assert!(counts.iter().all(|&c| c == per_number), "{counts:?}");
        for (twin, metrics) in [(&e.clean, &r.clean), (&e.corrupt, &r.corrupt)] {
            let mean = twin
                .eta
                .as_ref()
                .map(|eta| eta.iter().sum::<f64>() / eta.len() as f64);
            match (mean, metrics.mean_eta) {
                (Some(a), Some(b)) => assert!((a - b).abs() < 1e-12, "{a} vs {b}"),
                (None, None) => {}
                other => panic!("η in one file only: {other:?}"),
            }
        }
    }
}

/// `curves.json`: the ROC (HIB only: point embeddings have no uncertainty) thinned to at most
/// [`MAX_CURVE_POINTS`] vertices from (0, 0) to (1, 1), the 10 calibration bins.
fn assert_curves(c: &CurvesFile, has_eta: bool) {
    assert_eq!(c.roc.is_some(), has_eta, "{c:?}");
    if let Some(roc) = &c.roc {
        let (fpr, tpr) = (&roc.false_positive_rate, &roc.true_positive_rate);
        let vertices = c.roc_vertices.unwrap();
        assert_eq!(fpr.len(), vertices.min(MAX_CURVE_POINTS));
        assert_eq!(tpr.len(), fpr.len());
        assert_eq!((fpr[0], tpr[0]), (0.0, 0.0));
        assert_eq!((fpr[fpr.len() - 1], tpr[tpr.len() - 1]), (1.0, 1.0));
        assert!(fpr.windows(2).all(|w| w[0] <= w[1]) && tpr.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(c.calibration.as_ref().map(Vec::len), Some(10));
        assert!(c.sparsification.is_some());
    }
}

fn assert_sane(r: &HibRunRecord, method: &str, digits: usize, dim: usize, has_eta: bool) {
    assert_eq!(
        (r.method.as_str(), r.digits, r.latent_dim, r.pairs, r.epochs),
        (method, digits, dim, 10_000, 1)
    );
    for twin in [&r.clean, &r.corrupt] {
        assert!((0.0..=1.0).contains(&twin.verification_ap), "{r:?}");
        assert!((0.0..=1.0).contains(&twin.knn_accuracy), "{r:?}");
        assert_eq!(twin.mean_eta.is_some(), has_eta, "{r:?}");
        if let Some(eta) = twin.mean_eta {
            assert!((0.0..=1.0).contains(&eta), "{r:?}");
        }
    }
    assert!(r.train_seconds > 0.0 && r.evaluation_seconds > 0.0, "{r:?}");
    assert!(!r.cpu.is_empty());
}

/// 2-digit MNIST (28 × 56, 100 numbers): point embeddings and HIB's MoG-2 train and are scored
/// on both twins.
#[test]
fn two_digits_point_and_mog2_end_to_end() {
    let _guard = serial();
    let point = n_digit_run(MethodKind::Deterministic.into(), 2, 2, 500, 200);
    if let Some((r, e, c)) = run(&point, "point-2") {
        assert_sane(&r, "point", 2, 2, false);
        assert_eq!((r.train_images, r.test_images), (500, 200));
        assert_embedding(&r, &e, 2);
        assert_curves(&c, false);
    }
    if let Some((r, e, c)) = run(&n_digit_run(hib(2), 2, 2, 500, 200), "mog2-2") {
        assert_sane(&r, "MoG-2", 2, 2, true);
        assert_embedding(&r, &e, 2);
        assert_curves(&c, true);
    }
}

/// 3-digit MNIST (28 × 84, 1 000 numbers: labels past a byte) with HIB's MoG-1 in D = 3.
#[test]
fn three_digits_mog1_end_to_end() {
    let _guard = serial();
    // One training image per number: no batch holds a matching pair, the case that drove
    // ln σ² past f32's range before the head's cap.
    if let Some((r, e, c)) = run(&n_digit_run(hib(1), 3, 3, 1000, 2000), "mog1-3") {
        assert_sane(&r, "MoG-1", 3, 3, true);
        assert_eq!((r.train_images, r.test_images), (1000, 2000));
        // A subset of 500 of the 2000 images, drawn as a seeded subset of each twin.
        assert_embedding(&r, &e, 2);
        assert_curves(&c, true);
    }
}

/// The limits are the generator's counts: multiples of 10ᴺ, refused by name otherwise.
#[test]
fn limits_must_be_multiples_of_the_numbers() {
    let c = n_digit_run(hib(1), 2, 2, 550, 200);
    assert_invalid(ValidConfig::new(c), "train-limit");
    let c = n_digit_run(hib(1), 3, 2, 1000, 2500);
    assert_invalid(ValidConfig::new(c), "test-limit");
    // A multiple, but one test image per number: no retrieval positive.
    let c = n_digit_run(hib(1), 3, 2, 1000, 1000);
    assert_invalid(ValidConfig::new(c), "test-limit");
    assert!(ValidConfig::new(n_digit_run(hib(1), 3, 2, 1000, 2000)).is_ok());
}

/// HIB's p(m | x₁, x₂) (eq. 4) of each image with itself, on the same draws, is 1 − η(x)
/// (eq. 9): the verification score and the uncertainty are one Monte Carlo estimate.
#[test]
fn match_probability_with_itself_is_one_minus_eta() {
    let _guard = serial();
    let config = n_digit_run(hib(2), 2, 3, 100, 100);
    let method = Hib::new(
        &HibOptions {
            components: 2,
            ..HibOptions::DEFAULT
        },
        &config.run_options(),
        Device::Cpu,
        4,
    )
    .unwrap();
    tch::manual_seed(8);
    let images = Tensor::rand([6, 1, 28, 56], (Kind::Float, Device::Cpu));
    let request = PredictRequest {
        samples: 5,
        seed: 11,
        batch: 2,
        device: Device::Cpu,
    };
    let Prediction::Distribution { uncertainty, .. } = method.predict(&images, &request).unwrap()
    else {
        panic!("HIB predicts a distribution");
    };
    let own = Tensor::arange(6, (Kind::Int64, Device::Cpu));
    let p = method
        .match_probability(&images, &own, &own, &request)
        .unwrap()
        .unwrap();
    let eta = Vec::<f64>::try_from(uncertainty.to_kind(Kind::Double)).unwrap();
    let p = Vec::<f64>::try_from(p.to_kind(Kind::Double)).unwrap();
    assert_eq!(p.len(), 6);
    for (p, eta) in p.iter().zip(&eta) {
        assert!((p - (1.0 - eta)).abs() < 1e-6, "p = {p}, η = {eta}");
        assert!(*p > 0.0 && *p < 1.0);
    }
    // Pairs of other images, an image twice: one probability each; index vectors of different
    // lengths are refused by name.
    let first = Tensor::from_slice(&[0i64, 1, 5, 5]);
    let second = Tensor::from_slice(&[3i64, 2, 0, 4]);
    let q = method
        .match_probability(&images, &first, &second, &request)
        .unwrap()
        .unwrap();
    assert_eq!(q.size(), [4]);
    assert_invalid(
        method.match_probability(&images, &first, &second.narrow(0, 0, 3), &request),
        "pairs",
    );
}
