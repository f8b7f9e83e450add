//! Evaluation: a trained model's predictive on the ID test and OOD sets, the metrics of
//! chapter 08, `metrics.json` and the plots; and the `eval` and `diagnose` commands on a
//! checkpoint folder.

use super::data::{load_data, RunData};
use super::environment::Environment;
use super::output::{prepare_out, same_folder, OutPolicy};
use crate::checkpoint::layout::{CONFIG, CURVES, DIAGNOSIS, METRICS, PLOTS};
use crate::checkpoint::member::load_member;
use crate::checkpoint::read_config;
use crate::config::ValidConfig;
use crate::data_parallel::{self, evaluation};
use crate::diagnose::{diagnose_ood, OodDiagnosis};
use crate::error::{TrainError, TrainResult};
use crate::evaluate::{
    evaluate, evaluate_distribution, CurvesFile, Distribution, EmbeddingSamples, Evaluation,
    Metrics,
};
use crate::json;
use crate::method::{Model, TensorSet};
use crate::plots::write_plots;
use crate::prediction::score_samples;
use crate::prediction::{PredictRequest, Prediction, EVAL_BATCH};
use crate::protocol::Score;
use crate::seeds;
use crate::trainer::Trained;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tch::{Device, Kind, Tensor};

/// Largest memory the sampled embeddings of one evaluation may take (bytes).
pub const MAX_EVAL_BYTES: f64 = 16e9;

/// The predictive of `images` under `trained`, on the host, ready for the evaluation: this
/// rank's evaluation batches predicted one by one, then every rank's gathered in rank order
/// ([`data_parallel::evaluation`]), so that each rank holds the whole set's prediction, the
/// same bits in any world size.
fn host_prediction(
    trained: &Trained,
    images: &Tensor,
    what: &str,
    device: Device,
) -> TrainResult<HostPrediction> {
    let config = &trained.config;
    let n = images.size()[0] as usize;
    if n == 0 {
        return Err(TrainError::config(
            "images",
            format!("0 images in the {what}"),
            "an evaluation set needs at least one image",
        ));
    }
    let (rank, world) = (data_parallel::rank(), data_parallel::world_size());
    let shares = evaluation::rank_rows(n, EVAL_BATCH, world);
    let own = shares[rank].clone();
    tracing::info!(
        images = n,
        own = own.len(),
        samples = config.evaluation.eval_samples,
        "evaluation: embedding the {what}"
    );
    let started = Instant::now();
    let predict = |b: usize, rows: Range<usize>| -> TrainResult<HostRows> {
        let request = PredictRequest {
            samples: config.evaluation.eval_samples,
            seed: seeds::evaluation(config.seed),
            batch: b,
            device,
        };
        let batch = images.narrow(0, rows.start as i64, rows.len() as i64);
        HostRows::new(score_samples(
            config.evaluation.score(config.protocol),
            trained.model.predict(&batch, &request)?,
        ))
    };
    let mut local: Option<HostRows> = None;
    for row in own.clone().step_by(EVAL_BATCH) {
        let part = predict(row / EVAL_BATCH, row..(row + EVAL_BATCH).min(own.end))?;
        match &mut local {
            None => local = Some(part),
            Some(l) => l.append(part),
        }
    }
    // A rank without a batch (more ranks than batches) must still take part in the same
    // gathers: the first image tells it the prediction's form, and none of its rows is kept.
    let local = match local {
        Some(l) => l,
        None => predict(0, 0..1)?.emptied(),
    };
    let whole = local.gather(&shares)?;
    tracing::info!(
        images = n,
        seconds = started.elapsed().as_secs_f64(),
        "evaluation: the {what} embedded"
    );
    whole.into_host(n)
}

/// Some rows of a prediction on the host, in the layout of [`EmbeddingSamples`] and
/// [`Distribution`]; `mean` and `uncertainty` are empty for sampled predictions.
struct HostRows {
    /// A closed-form predictive (mean, score, optional samples) rather than samples alone.
    closed_form: bool,
    dim: usize,
    /// Samples per input (0: a closed form without samples).
    samples: usize,
    /// `[rows][samples][dim]`.
    embeddings: Vec<f32>,
    /// `[rows][dim]`.
    mean: Vec<f64>,
    /// `[rows]`.
    uncertainty: Vec<f64>,
}

impl HostRows {
    fn new(prediction: Prediction) -> TrainResult<Self> {
        let floats = |t: &Tensor| -> TrainResult<(usize, usize, Vec<f32>)> {
            let size = t.size();
            let (n, s, d) = (size[0], size[1], size[2]);
            let flat = t
                .to_kind(Kind::Float)
                .to_device(Device::Cpu)
                .contiguous()
                .f_view([n * s * d])?;
            Ok((s as usize, d as usize, Vec::<f32>::try_from(&flat)?))
        };
        let doubles = |t: &Tensor| -> TrainResult<Vec<f64>> {
            Ok(Vec::<f64>::try_from(
                &t.to_kind(Kind::Double)
                    .to_device(Device::Cpu)
                    .contiguous()
                    .f_view([-1])?,
            )?)
        };
        Ok(match prediction {
            Prediction::Samples(t) => {
                let (samples, dim, embeddings) = floats(&t)?;
                Self {
                    closed_form: false,
                    dim,
                    samples,
                    embeddings,
                    mean: Vec::new(),
                    uncertainty: Vec::new(),
                }
            }
            Prediction::Distribution {
                mean,
                uncertainty,
                samples,
            } => {
                let dim = mean.size()[1] as usize;
                let (samples, embeddings) = match samples.as_ref().map(floats).transpose()? {
                    Some((s, _, e)) => (s, e),
                    None => (0, Vec::new()),
                };
                Self {
                    closed_form: true,
                    dim,
                    samples,
                    embeddings,
                    mean: doubles(&mean)?,
                    uncertainty: doubles(&uncertainty)?,
                }
            }
        })
    }

    fn append(&mut self, mut other: Self) {
        self.embeddings.append(&mut other.embeddings);
        self.mean.append(&mut other.mean);
        self.uncertainty.append(&mut other.uncertainty);
    }

    fn emptied(self) -> Self {
        Self {
            embeddings: Vec::new(),
            mean: Vec::new(),
            uncertainty: Vec::new(),
            ..self
        }
    }

    /// Every rank's rows in rank order (`shares`: each rank's rows).
    fn gather(self, shares: &[Range<usize>]) -> TrainResult<Self> {
        let embeddings =
            evaluation::gather_rows(&self.embeddings, self.samples * self.dim, shares)?;
        let (mean, uncertainty) = if self.closed_form {
            (
                evaluation::gather_rows(&self.mean, self.dim, shares)?,
                evaluation::gather_rows(&self.uncertainty, 1, shares)?,
            )
        } else {
            (Vec::new(), Vec::new())
        };
        Ok(Self {
            embeddings,
            mean,
            uncertainty,
            ..self
        })
    }

    fn into_host(self, n: usize) -> TrainResult<HostPrediction> {
        let samples = |data: Vec<f32>| EmbeddingSamples::new(n, self.samples, self.dim, data);
        Ok(if self.closed_form {
            HostPrediction::Distribution(Distribution {
                n,
                dim: self.dim,
                mean: self.mean,
                uncertainty: self.uncertainty,
                samples: (self.samples > 0)
                    .then(|| samples(self.embeddings))
                    .transpose()?,
            })
        } else {
            HostPrediction::Samples(samples(self.embeddings)?)
        })
    }
}

/// A prediction on the host.
enum HostPrediction {
    Samples(EmbeddingSamples),
    Distribution(Distribution),
}

/// Evaluates a trained model on the ID test and OOD sets of `data`: S samples per image (the
/// configuration's `eval_samples`), vMF fits, the chapter-08 metrics; writes `metrics.json`,
/// `curves.json` and the plots into `out_dir`.
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
    let samples = (config.evaluation.eval_samples * config.method.members()) as f64;
    let bytes = images * samples * config.model.latent_dim as f64 * 4.0 * 2.0;
    if bytes > MAX_EVAL_BYTES {
        return Err(TrainError::config(
            "eval-samples",
            config.evaluation.eval_samples,
            format!(
                "{images} images × {samples} samples × D = {} need {:.1} GB of embeddings (at most {:.0} GB): lower --eval-samples or --test-limit",
                config.model.latent_dim,
                bytes / 1e9,
                MAX_EVAL_BYTES / 1e9
            ),
        ));
    }
    let test = TensorSet::new(&data.test, config.data.geometry(), device)?;
    let ood = TensorSet::new(&data.ood, config.data.geometry(), device)?;
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
    if !data_parallel::is_writer() {
        // Data-parallel runs: every rank scored the gathered predictions alike; rank 0 alone
        // writes.
        return Ok(eval.metrics);
    }
    std::fs::create_dir_all(out_dir).map_err(|e| TrainError::io(out_dir, e))?;
    eval.metrics.write_json(out_dir.join(METRICS))?;
    // The figures' data beside the numbers, so that a committed run folder can be redrawn
    // (`probdml figures`) without its checkpoint.
    json::write_json(
        &out_dir.join(CURVES),
        &CurvesFile::from_curves(&eval.curves),
    )?;
    let embedding = match (&eval.curves.id_uncertainty, config.model.latent_dim) {
        (Some(u), 3) => Some((eval.id_mean.as_slice(), u.as_slice())),
        _ => None,
    };
    let plots = write_plots(&eval, embedding, &out_dir.join(PLOTS))?;
    tracing::info!(plots = plots.len(), dir = %out_dir.display(), "metrics and plots written");
    Ok(eval.metrics)
}

/// Loads a trained model from a checkpoint folder written by `train` (each member verified
/// against its manifest when it has one).
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
    score: Option<Score>,
) -> TrainResult<Trained> {
    if !dir.is_dir() {
        return Err(TrainError::Checkpoint {
            path: dir.to_owned(),
            reason: "no such folder; train first (probdml train --out ...)".into(),
        });
    }
    let mut config = read_config(dir)?;
    if let Some(score) = score {
        if !config.method.kind().is_laplace() {
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
        let mut scored = config.into_inner();
        scored.evaluation.score = Some(score);
        config = ValidConfig::new(scored)?;
    }
    let members = config.method.members();
    let mut loaded = Vec::with_capacity(members);
    let mut history = Vec::new();
    for k in 0..members {
        let (m, log) = load_member(dir, &config, k, device)?;
        history.extend(log);
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

/// `probdml eval`: evaluates the checkpoint in `checkpoint` into `out` (None: the checkpoint's
/// own folder), under `score` when given (a LAM checkpoint only, into another folder, which
/// then gets a `config.json` recording the score).
///
/// # Errors
///
/// `out` equal to the checkpoint with a score, and those of [`load_trained_scored`] and
/// [`evaluate_trained`] (blamed on the checkpoint).
pub fn evaluate_checkpoint(
    checkpoint: &Path,
    out: Option<&Path>,
    score: Option<Score>,
    env: &Environment,
) -> TrainResult<Metrics> {
    let out = out.unwrap_or(checkpoint);
    if score.is_some() && same_folder(out, checkpoint) {
        return Err(TrainError::config(
            "out",
            out.display(),
            "with --score the results go to a new folder: the checkpoint's own metrics.json belongs to its own score",
        ));
    }
    let _lock = prepare_out(out, OutPolicy::Resume)?;
    let trained = load_trained_scored(checkpoint, env.device, score)?;
    let data = load_data(&trained.config.data, trained.config.seed, &env.data_dir)?;
    let metrics = evaluate_trained(&trained, &data, out, env.device)
        .map_err(|e| blame_checkpoint(checkpoint, e))?;
    if score.is_some() && data_parallel::is_writer() {
        // The record of what was evaluated, and what `summarise` reads beside metrics.json.
        trained.config.write_json(&out.join(CONFIG))?;
    }
    Ok(metrics)
}

/// `probdml diagnose`: the sample-free OOD scores of the checkpoint in `checkpoint`, written
/// to `diagnosis.json` in `out` (None: the checkpoint's own folder); returns them with the
/// file's path.
///
/// # Errors
///
/// Those of [`load_trained`] and [`diagnose_ood`] (blamed on the checkpoint), and I/O.
pub fn diagnose_checkpoint(
    checkpoint: &Path,
    out: Option<&Path>,
    env: &Environment,
) -> TrainResult<(OodDiagnosis, PathBuf)> {
    let out = out.unwrap_or(checkpoint);
    let _lock = prepare_out(out, OutPolicy::Resume)?;
    let trained = load_trained(checkpoint, env.device)?;
    let data = load_data(&trained.config.data, trained.config.seed, &env.data_dir)?;
    let d =
        diagnose_ood(&trained, &data, env.device).map_err(|e| blame_checkpoint(checkpoint, e))?;
    let path = out.join(DIAGNOSIS);
    json::write_json(&path, &d)?;
    Ok((d, path))
}
