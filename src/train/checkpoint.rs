//! Checkpoints: a folder with the weights as safetensors, the last-layer precision Λ (LAM) as
//! safetensors, the configuration and the training state as JSON.
//!
//! ```text
//! <dir>/config.json        TrainConfig
//! <dir>/model.safetensors  backbone.conv1.{weight,bias}, backbone.conv2.*, head.{weight,bias}
//! <dir>/laplace.safetensors  precision of head.weight and head.bias (LAM only)
//! <dir>/state.json         epochs done and the per-epoch log
//! ```
//!
//! Ensembles keep one such folder per member, `<dir>/member-<k>/`.

use super::config::TrainConfig;
use super::error::{TrainError, TrainResult};
use super::method::epochs::EpochLog;
use super::method::LastLayerPrecision;
use serde::{Deserialize, Serialize};
use std::path::Path;
use tch::{nn, Tensor};

/// Progress stored beside the weights.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainingState {
    /// Completed epochs.
    pub epochs_done: usize,
    /// The per-epoch log so far.
    pub history: Vec<EpochLog>,
}

fn write_json<T: Serialize>(path: &Path, value: &T) -> TrainResult<()> {
    let text = serde_json::to_string_pretty(value).map_err(|source| TrainError::Json {
        path: path.to_owned(),
        source,
    })?;
    std::fs::write(path, text).map_err(|e| TrainError::io(path, e))
}

/// Writes a checkpoint into `dir` (created if needed). The weights are written to a temporary
/// name and renamed, so an interrupted write never leaves a truncated `model.safetensors`.
///
/// # Errors
///
/// I/O failures naming the file.
pub fn save(
    dir: &Path,
    config: &TrainConfig,
    vs: &nn::VarStore,
    precision: Option<&LastLayerPrecision>,
    state: &TrainingState,
) -> TrainResult<()> {
    std::fs::create_dir_all(dir).map_err(|e| TrainError::io(dir, e))?;
    config.write_json(&dir.join("config.json"))?;
    let tmp = dir.join("model.tmp.safetensors");
    vs.save(&tmp)?;
    let model = dir.join("model.safetensors");
    std::fs::rename(&tmp, &model).map_err(|e| TrainError::io(&model, e))?;
    save_precision(dir, precision)?;
    write_json(&dir.join("state.json"), state)
}

/// Writes Λ into `<dir>/laplace.safetensors` (nothing when `precision` is None).
///
/// # Errors
///
/// I/O failures naming the file.
pub fn save_precision(dir: &Path, precision: Option<&LastLayerPrecision>) -> TrainResult<()> {
    if let Some(p) = precision {
        std::fs::create_dir_all(dir).map_err(|e| TrainError::io(dir, e))?;
        let path = dir.join("laplace.safetensors");
        Tensor::write_safetensors(&[("head.weight", &p.weight), ("head.bias", &p.bias)], &path)?;
    }
    Ok(())
}

/// Reads Λ from `<dir>/laplace.safetensors`, checked against the shapes of the last layer.
///
/// # Errors
///
/// A missing file, a missing tensor or a shape mismatch, naming the file.
pub fn load_precision(
    dir: &Path,
    weight_shape: &[i64],
    bias_shape: &[i64],
) -> TrainResult<LastLayerPrecision> {
    let path = dir.join("laplace.safetensors");
    if !path.exists() {
        return Err(TrainError::Checkpoint {
            path,
            reason: "no laplace.safetensors: this checkpoint has no last-layer precision".into(),
        });
    }
    let tensors = Tensor::read_safetensors(&path)?;
    let find = |name: &str, shape: &[i64]| -> TrainResult<Tensor> {
        let t = tensors
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.shallow_clone())
            .ok_or_else(|| TrainError::Checkpoint {
                path: path.clone(),
                reason: format!("missing tensor `{name}`"),
            })?;
        if t.size() != shape {
            return Err(TrainError::Checkpoint {
                path: path.clone(),
                reason: format!("`{name}` has shape {:?}, expected {shape:?}", t.size()),
            });
        }
        Ok(t)
    };
    Ok(LastLayerPrecision {
        weight: find("head.weight", weight_shape)?,
        bias: find("head.bias", bias_shape)?,
    })
}

/// Loads the checkpoint in `dir` into `vs` (and `precision`), if there is one. Returns None
/// when `dir` holds no `state.json` (nothing to resume).
///
/// # Errors
///
/// A checkpoint whose configuration differs from `config` in anything but the epoch count,
/// unreadable files, or tensors that do not match the network.
pub fn load_into(
    dir: &Path,
    config: &TrainConfig,
    vs: &mut nn::VarStore,
    precision: Option<&mut LastLayerPrecision>,
) -> TrainResult<Option<TrainingState>> {
    let state_path = dir.join("state.json");
    if !state_path.exists() {
        return Ok(None);
    }
    let saved = TrainConfig::read_json(&dir.join("config.json"))?;
    let comparable = TrainConfig {
        epochs: config.epochs,
        ..saved.clone()
    };
    if &comparable != config {
        return Err(TrainError::Checkpoint {
            path: dir.to_owned(),
            reason: "its config.json differs from this run's configuration (only --epochs may change on resume); use another --out or the same flags".into(),
        });
    }
    let text = std::fs::read_to_string(&state_path).map_err(|e| TrainError::io(&state_path, e))?;
    let state: TrainingState = serde_json::from_str(&text).map_err(|source| TrainError::Json {
        path: state_path.clone(),
        source,
    })?;
    vs.load(dir.join("model.safetensors"))?;
    if let Some(p) = precision {
        let loaded = load_precision(dir, &p.weight.size(), &p.bias.size())?;
        let device = p.weight.device();
        p.weight = loaded.weight.to_device(device);
        p.bias = loaded.bias.to_device(device);
    }
    Ok(Some(state))
}
