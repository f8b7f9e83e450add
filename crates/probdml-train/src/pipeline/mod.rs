//! Whole runs, from a validated configuration to the files of its output folder: what the
//! `probdml` program's subcommands call, one module each.
//!
//! The walk of `probdml train` from the command line to `metrics.json`, file by file; each step
//! is given the piece of the configuration it reads:
//!
//! 1. `crates/probdml-train/src/bin/probdml.rs` — parses the flags ([`TrainFlags`]) into a
//!    [`TrainConfig`], validates it once into a [`ValidConfig`] ([`crate::config`]) and builds
//!    the [`Environment`];
//! 2. [`train`] — locks and prepares the output folder ([`output`], [`lock`]), adds a
//!    prerequisite run where the method asks for one ([`prerequisites`]: the method alone),
//!    loads the data ([`data`]: the data options and the seed);
//! 3. [`crate::trainer`] — takes from the configuration once what every member reads (its
//!    `config.json`, its method, the [`RunOptions`] the method is built from), then runs the
//!    epoch loop on the optimiser's options, each member's checkpoint after every epoch
//!    ([`crate::checkpoint`]: the `config.json` text; `--resume` compares the whole
//!    configuration with the checkpoint's);
//! 4. [`evaluate`] — the predictive, the metrics, `metrics.json` and the plots (the evaluation
//!    options, the seed and the method).
//!
//! [`posthoc`], [`reproduce`] and [`summarise`] are the other commands; `eval` and `diagnose`
//! live in [`evaluate`].
//!
//! [`TrainConfig`]: crate::config::TrainConfig
//! [`TrainFlags`]: crate::config::TrainFlags
//! [`ValidConfig`]: crate::config::ValidConfig
//! [`RunOptions`]: crate::config::RunOptions

pub mod data;
pub mod environment;
pub mod evaluate;
pub mod hib_tasks;
pub mod lock;
pub mod output;
pub mod posthoc;
pub mod prerequisites;
pub mod reproduce;
pub mod summarise;
pub mod train;

pub use data::{load_data, RunData};
pub use environment::{select_device, Environment};
pub use evaluate::{evaluate_trained, load_trained, load_trained_scored};
pub use output::{prepare_out, OutPolicy};
pub use posthoc::{posthoc_from_checkpoint, PosthocOptions};
pub use train::train_and_evaluate;

use crate::config::TrainConfig;
use crate::evaluate::Metrics;
use serde::{Deserialize, Serialize};

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
