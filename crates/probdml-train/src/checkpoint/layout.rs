//! Where everything of a run lives: the one list of the file and folder names a run writes
//! (without libtorch: the result tables read a run's `config.json` and `metrics.json` by these
//! names).
//!
//! ```text
//! <out>/config.json            the configuration (versioned, `TrainConfig::write_json`)
//! <out>/model.safetensors      the network's variables (backbone.conv1.*, backbone.conv2.*, head.*)
//! <out>/optimiser.safetensors  RMSprop's running averages (training checkpoints)
//! <out>/laplace.safetensors    the Laplace posterior Λ of the last layer (LAM)
//! <out>/state.json             epochs done and the per-epoch log
//! <out>/manifest.json          the epoch, and each file above with its size and FNV-1a hash
//! <out>/metrics.json           the evaluation
//! <out>/curves.json            the evaluation's curves, thinned, that the chapter's figures draw
//! <out>/hib_tasks.json         N-digit MNIST: HIB's tasks (`crate::hib_experiment`)
//! <out>/hib_embedding.json     N-digit MNIST: a seeded subset of both test twins' embeddings
//! <out>/summary.json           configuration, metrics and timing
//! <out>/plots/                 the figures
//! <out>/posthoc.json           a post-hoc run's curvature and prior choice
//! <out>/diagnosis.json         `probdml diagnose`
//! <out>/member-<k>/            an ensemble's members, each a checkpoint as above
//! <out>/deterministic/         the deterministic run a PFE run freezes, when none was given
//! <out>/.probdml.lock          the process writing the folder (while it runs)
//! ```

use crate::error::{TrainError, TrainResult};
use std::path::{Path, PathBuf};

/// The manifest's file name.
pub const MANIFEST: &str = "manifest.json";
/// The weights' file name.
pub const MODEL: &str = "model.safetensors";
/// The optimiser state's file name.
pub const OPTIMISER: &str = "optimiser.safetensors";
/// The training state's file name.
pub const STATE: &str = "state.json";
/// The configuration's file name (read without libtorch by [`crate::results`] too).
pub const CONFIG: &str = "config.json";
/// The Laplace posterior's file name (tensors `head.weight`, `head.bias`).
pub const POSTERIOR: &str = "laplace.safetensors";
/// The evaluation's file name (read by [`crate::results`] too).
pub const METRICS: &str = "metrics.json";
/// The evaluation's curves' file name ([`crate::evaluate::CurvesFile`]; read without libtorch by
/// the chapter's figures too).
pub const CURVES: &str = "curves.json";
/// The run summary's file name.
pub const SUMMARY: &str = "summary.json";
/// The sample-free diagnosis's file name.
pub const DIAGNOSIS: &str = "diagnosis.json";
/// The file of a post-hoc run that records its curvature and prior choice (and the chosen prior
/// precision with its evidence).
pub const POSTHOC: &str = "posthoc.json";
/// The figures' folder.
pub const PLOTS: &str = "plots";
/// The lock file of the process writing the folder.
pub const LOCK: &str = ".probdml.lock";
/// The subfolder of a PFE run where the deterministic model it freezes is trained, when the
/// configuration names none.
pub const PFE_DETERMINISTIC: &str = "deterministic";

/// The `config.json` of the checkpoint in `dir`, and what reading it does to an error: every
/// failure becomes a [`TrainError::Checkpoint`] naming the file (the fault is in the
/// checkpoint, not in the flags).
///
/// # Errors
///
/// [`TrainError::Checkpoint`] when `dir` holds no `config.json`, and the errors of `read`.
pub fn read_checkpoint_config<T>(
    dir: &Path,
    read: impl FnOnce(&Path) -> TrainResult<T>,
) -> TrainResult<T> {
    let path = dir.join(CONFIG);
    if !path.exists() {
        return Err(TrainError::Checkpoint {
            path,
            reason: "missing: this folder holds no checkpoint written by `probdml train`".into(),
        });
    }
    read(&path).map_err(|e| match e {
        e @ TrainError::Checkpoint { .. } => e,
        other => TrainError::Checkpoint {
            path: path.clone(),
            reason: other.to_string(),
        },
    })
}

/// The checkpoint folder of member `k` of a run of `members` models: the run's own folder for a
/// single model, `member-<k>/` inside it for an ensemble.
pub fn member_dir(run: &Path, k: usize, members: usize) -> PathBuf {
    if members > 1 {
        run.join(format!("member-{k}"))
    } else {
        run.to_owned()
    }
}

/// The files and folders a run writes into its output folder (what `--force` removes).
const RUN_FILES: [&str; 13] = [
    MANIFEST,
    CONFIG,
    MODEL,
    OPTIMISER,
    STATE,
    POSTERIOR,
    METRICS,
    SUMMARY,
    DIAGNOSIS,
    POSTHOC,
    PLOTS,
    "model.tmp.safetensors",
    "manifest.json.tmp",
];

/// Whether `dir` holds (part of) a run.
pub fn holds_run(dir: &Path) -> bool {
    [MANIFEST, CONFIG, STATE, MODEL, METRICS]
        .iter()
        .any(|f| dir.join(f).exists())
        || dir.join("member-0").exists()
}

/// Removes the run in `dir`: its files, its members and any pending `.next` file of an
/// interrupted commit (`--force`). Other files, the lock and a PFE run's deterministic
/// subfolder stay.
///
/// # Errors
///
/// I/O failures naming the file.
pub fn remove_run(dir: &Path) -> TrainResult<()> {
    let remove = |p: &Path| {
        let removed = if p.is_dir() {
            std::fs::remove_dir_all(p)
        } else if p.exists() {
            std::fs::remove_file(p)
        } else {
            Ok(())
        };
        removed.map_err(|e| TrainError::io(p, e))
    };
    for name in RUN_FILES {
        remove(&dir.join(name))?;
    }
    let entries = std::fs::read_dir(dir).map_err(|e| TrainError::io(dir, e))?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("member-") || name.ends_with(".next") {
            remove(&entry.path())?;
        }
    }
    Ok(())
}
