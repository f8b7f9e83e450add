//! `probdml summarise`: the result table of finished runs, read from their `metrics.json` and
//! `config.json` alone (no libtorch, no training). The book's results chapter
//! (`docs/src/10-results.md`) is made of its tables, and `crates/probdml-train/tests/results_tables.rs` regenerates
//! them from the committed run files and compares.

use crate::checkpoint::layout::{CONFIG, METRICS};
use crate::config::TrainConfig;
use crate::error::{TrainError, TrainResult};
use crate::evaluate::{mean_std, Metrics};
use crate::json;
use crate::report::{format_table, TableRow};
use std::path::PathBuf;

/// The rule of a row of [`summarise`] and `probdml figures`.
pub const ROW_RULE: &str =
    "LABEL=RUN[,RUN...]: a label, `=`, and one or more run folders separated by commas";

/// A row `LABEL=RUN[,RUN...]` split into its label and its run folders, as [`summarise`] and
/// `probdml figures` ([`crate::figures`]) read it.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `row` for an empty label, no `=`, or an empty run.
pub fn parse_row(spec: &str) -> TrainResult<(String, Vec<PathBuf>)> {
    let (label, runs) = spec
        .split_once('=')
        .filter(|(l, r)| !l.trim().is_empty() && !r.trim().is_empty())
        .ok_or_else(|| TrainError::config("row", spec, ROW_RULE))?;
    let runs = runs
        .split(',')
        .map(str::trim)
        .map(|run| {
            if run.is_empty() {
                Err(TrainError::config("row", spec, ROW_RULE))
            } else {
                Ok(PathBuf::from(run))
            }
        })
        .collect::<TrainResult<Vec<_>>>()?;
    Ok((label.trim().to_string(), runs))
}

/// The table of `probdml summarise`: each `LABEL=RUN[,RUN...]` row the mean ± sample std of its
/// runs' `metrics.json` through [`mean_std`] (which refuses runs evaluated on different sets),
/// no paper rows (the rows need not be the paper's methods).
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `row` for a malformed row or runs on different data
/// sets; unreadable `config.json` or `metrics.json` files.
pub fn summarise(rows: &[String]) -> TrainResult<String> {
    let mut table = Vec::new();
    let mut dataset = None;
    for spec in rows {
        let (label, runs) = parse_row(spec)?;
        let mut metrics = Vec::new();
        for run in &runs {
            let config = TrainConfig::read_json(&run.join(CONFIG))?;
            match dataset {
                None => dataset = Some(config.data.dataset),
                Some(d) if d != config.data.dataset => {
                    return Err(TrainError::config(
                        "row",
                        spec,
                        format!(
                            "every run must be on one dataset; {} is on {}, an earlier one on {}",
                            run.display(),
                            config.data.dataset.title(),
                            d.title()
                        ),
                    ))
                }
                Some(_) => {}
            }
            metrics.push(json::read_json::<Metrics>(&run.join(METRICS))?);
        }
        table.push(TableRow {
            method: None,
            label,
            summary: mean_std(&metrics)?,
        });
    }
    let dataset = dataset.ok_or_else(|| TrainError::config("row", "(none)", ROW_RULE))?;
    Ok(format_table(&table, dataset))
}
