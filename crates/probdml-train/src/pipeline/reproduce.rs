//! `probdml reproduce`: the table's methods trained and evaluated over seeds and protocols, and
//! printed beside LAM Table 2.

use super::environment::Environment;
use super::output::{prepare_out, OutPolicy};
use super::posthoc::{posthoc_from_checkpoint, PosthocOptions};
use super::prerequisites::starting_from;
use super::summarise::label;
use super::train::{train_and_evaluate, train_parent};
use super::RunSummary;
use crate::catalogue::Posterior;
use crate::config::{
    DataOptions, MethodKind, ModelOptions, OptimiserOptions, Protocol, Schedule, TrainConfig,
    ValidConfig, WarmStart,
};
use crate::error::{TrainError, TrainResult};
use crate::evaluate::{mean_std, Metrics, MetricsSummary};
use crate::method::lam_posthoc::{PosthocHessian, PriorChoice};
use crate::report::{format_table, TableRow};
use crate::seed_spread::{measured_spread, SpreadRow};
use std::fmt::Write as _;
use std::path::PathBuf;

/// What `probdml reproduce` runs: a schedule and the choices that override it.
#[derive(Debug, Clone)]
pub struct ReproduceRequest {
    /// The schedule (its epochs, seeds, methods and protocols unless given).
    pub schedule: Schedule,
    /// Epochs (None: 20 for the paper's schedule, 5 for the short one).
    pub epochs: Option<usize>,
    /// Seeds per method (None: 5 for the paper's schedule, 1 for the short one).
    pub seeds: Option<u64>,
    /// The first seed: the runs take seeds `first_seed .. first_seed + seeds`, so that several
    /// processes (or machines) can share one schedule's seeds, each writing its own folders.
    pub first_seed: u64,
    /// Methods (None: the schedule's).
    pub methods: Option<Vec<MethodKind>>,
    /// Protocols; every method runs under each (None: the schedule's).
    pub protocols: Option<Vec<Protocol>>,
    /// The network (latent dimension D) of every run.
    pub model: ModelOptions,
    /// The data of every run.
    pub data: DataOptions,
    /// The folder of every run (runs found there are resumed).
    pub out: PathBuf,
    /// A folder of the same schedule's runs over several seeds, made once by `reproduce --seeds
    /// N`: their spread is printed below this run's table ([`measured_spread`]).
    pub seed_spread: Option<PathBuf>,
}

/// The folder name of a run of `reproduce`: `<method>-seed<k>` for our protocol (the plain name
/// of earlier runs), `<method>-<protocol>-seed<k>` otherwise.
fn folder_name(method: MethodKind, protocol: Protocol, seed: u64) -> String {
    match protocol {
        Protocol::Ours => format!("{}-seed{seed}", method.name()),
        p => format!("{}-{}-seed{seed}", method.name(), p.name()),
    }
}

/// Trains and evaluates every method of `request` under each protocol and seed (one folder
/// each, `<method>-seed<k>` for ours, `<method>-<protocol>-seed<k>` otherwise), and returns the
/// table of their mean ± std beside the paper's rows, with the mean epoch times.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] for an empty list or a configuration that breaks a rule
/// (before the first step), and the errors of the runs.
pub fn reproduce(request: &ReproduceRequest, env: &Environment) -> TrainResult<String> {
    let paper = request.schedule == Schedule::Paper;
    let epochs = request.epochs.unwrap_or(if paper { 20 } else { 5 });
    let seeds = request.seeds.unwrap_or(if paper { 5 } else { 1 });
    if !(1..=1000).contains(&seeds) {
        return Err(TrainError::config("seeds", seeds, "must lie in [1, 1000]"));
    }
    let first_seed = request.first_seed;
    let Some(end_seed) = first_seed.checked_add(seeds) else {
        return Err(TrainError::config(
            "first-seed",
            first_seed,
            "first-seed + seeds must not exceed 2^64 - 1",
        ));
    };
    let methods: Vec<MethodKind> = match &request.methods {
        Some(list) if list.is_empty() => {
            return Err(TrainError::config(
                "methods",
                "",
                "name at least one method",
            ))
        }
        Some(list) => list.clone(),
        // Every method of the method table: the rows of LAM Table 2 in the paper's order, then
        // the methods the paper has no number for, in the table's order.
        None if paper => {
            let mut all: Vec<MethodKind> = MethodKind::all().collect();
            all.sort_by_key(|m| m.row().paper_row.map_or(usize::MAX, |p| p as usize));
            all
        }
        None => vec![MethodKind::LamOnline],
    };
    let protocols: Vec<Protocol> = match &request.protocols {
        Some(list) if list.is_empty() => {
            return Err(TrainError::config(
                "protocol",
                "",
                "name at least one protocol",
            ))
        }
        Some(list) => list.iter().fold(Vec::new(), |mut unique, &p| {
            if !unique.contains(&p) {
                unique.push(p);
            }
            unique
        }),
        // The main command shows both: ours (calibrated) and the LAM reference code's (the
        // paper's OOD numbers).
        None if paper => vec![Protocol::Ours],
        None => vec![Protocol::Ours, Protocol::Reference],
    };
    let config_of = |method: MethodKind, protocol: Protocol, seed: u64| {
        ValidConfig::new(
            TrainConfig {
                method: method.into(),
                data: request.data.clone(),
                model: request.model.clone(),
                optimiser: OptimiserOptions {
                    epochs,
                    batch_size: method.row().batch,
                    ..OptimiserOptions::DEFAULT
                },
                seed,
                ..TrainConfig::default()
            }
            .with_protocol(protocol),
        )
    };
    let folder = |method: MethodKind, protocol: Protocol, seed: u64| {
        request.out.join(folder_name(method, protocol, seed))
    };
    // Every configuration and the output folder are checked before the first step.
    for &method in &methods {
        for &protocol in &protocols {
            config_of(method, protocol, first_seed)?;
        }
    }
    let _lock = prepare_out(&request.out, OutPolicy::Resume)?;
    let device = env.device;
    let mut rows = Vec::new();
    let mut measured = Vec::new();
    let mut epoch_seconds = Vec::new();
    for &method in &methods {
        for &protocol in &protocols {
            let mut runs: Vec<RunSummary> = Vec::new();
            for seed in first_seed..end_seed {
                let config = config_of(method, protocol, seed)?;
                let out = folder(method, protocol, seed);
                eprintln!(
                    "== {} seed {seed}: {epochs} epochs on {:?} -> {}",
                    label(&config),
                    device,
                    out.display()
                );
                // Post-hoc LAM and PFE start from the deterministic model of the same protocol
                // and seed: it is trained (or resumed) once for both.
                let parent = || {
                    train_parent(
                        &config,
                        &folder(MethodKind::Deterministic, protocol, seed),
                        env,
                    )
                };
                let summary = if method.row().posterior == Posterior::Posthoc {
                    // The paper's post-hoc model is the deterministic one plus a Laplace
                    // approximation: the Hessian pass over the trained deterministic run.
                    posthoc_from_checkpoint(
                        &parent()?,
                        &out,
                        &PosthocOptions {
                            split: config.laplace.split,
                            approximation: config.laplace.approximation,
                            prior: Some(PriorChoice::Fixed(config.laplace.prior_precision)),
                            tempering: config.laplace.tempering,
                            protocol: config.protocol,
                            hessian: PosthocHessian::Ggn,
                            score: None,
                        },
                        OutPolicy::Overwrite,
                        env,
                    )?
                } else if method.row().warm_start == WarmStart::Required {
                    let config = starting_from(&config, parent()?)?;
                    train_and_evaluate(&config, &out, OutPolicy::Resume, env)?
                } else {
                    train_and_evaluate(&config, &out, OutPolicy::Resume, env)?
                };
                runs.push(summary);
            }
            let metrics: Vec<Metrics> = runs.iter().map(|r| r.metrics.clone()).collect();
            let summary: MetricsSummary = mean_std(&metrics)?;
            let secs = runs
                .iter()
                .map(|r| r.timing.mean_epoch_seconds)
                .sum::<f64>()
                / runs.len() as f64;
            epoch_seconds.push((
                label(&runs[0].config),
                secs,
                runs[0].config.optimiser.batch_size,
            ));
            measured.push((method, protocol, summary.ood_set.clone()));
            rows.push(TableRow {
                method: method.row().paper_row,
                label: label(&runs[0].config),
                summary,
            });
        }
    }
    let mut text = format!(
        "\nD = {}, {epochs} epochs, {seeds} seed(s), device {device:?}\n{}\nmean epoch time:\n",
        request.model.latent_dim,
        format_table(&rows, request.data.dataset)
    );
    for (l, s, b) in &epoch_seconds {
        let _ = writeln!(text, "  {l}: {s:.1} s (batch {b})");
    }
    if let Some(dir) = &request.seed_spread {
        let folders: Vec<_> = measured
            .iter()
            .map(|&(m, p, _)| move |seed| folder_name(m, p, seed))
            .collect();
        let configs: Vec<_> = measured
            .iter()
            .map(|&(m, p, _)| move |seed| config_of(m, p, seed))
            .collect();
        let spread_rows: Vec<SpreadRow<'_>> = measured
            .iter()
            .zip(rows.iter())
            .enumerate()
            .map(|(i, ((_, _, ood_set), row))| SpreadRow {
                label: row.label.clone(),
                method: row.method,
                folder: &folders[i],
                config: &configs[i],
                ood_set,
            })
            .collect();
        text.push_str(&measured_spread(dir, &spread_rows)?);
    }
    Ok(text)
}
