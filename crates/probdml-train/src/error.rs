//! The training module's error type: everything that can stop a run, each variant naming the
//! file, flag, step or tensor involved and, where there is one, the command that fixes it.

use std::path::PathBuf;

/// Errors of the training module (feature "tch").
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TrainError {
    /// A data file is missing or unreadable.
    #[error("cannot read `{path}`: {source}; fetch the data with `{fix}`")]
    MissingData {
        /// The file that could not be opened.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
        /// The command that fetches it.
        fix: &'static str,
    },
    /// A data file exists but its content breaks the format (magic number, sizes, labels).
    #[error("corrupt data file `{path}`: {reason}; re-fetch the data with `{fix}`")]
    CorruptData {
        /// The offending file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
        /// The command that fetches it again.
        fix: &'static str,
    },
    /// Any other I/O failure (output folder, checkpoint, JSON, plots).
    #[error("I/O error on `{path}`: {source}")]
    Io {
        /// The file or folder involved.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A configuration value or command-line flag breaks its rule.
    #[error("invalid `{arg}` = {value}: {rule}")]
    InvalidConfig {
        /// The flag or field name.
        arg: &'static str,
        /// The value received, as text.
        value: String,
        /// The rule it broke.
        rule: String,
    },
    /// A tensor became NaN or infinite during training: the run stops at once.
    #[error(
        "non-finite values in `{tensor}` at epoch {epoch}, step {step} (global step {global_step}); lower --lr or check the data"
    )]
    NonFinite {
        /// Which tensor (e.g. "loss", "ggn_diagonal", "linear.weight").
        tensor: String,
        /// Epoch, from 1.
        epoch: usize,
        /// Step within the epoch, from 1.
        step: usize,
        /// Step since the start of training, from 1.
        global_step: usize,
    },
    /// Training collapsed without any NaN: the raw outputs went to zero or the loss stopped
    /// moving (`--lr` far too large, say). The run stops at once and saves nothing of it.
    #[error(
        "training collapsed: `{tensor}` {detail} at epoch {epoch}, step {step} (global step {global_step}); lower --lr or check the data"
    )]
    Collapse {
        /// Which tensor (e.g. "head output y = Wx + b", "loss").
        tensor: String,
        /// What was seen.
        detail: String,
        /// Epoch, from 1.
        epoch: usize,
        /// Step within the epoch, from 1.
        step: usize,
        /// Step since the start of training, from 1.
        global_step: usize,
    },
    /// A checkpoint cannot be used (missing tensor, wrong shape, config mismatch).
    #[error("checkpoint `{path}`: {reason}")]
    Checkpoint {
        /// The checkpoint file or folder.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// An error from the verified primitives (metrics, vMF fits, GGN).
    #[error(transparent)]
    Math(#[from] probdml::Error),
    /// An error from libtorch.
    #[cfg(feature = "tch")]
    #[error(transparent)]
    Torch(#[from] tch::TchError),
    /// A collective of data-parallel training failed (a lost rank, the timeout, the
    /// rendezvous).
    #[cfg(feature = "distributed")]
    #[error(transparent)]
    Distributed(#[from] crate::distributed::DistributedError),
    /// JSON (de)serialisation.
    #[error("JSON error on `{path}`: {source}")]
    Json {
        /// The file involved.
        path: PathBuf,
        /// The serde error.
        source: serde_json::Error,
    },
}

/// Result alias of the training module.
pub type TrainResult<T> = std::result::Result<T, TrainError>;

impl TrainError {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        TrainError::Io {
            path: path.into(),
            source,
        }
    }

    /// An invalid configuration value.
    pub fn config(arg: &'static str, value: impl ToString, rule: impl Into<String>) -> Self {
        TrainError::InvalidConfig {
            arg,
            value: value.to_string(),
            rule: rule.into(),
        }
    }
}
