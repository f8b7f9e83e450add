//! `probdml train`: one run from a validated configuration to `metrics.json`.

use super::data::load_data;
use super::environment::Environment;
use super::evaluate::evaluate_trained;
use super::hib_tasks;
use super::output::{prepare_out, OutPolicy};
use super::prerequisites::{deterministic_parent, missing_parent, starting_from};
use super::{RunSummary, RunTiming};
use crate::checkpoint::layout::SUMMARY;
use crate::config::ValidConfig;
use crate::data_parallel;
use crate::error::TrainResult;
use crate::hib_experiment::{HIB_EMBEDDING, HIB_TASKS};
use crate::json;
use crate::method::TensorSet;
use crate::trainer;
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Trains `config` on its data, evaluates, and writes the checkpoint, `metrics.json`,
/// `summary.json` and the plots into `out`, which is locked and prepared by `policy` first
/// ([`prepare_out`]); a method that freezes a deterministic model and names none gets it
/// trained first ([`train_parent`], into [`missing_parent`]).
///
/// # Errors
///
/// The output folder's rules, data, training, evaluation and I/O errors.
pub fn train_and_evaluate(
    config: &ValidConfig,
    out: &Path,
    policy: OutPolicy,
    env: &Environment,
) -> TrainResult<RunSummary> {
    // Data-parallel runs: rank 0 takes the folder (and, with --force, empties it) before any
    // rank reads a checkpoint from it.
    let _lock = prepare_out(out, policy)?;
    data_parallel::barrier()?;
    let config = match missing_parent(&config.method, out) {
        Some(parent) => Cow::Owned(starting_from(config, train_parent(config, &parent, env)?)?),
        None => Cow::Borrowed(config),
    };
    let device = env.device;
    let data = load_data(&config.data, config.seed, &env.data_dir)?;
    tracing::info!(
        train = data.train.len(),
        test = data.test.len(),
        ood = data.ood.len(),
        ?device,
        method = config.method.name(),
        "data loaded"
    );
    let train = TensorSet::new(&data.train, config.data.geometry(), device)?;
    let trained = trainer::train(
        &config,
        &train,
        device,
        Some(out),
        policy == OutPolicy::Resume,
    )?;
    drop(train);
    let started = Instant::now();
    let metrics = evaluate_trained(&trained, &data, out, device)?;
    if config.data.dataset.digits().is_some() {
        // N-digit MNIST: HIB's own tasks too (HIB §4.3–4.4), into `hib_tasks.json`, and the
        // embeddings of its figures (Figs. 3–4) into `hib_embedding.json`.
        let tasks = hib_tasks::evaluate_hib_tasks(&trained, &data, device)?;
        if data_parallel::is_writer() {
            json::write_json(&out.join(HIB_TASKS), &tasks.record)?;
            json::write_json(&out.join(HIB_EMBEDDING), &tasks.embedding)?;
        }
    }
    let epochs: Vec<f64> = trained.history.iter().map(|e| e.seconds).collect();
    let summary = RunSummary {
        config: config.into_owned().into_inner(),
        metrics,
        timing: RunTiming {
            mean_epoch_seconds: epochs.iter().sum::<f64>() / epochs.len().max(1) as f64,
            evaluation_seconds: started.elapsed().as_secs_f64(),
            device: format!("{device:?}"),
        },
    };
    if data_parallel::is_writer() {
        json::write_json(&out.join(SUMMARY), &summary)?;
    }
    Ok(summary)
}

/// Trains (or resumes) into `out` the deterministic run that a PFE or post-hoc LAM run of
/// `config` starts from ([`deterministic_parent`]), and returns `out`.
///
/// # Errors
///
/// Those of [`train_and_evaluate`].
pub fn train_parent(config: &ValidConfig, out: &Path, env: &Environment) -> TrainResult<PathBuf> {
    train_and_evaluate(&deterministic_parent(config)?, out, OutPolicy::Resume, env)?;
    Ok(out.to_owned())
}
