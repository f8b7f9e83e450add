//! The result tables: a run's row label (from its row of the method table) and `probdml
//! summarise`, which averages finished runs without training.

use super::RunSummary;
use crate::train::checkpoint::layout::{CONFIG, METRICS};
use crate::train::config::{Protocol, TrainConfig};
use crate::train::error::{TrainError, TrainResult};
use crate::train::evaluate::{mean_std, Metrics, MetricsSummary};
use crate::train::json;
use crate::train::report::{format_table, TableRow};
use std::path::Path;

/// The label of a run's row: its method's (the method table's `label`), and the protocol
/// when it is not ours (our rows keep the labels of earlier tables).
pub fn label(config: &TrainConfig) -> String {
    let protocol = match config.protocol {
        Protocol::Ours => String::new(),
        p => format!(" [{} protocol]", p.name()),
    };
    format!("{}{protocol}", (config.method.row().label)(config))
}

/// The table row of one run, paired with the paper's row of its method when there is one.
pub fn table_row(summary: &RunSummary) -> TableRow {
    TableRow {
        method: summary.config.method.row().paper_row,
        label: label(&summary.config),
        summary: MetricsSummary::from(&summary.metrics),
    }
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
                None => dataset = Some(config.dataset),
                Some(d) if d != config.dataset => {
                    return Err(TrainError::config(
                        "row",
                        spec,
                        format!(
                            "every run must be on one dataset; {} is on {}, an earlier one on {}",
                            run.display(),
                            config.dataset.title(),
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
