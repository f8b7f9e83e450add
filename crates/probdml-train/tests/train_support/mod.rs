//! What the feature-`tch` integration tests share: the lock on libtorch's global generator, a
//! fresh scratch folder, the `probdml` program run as a user would, f64 leaves and host copies
//! for the tensor-vs-math-crate checks, and the synthetic-set learning, resume and flag checks.
#![allow(dead_code)] // each test target uses a subset

use probdml_train::checkpoint::layout::member_dir;
use probdml_train::config::{
    DataOptions, DatasetChoice, MethodConfig, MethodKind, OptimiserOptions, TrainConfig,
    ValidConfig,
};
use probdml_train::evaluate::Metrics;
use probdml_train::method::{self, Model, TensorSet};
use probdml_train::pipeline::{self, Environment, OutPolicy, RunSummary};
use probdml_train::seeds;
use probdml_train::trainer::Trained;
use probdml_train::{TrainError, TrainResult};
use std::path::{Path, PathBuf};
use std::process::Command;
use tch::{Device, Kind, Tensor};

/// libtorch's random generator is process-global and the test harness runs tests on several
/// threads: without this lock one test's `manual_seed` would reseed another's draws mid-run.
static LIBTORCH_RNG: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Holds the lock on libtorch's generator.
pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    LIBTORCH_RNG
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// An f64 leaf tensor of `shape` that records its gradient.
pub fn leaf(values: &[f64], shape: &[i64]) -> Tensor {
    Tensor::from_slice(values)
        .view(shape)
        .set_requires_grad(true)
}

/// The values of `t` on the host, flattened, as f64.
pub fn host(t: &Tensor) -> Vec<f64> {
    Vec::<f64>::try_from(&t.detach().to_kind(Kind::Double).contiguous().view([-1])).unwrap()
}

/// An empty folder `probdml-<target>-<pid>-<name>` under the temporary directory.
pub fn scratch(target: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("probdml-{target}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// What one run of the program returned.
#[derive(Debug)]
pub struct Outcome {
    /// Exit code (−1 when killed by a signal).
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error (the log at `RUST_LOG=info`).
    pub stderr: String,
}

impl Outcome {
    /// Exit code 0.
    pub fn success(&self) -> bool {
        self.code == 0
    }
}

/// Runs the `probdml` program with `args` and the log at level info.
pub fn probdml<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Outcome {
    let out = Command::new(env!("CARGO_BIN_EXE_probdml"))
        .args(args)
        .env("RUST_LOG", "info")
        .output()
        .expect("the probdml program runs");
    Outcome {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The command line of `probdml train` on a tiny run of the seeded synthetic set, on the CPU
/// with one libtorch thread: one epoch on 192 training images, evaluated on 60 ID and 60 OOD
/// images. Every flag appears once (clap refuses a repeated flag): [`TrainCommand::set`]
/// replaces a value or adds the flag, and each is written `--flag=value`, so that a value such as
/// "-1" or "-inf" reaches the value parser as a value.
#[derive(Debug, Clone)]
pub struct TrainCommand {
    flags: Vec<(String, Option<String>)>,
}

impl TrainCommand {
    /// The tiny run, without `--out`.
    pub fn tiny() -> Self {
        let mut c = TrainCommand { flags: Vec::new() };
        for (flag, value) in [
            ("--dataset", "synthetic"),
            ("--epochs", "1"),
            ("--train-limit", "192"),
            ("--test-limit", "60"),
            ("--device", "cpu"),
            ("--threads", "1"),
        ] {
            c = c.set(flag, value);
        }
        c
    }

    /// The tiny run writing into `out`.
    pub fn into_folder(out: &Path) -> Self {
        Self::tiny().set("--out", out.to_str().expect("a UTF-8 scratch path"))
    }

    /// `flag` set to `value` (replacing its value when it is already there).
    pub fn set(mut self, flag: &str, value: &str) -> Self {
        match self.flags.iter_mut().find(|(f, _)| f == flag) {
            Some((_, v)) => *v = Some(value.to_owned()),
            None => self.flags.push((flag.to_owned(), Some(value.to_owned()))),
        }
        self
    }

    /// Each `(flag, value)` of `pairs` set in turn.
    pub fn with(self, pairs: &[(&str, &str)]) -> Self {
        pairs.iter().fold(self, |c, (f, v)| c.set(f, v))
    }

    /// A flag without a value (`--resume`, `--force`).
    pub fn switch(mut self, flag: &str) -> Self {
        if !self.flags.iter().any(|(f, _)| f == flag) {
            self.flags.push((flag.to_owned(), None));
        }
        self
    }

    /// The arguments, starting with the subcommand.
    pub fn args(&self) -> Vec<String> {
        std::iter::once("train".to_owned())
            .chain(self.flags.iter().map(|(f, v)| match v {
                Some(v) => format!("{f}={v}"),
                None => f.clone(),
            }))
            .collect()
    }

    /// Runs it.
    pub fn run(&self) -> Outcome {
        probdml(&self.args())
    }
}

fn read_losses(out: &Path) -> Vec<f64> {
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("state.json")).unwrap()).unwrap();
    state["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["mean_loss"].as_f64().unwrap())
        .collect()
}

/// The least gain in mAP@1 over the model a run starts from ([`evaluate_untrained`]): random
/// convolutional features already separate the synthetic classes (untrained networks reach
/// mAP@1 0.6–0.75), so chance (0.1) is no bar. The gains measured are in the tests that use it;
/// 0.15 sits far above what one more or one fewer correct query among 200 moves (0.005).
pub const MAP_GAIN: f64 = 0.15;

/// Trains and evaluates `config` (synthetic data) and asserts learning with margins: the mean
/// loss of the last epoch is below the first's by more than the fraction `min_fall` of the
/// first's magnitude, mAP@1 beats the untrained model's by [`MAP_GAIN`], and the uncertainty
/// metrics exist and are probabilities. Returns the per-epoch losses and the metrics.
pub fn assert_learns(what: &str, config: &TrainConfig, min_fall: f64) -> (Vec<f64>, Metrics) {
    let out = scratch("train-method", what);
    let summary = train_and_evaluate(config, &PathBuf::from("unused"), &out, false, Device::Cpu)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let losses = read_losses(&out);
    let m = summary.metrics;
    let untrained = evaluate_retrieval_start(&summary.config, &out.join("untrained"))
        .unwrap_or_else(|e| panic!("{what} untrained: {e}"));
    let (first, last) = (losses[0], *losses.last().unwrap());
    let fall = (first - last) / first.abs();
    eprintln!(
        "{what}: losses {losses:?} (fall {:.1} %), mAP@1 {:.3} (untrained {:.3}), AUROC {:?}",
        100.0 * fall,
        m.map_at_1,
        untrained.map_at_1,
        m.auroc
    );
    // Written so that a NaN loss or mAP fails them.
    assert!(
        fall > min_fall,
        "{what}: the loss fell {:.1} %, not more than {:.1} %: {losses:?}",
        100.0 * fall,
        100.0 * min_fall
    );
    assert!(
        m.map_at_1 > untrained.map_at_1 + MAP_GAIN,
        "{what}: mAP@1 {:.3} is not {MAP_GAIN} above the untrained model's {:.3}",
        m.map_at_1,
        untrained.map_at_1
    );
    for (name, v) in [
        ("auroc", m.auroc),
        ("auprc", m.auprc),
        ("ausc", m.ausc),
        ("ece", m.ece),
    ] {
        let v = v.unwrap_or_else(|| panic!("{what}: no {name}"));
        assert!((0.0..=1.0).contains(&v), "{what}: {name} = {v}");
    }
    let _ = std::fs::remove_dir_all(&out);
    (losses, m)
}

/// Values a numeric flag is tried at: 0, negative, NaN, ±∞, beyond f32 (both ends), beyond u64.
pub const EXTREME_VALUES: [&str; 8] = [
    "0",
    "-1",
    "NaN",
    "inf",
    "-inf",
    "1e39",
    "1e-39",
    "18446744073709551616",
];

/// Runs `probdml train --method <method> <flag>=<value>` on a tiny synthetic run for every
/// flag of `flags` and every [`EXTREME_VALUES`] entry: the program either runs or refuses with
/// an error naming the flag; it never panics (exit 101, or 70 for a caught panic).
pub fn assert_flags_never_panic(method: &str, flags: &[&str]) {
    let dir = scratch("train-method", &format!("flags-{method}"));
    for flag in flags {
        for value in EXTREME_VALUES {
            let _ = std::fs::remove_dir_all(&dir);
            let pair = format!("{flag}={value}");
            let o = TrainCommand::into_folder(&dir)
                .with(&[
                    ("--method", method),
                    ("--batch", "32"),
                    ("--train-limit", "64"),
                    ("--test-limit", "30"),
                    ("--eval-samples", "2"),
                ])
                .set(flag, value)
                .run();
            let (code, stderr) = (o.code, o.stderr);
            assert!(
                code != 101 && code != 70 && !stderr.contains("panicked"),
                "{method} {pair}: exit code {code}\n{stderr}"
            );
            if code != 0 {
                assert!(
                    stderr.contains(flag.trim_start_matches("--")),
                    "{method} {pair}: the error does not name the flag:\n{stderr}"
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Trains `config` for its epochs straight, and for one epoch then resumed: the weights (the
/// method's heads, proxies and scalars included) and the optimiser state are byte-identical, and
/// so are the metrics.
pub fn assert_resume_is_exact(what: &str, config: &TrainConfig) {
    let data = PathBuf::from("unused");
    let straight = scratch("train-method", &format!("{what}-straight"));
    let a = train_and_evaluate(config, &data, &straight, false, Device::Cpu).unwrap();
    let resumed = scratch("train-method", &format!("{what}-resumed"));
    let mut one = config.clone();
    one.optimiser.epochs = 1;
    train_and_evaluate(&one, &data, &resumed, false, Device::Cpu).unwrap();
    let b = train_and_evaluate(config, &data, &resumed, true, Device::Cpu).unwrap();
    for file in ["model.safetensors", "optimiser.safetensors"] {
        let read = |d: &Path| std::fs::read(d.join(file)).unwrap();
        assert!(
            read(&straight) == read(&resumed),
            "{what}: {file} of the resumed run differs from the uninterrupted run's"
        );
    }
    assert_eq!(a.metrics, b.metrics, "{what}: metrics after resume");
    let _ = std::fs::remove_dir_all(&straight);
    let _ = std::fs::remove_dir_all(&resumed);
}

/// Asserts that `r` is [`TrainError::InvalidConfig`] naming `arg`.
pub fn assert_invalid<T>(r: Result<T, TrainError>, arg: &str) {
    match r {
        Err(TrainError::InvalidConfig { arg: got, .. }) => assert_eq!(got, arg),
        Err(e) => panic!("{arg}: wrong error {e}"),
        Ok(_) => panic!("{arg}: accepted"),
    }
}

/// `method` on the seeded synthetic set: `epochs` at batch 64 on `train` images, evaluated on
/// `test` ID and OOD images, seed `seed`; every other field the default.
pub fn synthetic(
    method: MethodKind,
    epochs: usize,
    train: usize,
    test: usize,
    seed: u64,
) -> TrainConfig {
    TrainConfig {
        method: method.into(),
        data: DataOptions {
            dataset: DatasetChoice::Synthetic,
            train_limit: Some(train),
            test_limit: Some(test),
            ..DataOptions::DEFAULT
        },
        optimiser: OptimiserOptions {
            epochs,
            batch_size: 64,
            ..OptimiserOptions::DEFAULT
        },
        seed,
        ..TrainConfig::default()
    }
}

/// The run the learning tests train: [`synthetic`], two epochs on 640 images, evaluated on 200
/// with 16 samples per image, seed 3 (an ensemble of two members).
pub fn learning_run(method: MethodKind) -> TrainConfig {
    let mut c = synthetic(method, 2, 640, 200, 3);
    set_ensemble_size(&mut c, 2);
    c.evaluation.eval_samples = 16;
    c
}

/// The run the fault tests damage and resume: [`synthetic`], two epochs on 384 images,
/// evaluated on 100 with 8 samples per image, seed 5 (an ensemble of two members).
pub fn fault_run(method: MethodKind) -> TrainConfig {
    let mut c = synthetic(method, 2, 384, 100, 5);
    set_ensemble_size(&mut c, 2);
    c.evaluation.eval_samples = 8;
    c
}

/// An ensemble's size set to `size` (any other method as it is).
pub fn set_ensemble_size(config: &mut TrainConfig, size: usize) {
    if let MethodConfig::Ensemble(e) = &mut config.method {
        e.size = size;
    }
}

/// An ensemble's member method set to `member` with its default options (any other method as it
/// is).
pub fn set_member_method(config: &mut TrainConfig, member: MethodKind) {
    if let MethodConfig::Ensemble(e) = &mut config.method {
        *e.member = member.into();
    }
}

/// The pipeline's `train_and_evaluate` as the tests call it: `config` validated here, the data
/// of `data_dir` on `device`, and the run in `out` replaced (continued with `resume`).
pub fn train_and_evaluate(
    config: &TrainConfig,
    data_dir: &Path,
    out: &Path,
    resume: bool,
    device: Device,
) -> TrainResult<RunSummary> {
    let env = Environment {
        device,
        data_dir: data_dir.to_owned(),
    };
    let policy = if resume {
        OutPolicy::Resume
    } else {
        OutPolicy::Overwrite
    };
    pipeline::train_and_evaluate(&ValidConfig::new(config.clone())?, out, policy, &env)
}

/// The model a run of `config` starts from, before its first step: each member built with the
/// seed the trainer gives it ([`probdml_train::seeds::member`]), its `initialise` (PFE loads
/// its frozen deterministic model) and its finish pass (post-hoc LAM's Hessian, over the
/// untrained network) — the trainer's walk with the epoch loop left out. `config` is the one
/// the run trained (`RunSummary::config`: PFE's names the deterministic parent it froze).
pub fn untrained(config: &TrainConfig, train: &TensorSet) -> TrainResult<Trained> {
    let config = ValidConfig::new(config.clone())?;
    let member = config.member();
    let mut models = Vec::with_capacity(config.method.members());
    for k in 0..config.method.members() {
        let mut m = method::build(&member, Device::Cpu, seeds::member(config.seed, k))?;
        m.initialise()?;
        m.finish(train, Device::Cpu)?;
        models.push(m);
    }
    let model = if models.len() > 1 {
        Model::Ensemble(models)
    } else {
        Model::Single(models.pop().expect("one member"))
    };
    Ok(Trained {
        config,
        model,
        history: Vec::new(),
    })
}

/// The metrics of the untrained model of a run of `config` (see [`untrained`]) on the run's
/// own data, written into `out`.
pub fn evaluate_untrained(config: &TrainConfig, out: &Path) -> TrainResult<Metrics> {
    let data = pipeline::load_data(&config.data, config.seed, Path::new("unused"))?;
    let train = TensorSet::new(&data.train, config.data.geometry(), Device::Cpu)?;
    let model = untrained(config, &train)?;
    pipeline::evaluate_trained(&model, &data, out, Device::Cpu)
}

/// The metrics of the network whose embeddings a run of `config` starts retrieving with: its
/// untrained model ([`evaluate_untrained`]), except for PFE, which retrieves with its frozen
/// deterministic parent, trained before it — so its starting point is that parent's untrained
/// network.
pub fn evaluate_retrieval_start(config: &TrainConfig, out: &Path) -> TrainResult<Metrics> {
    match config.method.kind() {
        MethodKind::Pfe => {
            let parent = TrainConfig {
                method: MethodKind::Deterministic.into(),
                ..config.clone()
            };
            evaluate_untrained(&parent, out)
        }
        _ => evaluate_untrained(config, out),
    }
}

/// The per-epoch mean training losses each member of a run of `config` wrote into its
/// `state.json` under `out` (one list per member).
pub fn member_losses(config: &TrainConfig, out: &Path) -> Vec<Vec<f64>> {
    let members = ValidConfig::new(config.clone()).unwrap().method.members();
    (0..members)
        .map(|k| read_losses(&member_dir(out, k, members)))
        .collect()
}
