//! The commit of a checkpoint: its files under temporary names, then the manifest that names
//! them (the commit point), then the renames; and the reading side that verifies them.

use super::layout::{MANIFEST, MODEL};
use crate::error::{TrainError, TrainResult};
use crate::json;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use tch::Tensor;

/// One file of a checkpoint as the manifest records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    /// File name inside the checkpoint folder.
    pub name: String,
    /// Size in bytes.
    pub bytes: u64,
    /// FNV-1a 64-bit hash of the content, hexadecimal.
    pub fnv1a64: String,
}

/// The manifest: what one committed checkpoint consists of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// Format version (1).
    pub format: u32,
    /// Epochs the checkpoint has completed.
    pub epoch: usize,
    /// Its files.
    pub files: Vec<FileEntry>,
}

/// What goes into one file of a checkpoint.
#[derive(Debug)]
pub enum Content {
    /// Named tensors, written as safetensors.
    Tensors(Vec<(String, Tensor)>),
    /// Bytes (JSON text).
    Bytes(Vec<u8>),
}

/// FNV-1a, 64 bits: detects a truncated, partly written or altered file (not an adversary).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn next_name(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".next");
    path.with_file_name(name)
}

fn entry(name: &str, bytes: &[u8]) -> FileEntry {
    FileEntry {
        name: name.to_owned(),
        bytes: bytes.len() as u64,
        fnv1a64: format!("{:016x}", fnv1a64(bytes)),
    }
}

fn read_bytes(path: &Path) -> TrainResult<Vec<u8>> {
    std::fs::read(path).map_err(|e| TrainError::io(path, e))
}

fn sync(path: &Path) -> TrainResult<()> {
    std::fs::File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(|e| TrainError::io(path, e))
}

/// Writes the checkpoint `files` of epoch `epoch` into `dir` (created if needed) as one atomic
/// step (see the module documentation).
///
/// # Errors
///
/// I/O failures naming the file.
pub fn save(dir: &Path, epoch: usize, files: Vec<(&str, Content)>) -> TrainResult<()> {
    std::fs::create_dir_all(dir).map_err(|e| TrainError::io(dir, e))?;
    let mut entries = Vec::with_capacity(files.len());
    for (name, content) in &files {
        let next = next_name(&dir.join(name));
        match content {
            Content::Tensors(tensors) => {
                let named: Vec<(&str, &Tensor)> =
                    tensors.iter().map(|(n, t)| (n.as_str(), t)).collect();
                Tensor::write_safetensors(&named, &next)?;
            }
            Content::Bytes(bytes) => {
                std::fs::write(&next, bytes).map_err(|e| TrainError::io(&next, e))?;
            }
        }
        sync(&next)?;
        entries.push(entry(name, &read_bytes(&next)?));
    }
    let manifest = Manifest {
        format: 1,
        epoch,
        files: entries,
    };
    json::write_json(&dir.join(MANIFEST), &manifest)?;
    for (name, _) in &files {
        let path = dir.join(name);
        std::fs::rename(next_name(&path), &path).map_err(|e| TrainError::io(&path, e))?;
    }
    Ok(())
}

/// Checks the checkpoint in `dir` against its manifest, finishing an interrupted commit
/// (renaming `.next` files that match the manifest into place). Returns None when `dir` holds
/// no manifest.
///
/// # Errors
///
/// [`TrainError::Checkpoint`] naming the first file that matches neither the manifest nor a
/// pending `.next` twin, or a manifest that cannot be read.
pub fn verify(dir: &Path) -> TrainResult<Option<Manifest>> {
    let path = dir.join(MANIFEST);
    if !path.exists() {
        return Ok(None);
    }
    let manifest: Manifest = json::read_json(&path).map_err(|e| TrainError::Checkpoint {
        path: path.clone(),
        reason: format!("unreadable manifest ({e}); the checkpoint cannot be trusted"),
    })?;
    for f in &manifest.files {
        if f.name.contains('/') || f.name.contains('\\') || f.name.starts_with('.') {
            return Err(TrainError::Checkpoint {
                path: path.clone(),
                reason: format!("names the file `{}` outside the checkpoint folder", f.name),
            });
        }
        let file = dir.join(&f.name);
        let matches = |p: &Path| {
            std::fs::read(p)
                .map(|b| entry(&f.name, &b) == *f)
                .unwrap_or(false)
        };
        if matches(&file) {
            continue;
        }
        let next = next_name(&file);
        if matches(&next) {
            std::fs::rename(&next, &file).map_err(|e| TrainError::io(&file, e))?;
            tracing::info!(file = %file.display(), "finished an interrupted checkpoint commit");
            continue;
        }
        return Err(TrainError::Checkpoint {
            path: file,
            reason: format!(
                "does not match manifest.json (epoch {}: {} bytes, FNV-1a {}): the file was \
                 changed, truncated or its write interrupted; the checkpoint cannot be trusted",
                manifest.epoch, f.bytes, f.fnv1a64
            ),
        });
    }
    Ok(Some(manifest))
}

/// Reads the named tensors of a safetensors file of a checkpoint.
///
/// # Errors
///
/// [`TrainError::Checkpoint`] naming the file when it is missing or not a safetensors file.
pub fn read_tensors(path: &Path) -> TrainResult<Vec<(String, Tensor)>> {
    if !path.exists() {
        return Err(TrainError::Checkpoint {
            path: path.to_owned(),
            reason: "missing; train first (probdml train --out ...)".into(),
        });
    }
    Tensor::read_safetensors(path).map_err(|e| TrainError::Checkpoint {
        path: path.to_owned(),
        reason: format!("not a readable safetensors file: {e}"),
    })
}

/// The tensor `name` of `tensors` (read from `source`), checked to have `shape`.
///
/// # Errors
///
/// [`TrainError::Checkpoint`] naming `source` for a missing tensor or a wrong shape.
pub fn find_tensor(
    tensors: &[(String, Tensor)],
    name: &str,
    shape: &[i64],
    source: &Path,
) -> TrainResult<Tensor> {
    let t = tensors
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, t)| t.shallow_clone())
        .ok_or_else(|| TrainError::Checkpoint {
            path: source.to_owned(),
            reason: format!("missing tensor `{name}`"),
        })?;
    if t.size() != shape {
        return Err(TrainError::Checkpoint {
            path: source.to_owned(),
            reason: format!("`{name}` has shape {:?}, expected {shape:?}", t.size()),
        });
    }
    Ok(t)
}

/// Loads `model.safetensors` of `dir` into `vs`, every variable checked by name and shape.
///
/// # Errors
///
/// [`TrainError::Checkpoint`] naming the file.
pub fn load_model(dir: &Path, vs: &mut tch::nn::VarStore) -> TrainResult<()> {
    let path = dir.join(MODEL);
    let tensors = read_tensors(&path)?;
    let mut variables: Vec<(String, Tensor)> = vs.variables().into_iter().collect();
    variables.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, var) in &mut variables {
        let t = find_tensor(&tensors, name, &var.size(), &path)?;
        let t = t.f_to_kind(var.kind())?;
        let finite = bool::try_from(t.isfinite().all())?;
        if !finite {
            return Err(TrainError::Checkpoint {
                path: path.clone(),
                reason: format!("`{name}` holds NaN or infinite weights"),
            });
        }
        tch::no_grad(|| var.f_copy_(&t))?;
    }
    Ok(())
}
