//! `probdml posthoc`: post-hoc LAM on a deterministic checkpoint — the Hessian pass over the
//! training set at θ*, then the evaluation — into a complete `lam-posthoc` checkpoint.

use super::data::load_data;
use super::environment::Environment;
use super::evaluate::{evaluate_trained, load_trained};
use super::output::{prepare_out, same_folder, OutPolicy};
use super::{RunSummary, RunTiming};
use crate::checkpoint::layout::{CONFIG, MODEL, POSTERIOR, POSTHOC, STATE, SUMMARY};
use crate::checkpoint::{load_model, read_tensors, save, Content, TrainingState};
use crate::config::{
    EvaluationOptions, LaplaceOptions, MethodKind, Protocol, TrainConfig, ValidConfig,
};
use crate::data_parallel;
use crate::error::{TrainError, TrainResult};
use crate::json;
use crate::method::lam_posthoc::{LamPosthoc, PosthocHessian, PriorChoice};
use crate::method::{Method as _, Model, TensorSet};
use crate::protocol::Score;
use crate::trainer::Trained;
use probdml::ggn::{Approximation, Split};
use std::path::Path;
use std::time::Instant;

/// The choices of post-hoc LAM on a deterministic checkpoint (`probdml posthoc`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PosthocOptions {
    /// The GGN split.
    pub split: Split,
    /// The PSD approximation.
    pub approximation: Approximation,
    /// Prior precision of the last layer (None: the protocol's, else the checkpoint's).
    pub prior: Option<PriorChoice>,
    /// Tempering β of the Hessian.
    pub tempering: f64,
    /// The protocol.
    pub protocol: Protocol,
    /// The curvature (the GGN, or H ≡ 0).
    pub hessian: PosthocHessian,
    /// The uncertainty score (None: the protocol's).
    pub score: Option<Score>,
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
    policy: OutPolicy,
    env: &Environment,
) -> TrainResult<RunSummary> {
    let device = env.device;
    if same_folder(deterministic_dir, out_dir) {
        return Err(TrainError::config(
            "out",
            out_dir.display(),
            "must differ from --checkpoint: the post-hoc run would replace the deterministic one",
        ));
    }
    let source = load_trained(deterministic_dir, device)?;
    if source.config.method.kind() != MethodKind::Deterministic {
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
            .unwrap_or(source.config.laplace.prior_precision),
    ));
    let config = ValidConfig::new(TrainConfig {
        method: MethodKind::LamPosthoc.into(),
        laplace: LaplaceOptions {
            split: options.split,
            approximation: options.approximation,
            prior_precision: match prior {
                PriorChoice::Fixed(d) => d,
                // Replaced by the evidence's maximiser after the Hessian pass.
                PriorChoice::Marglik => source.config.laplace.prior_precision,
            },
            tempering: options.tempering,
        },
        protocol: options.protocol,
        evaluation: EvaluationOptions {
            score: options.score,
            eval_samples: settings
                .eval_samples
                .unwrap_or(source.config.evaluation.eval_samples),
        },
        ..(*source.config).clone()
    })?;
    let _lock = prepare_out(out_dir, policy)?;
    let data = load_data(&config.data, config.seed, &env.data_dir)?;
    let started = Instant::now();
    let train = TensorSet::new(&data.train, config.data.geometry(), device)?;
    let mut m = LamPosthoc::new(&config.run_options(), device, config.seed);
    load_model(deterministic_dir, m.var_store_mut())?;
    let choices = m.finish_with(&train, device, options.hessian, prior)?;
    drop(train);
    let mut chosen = config.into_inner();
    chosen.laplace.prior_precision = choices.prior_precision;
    let config = ValidConfig::new(chosen)?;
    if data_parallel::is_writer() {
        json::write_json(&out_dir.join(POSTHOC), &choices)?;
    }
    let history = source.history.clone();
    let epochs = history
        .iter()
        .map(|e| e.epoch)
        .max()
        .unwrap_or(config.optimiser.epochs);
    let state = TrainingState {
        epochs_done: epochs,
        history: history.clone(),
        world_size: data_parallel::world_size(),
    };
    // The deterministic weights as they are (no optimiser: a post-hoc run is not resumed).
    let mut files = vec![
        (
            CONFIG,
            Content::Bytes(config.to_json_text(&out_dir.join(CONFIG))?.into_bytes()),
        ),
        (
            MODEL,
            Content::Tensors(read_tensors(&deterministic_dir.join(MODEL))?),
        ),
        (
            STATE,
            Content::Bytes(json::to_text(&state, &out_dir.join(STATE))?.into_bytes()),
        ),
    ];
    if let Some(p) = m.posterior() {
        files.push((POSTERIOR, Content::Tensors(p.tensors())));
    }
    if data_parallel::is_writer() {
        save(out_dir, epochs, files)?;
    }
    let trained = Trained {
        config: config.clone(),
        model: Model::Single(Box::new(m)),
        history,
    };
    let metrics = evaluate_trained(&trained, &data, out_dir, device)?;
    let summary = RunSummary {
        config: config.into_inner(),
        metrics,
        timing: RunTiming {
            mean_epoch_seconds: trained.history.iter().map(|e| e.seconds).sum::<f64>()
                / trained.history.len().max(1) as f64,
            evaluation_seconds: started.elapsed().as_secs_f64(),
            device: format!("{device:?}"),
        },
    };
    if data_parallel::is_writer() {
        json::write_json(&out_dir.join(SUMMARY), &summary)?;
    }
    Ok(summary)
}
