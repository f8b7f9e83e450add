//! The output folder of a command: checked, locked and prepared once, before any work.

use super::lock::OutputLock;
use crate::checkpoint::layout::{holds_run, remove_run};
use crate::data_parallel;
use crate::error::{TrainError, TrainResult};
use std::path::{Path, PathBuf};

/// What may happen to an output folder that already holds a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutPolicy {
    /// Refuse a folder that holds a run.
    Fresh,
    /// Continue the run there (`--resume`), or add to the folder (`eval`, `diagnose`).
    Resume,
    /// Replace the run there (`--force`): its files are removed first.
    Overwrite,
}

/// Checks an output folder before any work: creates it, takes its lock ([`OutputLock`], held
/// until the returned guard is dropped), proves it writable, and applies `policy` to a run
/// already there.
///
/// Data-parallel runs (feature "distributed"): rank 0 alone writes, so it alone takes the
/// folder (and, with [`OutPolicy::Overwrite`], empties it); the other ranks get `None` and
/// touch nothing. Callers that then read from the folder wait at a barrier first.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `out` and the rule: a file in its place, a folder that
/// cannot be created or written, another process writing it, or a run there with
/// [`OutPolicy::Fresh`].
pub fn prepare_out(out: &Path, policy: OutPolicy) -> TrainResult<Option<OutputLock>> {
    if !data_parallel::is_writer() {
        return Ok(None);
    }
    let bad = |rule: String| TrainError::config("out", out.display(), rule);
    if out.exists() && !out.is_dir() {
        return Err(bad("is a file, not a folder".into()));
    }
    std::fs::create_dir_all(out).map_err(|e| bad(format!("cannot be created: {e}")))?;
    let probe = out.join(".probdml-write-test");
    std::fs::write(&probe, b"probe").map_err(|e| bad(format!("is not writable: {e}")))?;
    let _ = std::fs::remove_file(&probe);
    let lock = OutputLock::acquire(out)?;
    if holds_run(out) {
        match policy {
            OutPolicy::Fresh => {
                return Err(bad(
                    "already holds a run: use --resume to continue it, --force to replace it, or another --out".into(),
                ))
            }
            OutPolicy::Resume => {}
            OutPolicy::Overwrite => remove_run(out)?,
        }
    }
    Ok(Some(lock))
}

/// Whether two paths name the same folder (the second may not exist yet).
pub fn same_folder(a: &Path, b: &Path) -> bool {
    let canon = |p: &Path| -> Option<PathBuf> {
        if let Ok(c) = p.canonicalize() {
            return Some(c);
        }
        let parent = p
            .parent()
            .filter(|q| !q.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        Some(parent.canonicalize().ok()?.join(p.file_name()?))
    };
    match (canon(a), canon(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}
