//! Faults a new user meets, each reproduced and kept from coming back, and
//! "no panic" as a property of the whole program: every flag at its extremes and every
//! checkpoint file empty, truncated or corrupt gives an error naming the flag or the file —
//! never Rust's panic exit code 101 (nor the program's "internal error" 70).
//!
//! Small on purpose: the seeded synthetic set, one or two epochs on the CPU.

use probdml_train::checkpoint::{self, Content};
use probdml_train::config::MethodKind;
use probdml_train::guards::check_collapse;
use probdml_train::guards::Position;
use probdml_train::input_geometry::InputGeometry;
use probdml_train::method::TensorSet;
use probdml_train::network::EmbeddingNet;
use probdml_train::optimiser::Optimiser;
use probdml_train::optimiser_algorithm::OptimiserAlgorithm;
use probdml_train::TrainError;
use std::path::Path;
mod train_support;
use tch::{nn, Device, Kind, Tensor};
use train_support::{fault_run, probdml, scratch, serial, Outcome, TrainCommand};

/// Neither a panic (101) nor a caught one (70).
fn assert_no_panic(o: &Outcome, what: &str) {
    assert!(
        o.code != 101 && o.code != 70 && !o.stderr.contains("panicked"),
        "{what}: exit code {}\n{}",
        o.code,
        o.stderr
    );
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

// ---------------------------------------------------------------------------------------------
// Ensembles, eval and diagnose of their folder
// ---------------------------------------------------------------------------------------------

/// Fault: `train --method ensemble` wrote config.json only inside member-k/, so eval and
/// diagnose of the ensemble folder failed ("I/O error on `…/config.json`"); and `diagnose
/// --out` was ignored.
#[test]
fn ensemble_folder_evaluates_and_diagnose_writes_its_out() {
    let dir = scratch("train-faults", "ensemble");
    let d = dir.to_str().unwrap();
    let o = TrainCommand::tiny()
        .set("--out", d)
        .with(&[("--method", "ensemble"), ("--ensemble-size", "2")])
        .run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(dir.join("config.json").exists() && dir.join("member-1/manifest.json").exists());
    let eval_out = scratch("train-faults", "ensemble-eval");
    let o = probdml(&[
        "eval",
        "--checkpoint",
        d,
        "--out",
        eval_out.to_str().unwrap(),
        "--device",
        "cpu",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(eval_out.join("metrics.json").exists());
    // Eval reports progress instead of running silently.
    assert!(
        o.stderr.contains("evaluation: embedding the ID test set"),
        "{}",
        o.stderr
    );
    let diag_out = scratch("train-faults", "ensemble-diagnose");
    let o = probdml(&[
        "diagnose",
        "--checkpoint",
        d,
        "--out",
        diag_out.to_str().unwrap(),
        "--device",
        "cpu",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let written: serde_json::Value =
        serde_json::from_slice(&read(&diag_out.join("diagnosis.json"))).unwrap();
    assert!(
        written["auroc_feature_norm"].as_f64().is_some(),
        "{written}"
    );
    // The ensemble's part: one map per member after the first, which cannot move the members
    // apart (the identity is one of the maps the fit chooses among), and in the members' own
    // frames the spread 1 − R̄ ranks the images as the evaluation's 1/κ̂ does (κ̂ increases
    // with R̄), so its AUROC is the evaluation's.
    let e = &written["ensemble"];
    assert_eq!(e["members"], 2, "{written}");
    let (before, after) = (
        e["rms_distance_unaligned"][0].as_f64().unwrap(),
        e["rms_distance_aligned"][0].as_f64().unwrap(),
    );
    assert!(
        after <= before + 1e-12,
        "aligned {after} > unaligned {before}"
    );
    let metrics: serde_json::Value =
        serde_json::from_slice(&read(&eval_out.join("metrics.json"))).unwrap();
    let (ours, evaluation) = (
        e["auroc_unaligned"].as_f64().unwrap(),
        metrics["auroc"].as_f64().unwrap(),
    );
    assert!(
        (ours - evaluation).abs() < 1e-12,
        "spread AUROC {ours}, evaluation's {evaluation}"
    );
    // An ensemble of another method: members of online LAM, each with its Λ.
    let lam = scratch("train-faults", "ensemble-lam");
    let mut config = fault_run(MethodKind::Ensemble);
    config.optimiser.epochs = 1;
    train_support::set_member_method(&mut config, MethodKind::LamOnline);
    let s =
        train_support::train_and_evaluate(&config, Path::new("unused"), &lam, false, Device::Cpu)
            .unwrap();
    assert_eq!(s.metrics.samples, 2 * 8, "two members of eight draws each");
    assert!(lam.join("member-0/laplace.safetensors").exists());
    for p in [dir, eval_out, diag_out, lam] {
        let _ = std::fs::remove_dir_all(p);
    }
}

// ---------------------------------------------------------------------------------------------
// Resume: bit for bit, through an atomic, verified checkpoint
// ---------------------------------------------------------------------------------------------

/// Named weights, flattened, sorted by name.
type Weights = Vec<(String, Vec<f32>)>;

/// The weights of `vs`.
fn weights(vs: &nn::VarStore) -> Weights {
    let mut v: Vec<_> = vs
        .variables()
        .into_iter()
        .map(|(n, t)| (n, Vec::<f32>::try_from(t.flatten(0, -1)).unwrap()))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

/// Two copies of one seeded network trained side by side for six steps at a decaying rate
/// from 10⁻³ on the same synthetic images: the first by libtorch's optimiser that `config`
/// builds, the second by ours of `algorithm`. The weights before, then of libtorch's and of
/// ours after.
fn six_steps_beside_libtorch(
    config: impl nn::OptimizerConfig,
    algorithm: OptimiserAlgorithm,
) -> [Weights; 3] {
    let set = probdml_train::data::synthetic(10, 8, 28, 3);
    let data = TensorSet::new(&set, InputGeometry::MNIST, Device::Cpu).unwrap();
    let make = || {
        tch::manual_seed(11);
        let vs = nn::VarStore::new(Device::Cpu);
        let net = EmbeddingNet::new(
            &vs,
            3,
            probdml_train::dropout::Dropout::NONE,
            InputGeometry::MNIST,
            probdml_train::backbone_layout::BackboneLayout::Reference,
            probdml_train::conv_init::ConvInit::Kaiming,
        );
        (vs, net)
    };
    let (vs_a, net_a) = make();
    let (vs_b, net_b) = make();
    let start = weights(&vs_a);
    let mut theirs = config.build(&vs_a, 1e-3).unwrap();
    let mut ours = Optimiser::new(&vs_b, algorithm, 1e-3);
    for step in 0..6 {
        let lr = 1e-3 * 0.95f64.powi(step);
        theirs.set_lr(lr);
        ours.lr = lr;
        let loss = |net: &EmbeddingNet| net.embed(&data.images, false).sum(Kind::Float).square();
        theirs.backward_step(&loss(&net_a));
        ours.backward_step(&loss(&net_b)).unwrap();
    }
    assert_eq!(start.len(), 6);
    [start, weights(&vs_a), weights(&vs_b)]
}

/// Our RMSprop takes exactly libtorch's steps (the optimiser `tch::nn::RmsProp` wraps): the
/// default protocol's numbers do not move by owning the optimiser state.
#[test]
fn rmsprop_equals_libtorch_bit_for_bit() {
    let _guard = serial();
    let [_, theirs, ours] =
        six_steps_beside_libtorch(nn::RmsProp::default(), OptimiserAlgorithm::RmsProp);
    for ((name, x), (_, y)) in theirs.iter().zip(&ours) {
        assert!(
            x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits()),
            "{name} differs"
        );
    }
}

/// Our Adam takes libtorch's steps (the optimiser `tch::nn::Adam` wraps) up to f32 rounding:
/// libtorch adds (1 − β₁) g to β₁ m in one fused multiply-add, ours rounds the product first
/// (`crate::optimiser`). One rounding of m moves a step by a relative 2⁻²⁴ of the step, whose
/// size is at most lr·(1 − β₁)/√(1 − β₂) ≈ 3.2 lr, not of the weight (a weight near 0 has far
/// smaller ulps than its steps); the next gradients pass the difference on. The bound allows
/// each of the six steps 2⁻²⁰ lr (sixteen such roundings) on top of one ulp of the weight per
/// step and one more: 7 ulp + 6·2⁻²⁰·10⁻³ ≈ 5.7·10⁻⁹. The weights move by five orders of
/// magnitude more than that (checked), so the comparison is not of two untrained networks.
#[test]
fn adam_equals_libtorch_to_rounding() {
    let _guard = serial();
    let [start, theirs, ours] =
        six_steps_beside_libtorch(nn::Adam::default(), OptimiserAlgorithm::Adam);
    let mut moved = 0.0f32;
    for (((name, x), (_, y)), (_, x0)) in theirs.iter().zip(&ours).zip(&start) {
        for ((p, q), p0) in x.iter().zip(y).zip(x0) {
            let ulp = f32::from_bits(p.abs().to_bits() + 1) - p.abs();
            let bound = 7.0 * ulp + 6.0 * 2f32.powi(-20) * 1e-3;
            assert!((p - q).abs() <= bound, "{name}: {p} vs {q}");
            moved = moved.max((p - p0).abs());
        }
    }
    assert!(moved > 1e-3, "the weights moved by at most {moved}");
}

/// Fault: `--resume` restarted the optimiser's running averages, so a resumed run never
/// equalled an uninterrupted one. Now two epochs straight and one epoch + resume for the
/// second write byte-identical weights, Λ and optimiser state, and the same metrics.
#[test]
fn resume_continues_bit_for_bit() {
    let _guard = serial();
    let data = Path::new("unused");
    for algorithm in [OptimiserAlgorithm::RmsProp, OptimiserAlgorithm::Adam] {
        let mut two = fault_run(MethodKind::LamOnline);
        two.optimiser.algorithm = algorithm;
        let straight = scratch("train-faults", "straight");
        let a =
            train_support::train_and_evaluate(&two, data, &straight, false, Device::Cpu).unwrap();
        let resumed = scratch("train-faults", "resumed");
        let mut one = two.clone();
        one.optimiser.epochs = 1;
        train_support::train_and_evaluate(&one, data, &resumed, false, Device::Cpu).unwrap();
        let b = train_support::train_and_evaluate(&two, data, &resumed, true, Device::Cpu).unwrap();
        for file in [
            "model.safetensors",
            "laplace.safetensors",
            "optimiser.safetensors",
        ] {
            assert!(
                read(&straight.join(file)) == read(&resumed.join(file)),
                "{algorithm:?}: {file} of the resumed run differs from the uninterrupted run's"
            );
        }
        assert_eq!(a.metrics, b.metrics, "{algorithm:?}");
        // The other rule's state is not this run's: resuming under it is refused.
        let mut other = two.clone();
        other.optimiser.algorithm = match algorithm {
            OptimiserAlgorithm::RmsProp => OptimiserAlgorithm::Adam,
            OptimiserAlgorithm::Adam => OptimiserAlgorithm::RmsProp,
        };
        other.optimiser.epochs = 3;
        let refused = train_support::train_and_evaluate(&other, data, &resumed, true, Device::Cpu);
        assert!(
            matches!(&refused, Err(TrainError::Checkpoint { reason, .. }) if reason.contains("config.json differs")),
            "{refused:?}"
        );
        let _ = std::fs::remove_dir_all(&straight);
        let _ = std::fs::remove_dir_all(&resumed);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.path().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// Fault: a checkpoint was four files and only the weights were written atomically: a kill
/// between the writes left weights of epoch k+1 with the state of epoch k, and `--resume`
/// silently trained epoch k+1 again. Now the manifest written last commits the checkpoint and
/// `--resume` verifies it: a mixed checkpoint is refused naming the file, an interrupted commit
/// is finished, an interrupted write before the commit leaves the old checkpoint usable.
#[test]
fn checkpoints_are_atomic_and_verified() {
    let _guard = serial();
    let data = Path::new("unused");
    let mut one = fault_run(MethodKind::Deterministic);
    one.optimiser.epochs = 1;
    let mut two = one.clone();
    two.optimiser.epochs = 2;
    let epoch1 = scratch("train-faults", "ckpt-epoch1");
    train_support::train_and_evaluate(&one, data, &epoch1, false, Device::Cpu).unwrap();
    let epoch2 = scratch("train-faults", "ckpt-epoch2");
    train_support::train_and_evaluate(&two, data, &epoch2, false, Device::Cpu).unwrap();

    // The fault: weights of epoch 2 beside the state and manifest of epoch 1.
    let mixed = scratch("train-faults", "ckpt-mixed");
    copy_dir(&epoch1, &mixed);
    std::fs::copy(
        epoch2.join("model.safetensors"),
        mixed.join("model.safetensors"),
    )
    .unwrap();
    let err = train_support::train_and_evaluate(&two, data, &mixed, true, Device::Cpu).unwrap_err();
    match &err {
        TrainError::Checkpoint { path, reason } => {
            assert!(path.ends_with("model.safetensors"), "{err}");
            assert!(reason.contains("manifest"), "{err}");
        }
        other => panic!("expected a checkpoint error, got {other}"),
    }

    // A crash after the commit (manifest written, a file still under its .next name) is
    // finished by the verification.
    let pending = scratch("train-faults", "ckpt-pending");
    copy_dir(&epoch1, &pending);
    std::fs::rename(
        pending.join("model.safetensors"),
        pending.join("model.safetensors.next"),
    )
    .unwrap();
    let manifest = checkpoint::verify(&pending).unwrap().unwrap();
    assert_eq!(manifest.epoch, 1);
    assert!(pending.join("model.safetensors").exists());

    // A crash before the commit (a half-written .next file, the old manifest) leaves the
    // previous checkpoint: resuming from it equals the straight two-epoch run.
    let torn = scratch("train-faults", "ckpt-torn");
    copy_dir(&epoch1, &torn);
    std::fs::write(torn.join("model.safetensors.next"), b"half a file").unwrap();
    train_support::train_and_evaluate(&two, data, &torn, true, Device::Cpu).unwrap();
    assert!(read(&torn.join("model.safetensors")) == read(&epoch2.join("model.safetensors")));

    // A checkpoint without a manifest (an older probdml's) is never continued: it has no
    // optimiser state, so the continuation could not equal an uninterrupted run.
    let legacy = scratch("train-faults", "ckpt-legacy");
    copy_dir(&epoch1, &legacy);
    std::fs::remove_file(legacy.join("manifest.json")).unwrap();
    let err =
        train_support::train_and_evaluate(&two, data, &legacy, true, Device::Cpu).unwrap_err();
    assert!(err.to_string().contains("no manifest.json"), "{err}");
    let _ = std::fs::remove_dir_all(&legacy);

    // checkpoint::save writes what verify accepts, and nothing else.
    let fresh = scratch("train-faults", "ckpt-save");
    checkpoint::save(
        &fresh,
        3,
        vec![
            ("a.json", Content::Bytes(b"{}".to_vec())),
            (
                "b.safetensors",
                Content::Tensors(vec![("x".into(), Tensor::from_slice(&[1.0f32, 2.0]))]),
            ),
        ],
    )
    .unwrap();
    assert_eq!(checkpoint::verify(&fresh).unwrap().unwrap().epoch, 3);
    std::fs::write(fresh.join("a.json"), b"{} ").unwrap();
    assert!(checkpoint::verify(&fresh).is_err());
    for p in [epoch1, epoch2, mixed, pending, torn, fresh] {
        let _ = std::fs::remove_dir_all(p);
    }
}

// ---------------------------------------------------------------------------------------------
// Output folders
// ---------------------------------------------------------------------------------------------

/// Faults: training into an --out that holds a run silently overwrote it; `posthoc --out` equal
/// to `--checkpoint` turned the deterministic run into a post-hoc one; an unusable --out was
/// found only after a full epoch.
#[test]
fn output_folders_are_validated_first_and_never_overwritten_silently() {
    let dir = scratch("train-faults", "out-policy");
    let d = dir.to_str().unwrap();
    let o = TrainCommand::tiny()
        .set("--out", d)
        .with(&[("--method", "deterministic")])
        .run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    let before = read(&dir.join("model.safetensors"));
    let o = TrainCommand::tiny()
        .set("--out", d)
        .with(&[("--method", "deterministic"), ("--seed", "9")])
        .run();
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("`out`") && o.stderr.contains("already holds a run"),
        "{}",
        o.stderr
    );
    assert!(
        read(&dir.join("model.safetensors")) == before,
        "the run was overwritten"
    );
    let o = TrainCommand::tiny()
        .set("--out", d)
        .with(&[("--method", "deterministic"), ("--seed", "9")])
        .switch("--force")
        .run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        read(&dir.join("model.safetensors")) != before,
        "--force did not replace the run"
    );

    // posthoc --out == --checkpoint, also spelled differently.
    let same = format!("{d}/.");
    for out in [d, same.as_str()] {
        let o = probdml(&[
            "posthoc",
            "--checkpoint",
            d,
            "--out",
            out,
            "--device",
            "cpu",
        ]);
        assert_eq!(o.code, 1, "{}", o.stderr);
        assert!(
            o.stderr.contains("must differ from --checkpoint"),
            "{}",
            o.stderr
        );
    }
    let config: serde_json::Value =
        serde_json::from_slice(&read(&dir.join("config.json"))).unwrap();
    assert_eq!(config["method"], "deterministic");
    let post = scratch("train-faults", "out-posthoc");
    let o = probdml(&[
        "posthoc",
        "--checkpoint",
        d,
        "--out",
        post.to_str().unwrap(),
        "--device",
        "cpu",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        checkpoint::verify(&post).unwrap().is_some() && post.join("laplace.safetensors").exists()
    );

    // An --out that is a file, or lies under one: refused at once, naming --out.
    let file = scratch("train-faults", "out-file");
    std::fs::write(&file, b"x").unwrap();
    let under = file.join("sub");
    for out in [&file, &under] {
        let started = std::time::Instant::now();
        let o = TrainCommand::tiny()
            .set("--out", out.to_str().unwrap())
            .run();
        assert_eq!(o.code, 1, "{}", o.stderr);
        assert!(o.stderr.contains("invalid `out`"), "{}", o.stderr);
        assert!(
            !o.stderr.contains("epoch done"),
            "an epoch ran first:\n{}",
            o.stderr
        );
        assert!(started.elapsed().as_secs() < 30);
    }
    for p in [dir, post, file] {
        let _ = std::fs::remove_dir_all(&p);
        let _ = std::fs::remove_file(&p);
    }
}

// ---------------------------------------------------------------------------------------------
// Collapse, titles, errors that name the checkpoint
// ---------------------------------------------------------------------------------------------

/// Fault: at `--lr 1e6` the embeddings collapsed to zero without a NaN; the collapsed
/// checkpoint was saved and evaluation then blamed `data`. Now training stops, naming the step
/// and the tensor.
#[test]
fn collapse_stops_training_naming_step_and_tensor() {
    let at = Position {
        epoch: 2,
        step: 5,
        global_step: 17,
    };
    let err = check_collapse(&Tensor::zeros([4, 3], (Kind::Float, Device::Cpu)), at).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("head output") && msg.contains("epoch 2, step 5") && msg.contains("collapsed"),
        "{msg}"
    );
    check_collapse(&Tensor::ones([4, 3], (Kind::Float, Device::Cpu)), at).unwrap();
    // Finite entries whose norm overflows f32: normalising gives 0, the "collapse" --lr 1e6
    // produced.
    let err =
        check_collapse(&Tensor::full([2, 3], 1e30, (Kind::Float, Device::Cpu)), at).unwrap_err();
    assert!(err.to_string().contains("overflows f32"), "{err}");

    for method in ["deterministic", "lam-online"] {
        let dir = scratch("train-faults", &format!("collapse-{method}"));
        let o = TrainCommand::tiny()
            .set("--out", dir.to_str().unwrap())
            .with(&[("--method", method), ("--lr", "1e6")])
            .run();
        assert_eq!(o.code, 1, "{method}: {}", o.stderr);
        assert!(
            (o.stderr.contains("collapsed") || o.stderr.contains("non-finite"))
                && o.stderr.contains("step"),
            "{method}: {}",
            o.stderr
        );
        assert!(
            !dir.join("metrics.json").exists(),
            "{method}: a collapsed run was evaluated"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Fault: a checkpoint whose model cannot be evaluated was reported as bad `data`. Now the
/// error names the checkpoint.
#[test]
fn evaluation_errors_of_a_checkpoint_name_it() {
    let _guard = serial();
    let dir = scratch("train-faults", "zeroed");
    let mut one = fault_run(MethodKind::Deterministic);
    one.optimiser.epochs = 1;
    train_support::train_and_evaluate(&one, Path::new("unused"), &dir, false, Device::Cpu).unwrap();
    // Zero the head (a collapsed model) and commit it properly, manifest and all.
    let tensors: Vec<(String, Tensor)> = checkpoint::read_tensors(&dir.join("model.safetensors"))
        .unwrap()
        .into_iter()
        .map(|(n, t)| {
            let t = if n.starts_with("head.") {
                t.zeros_like()
            } else {
                t
            };
            (n, t)
        })
        .collect();
    let config = read(&dir.join("config.json"));
    let state = read(&dir.join("state.json"));
    checkpoint::save(
        &dir,
        1,
        vec![
            ("config.json", Content::Bytes(config)),
            ("model.safetensors", Content::Tensors(tensors)),
            ("state.json", Content::Bytes(state)),
        ],
    )
    .unwrap();
    let d = dir.to_str().unwrap();
    let o = probdml(&["eval", "--checkpoint", d, "--device", "cpu"]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains(&format!("error: checkpoint `{d}`")),
        "{}",
        o.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Fault: runs on `--dataset synthetic` printed tables titled "Fashion-MNIST (ID) vs MNIST
/// (OOD)" beside the paper's rows.
#[test]
fn tables_are_titled_by_their_data() {
    let dir = scratch("train-faults", "titles");
    let o = TrainCommand::tiny()
        .set("--out", dir.to_str().unwrap())
        .with(&[("--method", "mc-dropout")])
        .run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains("synthetic (ID) vs synthetic OOD images"),
        "{}",
        o.stdout
    );
    assert!(
        !o.stdout.contains("Fashion-MNIST") && !o.stdout.contains("paper (LAM Table 2)"),
        "{}",
        o.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// No panic: flags at their extremes, files empty, truncated or corrupt
// ---------------------------------------------------------------------------------------------

/// Every numeric flag at 0, 1, negative, NaN, ±∞, beyond f32, beyond u64: the program either
/// runs (on a small synthetic set) or refuses with the flag's name; it never panics.
#[test]
fn no_flag_value_panics() {
    let flags = [
        "--epochs",
        "--latent-dim",
        "--batch",
        "--lr",
        "--lr-decay",
        "--eval-samples",
        "--train-samples",
        "--prior-precision",
        "--tempering",
        "--dropout",
        "--train-limit",
        "--test-limit",
        "--seed",
        "--ensemble-size",
        "--threads",
    ];
    let values = [
        "0",
        "1",
        "-1",
        "NaN",
        "inf",
        "-inf",
        "1e39",
        "1e-39",
        "18446744073709551616",
        "3000000000",
    ];
    // 150 runs of the program, each single-threaded (`--threads 1`): as many at once as the
    // machine has cores, each in its own folder.
    let cases: Vec<(&str, &str)> = flags
        .iter()
        .flat_map(|&flag| values.iter().map(move |&value| (flag, value)))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    std::thread::scope(|s| {
        for worker in 0..workers {
            let (cases, next) = (&cases, &next);
            s.spawn(move || {
                let dir = scratch("train-faults", &format!("flags-{worker}"));
                while let Some(&(flag, value)) =
                    cases.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                {
                    let _ = std::fs::remove_dir_all(&dir);
                    let mut run = TrainCommand::into_folder(&dir).with(&[
                        ("--train-limit", "130"),
                        ("--test-limit", "30"),
                        ("--eval-samples", "2"),
                    ]);
                    if flag == "--ensemble-size" {
                        run = run.set("--method", "ensemble");
                    }
                    // The flag under test replaces its value in the tiny run.
                    let o = run.set(flag, value).run();
                    let what = format!("{flag} {value}");
                    assert_no_panic(&o, &what);
                    if o.code != 0 {
                        let name = flag.trim_start_matches("--");
                        assert!(
                            o.stderr.contains(name) || o.stderr.contains(flag),
                            "{what}: the error does not name the flag:\n{}",
                            o.stderr
                        );
                    }
                }
                let _ = std::fs::remove_dir_all(&dir);
            });
        }
    });
}

/// Every file of a checkpoint emptied, truncated or overwritten with garbage: `eval` and
/// `train --resume` refuse it naming the file; nothing panics.
#[test]
fn no_checkpoint_corruption_panics() {
    let _guard = serial();
    let good = scratch("train-faults", "corrupt-good");
    let mut config = fault_run(MethodKind::LamOnline);
    config.optimiser.epochs = 1;
    config.data.train_limit = Some(192);
    config.data.test_limit = Some(60);
    train_support::train_and_evaluate(&config, Path::new("unused"), &good, false, Device::Cpu)
        .unwrap();
    let files = [
        "config.json",
        "model.safetensors",
        "laplace.safetensors",
        "optimiser.safetensors",
        "state.json",
        "manifest.json",
    ];
    let work = scratch("train-faults", "corrupt-work");
    let eval_out = scratch("train-faults", "corrupt-eval");
    for file in files {
        for damage in ["empty", "truncated", "garbage", "missing"] {
            copy_dir(&good, &work);
            let path = work.join(file);
            let bytes = read(&path);
            match damage {
                "empty" => std::fs::write(&path, b"").unwrap(),
                "truncated" => std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap(),
                "garbage" => {
                    let g: Vec<u8> = bytes
                        .iter()
                        .map(|b| b.wrapping_mul(31).wrapping_add(7))
                        .collect();
                    std::fs::write(&path, g).unwrap()
                }
                _ => std::fs::remove_file(&path).unwrap(),
            }
            let w = work.to_str().unwrap();
            let what = format!("{file} {damage}");
            let o = probdml(&[
                "eval",
                "--checkpoint",
                w,
                "--out",
                eval_out.to_str().unwrap(),
                "--device",
                "cpu",
            ]);
            assert_no_panic(&o, &format!("eval: {what}"));
            // Only the optimiser file and the state may be absent for an evaluation.
            // A checkpoint without a manifest is one written before manifests existed: `eval`
            // loads it (with a warning), `--resume` refuses it.
            let harmless = damage == "missing"
                && matches!(
                    file,
                    "optimiser.safetensors" | "state.json" | "manifest.json"
                );
            if !harmless {
                assert_eq!(o.code, 1, "eval: {what}: accepted\n{}", o.stderr);
                assert!(
                    o.stderr.contains(file),
                    "eval: {what}: the error does not name the file:\n{}",
                    o.stderr
                );
            }
            // The flags of the run that wrote the checkpoint (fault_run(): eight samples,
            // seed 5, ensemble size 2), so that only the damage stands in the way.
            let o = TrainCommand::tiny()
                .set("--out", w)
                .with(&[
                    ("--method", "lam-online"),
                    ("--eval-samples", "8"),
                    ("--seed", "5"),
                    ("--ensemble-size", "2"),
                ])
                .switch("--resume")
                .run();
            assert_no_panic(&o, &format!("resume: {what}"));
            if damage == "missing" && file == "manifest.json" {
                // A complete run without a manifest (as an older probdml wrote them): loaded
                // with a warning, nothing trained.
                assert_eq!(o.code, 0, "resume: {what}\n{}", o.stderr);
                assert!(o.stderr.contains("no manifest.json"), "{}", o.stderr);
                continue;
            }
            assert_eq!(o.code, 1, "resume: {what}: accepted\n{}", o.stderr);
            assert!(
                o.stderr.contains(file) || o.stderr.contains("manifest"),
                "resume: {what}: the error names neither the file nor the manifest:\n{}",
                o.stderr
            );
        }
    }
    for p in [good, work, eval_out] {
        let _ = std::fs::remove_dir_all(p);
    }
}

/// A data file emptied or truncated: the program names it and the command that fetches it.
#[test]
fn no_data_corruption_panics() {
    let data = scratch("train-faults", "corrupt-data");
    std::fs::create_dir_all(data.join("fashion-mnist")).unwrap();
    let files = [
        "train-images-idx3-ubyte.gz",
        "train-labels-idx1-ubyte.gz",
        "t10k-images-idx3-ubyte.gz",
        "t10k-labels-idx1-ubyte.gz",
    ];
    for (k, damage) in ["empty", "garbage"].iter().enumerate() {
        for f in files {
            let bytes: &[u8] = if *damage == "empty" {
                b""
            } else {
                b"\x1f\x8b not really gzip"
            };
            std::fs::write(data.join("fashion-mnist").join(f), bytes).unwrap();
        }
        let out = scratch("train-faults", &format!("corrupt-data-out-{k}"));
        let o = probdml(&[
            "train",
            "--data",
            data.to_str().unwrap(),
            "--epochs",
            "1",
            "--device",
            "cpu",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_no_panic(&o, damage);
        assert_eq!(o.code, 1, "{}", o.stderr);
        assert!(
            o.stderr.contains("train-images-idx3-ubyte.gz")
                && o.stderr.contains("bash scripts/setup-data.sh"),
            "{damage}: {}",
            o.stderr
        );
        let _ = std::fs::remove_dir_all(&out);
    }
    let _ = std::fs::remove_dir_all(&data);
}

/// Two `train` commands into one `--out`: the second is refused while the first runs, with an
/// error naming the folder and the first's process id; once the first is killed (its lock left
/// behind), the next command finds the lock stale, takes the folder and finishes — and leaves no
/// lock behind.
#[test]
fn a_second_writer_of_an_output_folder_is_refused_and_a_stale_lock_is_not() {
    let out = scratch("train-faults", "locked");
    let out_arg = out.to_str().unwrap().to_owned();
    let tiny = |epochs: &str| {
        TrainCommand::tiny().with(&[
            ("--method", "deterministic"),
            ("--epochs", epochs),
            ("--batch", "32"),
            ("--train-limit", "64"),
            ("--test-limit", "30"),
            ("--eval-samples", "2"),
        ])
    };
    // The first writer trains far longer than this test waits for it.
    let mut first = std::process::Command::new(env!("CARGO_BIN_EXE_probdml"))
        .args(tiny("100000").set("--out", &out_arg).args())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the probdml program runs");
    let lock = out.join(".probdml.lock");
    let started = std::time::Instant::now();
    while !lock.exists() {
        if let Ok(Some(status)) = first.try_wait() {
            panic!("the first writer ended before taking the lock: {status}");
        }
        assert!(
            started.elapsed().as_secs() < 120,
            "no lock after 120 s: {}",
            lock.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }

    let second_run = tiny("1").set("--out", &out_arg).switch("--force");
    let second = second_run.run();
    let outcome = first.try_wait().expect("the first writer can be polled");
    let _ = first.kill();
    let _ = first.wait();
    assert!(
        outcome.is_none(),
        "the first writer ended early: {outcome:?}"
    );
    assert_eq!(second.code, 1, "{}", second.stderr);
    assert!(
        second.stderr.contains(&out_arg)
            && second.stderr.contains(&format!("process {}", first.id())),
        "the refusal names neither the folder nor the process:\n{}",
        second.stderr
    );

    // Killed, the first writer could not release its lock: it is stale, not a block.
    assert!(lock.exists(), "the killed writer's lock is gone");
    let third = second_run.run();
    assert_eq!(third.code, 0, "{}", third.stderr);
    assert!(third.stderr.contains("stale lock"), "{}", third.stderr);
    assert!(out.join("metrics.json").exists());
    assert!(!lock.exists(), "a finished run left its lock behind");
    let _ = std::fs::remove_dir_all(&out);
}
