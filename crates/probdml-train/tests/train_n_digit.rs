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
use probdml_train::guards::Position;
use probdml_train::hib_experiment::{
    read_embedding, read_record, HibEmbedding, HibRunRecord, EMBEDDING_IMAGES,
};
use probdml_train::json::read_json;
use probdml_train::method::hib::{Hib, HibMeans, HibOptions, PairIndices};
use probdml_train::method::{Batch, Method};
use probdml_train::n_digit_gap::NDigitGap;
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
            ..DataOptions::DEFAULT
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

/// HIB's loss in ℝ^D, as the paper trains it: point embeddings or C components.
fn paper_hib(components: usize, point: bool) -> HibOptions {
    HibOptions {
        components,
        point,
        means: HibMeans::Euclidean,
        ..HibOptions::DEFAULT
    }
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
    // The means on the sphere are ℓ₂-normalised (chapter 09's backbone, HIB's sphere variants);
    // the paper's ℝ^D means are not.
    let on_sphere = r.method.contains("(sphere)") || r.method.contains("(margin)");
    for twin in [&e.clean, &e.corrupt] {
        for row in twin.mean.chunks(e.latent_dim).filter(|_| on_sphere) {
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
        // Each twin's K-NN among its own images, recomputed from the embedding file by brute
        // force: the record's leave-one-out gallery.
        let galleries = r.knn_galleries.as_ref().unwrap();
        for (twin, recorded) in [&e.clean, &e.corrupt]
            .into_iter()
            .zip(galleries.twin_leave_one_out)
        {
            let own = leave_one_out_knn(&twin.mean, &e.label, e.latent_dim);
            assert!((own - recorded).abs() < 1e-12, "{own} vs {recorded}");
        }
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

/// K-NN (K = 5) accuracy of each row of `means` (`dim` values each) among the others: the
/// majority label of its five nearest by Euclidean distance, a tied vote to the label that ranks
/// nearest first (HIB §4.1's task, written out without the library's neighbour search).
fn leave_one_out_knn(means: &[f32], labels: &[usize], dim: usize) -> f64 {
    let row = |i: usize| &means[i * dim..(i + 1) * dim];
    let n = labels.len();
    let correct = (0..n)
        .filter(|&q| {
            let mut others: Vec<(f64, usize)> = (0..n)
                .filter(|&j| j != q)
                .map(|j| {
                    let d2: f64 = row(q)
                        .iter()
                        .zip(row(j))
                        .map(|(a, b)| (f64::from(*a) - f64::from(*b)).powi(2))
                        .sum();
                    (d2, j)
                })
                .collect();
            others.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let nearest: Vec<usize> = others[..5].iter().map(|&(_, j)| labels[j]).collect();
            let votes = |l: usize| nearest.iter().filter(|&&x| x == l).count();
            // The most votes; among equals the first in rank order.
            let best =
                nearest
                    .iter()
                    .copied()
                    .fold(nearest[0], |b, l| if votes(l) > votes(b) { l } else { b });
            best == labels[q]
        })
        .count();
    correct as f64 / n as f64
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
    let g = r.knn_galleries.as_ref().unwrap();
    let accuracies = [
        g.unoccluded_train.as_slice(),
        g.twin_leave_one_out.as_slice(),
        &[g.train_leave_one_out],
    ];
    assert!(
        accuracies.concat().iter().all(|a| (0.0..=1.0).contains(a)),
        "{g:?}"
    );
    // As many training images as the test twin, or every training image when it is smaller.
    assert_eq!(g.train_queries, r.test_images.min(r.train_images), "{g:?}");
    assert!(r.train_seconds > 0.0 && r.evaluation_seconds > 0.0, "{r:?}");
    assert!(!r.cpu.is_empty());
}

/// 2-digit MNIST (28 × 56, 100 numbers): the paper's point embeddings and MoG-2 (ℝ^D), the
/// deterministic method's margin loss and MoG-2 on the sphere train and are scored on both
/// twins, each under its own row name.
#[test]
fn two_digits_point_and_mog2_end_to_end() {
    let _guard = serial();
    let margin = n_digit_run(MethodKind::Deterministic.into(), 2, 2, 500, 200);
    if let Some((r, e, c)) = run(&margin, "margin-2") {
        assert_sane(&r, "point (margin)", 2, 2, false);
        assert_eq!((r.train_images, r.test_images), (500, 200));
        assert_embedding(&r, &e, 2);
        assert_curves(&c, false);
    }
    let point = n_digit_run(MethodConfig::Hib(paper_hib(1, true)), 2, 2, 500, 200);
    if let Some((r, e, c)) = run(&point, "point-2") {
        assert_sane(&r, "point", 2, 2, false);
        // The instance gap (the default) has no unseen part.
        assert!(r.unseen.is_none(), "{r:?}");
        assert_embedding(&r, &e, 2);
        assert_curves(&c, false);
    }
    let mog2 = n_digit_run(MethodConfig::Hib(paper_hib(2, false)), 2, 2, 500, 200);
    if let Some((r, e, c)) = run(&mog2, "mog2-2") {
        assert_sane(&r, "MoG-2", 2, 2, true);
        assert_embedding(&r, &e, 2);
        assert_curves(&c, true);
    }
    if let Some((r, e, _)) = run(&n_digit_run(hib(2), 2, 2, 500, 200), "mog2-sphere-2") {
        assert_sane(&r, "MoG-2 (sphere)", 2, 2, true);
        assert_embedding(&r, &e, 2);
    }
}

/// 3-digit MNIST (28 × 84, 1 000 numbers: labels past a byte) with HIB's MoG-1 in D = 3.
#[test]
fn three_digits_mog1_end_to_end() {
    let _guard = serial();
    // One training image per number: no batch holds a matching pair, the case that drove
    // ln σ² past f32's range before the head's cap.
    if let Some((r, e, c)) = run(&n_digit_run(hib(1), 3, 3, 1000, 2000), "mog1-3") {
        assert_sane(&r, "MoG-1 (sphere)", 3, 3, true);
        assert_eq!((r.train_images, r.test_images), (1000, 2000));
        // A subset of 500 of the 2000 images, drawn as a seeded subset of each twin.
        assert_embedding(&r, &e, 2);
        assert_curves(&c, true);
    }
}

/// The number gap end to end (HIB Table 3): Table 1 and the galleries score the 70 seen numbers,
/// and the 30 unseen ones are scored on their own twins. Their K-NN gallery is the twin itself:
/// against the training images, which show no unseen number, every vote would miss.
#[test]
fn number_gap_scores_the_unseen_numbers_within_their_twins() {
    let _guard = serial();
    let mut config = n_digit_run(MethodConfig::Hib(paper_hib(1, false)), 2, 2, 1000, 1000);
    config.data.n_digit_gap = NDigitGap::Number;
    if let Some((r, e, _)) = run(&config, "mog1-number-gap-2") {
        assert_sane(&r, "MoG-1 (number gap)", 2, 2, true);
        // ⌊1000 / 70⌋ = 14 images of each seen number, in training and in the seen twins.
        assert_eq!((r.train_images, r.test_images), (980, 980));
        assert_eq!(e.test_images, 980);
        let unseen = r
            .unseen
            .as_ref()
            .expect("a number-gap run scores its unseen numbers");
        for twin in unseen {
            assert!((0.0..=1.0).contains(&twin.verification_ap), "{twin:?}");
            assert!((0.0..=1.0).contains(&twin.knn_accuracy), "{twin:?}");
            assert!(
                twin.mean_eta.is_some_and(|eta| (0.0..=1.0).contains(&eta)),
                "{twin:?}"
            );
        }
        // ⌊1000 / 30⌋ = 33 images of each unseen number: leave-one-out votes find some.
        assert!(unseen[0].knn_accuracy > 0.0, "{:?}", unseen[0]);
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

/// Twelve 2-digit-sized images of six labels (several matching pairs), seeded.
fn small_batch() -> (Tensor, Tensor) {
    tch::manual_seed(8);
    let images = Tensor::rand([12, 1, 28, 56], (Kind::Float, Device::Cpu));
    let labels = Tensor::from_slice(&[0i64, 1, 2, 0, 1, 2, 3, 3, 4, 0, 5, 1]);
    (images, labels)
}

fn first_step() -> Position {
    Position {
        epoch: 1,
        step: 1,
        global_step: 1,
    }
}

/// `--hib-point` trains on HIB's soft contrastive loss (Oh et al. 2019, eq. 3) alone, with
/// neither noise nor VIB term: the step's loss is the mean over the batch's pairs of
/// −ln sigmoid(±(−a‖μᵢ − μⱼ‖ + b)), recomputed here in f64 from the means and the same pairs
/// (the step draws no noise before its pairs, so one seed gives both the same pairs).
#[test]
fn point_embeddings_train_on_the_soft_contrastive_loss() {
    let _guard = serial();
    // β far above its default 10⁻⁴: a VIB term left on in the point model would be of the
    // loss's own size, not within the test's tolerance.
    let options = HibOptions {
        beta: 1.0,
        ..paper_hib(1, true)
    };
    let config = n_digit_run(MethodConfig::Hib(options.clone()), 2, 2, 100, 100);
    let run = config.run_options();
    let mut method = Hib::new(&options, &run, Device::Cpu, 4).unwrap();
    let (images, labels) = small_batch();
    let request = PredictRequest {
        samples: 3,
        seed: 1,
        batch: 0,
        device: Device::Cpu,
    };
    let mean = method.embedding_means(&images, &request).unwrap().unwrap();
    let mean = Vec::<f64>::try_from(mean.to_kind(Kind::Double).flatten(0, -1)).unwrap();
    let (a, b) = (method.a().double_value(&[0]), method.b().double_value(&[0]));
    tch::manual_seed(5);
    let pairs = PairIndices::balanced(&labels, run.pairs.max_pairs as i64);
    tch::manual_seed(5);
    let step = method
        .step(&Batch {
            images: &images,
            labels: &labels,
            at: first_step(),
            train_size: 100,
        })
        .unwrap();
    let index = |t: &Tensor| Vec::<i64>::try_from(t).unwrap();
    let (first, second) = (index(&pairs.first), index(&pairs.second));
    let is_match = Vec::<bool>::try_from(&pairs.is_match).unwrap();
    assert!(is_match.iter().any(|&m| m) && is_match.iter().any(|&m| !m));
    let mut total = 0.0;
    for ((&i, &j), &m) in first.iter().zip(&second).zip(&is_match) {
        let (x, y) = (&mean[i as usize * 2..][..2], &mean[j as usize * 2..][..2]);
        let distance = ((x[0] - y[0]).powi(2) + (x[1] - y[1]).powi(2)).sqrt();
        let logit = -a * distance + b;
        let signed = if m { logit } else { -logit };
        total += (1.0 + (-signed).exp()).ln(); // −ln sigmoid(signed)
    }
    let want = total / first.len() as f64;
    let got = step.loss.double_value(&[]);
    assert_eq!(step.pairs, first.len() as i64);
    assert!(
        (got - want).abs() <= 1e-5 * want,
        "loss {got}, soft contrastive {want}"
    );
    // Point embeddings predict one sample, the mean's direction: no uncertainty.
    let Prediction::Samples(z) = method.predict(&images, &request).unwrap() else {
        panic!("point embeddings predict samples");
    };
    assert_eq!(z.size(), [12, 1, 2]);
}

/// `--hib-means euclidean` leaves the means in ℝ^D (HIB's Figs. 3–4): their norms are not 1,
/// the prediction's mean direction is theirs, and HIB's K-NN reads them through
/// `embedding_means`; on the sphere there are no such means.
#[test]
fn euclidean_means_stay_off_the_sphere() {
    let _guard = serial();
    let (images, _) = small_batch();
    let request = PredictRequest {
        samples: 3,
        seed: 1,
        batch: 0,
        device: Device::Cpu,
    };
    let options = paper_hib(1, false);
    let config = n_digit_run(MethodConfig::Hib(options.clone()), 2, 2, 100, 100);
    let method = Hib::new(&options, &config.run_options(), Device::Cpu, 4).unwrap();
    let mean = method.embedding_means(&images, &request).unwrap().unwrap();
    let norms = Vec::<f64>::try_from(
        mean.norm_scalaropt_dim(2.0, [1i64], false)
            .to_kind(Kind::Double),
    )
    .unwrap();
    assert!(norms.iter().all(|n| (n - 1.0).abs() > 1e-3), "{norms:?}");
    let Prediction::Distribution { mean: unit, .. } = method.predict(&images, &request).unwrap()
    else {
        panic!("HIB predicts a distribution");
    };
    let direction = &mean / mean.norm_scalaropt_dim(2.0, [1i64], true);
    let gap = (unit - direction).abs().max().double_value(&[]);
    assert!(gap < 1e-6, "{gap}");
    let sphere = Hib::new(&HibOptions::DEFAULT, &config.run_options(), Device::Cpu, 4).unwrap();
    assert!(sphere.embedding_means(&images, &request).unwrap().is_none());
}

/// Point embeddings have one component: `--hib-point` with more is refused by name.
#[test]
fn point_embeddings_have_one_component() {
    let options = paper_hib(2, true);
    let config = n_digit_run(MethodConfig::Hib(options.clone()), 2, 2, 100, 200);
    assert_invalid(ValidConfig::new(config.clone()), "hib-components");
    assert_invalid(
        Hib::new(&options, &config.run_options(), Device::Cpu, 0),
        "hib-components",
    );
}
