//! The LAM reference code's protocol (`--protocol reference`, book chapter 09) and the post-hoc
//! variants (`--prior-precision marglik`, `--hessian zero`, `--score`), each option checked on
//! the seeded synthetic set or on hand-built inputs against values derived by hand:
//!
//! * RMSprop's weight decay (two steps of a one-parameter model, worked out below);
//! * the ExponentialLR schedule and the learning rate × batch size;
//! * the reference's "all" triplet miner on four embeddings whose triplets are counted by hand;
//! * the reference's training loss over the triplets' pairs (`--loss-mining triplets`): on the
//!   same four embeddings by hand, and on random batches against a literal loop over the
//!   triplets, each giving its (a, p) and (a, n), averaged over the non-zero losses;
//! * the std-sum score of two samples (√2 by hand);
//! * the online precision's start H₀ = N and its ReLU'd, N²-scaled increments;
//! * post-hoc H ≡ 0 (Λ = δ exactly), the reference prior 1 (Λ ≥ 1), and the marginal-likelihood
//!   prior, whose stored Λ satisfies MacKay's stationarity Σ h/(h + δ) = δ‖θ*‖² recomputed here
//!   from the checkpoint's own tensors;
//! * the post-hoc experiment script (`scripts/experiments/lam-posthoc-ood.sh`) end to end on a
//!   synthetic checkpoint.

use probdml_train::checkpoint;
use probdml_train::config::{
    DataOptions, DatasetChoice, MethodKind, OptimiserOptions, Protocol, TrainConfig,
};
use probdml_train::guards::Position;
use probdml_train::input_geometry::InputGeometry;
use probdml_train::loss::contrastive::contrastive_loss_form_l;
use probdml_train::method::lam_posthoc::{PosthocHessian, PriorChoice};
use probdml_train::method::{self as methods, Batch, TensorSet};
use probdml_train::mining::{HessianTriplets, MinedPairs};
use probdml_train::optimiser::Optimiser;
use probdml_train::optimiser_algorithm::OptimiserAlgorithm;
use probdml_train::pipeline::{self, Environment, OutPolicy, PosthocOptions};
use probdml_train::prediction::Prediction;
use probdml_train::prediction::{score_samples, std_sum_prediction};
use probdml_train::protocol::Score;
use std::path::{Path, PathBuf};
use tch::{nn, Device, Kind, Tensor};

mod train_support;
use train_support::{host, serial};

fn scratch(name: &str) -> PathBuf {
    train_support::scratch("train-protocol", name)
}

/// θ after two steps of `algorithm` at `lr` with weight decay `decay` on L(θ) = θ from θ₀ = 2
/// (gradient 1 + λθ), beside the value derived by hand; they agree to f32's rounding of θ.
fn two_steps_match(algorithm: OptimiserAlgorithm, lr: f64, decay: f64, by_hand: f64) {
    let vs = nn::VarStore::new(Device::Cpu);
    let theta = vs.root().var("theta", &[1], nn::Init::Const(2.0));
    let mut opt = Optimiser::new(&vs, algorithm, lr);
    opt.weight_decay = decay;
    for _ in 0..2 {
        opt.backward_step(&theta.sum(Kind::Float)).unwrap();
    }
    let got = theta.double_value(&[0]);
    assert!(
        (got - by_hand).abs() < 2e-6,
        "{algorithm:?}, λ = {decay}: θ₂ = {got}, by hand {by_hand}"
    );
}

/// Two RMSprop steps on L(θ) = θ from θ₀ = 2 (gradient 1), lr 0.01, α 0.99, ε 1e-8:
///
/// * λ = 0.1: g₁ = 1 + 0.1·2 = 1.2, v₁ = 0.01·1.44 = 0.0144, θ₁ = 2 − 0.01·1.2/(0.12 + ε)
///   = 1.900000008333; g₂ = 1 + 0.1·θ₁ = 1.190000000833, v₂ = 0.99·0.0144 + 0.01·g₂²
///   = 0.028417, θ₂ = θ₁ − 0.01·g₂/(√v₂ + ε) = 1.829407628675;
/// * λ = 0: v₁ = 0.01, θ₁ = 1.900000010, v₂ = 0.0199, θ₂ = 1.829111894524.
#[test]
fn rmsprop_weight_decay_matches_hand_derived_steps() {
    let _guard = serial();
    two_steps_match(
        OptimiserAlgorithm::RmsProp,
        0.01,
        0.1,
        1.829_407_628_675_017_4,
    );
    two_steps_match(
        OptimiserAlgorithm::RmsProp,
        0.01,
        0.0,
        1.829_111_894_524_290_6,
    );
}

/// Two Adam steps on L(θ) = θ from θ₀ = 2 (gradient 1), lr 0.5, β₁ 0.9, β₂ 0.999, ε 1e-8:
///
/// * λ = 0: the gradient is constant, so m̂ₜ = 1 and v̂ₜ = 1 at every step (the bias
///   corrections divide out exactly what the zero start left out), and each step moves θ by
///   lr/(1 + ε): θ₂ = 2 − 1/(1 + 10⁻⁸) = 1.000 000 01;
/// * λ = 1: g₁ = 3, m̂₁ = 3, v̂₁ = 9, θ₁ = 2 − 0.5·3/(3 + ε) = 1.5; g₂ = 1 + 1.5 = 2.5,
///   m₂ = 0.9·0.3 + 0.1·2.5 = 0.52, v₂ = 0.999·0.009 + 0.001·2.5² = 0.015241,
///   θ₂ = θ₁ − 0.5·(m₂/0.19)/(√(v₂/0.001999) + ε) = 1.5 − 0.5·2.736842/2.761216 = 1.004 413 566.
#[test]
fn adam_matches_hand_derived_steps() {
    let _guard = serial();
    two_steps_match(OptimiserAlgorithm::Adam, 0.5, 0.0, 1.000_000_01);
    two_steps_match(OptimiserAlgorithm::Adam, 0.5, 1.0, 1.004_413_566);
}

/// The reference's learning rate: 1e-3 × batch (0.256 at 256, 0.064 at 64), times e^{−0.01}
/// per epoch (ExponentialLR); the prior 1 and 100 samples per test image.
#[test]
fn reference_configuration_values() {
    for (batch, lr) in [(256, 0.256), (64, 0.064)] {
        let c = TrainConfig {
            optimiser: OptimiserOptions {
                batch_size: batch,
                ..OptimiserOptions::DEFAULT
            },
            ..TrainConfig::default()
        }
        .with_protocol(Protocol::Reference);
        assert!((c.optimiser.learning_rate - lr).abs() < 1e-15);
        // e^{−0.01} = 0.99004983374916805 (by hand: 1 − 0.01 + 0.00005 − 1.6667e-7 + …).
        assert!((c.optimiser.lr_decay - 0.990_049_833_749_168_1).abs() < 1e-15);
        assert_eq!(c.laplace.prior_precision, 1.0);
        assert_eq!(c.evaluation.eval_samples, 100);
        c.validate().unwrap();
    }
    // Ours is untouched (the README's numbers).
    let ours = TrainConfig::default().with_protocol(Protocol::Ours);
    assert_eq!(ours, TrainConfig::default());
    assert_eq!(ours.optimiser.learning_rate, 1e-3);
    assert_eq!(ours.laplace.prior_precision, 9216.0);
}

/// Four unit embeddings (labels 0, 0, 1, 1): e₁ = e₂ = (1, 0, 0), e₃ = (0, 1, 0),
/// e₄ = (−1, 0, 0). d(1,2) = 0, d(1,3) = d(2,3) = d(3,4) = √2, d(1,4) = d(2,4) = 2. With margin
/// 0.7 the triplets (a, p, n) with d(a,n) − d(a,p) ≤ 0.7 are (3,4,1), (3,4,2) (√2 − √2 = 0) and
/// (4,3,1), (4,3,2) (2 − √2 = 0.586); (1,2,·) and (2,1,·) have √2 − 0 > 0.7: 4 triplets.
#[test]
fn triplet_miner_counts_hand_enumerated_triplets() {
    let _guard = serial();
    let z = Tensor::from_slice(&[1.0f32, 0., 0., 1., 0., 0., 0., 1., 0., -1., 0., 0.]).view([4, 3]);
    let labels = Tensor::from_slice(&[0i64, 0, 1, 1]);
    let all = HessianTriplets::mine(&z, &labels, 0.7, 5000);
    assert_eq!((all.batch_count, all.kept()), (4, 4));
    let mut got: Vec<(i64, i64, i64)> = (0..4)
        .map(|k| {
            (
                all.triplets.0.int64_value(&[k]),
                all.triplets.1.int64_value(&[k]),
                all.triplets.2.int64_value(&[k]),
            )
        })
        .collect();
    got.sort();
    assert_eq!(got, vec![(2, 3, 0), (2, 3, 1), (3, 2, 0), (3, 2, 1)]);
    let pairs = all.hessian_pairs(Kind::Float);
    assert_eq!(
        host(&pairs.target),
        vec![1., 1., 1., 1., -1., -1., -1., -1.]
    );
    // The cap keeps 3 of the 4, and the targets stay ±1 (no rescaling in the reference).
    tch::manual_seed(0);
    let capped = HessianTriplets::mine(&z, &labels, 0.7, 3);
    assert_eq!((capped.batch_count, capped.kept()), (4, 3));
    assert_eq!(
        host(&capped.hessian_pairs(Kind::Float).target),
        vec![1., 1., 1., -1., -1., -1.]
    );
    // A margin below 0.586 leaves the two triplets with gap 0.
    assert_eq!(HessianTriplets::mine(&z, &labels, 0.5, 5000).kept(), 2);
}

/// The reference's loss pairs on the four embeddings above (margin 0.7): the four triplets
/// (2,3,·), (3,2,·) give the positive {2, 3} four times; {0, 1} is in no triplet and drops out;
/// their negatives are at √2 and 2, outside the margin, so none is kept. Form L is then
/// d(2, 3) = √2, where the pairs each once give (d(0,1) + d(2,3))/2 = (10⁻⁶ + √2)/2 (the floor
/// ε = 10⁻¹² on d²).
#[test]
fn triplet_loss_pairs_count_hand_enumerated_triplets() {
    let _guard = serial();
    let z = Tensor::from_slice(&[1.0f64, 0., 0., 1., 0., 0., 0., 1., 0., -1., 0., 0.]).view([4, 3]);
    let labels = Tensor::from_slice(&[0i64, 0, 1, 1]);
    let triplets = MinedPairs::from_triplets(&z, &labels, 0.7);
    assert_eq!(triplets.kept(), (1, 0));
    assert_eq!(
        (
            triplets.positive.0.int64_value(&[0]),
            triplets.positive.1.int64_value(&[0])
        ),
        (2, 3)
    );
    let (counts, _) = triplets.counts.as_ref().unwrap();
    assert_eq!(host(counts), vec![4.0]);
    let loss = contrastive_loss_form_l(&z, &triplets, 0.7).double_value(&[]);
    assert!((loss - std::f64::consts::SQRT_2).abs() < 1e-15, "{loss}");
    let once = MinedPairs::mine(&z, &labels, 0.7, 5000);
    let loss = contrastive_loss_form_l(&z, &once, 0.7).double_value(&[]);
    assert!(
        ((loss - (1e-6 + std::f64::consts::SQRT_2) / 2.0).abs() < 1e-15),
        "{loss}"
    );
}

/// The reference's training loss written as it computes it: every triplet (a, p, n), a ≠ p of
/// one label and n of another, with d(a, n) − d(a, p) ≤ m gives the pair (a, p) to the positive
/// list and (a, n) to the negative list; each list's losses (d and (m − d)₊) are averaged over
/// the non-zero ones, an all-zero list giving 0. Distances ‖z_i − z_j‖ of the host copy.
fn reference_triplet_loss(z: &[Vec<f64>], labels: &[i64], margin: f64) -> f64 {
    let d = |i: usize, j: usize| -> f64 {
        z[i].iter()
            .zip(&z[j])
            .map(|(x, y)| (x - y) * (x - y))
            .sum::<f64>()
            .sqrt()
    };
    let (mut pos, mut neg) = (Vec::new(), Vec::new());
    for a in 0..z.len() {
        for p in 0..z.len() {
            for n in 0..z.len() {
                let valid = a != p && labels[a] == labels[p] && labels[a] != labels[n];
                if valid && d(a, n) - d(a, p) <= margin {
                    pos.push(d(a, p));
                    neg.push((margin - d(a, n)).max(0.0));
                }
            }
        }
    }
    let non_zero_mean = |losses: &[f64]| {
        let kept: Vec<f64> = losses.iter().copied().filter(|&l| l > 0.0).collect();
        if kept.is_empty() {
            0.0
        } else {
            kept.iter().sum::<f64>() / kept.len() as f64
        }
    };
    non_zero_mean(&pos) + non_zero_mean(&neg)
}

/// Form L over [`MinedPairs::from_triplets`] equals the literal loop on random batches of unit
/// vectors (B = 18, D = 3, three labels), at margins that keep few, some and most triplets;
/// and it differs from form L over the pairs each once, which the loop would not notice if the
/// counts were ignored.
#[test]
fn triplet_loss_pairs_match_a_loop_over_the_triplets() {
    let _guard = serial();
    for seed in 0..6 {
        for margin in [0.3, 0.7, 1.2] {
            tch::manual_seed(seed);
            let raw = Tensor::randn([18, 3], (Kind::Double, Device::Cpu));
            let z = &raw / raw.norm_scalaropt_dim(2, [1], true);
            let labels = Tensor::randint(3, [18], (Kind::Int64, Device::Cpu));
            let rows: Vec<Vec<f64>> = (0..18).map(|i| host(&z.get(i))).collect();
            let label_list: Vec<i64> = (0..18).map(|i| labels.int64_value(&[i])).collect();
            let expected = reference_triplet_loss(&rows, &label_list, margin);
            let mined = MinedPairs::from_triplets(&z, &labels, margin);
            let got = contrastive_loss_form_l(&z, &mined, margin).double_value(&[]);
            assert!(
                (got - expected).abs() < 1e-12 * expected.max(1.0),
                "seed {seed}, margin {margin}: form L over the triplets' pairs {got}, loop {expected}"
            );
            let once = MinedPairs::mine(&z, &labels, margin, i64::MAX);
            let plain = contrastive_loss_form_l(&z, &once, margin).double_value(&[]);
            assert!(
                (plain - expected).abs() > 1e-6,
                "seed {seed}, margin {margin}: pairs once {plain} = triplets {expected}"
            );
        }
    }
}

/// Under the reference protocol a sampling method's prediction (MC dropout, ensembles) is
/// scored by Σ_d std_d like the Laplace methods': the same two samples give √2; under ours, and
/// for a single sample (a deterministic model), the samples pass through unchanged.
#[test]
fn sampled_predictions_follow_the_protocols_score() {
    let two = || Tensor::from_slice(&[1.0f64, 0., 0., 0., 1., 0.]).view([1, 2, 3]);
    let reference = synthetic(MethodKind::McDropout, Protocol::Reference).score();
    match score_samples(reference, Prediction::Samples(two())) {
        Prediction::Distribution { uncertainty, .. } => {
            assert!((host(&uncertainty)[0] - std::f64::consts::SQRT_2).abs() < 1e-15)
        }
        Prediction::Samples(_) => panic!("reference: MC dropout samples were not scored"),
    }
    let ours = synthetic(MethodKind::McDropout, Protocol::Ours).score();
    assert!(matches!(
        score_samples(ours, Prediction::Samples(two())),
        Prediction::Samples(_)
    ));
    let one = Tensor::from_slice(&[1.0f64, 0., 0.]).view([1, 1, 3]);
    assert!(matches!(
        score_samples(reference, Prediction::Samples(one)),
        Prediction::Samples(_)
    ));
}

/// Two samples (1, 0, 0) and (0, 1, 0) of one input: per-dimension std (S − 1 = 1) is
/// |a − b|/√2 = (1/√2, 1/√2, 0), summed √2; the mean direction (1, 1, 0)/√2.
#[test]
fn std_sum_score_matches_hand_value() {
    let samples = Tensor::from_slice(&[1.0f64, 0., 0., 0., 1., 0.]).view([1, 2, 3]);
    let Prediction::Distribution {
        mean,
        uncertainty,
        samples,
    } = std_sum_prediction(samples)
    else {
        panic!("the std-sum score is a distribution");
    };
    assert!((host(&uncertainty)[0] - std::f64::consts::SQRT_2).abs() < 1e-15);
    let m = host(&mean);
    let h = std::f64::consts::FRAC_1_SQRT_2;
    assert!((m[0] - h).abs() < 1e-15 && (m[1] - h).abs() < 1e-15 && m[2] == 0.0);
    assert!(samples.is_some());
}

fn synthetic(method: MethodKind, protocol: Protocol) -> TrainConfig {
    TrainConfig {
        method: method.into(),
        data: DataOptions {
            dataset: DatasetChoice::Synthetic,
            train_limit: Some(640),
            test_limit: Some(200),
            ..DataOptions::DEFAULT
        },
        optimiser: OptimiserOptions {
            epochs: 1,
            batch_size: 64,
            ..OptimiserOptions::DEFAULT
        },
        seed: 5,
        ..TrainConfig::default()
    }
    .with_protocol(protocol)
}

/// The reference's online precision starts at N and grows by ReLU'd increments: after one step
/// on a training set of N = 1000, every entry is ≥ 0.999·1000 and some entry gained; the
/// sampling std is (Λ + 1)^{-1/2} ≤ 1/√999.
#[test]
fn online_reference_precision_starts_at_dataset_size() {
    let _guard = serial();
    let config = synthetic(MethodKind::LamOnline, Protocol::Reference);
    let set = probdml_train::data::synthetic(10, 20, 28, 1);
    let data = TensorSet::new(&set, InputGeometry::MNIST, Device::Cpu).unwrap();
    let mut m = methods::build(&config, Device::Cpu, 1).unwrap();
    let x = data.images.narrow(0, 0, 64);
    let labels = data.labels.narrow(0, 0, 64);
    m.step(&Batch {
        images: &x,
        labels: &labels,
        at: Position {
            epoch: 1,
            step: 1,
            global_step: 1,
        },
        train_size: 1000,
    })
    .unwrap();
    let posterior = m.posterior().unwrap();
    let w = host(&posterior.weight);
    let lowest = w.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = w.iter().copied().fold(0.0, f64::max);
    assert!(lowest >= 999.0 * (1.0 - 1e-6), "min Λ = {lowest}");
    assert!(highest > 999.0 + 1.0, "no entry gained: max Λ = {highest}");
    let (std_w, _) = posterior.std_with_prior(config.settings().online.prior_at_sampling);
    let largest_std = host(&std_w).into_iter().fold(0.0, f64::max);
    assert!(largest_std <= 1.0 / 1000f64.sqrt() * (1.0 + 1e-6));
}

fn posthoc(
    det: &Path,
    out: &Path,
    protocol: Protocol,
    prior: Option<PriorChoice>,
    hessian: PosthocHessian,
    score: Option<Score>,
) -> pipeline::RunSummary {
    pipeline::posthoc_from_checkpoint(
        det,
        out,
        &PosthocOptions {
            split: probdml::ggn::Split::Arccos,
            approximation: probdml::ggn::Approximation::Fixed,
            prior,
            tempering: 1.0,
            protocol,
            hessian,
            score,
        },
        OutPolicy::Overwrite,
        &Environment {
            device: Device::Cpu,
            data_dir: PathBuf::from("unused"),
        },
    )
    .unwrap()
}

fn precision(dir: &Path) -> (Vec<f64>, Vec<f64>) {
    let t = checkpoint::read_tensors(&dir.join("laplace.safetensors")).unwrap();
    let get = |name: &str| host(&t.iter().find(|(n, _)| n == name).unwrap().1);
    (get("head.weight"), get("head.bias"))
}

/// One deterministic synthetic checkpoint serves every post-hoc row: the reference protocol
/// (prior 1: Λ ≥ 1, 100 samples, std-sum score), H ≡ 0 (Λ = δ exactly), the feature-norm score,
/// and the evidence-maximising prior, whose Λ satisfies MacKay's condition.
#[test]
fn posthoc_variants_from_one_deterministic_checkpoint() {
    let _guard = serial();
    let det = scratch("det");
    train_support::train_and_evaluate(
        &synthetic(MethodKind::Deterministic, Protocol::Reference),
        Path::new("unused"),
        &det,
        false,
        Device::Cpu,
    )
    .unwrap();
    let saved = checkpoint::read_config(&det).unwrap();
    assert!(
        (saved.optimiser.learning_rate - 0.064).abs() < 1e-15
            && saved.protocol == Protocol::Reference
    );

    let reference = scratch("reference");
    let r = posthoc(
        &det,
        &reference,
        Protocol::Reference,
        None,
        PosthocHessian::Ggn,
        None,
    );
    assert_eq!(
        (r.config.laplace.prior_precision, r.metrics.samples),
        (1.0, 100)
    );
    assert!(r.metrics.auroc.is_some() && r.metrics.ece.is_some());
    let (w, _) = precision(&reference);
    assert!(w.iter().all(|&l| l >= 1.0));
    assert!(w.iter().any(|&l| l > 1.0), "the GGN added nothing");

    let zero = scratch("zero");
    let z = posthoc(
        &det,
        &zero,
        Protocol::Reference,
        None,
        PosthocHessian::Zero,
        None,
    );
    let (w, b) = precision(&zero);
    assert!(w.iter().chain(&b).all(|&l| l == 1.0));
    assert!(z.metrics.auroc.is_some());

    let norm = scratch("norm");
    let n = posthoc(
        &det,
        &norm,
        Protocol::Ours,
        None,
        PosthocHessian::Zero,
        Some(Score::FeatureNorm),
    );
    assert!(n.metrics.auroc.is_some() && n.metrics.ece.is_none());

    let marglik = scratch("marglik");
    let m = posthoc(
        &det,
        &marglik,
        Protocol::Ours,
        Some(PriorChoice::Marglik),
        PosthocHessian::Ggn,
        None,
    );
    let delta = m.config.laplace.prior_precision;
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(marglik.join("posthoc.json")).unwrap())
            .unwrap();
    assert_eq!(recorded["prior_choice"], "marglik");
    assert_eq!(recorded["prior_precision"].as_f64().unwrap(), delta);
    // MacKay: γ(δ) = Σ h/(h + δ) = δ‖θ*‖², h = Λ − δ from the stored Λ, θ* from the weights.
    let (w, b) = precision(&marglik);
    let model = checkpoint::read_tensors(&marglik.join("model.safetensors")).unwrap();
    let theta: Vec<f64> = ["head.weight", "head.bias"]
        .iter()
        .flat_map(|name| host(&model.iter().find(|(n, _)| n == name).unwrap().1))
        .collect();
    let gamma: f64 = w
        .iter()
        .chain(&b)
        .map(|&l| {
            let h = (l - delta).max(0.0);
            h / (h + delta)
        })
        .sum();
    let scatter: f64 = theta.iter().map(|t| t * t).sum();
    assert!(
        (gamma - delta * scatter).abs() <= 1e-3 * gamma,
        "γ = {gamma}, δ‖θ‖² = {}",
        delta * scatter
    );
    // The output-variance score: the same posterior and the same samples (so the same ECE and,
    // the vMF mean direction being the normalised sample mean, the same retrieval); only the
    // OOD score differs, and it is the closed form of the math crate for every image.
    let variance = scratch("output-variance");
    let v = posthoc(
        &det,
        &variance,
        Protocol::Ours,
        Some(PriorChoice::Marglik),
        PosthocHessian::Ggn,
        Some(Score::OutputVariance),
    );
    assert_eq!(v.config.laplace.prior_precision, delta);
    assert_eq!(v.metrics.ece, m.metrics.ece);
    // Same retrieval: the vMF fit's μ̂ (formed in f64) and the normalised f32 sample mean point
    // the same way, so every query finds the same neighbours.
    assert_eq!(
        (v.metrics.map_at_1, v.metrics.map_at_5, v.metrics.map_at_10),
        (m.metrics.map_at_1, m.metrics.map_at_5, m.metrics.map_at_10),
    );
    assert!(v.metrics.auroc.is_some() && v.metrics.ausc.is_some());
    let (w, b) = precision(&variance);
    let (std_w, std_b) = (
        Tensor::from_slice(&w.iter().map(|l| l.powf(-0.5)).collect::<Vec<_>>())
            .reshape([b.len() as i64, -1]),
        Tensor::from_slice(&b.iter().map(|l| l.powf(-0.5)).collect::<Vec<_>>()),
    );
    let features_per_row = w.len() / b.len();
    let rows: Vec<f64> = (0..3 * features_per_row)
        .map(|i| ((i * 37) % 11) as f64 / 11.0)
        .collect();
    let got = host(&probdml_train::laplace::posterior::output_variance(
        &Tensor::from_slice(&rows).reshape([3, -1]),
        &std_w,
        &std_b,
    ));
    for (i, x) in rows.chunks_exact(features_per_row).enumerate() {
        let want = probdml::laplace::output_variance(&w, &b, x).unwrap();
        assert!(
            (got[i] - want).abs() <= 1e-12 * want,
            "row {i}: {} vs {want}",
            got[i]
        );
    }

    // `eval --score`: the marglik run's checkpoint (scored by the vMF 1/κ̂) re-evaluated under
    // the output variance gives exactly the metrics of the run scored that way from the start;
    // a checkpoint without a Laplace posterior refuses a score, naming it.
    let rescored =
        pipeline::load_trained_scored(&marglik, Device::Cpu, Some(Score::OutputVariance)).unwrap();
    assert_eq!(rescored.config.score(), Score::OutputVariance);
    let data = pipeline::load_data(
        &rescored.config.data,
        rescored.config.seed,
        Path::new("unused"),
    )
    .unwrap();
    let again =
        pipeline::evaluate_trained(&rescored, &data, &scratch("rescored"), Device::Cpu).unwrap();
    assert_eq!(again, v.metrics);
    let err = pipeline::load_trained_scored(&det, Device::Cpu, Some(Score::OutputVariance))
        .map(|_| ())
        .unwrap_err();
    assert!(err.to_string().contains("score"), "{err}");

    // The evidence has no maximiser with H ≡ 0: refused, naming the curvature.
    let err = pipeline::posthoc_from_checkpoint(
        &det,
        &scratch("marglik-zero"),
        &PosthocOptions {
            split: probdml::ggn::Split::Arccos,
            approximation: probdml::ggn::Approximation::Fixed,
            prior: Some(PriorChoice::Marglik),
            tempering: 1.0,
            protocol: Protocol::Ours,
            hessian: PosthocHessian::Zero,
            score: None,
        },
        OutPolicy::Overwrite,
        &Environment {
            device: Device::Cpu,
            data_dir: PathBuf::from("unused"),
        },
    )
    .unwrap_err();
    assert!(err.to_string().contains("hessian_diagonal"), "{err}");

    // The experiment script assembles the table from the same checkpoint (rows already done
    // are reused) and a tiny online run.
    let online = scratch("online");
    train_support::train_and_evaluate(
        &synthetic(MethodKind::LamOnline, Protocol::Ours),
        Path::new("unused"),
        &online,
        false,
        Device::Cpu,
    )
    .unwrap();
    let exp = scratch("experiment");
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join("scripts/experiments/lam-posthoc-ood.sh");
    let output = std::process::Command::new("bash")
        .arg(&script)
        .args([&det, &online, &exp])
        .env("PROBDML", env!("CARGO_BIN_EXE_probdml"))
        .env("POSTHOC_FLAGS", "--threads 1")
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{table}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for row in [
        "post-hoc, our protocol",
        "post-hoc, reference protocol",
        "post-hoc, H ≡ 0",
        "‖x‖ alone",
        "post-hoc, marglik prior",
        "online, our protocol",
    ] {
        let line = table
            .lines()
            .find(|l| l.contains(row))
            .unwrap_or_else(|| panic!("{row} missing:\n{table}"));
        // AUROC is a number in [0, 1] on every row.
        let auroc: f64 = line.split('|').nth(2).unwrap().trim().parse().unwrap();
        assert!((0.0..=1.0).contains(&auroc), "{line}");
    }
    assert!(table.contains("marglik: {\"prior_precision\""), "{table}");

    // `probdml summarise` averages finished runs: two rows' AUROCs read independently from
    // their metrics.json, their mean and sample std (n = 2: |a − b|/√2) printed to 3 decimals.
    let auroc = |dir: &Path| -> f64 {
        let text = std::fs::read_to_string(dir.join("metrics.json")).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["auroc"].as_f64().unwrap()
    };
    let (h0, reference_row) = (exp.join("posthoc-h0"), exp.join("posthoc-reference"));
    let (a, b) = (auroc(&h0), auroc(&reference_row));
    let summarise = |rows: &[String]| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_probdml"));
        cmd.arg("summarise");
        for r in rows {
            cmd.args(["--row", r]);
        }
        cmd.output().unwrap()
    };
    let out = summarise(&[
        format!("two rows={},{}", h0.display(), reference_row.display()),
        format!("one={}", h0.display()),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want = format!(
        "{:.3} ± {:.3}",
        (a + b) / 2.0,
        (a - b).abs() / std::f64::consts::SQRT_2
    );
    let line = text.lines().find(|l| l.contains("two rows")).unwrap();
    assert!(
        line.contains("ours (2 seeds)") && line.contains(&want),
        "{want}: {line}"
    );
    let line = text.lines().find(|l| l.starts_with("| one |")).unwrap();
    assert!(line.contains(&format!("| {a:.3} |")), "{line}");
    assert!(
        text.starts_with("synthetic") && !text.contains("paper"),
        "{text}"
    );
    // A malformed row or a folder without a run: an error naming the flag or the file.
    for (row, names) in [
        ("no-equals-sign".to_string(), "row"),
        (format!("label={},", h0.display()), "row"),
        (format!("x={}", exp.display()), "config.json"),
    ] {
        let out = summarise(std::slice::from_ref(&row));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{row}: {err}");
        assert!(err.contains(names), "{row}: {err}");
    }
    for d in [det, reference, zero, norm, marglik, online, exp] {
        let _ = std::fs::remove_dir_all(d);
    }
}
