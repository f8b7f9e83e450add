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
use std::path::Path;

/// The table of `probdml summarise`: each `LABEL=RUN[,RUN...]` row the mean ± sample std of its
/// runs' `metrics.json` through [`mean_std`] (which refuses runs evaluated on different sets),
/// no paper rows (the rows need not be the paper's methods).
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `row` for a malformed row or runs on different data
/// sets; unreadable `config.json` or `metrics.json` files.
pub fn summarise(rows: &[String]) -> TrainResult<String> {
    let rule = "LABEL=RUN[,RUN...]: a label, `=`, and one or more run folders separated by commas";
    let mut table = Vec::new();
    let mut dataset = None;
    for spec in rows {
        let (label, runs) = spec
            .split_once('=')
            .filter(|(l, r)| !l.trim().is_empty() && !r.trim().is_empty())
            .ok_or_else(|| TrainError::config("row", spec, rule))?;
        let mut metrics = Vec::new();
        for run in runs.split(',').map(str::trim) {
            if run.is_empty() {
                return Err(TrainError::config("row", spec, rule));
            }
            let run = Path::new(run);
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
            label: label.trim().to_string(),
            summary: mean_std(&metrics)?,
        });
    }
    let dataset = dataset.ok_or_else(|| TrainError::config("row", "(none)", rule))?;
    Ok(format_table(&table, dataset))
}
