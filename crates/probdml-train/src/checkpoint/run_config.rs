//! A run folder's configuration, read back: `config.json` in its checkpoint's terms.

use super::layout::read_checkpoint_config;
use crate::config::{TrainConfig, ValidConfig};
use crate::error::TrainResult;
use std::path::Path;

/// Reads `config.json` of a checkpoint folder.
///
/// # Errors
///
/// [`TrainError::Checkpoint`](crate::TrainError::Checkpoint) naming the file when it is
/// missing, unreadable or invalid.
pub fn read_config(dir: &Path) -> TrainResult<ValidConfig> {
    read_checkpoint_config(dir, TrainConfig::read_json)
}
