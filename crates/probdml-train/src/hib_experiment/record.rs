//! The run file of HIB's experiment, `hib_tasks.json`: what one trained model scored on both
//! test twins, with the scale it was trained at and the time and machine it took.

use crate::catalogue::MethodConfig;
use crate::checkpoint::TrainingState;
use crate::error::{TrainError, TrainResult};
use crate::method::hib::HibMeans;
use serde::{Deserialize, Serialize};

use super::tasks::TwinMetrics;

/// The run file's name inside a run folder.
pub const HIB_TASKS: &str = "hib_tasks.json";

/// One run of HIB's experiment (`hib_tasks.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HibRunRecord {
    /// "point", "MoG-1" or "MoG-2" ([`paper_method`]).
    pub method: String,
    /// Digits per image N.
    pub digits: usize,
    /// Embedding dimension D.
    pub latent_dim: usize,
    /// The run's seed (initialisation, batches, draws; the images are the same for every seed).
    pub seed: u64,
    /// Training images.
    pub train_images: usize,
    /// Test images of each twin.
    pub test_images: usize,
    /// Training epochs.
    pub epochs: usize,
    /// The optimiser's learning rate. Records written before it was kept lack it, and
    /// [`read_record`] takes it from the run folder's `config.json`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub learning_rate: Option<f64>,
    /// The mean training loss of each epoch. Records written before it was kept lack it, and
    /// [`read_record`] takes it from the run folder's `state.json` where the folder has one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub epoch_losses: Vec<f64>,
    /// Verification pairs (half matching).
    pub pairs: usize,
    /// Monte Carlo samples per component and image of p(m | x₁, x₂) and η (HIB eq. 4, 9).
    pub samples: usize,
    /// The clean test twin.
    pub clean: TwinMetrics,
    /// The corrupt test twin (every digit occluded).
    pub corrupt: TwinMetrics,
    /// Seconds spent training (the sum of the epochs).
    pub train_seconds: f64,
    /// Seconds spent on these tasks' evaluation.
    pub evaluation_seconds: f64,
    /// The device (`Cpu`, `Cuda(0)`).
    pub device: String,
    /// The CPU's model name (`lscpu`'s "Model name", from /proc/cpuinfo).
    pub cpu: String,
}

/// The row name of HIB's tables for a method. The paper's three (Oh et al. 2019, §4.2) are HIB's
/// loss in ℝ^D: "point" (`--hib-point`, the soft contrastive loss), "MoG-C" (C components).
/// The variants that differ from them say how: "(sphere)" for means on the unit sphere,
/// "point (margin)" for the deterministic method (the contrastive loss with a margin, on the
/// sphere). Only the paper's own names get its numbers beside them.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `method` for a method the paper's tables do not compare.
pub fn paper_method(method: &MethodConfig) -> TrainResult<String> {
    match method {
        MethodConfig::Deterministic(_) => Ok("point (margin)".to_string()),
        MethodConfig::Hib(o) => {
            let name = if o.point {
                "point".to_string()
            } else {
                format!("MoG-{}", o.components)
            };
            Ok(match o.means {
                HibMeans::Euclidean => name,
                HibMeans::Sphere => format!("{name} (sphere)"),
            })
        }
        other => Err(TrainError::config(
            "method",
            other.name(),
            "HIB's experiment compares point embeddings (deterministic) and HIB",
        )),
    }
}

/// The CPU's model name as `lscpu` prints it ("Model name"), read from `/proc/cpuinfo`; "unknown"
/// where that file or line is missing (not Linux).
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

/// The record of the run folder `dir` (`dir/hib_tasks.json`), its learning rate from
/// `dir/config.json` and its epochs' losses from `dir/state.json` (when present) when the record
/// does not hold them.
///
/// # Errors
///
/// [`TrainError::Io`] or [`TrainError::Json`] naming the file when it is missing or not a
/// record; those of [`crate::config::TrainConfig::read_json`] for a record without a learning
/// rate whose folder holds no readable configuration.
pub fn read_record(dir: &std::path::Path) -> TrainResult<HibRunRecord> {
    let mut record: HibRunRecord = crate::json::read_json(&dir.join(HIB_TASKS))?;
    if record.learning_rate.is_none() {
        let config = crate::config::TrainConfig::read_json(&dir.join("config.json"))?;
        record.learning_rate = Some(config.optimiser.learning_rate);
    }
    let state = dir.join(crate::checkpoint::layout::STATE);
    if record.epoch_losses.is_empty() && state.exists() {
        let state: TrainingState = crate::json::read_json(&state)?;
        record.epoch_losses = state.history.iter().map(|e| e.mean_loss).collect();
    }
    Ok(record)
}
