//! The training pipeline end to end on the seeded synthetic set (chapter 09): every method
//! trains and evaluates, checkpoints resume, seeds reproduce, non-finite values stop the run
//! naming the step and tensor, and bad flags or paths fail with a clear message.
//!
//! Small on purpose (a few hundred images, one or two epochs on the CPU): CI runs it on every
//! change; the real-data numbers are produced by `probdml reproduce` (README).
// Each bar is written `!(value > bar)`: a NaN metric must fail it, not slip through.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use probdml_train::batch_sampler::BatchSampler;
use probdml_train::config::{
    EvaluationOptions, MethodConfig, MethodKind, ModelOptions, OptimiserOptions, PairOptions,
    TrainConfig, ValidConfig,
};
use probdml_train::guards::check_finite;
use probdml_train::guards::Position;
use probdml_train::input_geometry::InputGeometry;
use probdml_train::method::lam_online::LamOnlineOptions;
use probdml_train::method::TensorSet;
use probdml_train::pipeline::{self, load_data};
use probdml_train::trainer;
use probdml_train::TrainError;
use std::path::PathBuf;
mod train_support;
use tch::{Device, Kind, Tensor};
use train_support::{learning_run, probdml, scratch, serial, MAP_GAIN};

/// Every method trains and evaluates, and each run is checked against its own starting point.
///
/// One run per method ([`learning_run`]: seed 3, two epochs on 640 images, 200 ID and 200 OOD
/// test images) serves every check; the untrained model is the one the trainer starts from
/// (same member seeds, `initialise` and finish pass, no step: `train_support::untrained`),
/// evaluated on the same images, which costs an evaluation and no training.
///
/// Why a gain over the untrained network and not over chance: random convolutional features
/// already separate the synthetic classes (the untrained networks reach mAP@1 0.645–0.725 here,
/// chance is 0.1), so "mAP@1 > 0.5" held for a network that never learned. Measured at seed 3
/// (trained − untrained mAP@1): deterministic 1.000 − 0.725, mc-dropout 1.000 − 0.715,
/// lam-posthoc 1.000 − 0.685, lam-online 1.000 − 0.695, ensemble 0.980 − 0.645, hib 0.995 −
/// 0.725, proxy-nca 0.985 − 0.725, btl-gaussian 0.980 − 0.725, btl-vmf 0.955 − 0.725; the
/// smallest gain is 0.23, the bar [`MAP_GAIN`] 0.15. PFE retrieves with its frozen
/// deterministic parent's embeddings, so its gain is over that parent's untrained network.
///
/// The loss: the mean of epoch 2 against that of epoch 1, per member, as `state.json` records
/// them (measured relative falls 25 %–97 %, PFE's mutual likelihood score 2.9 %).
///
/// OOD (the AUROC of telling the synthetic OOD images from the ID ones by the method's
/// uncertainty, [`ood_claim`]) — see there for which methods are held to what and why.
#[test]
fn every_method_trains_and_evaluates_on_synthetic_data() {
    let _guard = serial();
    let mut failures = Vec::new();
    for method in MethodKind::all() {
        let config = learning_run(method);
        let name = method.name();
        let out = scratch("train-pipeline", name);
        let summary = train_support::train_and_evaluate(
            &config,
            &PathBuf::from("unused"),
            &out,
            false,
            Device::Cpu,
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let m = &summary.metrics;
        assert_eq!(m.id_count, 200);
        assert!(out.join("metrics.json").exists() && out.join("summary.json").exists());
        let probabilistic = method != MethodKind::Deterministic;
        for (metric, v) in [
            ("auroc", m.auroc),
            ("auprc", m.auprc),
            ("ausc", m.ausc),
            ("ece", m.ece),
        ] {
            assert_eq!(v.is_some(), probabilistic, "{name}: {metric} = {v:?}");
            if let Some(v) = v {
                assert!((0.0..=1.0).contains(&v), "{name}: {metric} = {v}");
            }
        }
        if probabilistic {
            assert!(
                out.join("plots").join("roc.svg").exists(),
                "{name}: no ROC plot"
            );
        }

        let started = std::time::Instant::now();
        let untrained = train_support::evaluate_untrained(&summary.config, &out.join("untrained"))
            .unwrap_or_else(|e| panic!("{name} untrained: {e}"));
        // PFE's retrieval is its frozen parent's: its starting point is the parent's untrained
        // network.
        let retrieval_start = match method {
            MethodKind::Pfe => train_support::evaluate_retrieval_start(
                &summary.config,
                &out.join("untrained-parent"),
            )
            .unwrap_or_else(|e| panic!("{name} untrained parent: {e}")),
            _ => untrained.clone(),
        };
        let untrained_seconds = started.elapsed().as_secs_f64();
        let losses = train_support::member_losses(&summary.config, &out);
        eprintln!(
            "{name}: mAP@1 {:.3} (untrained {:.3}), AUROC {:?} (untrained {:?}), epoch losses \
             {losses:?}, untrained evaluation {untrained_seconds:.1} s",
            m.map_at_1, retrieval_start.map_at_1, m.auroc, untrained.auroc
        );

        let gain = m.map_at_1 - retrieval_start.map_at_1;
        if gain <= MAP_GAIN {
            failures.push(format!(
                "{name}: mAP@1 {:.3} is not {MAP_GAIN} above the untrained network's {:.3}",
                m.map_at_1, retrieval_start.map_at_1
            ));
        }
        for (k, member) in losses.iter().enumerate() {
            let fall = 1.0 - member[1] / member[0];
            let bar = loss_fall(method);
            if !(fall > bar) {
                failures.push(format!(
                    "{name} member {k}: the mean loss fell by {:.1} % from epoch 1 to 2 \
                     ({member:?}), less than {:.0} %",
                    100.0 * fall,
                    100.0 * bar
                ));
            }
        }
        let auroc = m.auroc.unwrap_or(f64::NAN);
        let untrained_auroc = untrained.auroc.unwrap_or(f64::NAN);
        match ood_claim(method) {
            OodClaim::Detects => {
                if !(auroc > 0.5 + OOD_MARGIN) {
                    failures.push(format!(
                        "{name}: AUROC {auroc:.3} is not {OOD_MARGIN} above chance (0.5)"
                    ));
                }
            }
            OodClaim::GainsOverUntrained => {
                if !(auroc > untrained_auroc + PFE_AUROC_GAIN) {
                    failures.push(format!(
                        "{name}: AUROC {auroc:.3} is not {PFE_AUROC_GAIN} above the untrained \
                         σ² head's {untrained_auroc:.3}"
                    ));
                }
            }
            OodClaim::Inverted => {
                if !(auroc < 0.5 - INVERTED_MARGIN) {
                    failures.push(format!(
                        "{name}: AUROC {auroc:.3}; measured at or below 0.012 (OOD ranked more \
                         certain), the bar is below {}",
                        0.5 - INVERTED_MARGIN
                    ));
                }
            }
            OodClaim::None => {}
        }
        let _ = std::fs::remove_dir_all(&out);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The least relative fall of the mean training loss from epoch 1 to epoch 2.
fn loss_fall(method: MethodKind) -> f64 {
    match method {
        // The mutual likelihood score is dominated by its log-variance term, which the σ² head
        // moves slowly at this learning rate: measured 2.9 % (3.869 → 3.758).
        MethodKind::Pfe => 0.01,
        // Measured 25 % (an ensemble's second member) to 97 % (HIB's VIB loss).
        _ => 0.15,
    }
}

/// What a method's uncertainty is held to on the synthetic OOD images.
enum OodClaim {
    /// AUROC above 0.5 + [`OOD_MARGIN`].
    Detects,
    /// AUROC above the untrained model's by [`PFE_AUROC_GAIN`].
    GainsOverUntrained,
    /// AUROC below 0.5 − [`INVERTED_MARGIN`]: the method ranks this OOD set as *more* certain.
    Inverted,
    /// No OOD bar.
    None,
}

/// AUROC above chance by this much for the methods that detect the synthetic OOD images.
/// Measured at seed 3: mc-dropout 0.999, lam-posthoc 0.882, lam-online 0.901; 0.2 leaves 0.18
/// of headroom to the lowest (the committed two-seed table of chapter 10 has lam-posthoc at
/// 0.875 ± 0.125).
const OOD_MARGIN: f64 = 0.2;

/// PFE's σ² head: an untrained head is already a random function of the frozen features that
/// scores AUROC 0.752 at seed 3 (above chance by accident of the features, not by training);
/// trained, 0.845. The bar is a gain of 0.05.
const PFE_AUROC_GAIN: f64 = 0.05;

/// The variance heads of HIB and BTL give the synthetic OOD images (checkerboards and rings,
/// many more bright pixels than a class's stroke) *smaller* variance: AUROC 0.011 (HIB),
/// 0.004 (btl-gaussian), 0.00003 (btl-vmf) at seed 3, 0.000–0.012 in chapter 10's table — as on
/// Fashion-MNIST against MNIST, where chapter 10 reports them below 0.5 too. An untrained BTL
/// head scores exactly 0.5 (a constant variance), HIB's 0.228. The test pins the inversion:
/// AUROC below 0.2, so that a change that moves it (a fix, or a sign error) is seen.
const INVERTED_MARGIN: f64 = 0.3;

/// Which OOD bar each method meets on the synthetic set (see [`OodClaim`]).
fn ood_claim(method: MethodKind) -> OodClaim {
    match method {
        MethodKind::McDropout | MethodKind::LamPosthoc | MethodKind::LamOnline => OodClaim::Detects,
        MethodKind::Pfe => OodClaim::GainsOverUntrained,
        MethodKind::Hib | MethodKind::BtlGaussian | MethodKind::BtlVmf => OodClaim::Inverted,
        // Deterministic reports no uncertainty. The ensemble's disagreement and ProxyNCA++'s
        // 1/‖z‖ land on either side of 0.5 with the seed and the member count (0.678 and
        // 0.603 here; 0.393 ± 0.007 and 0.525 ± 0.304 in chapter 10's table): no bar that a
        // change of seed keeps.
        MethodKind::Deterministic | MethodKind::Ensemble | MethodKind::ProxyNca => OodClaim::None,
    }
}

/// A run resumed after one epoch continues at epoch 2 with the first epoch's log, weights and Λ
/// from the checkpoint; `eval` on the checkpoint reproduces the run's metrics exactly.
#[test]
fn checkpoints_resume_and_reevaluate() {
    let _guard = serial();
    let out = scratch("train-pipeline", "resume");
    let data = PathBuf::from("unused");
    let mut one = learning_run(MethodKind::LamOnline);
    one.optimiser.epochs = 1;
    train_support::train_and_evaluate(&one, &data, &out, false, Device::Cpu).unwrap();
    let first: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("state.json")).unwrap()).unwrap();
    assert_eq!(first["epochs_done"], 1);
    let mut two = learning_run(MethodKind::LamOnline);
    two.optimiser.epochs = 2;
    let summary = train_support::train_and_evaluate(&two, &data, &out, true, Device::Cpu).unwrap();
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("state.json")).unwrap()).unwrap();
    assert_eq!(state["epochs_done"], 2);
    assert_eq!(
        state["history"][0], first["history"][0],
        "epoch 1 was retrained instead of resumed"
    );
    let trained = pipeline::load_trained(&out, Device::Cpu).unwrap();
    let again = pipeline::evaluate_trained(
        &trained,
        &load_data(&two.data, two.seed, &data).unwrap(),
        &scratch("train-pipeline", "reeval"),
        Device::Cpu,
    )
    .unwrap();
    assert_eq!(
        again, summary.metrics,
        "eval of the checkpoint differs from the run's own evaluation"
    );
    // The sample-free OOD diagnosis of a LAM checkpoint: every AUROC is a probability, and the
    // posterior spread exists because the checkpoint carries Λ.
    let d = probdml_train::diagnose::diagnose_ood(
        &trained,
        &load_data(&two.data, two.seed, &data).unwrap(),
        Device::Cpu,
    )
    .unwrap();
    let spread = d
        .auroc_posterior_spread
        .expect("a LAM checkpoint has a posterior");
    let variance = d
        .auroc_output_variance
        .expect("a LAM checkpoint has a posterior");
    let over_norm = d
        .auroc_output_variance_over_norm
        .expect("a LAM checkpoint has a posterior");
    for v in [
        d.auroc_feature_norm,
        d.auroc_inverse_output_norm,
        d.auroc_isotropic_spread,
        spread,
        variance,
        over_norm,
    ] {
        assert!((0.0..=1.0).contains(&v), "{d:?}");
    }
    assert!(
        d.mean_feature_norm.0 > 0.0 && d.mean_output_norm.1 > 0.0,
        "{d:?}"
    );
    // A different configuration in the same folder is refused, not silently mixed.
    let other = TrainConfig {
        model: ModelOptions {
            latent_dim: 8,
            ..ModelOptions::DEFAULT
        },
        ..two
    };
    let err =
        train_support::train_and_evaluate(&other, &data, &out, true, Device::Cpu).unwrap_err();
    assert!(matches!(err, TrainError::Checkpoint { .. }), "{err}");
    let _ = std::fs::remove_dir_all(&out);
}

/// The same seed gives the same training losses and metrics.
#[test]
fn seeds_reproduce() {
    let _guard = serial();
    let mut config = learning_run(MethodKind::LamOnline);
    config.optimiser.epochs = 1;
    let data = PathBuf::from("unused");
    let a = train_support::train_and_evaluate(
        &config,
        &data,
        &scratch("train-pipeline", "seed-a"),
        false,
        Device::Cpu,
    )
    .unwrap();
    let b = train_support::train_and_evaluate(
        &config,
        &data,
        &scratch("train-pipeline", "seed-b"),
        false,
        Device::Cpu,
    )
    .unwrap();
    assert_eq!(a.metrics, b.metrics);
}

/// The trainer cuts its epochs as `--batch-sampler` says. HIB's balanced pairs are every
/// matching pair of a batch and as many others (all 28 of a batch of B = 8 when none
/// matches), so their mean count over an epoch measures how many pairs match. On the synthetic
/// set's 10 classes of 40 images, a pair of distinct random images matches with probability
/// p = 39/399: a shuffled batch expects 28p = 2.7 matching pairs and no match with probability
/// about e^(−2.7) = 0.065, so 2 · 2.7 + 28 · 0.065 = 7.3 pairs a step; a two-stream batch holds
/// its 4 partners' pairs and expects about 24p = 2.3 more, so 2 · 6.3 = 12.7 pairs a step.
/// Over 50 steps either mean lies within about 1 of its expectation.
#[test]
fn the_trainer_draws_the_batches_the_sampler_names() {
    let _guard = serial();
    let set = probdml_train::data::synthetic(10, 40, 28, 1);
    let tensors = TensorSet::new(&set, InputGeometry::MNIST, Device::Cpu).unwrap();
    let mean_pairs = |sampler| {
        let mut config = learning_run(MethodKind::Hib);
        config.optimiser.batch_size = 8;
        config.optimiser.epochs = 1;
        config.optimiser.batch_sampler = sampler;
        let config = ValidConfig::new(config).unwrap();
        let trained = trainer::train(&config, &tensors, Device::Cpu, None, false).unwrap();
        trained.history[0].mean_pairs
    };
    let two_streams = mean_pairs(BatchSampler::TwoStreams);
    let shuffled = mean_pairs(BatchSampler::Shuffled);
    assert!(
        two_streams > 10.5,
        "two streams: {two_streams} pairs a step"
    );
    assert!(shuffled < 9.5, "shuffled: {shuffled} pairs a step");
}

/// A non-finite value stops training at once, naming the tensor, the epoch and the step.
#[test]
fn non_finite_values_stop_training_naming_step_and_tensor() {
    let _guard = serial();
    let err = check_finite(
        &Tensor::from_slice(&[1.0, f64::NAN]),
        "head.weight",
        Position {
            epoch: 3,
            step: 7,
            global_step: 107,
        },
    )
    .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("head.weight") && msg.contains("epoch 3, step 7"),
        "{msg}"
    );
    // Poisoned images: the first step's loss is NaN.
    let set = probdml_train::data::synthetic(10, 20, 28, 1);
    let mut tensors = TensorSet::new(&set, InputGeometry::MNIST, Device::Cpu).unwrap();
    tensors.images = Tensor::full([200, 1, 28, 28], f64::NAN, (Kind::Float, Device::Cpu));
    for method in [MethodKind::Deterministic, MethodKind::LamOnline] {
        let config = ValidConfig::new(learning_run(method)).unwrap();
        let err = trainer::train(&config, &tensors, Device::Cpu, None, false).unwrap_err();
        match err {
            TrainError::NonFinite {
                epoch,
                step,
                ref tensor,
                ..
            } => {
                assert_eq!((epoch, step), (1, 1), "{err}");
                assert!(tensor == "loss" || tensor.starts_with("ggn"), "{err}");
            }
            other => panic!("{}: expected NonFinite, got {other}", method.name()),
        }
    }
}

/// Invalid configurations are refused with the flag and the rule.
#[test]
fn invalid_configurations_name_the_flag() {
    let cases: [(TrainConfig, &str); 5] = [
        (
            TrainConfig {
                model: ModelOptions {
                    latent_dim: 1,
                    ..ModelOptions::DEFAULT
                },
                ..TrainConfig::default()
            },
            "latent-dim",
        ),
        (
            TrainConfig {
                pairs: PairOptions {
                    margin: 2.5,
                    ..PairOptions::DEFAULT
                },
                ..TrainConfig::default()
            },
            "margin",
        ),
        (
            TrainConfig {
                optimiser: OptimiserOptions {
                    learning_rate: f64::NAN,
                    ..OptimiserOptions::DEFAULT
                },
                ..TrainConfig::default()
            },
            "lr",
        ),
        (
            TrainConfig {
                evaluation: EvaluationOptions {
                    eval_samples: 1,
                    ..EvaluationOptions::DEFAULT
                },
                ..TrainConfig::default()
            },
            "eval-samples",
        ),
        (
            TrainConfig {
                method: MethodConfig::LamOnline(LamOnlineOptions {
                    memory_factor: 1.5,
                    ..LamOnlineOptions::DEFAULT
                }),
                ..TrainConfig::default()
            },
            "memory-factor",
        ),
    ];
    for (config, flag) in cases {
        let err = config.validate().unwrap_err();
        assert!(err.to_string().contains(flag), "{flag}: {err}");
    }
}

/// The program: bad flags and missing data fail with a message naming what to fix.
#[test]
fn the_program_reports_bad_flags_and_missing_data() {
    let dir = scratch("train-pipeline", "cli");
    let d = dir.to_str().unwrap();
    let o = probdml(&["train", "--method", "bogus", "--out", d]);
    assert!(
        !o.success() && o.stderr.contains("method") && o.stderr.contains("lam-online"),
        "{}",
        o.stderr
    );
    let o = probdml(&["train", "--split", "cosine", "--out", d]);
    assert!(!o.success() && o.stderr.contains("split"), "{}", o.stderr);
    let o = probdml(&["train", "--device", "tpu", "--out", d]);
    assert!(!o.success() && o.stderr.contains("device"), "{}", o.stderr);
    let o = probdml(&[
        "train",
        "--data",
        "/nonexistent/probdml-data",
        "--epochs",
        "1",
        "--out",
        d,
    ]);
    assert!(
        !o.success()
            && o.stderr.contains("bash scripts/setup-data.sh")
            && o.stderr.contains("/nonexistent/probdml-data"),
        "{}",
        o.stderr
    );
    let o = probdml(&["eval", "--checkpoint", "/nonexistent/ckpt"]);
    assert!(
        !o.success() && o.stderr.contains("/nonexistent/ckpt"),
        "{}",
        o.stderr
    );
    // A score re-evaluation into the checkpoint's own folder would overwrite its metrics.
    let o = probdml(&[
        "eval",
        "--checkpoint",
        "/nonexistent/ckpt",
        "--score",
        "output-variance",
    ]);
    assert!(
        !o.success() && o.stderr.contains("out") && o.stderr.contains("--score"),
        "{}",
        o.stderr
    );
    // And a tiny real run through the program on synthetic data.
    let o = probdml(&[
        "train",
        "--dataset",
        "synthetic",
        "--epochs",
        "1",
        "--train-limit",
        "320",
        "--test-limit",
        "100",
        "--out",
        d,
    ]);
    assert!(o.success(), "{}", o.stderr);
    assert!(dir.join("model.safetensors").exists() && dir.join("laplace.safetensors").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `probdml reproduce` on the synthetic set, one epoch on 320 images, into `out`.
fn small_reproduce(out: &str) -> Vec<&str> {
    vec![
        "reproduce",
        "--dataset",
        "synthetic",
        "--epochs",
        "1",
        "--train-limit",
        "320",
        "--test-limit",
        "100",
        "--out",
        out,
    ]
}

/// `reproduce --first-seed k --seeds n` trains seeds k … k + n − 1 (a schedule's seeds sharded
/// over processes): the folders and the recorded configurations carry those seeds, and a range
/// past the last u64 is refused naming the flag.
#[test]
fn reproduce_takes_a_range_of_seeds() {
    let _guard = serial();
    let dir = scratch("train-pipeline", "reproduce-seeds");
    let d = dir.to_str().unwrap();
    let mut args = small_reproduce(d);
    args.extend(["--protocol", "ours", "--first-seed", "3", "--seeds", "2"]);
    let o = probdml(&args);
    assert!(o.success(), "{}", o.stderr);
    for seed in [3, 4] {
        let config =
            std::fs::read_to_string(dir.join(format!("lam-online-seed{seed}/config.json")))
                .unwrap_or_else(|e| panic!("lam-online-seed{seed}: {e}"));
        let config: serde_json::Value = serde_json::from_str(&config).unwrap();
        assert_eq!(config["seed"], seed, "{config}");
    }
    for absent in ["lam-online-seed0", "lam-online-seed5"] {
        assert!(!dir.join(absent).exists(), "{absent} was trained");
    }
    // Those two seeds, measured once, are the spread quoted beside a run of seed 3 (found done,
    // not trained again); the reference protocol's seed 3, trained now into the same folder, is
    // that row's only measured seed: no spread.
    let mut quoted = small_reproduce(d);
    quoted.extend([
        "--protocol",
        "ours,reference",
        "--first-seed",
        "3",
        "--seeds",
        "1",
    ]);
    quoted.extend(["--seed-spread", d]);
    let o = probdml(&quoted);
    assert!(o.success(), "{}", o.stderr);
    let (own, spread) = o
        .stdout
        .split_once("measured once")
        .unwrap_or_else(|| panic!("no measured spread:\n{}", o.stdout));
    assert!(own.contains("| ours (1 seed) |"), "{}", o.stdout);
    assert!(spread.contains("| ours (2 seeds) |"), "{}", o.stdout);
    assert!(spread.contains("(seeds 3, 4): mAP@1 0."), "{}", o.stdout);
    assert!(
        spread.contains("[reference protocol]: 1 measured seed(s)"),
        "{}",
        o.stdout
    );
    let mut past = args.clone();
    let at = past.iter().position(|a| *a == "3").unwrap();
    past[at] = "18446744073709551615";
    let o = probdml(&past);
    assert!(
        !o.success() && o.stderr.contains("first-seed"),
        "{}",
        o.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `reproduce` without `--protocol` (the main command's short schedule) trains LAM online under
/// both protocols, each in its own folder, and prints one row for each; a repeated protocol runs
/// once, an empty list is refused naming the flag, and a second call resumes instead of
/// retraining.
#[test]
fn reproduce_runs_each_protocol_in_its_own_folder() {
    let _guard = serial();
    let dir = scratch("train-pipeline", "reproduce");
    let d = dir.to_str().unwrap();
    let small = small_reproduce(d);
    let o = probdml(&small);
    assert!(o.success(), "{}", o.stderr);
    for folder in ["lam-online-seed0", "lam-online-reference-seed0"] {
        assert!(
            dir.join(folder).join("metrics.json").exists(),
            "{folder} missing"
        );
    }
    let rows: Vec<&str> = o
        .stdout
        .lines()
        .filter(|l| l.starts_with("| lam-online"))
        .collect();
    assert_eq!(rows.len(), 2, "{}", o.stdout);
    assert!(!rows[0].contains("reference") && rows[1].contains("[reference protocol]"));
    // The second call finds both runs done: no epoch is trained again.
    let again = probdml(&small);
    assert!(again.success(), "{}", again.stderr);
    assert!(
        !again.stderr.contains("epoch done"),
        "a finished run was retrained:\n{}",
        again.stderr
    );
    let mut once = small.to_vec();
    once.extend(["--protocol", "reference,reference"]);
    let o = probdml(&once);
    assert!(o.success(), "{}", o.stderr);
    assert_eq!(o.stdout.matches("| lam-online").count(), 1, "{}", o.stdout);
    let mut none = small.to_vec();
    none.extend(["--protocol", ""]);
    let o = probdml(&none);
    assert!(
        !o.success() && o.stderr.contains("protocol"),
        "{}",
        o.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
