//! The training pipeline end to end on the seeded synthetic set (chapter 09): every method
//! trains and evaluates, checkpoints resume, seeds reproduce, non-finite values stop the run
//! naming the step and tensor, and bad flags or paths fail with a clear message.
//!
//! Small on purpose (a few hundred images, one or two epochs on the CPU): CI runs it on every
//! change; the real-data numbers are produced by `probdml reproduce` (README).

use probdml::train::config::{MethodKind, TrainConfig, ValidConfig};
use probdml::train::guards::check_finite;
use probdml::train::guards::Position;
use probdml::train::method::TensorSet;
use probdml::train::pipeline::{self, load_data};
use probdml::train::trainer;
use probdml::train::TrainError;
use std::path::PathBuf;
mod train_support;
use tch::{Device, Kind, Tensor};
use train_support::{learning_run, probdml, scratch, serial};

/// Every method trains and evaluates; the embeddings learn the synthetic classes (chance mAP@1
/// is 0.1 with ten balanced classes), and the probabilistic methods report uncertainty metrics.
#[test]
fn every_method_trains_and_evaluates_on_synthetic_data() {
    let _guard = serial();
    for method in MethodKind::all() {
        let config = learning_run(method);
        let out = scratch("train-pipeline", method.name());
        let summary = train_support::train_and_evaluate(
            &config,
            &PathBuf::from("unused"),
            &out,
            false,
            Device::Cpu,
        )
        .unwrap_or_else(|e| panic!("{}: {e}", method.name()));
        let m = &summary.metrics;
        assert!(
            m.map_at_1 > 0.5,
            "{}: mAP@1 {} barely above chance",
            method.name(),
            m.map_at_1
        );
        assert_eq!(m.id_count, 200);
        assert!(out.join("metrics.json").exists() && out.join("summary.json").exists());
        let probabilistic = method != MethodKind::Deterministic;
        for (name, v) in [
            ("auroc", m.auroc),
            ("auprc", m.auprc),
            ("ausc", m.ausc),
            ("ece", m.ece),
        ] {
            assert_eq!(
                v.is_some(),
                probabilistic,
                "{}: {name} = {v:?}",
                method.name()
            );
            if let Some(v) = v {
                assert!((0.0..=1.0).contains(&v), "{}: {name} = {v}", method.name());
            }
        }
        if probabilistic {
            assert!(
                out.join("plots").join("roc.svg").exists(),
                "{}: no ROC plot",
                method.name()
            );
        }
        let _ = std::fs::remove_dir_all(&out);
    }
}

/// A run resumed after one epoch continues at epoch 2 with the first epoch's log, weights and Λ
/// from the checkpoint; `eval` on the checkpoint reproduces the run's metrics exactly.
#[test]
fn checkpoints_resume_and_reevaluate() {
    let _guard = serial();
    let out = scratch("train-pipeline", "resume");
    let data = PathBuf::from("unused");
    let one = TrainConfig {
        epochs: 1,
        ..learning_run(MethodKind::LamOnline)
    };
    train_support::train_and_evaluate(&one, &data, &out, false, Device::Cpu).unwrap();
    let first: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("state.json")).unwrap()).unwrap();
    assert_eq!(first["epochs_done"], 1);
    let two = TrainConfig {
        epochs: 2,
        ..learning_run(MethodKind::LamOnline)
    };
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
        &load_data(&two, &data).unwrap(),
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
    let d = probdml::train::diagnose::diagnose_ood(
        &trained,
        &load_data(&two, &data).unwrap(),
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
        latent_dim: 8,
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
    let config = TrainConfig {
        epochs: 1,
        ..learning_run(MethodKind::LamOnline)
    };
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
    let set = probdml::train::data::synthetic(10, 20, 28, 1);
    let mut tensors = TensorSet::new(&set, Device::Cpu).unwrap();
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
                latent_dim: 1,
                ..TrainConfig::default()
            },
            "latent-dim",
        ),
        (
            TrainConfig {
                margin: 2.5,
                ..TrainConfig::default()
            },
            "margin",
        ),
        (
            TrainConfig {
                learning_rate: f64::NAN,
                ..TrainConfig::default()
            },
            "lr",
        ),
        (
            TrainConfig {
                eval_samples: 1,
                ..TrainConfig::default()
            },
            "eval-samples",
        ),
        (
            TrainConfig {
                memory_factor: 1.5,
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

/// `reproduce` without `--protocol` (the main command's short schedule) trains LAM online under
/// both protocols, each in its own folder, and prints one row for each; a repeated protocol runs
/// once, an empty list is refused naming the flag, and a second call resumes instead of
/// retraining.
#[test]
fn reproduce_runs_each_protocol_in_its_own_folder() {
    let _guard = serial();
    let dir = scratch("train-pipeline", "reproduce");
    let d = dir.to_str().unwrap();
    let small = [
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
        d,
    ];
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
