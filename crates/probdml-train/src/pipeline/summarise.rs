//! The result tables of a pipeline run: its row label (its method's,
//! [`MethodOptions::label`](crate::method::MethodOptions::label)) and its table row. `probdml summarise`, which averages finished runs without training, needs no
//! libtorch: [`crate::results`].

use super::RunSummary;
use crate::config::{Protocol, TrainConfig};
use crate::evaluate::MetricsSummary;
use crate::report::TableRow;

pub use crate::results::summarise;

/// The label of a run's row: its method's, and the protocol when it is not ours (our rows keep
/// the labels of earlier tables).
pub fn label(config: &TrainConfig) -> String {
    let protocol = match config.protocol {
        Protocol::Ours => String::new(),
        p => format!(" [{} protocol]", p.name()),
    };
    format!("{}{protocol}", config.method.label(&config.run_options()))
}

/// The table row of one run, paired with the paper's row of its method when there is one.
pub fn table_row(summary: &RunSummary) -> TableRow {
    TableRow {
        method: summary.config.method.row().paper_row,
        label: label(&summary.config),
        summary: MetricsSummary::from(&summary.metrics),
    }
}
