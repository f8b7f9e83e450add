//! The one way the training module reads and writes JSON: serde, pretty-printed, written to a
//! temporary file in the same folder and renamed over the target, so that a reader (or a run
//! killed mid-write) never sees a truncated file.

use super::error::{TrainError, TrainResult};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::Path;

/// `value` as pretty-printed JSON text with a final newline.
///
/// # Errors
///
/// [`TrainError::Json`] naming `path` if serialisation fails (a non-string map key, say).
pub fn to_text<T: Serialize>(value: &T, path: &Path) -> TrainResult<String> {
    serde_json::to_string_pretty(value)
        .map(|t| t + "\n")
        .map_err(|source| TrainError::Json {
            path: path.to_owned(),
            source,
        })
}

/// Writes `value` to `path` atomically (temporary file + rename).
///
/// # Errors
///
/// [`TrainError::Json`] or [`TrainError::Io`] naming the file.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> TrainResult<()> {
    write_atomic(path, to_text(value, path)?.as_bytes())
}

/// Reads a value written by [`write_json`].
///
/// # Errors
///
/// [`TrainError::Io`] for a missing or unreadable file, [`TrainError::Json`] naming the file
/// for text that is not such a value (empty, truncated, another record).
pub fn read_json<T: DeserializeOwned>(path: &Path) -> TrainResult<T> {
    let text = std::fs::read_to_string(path).map_err(|e| TrainError::io(path, e))?;
    serde_json::from_str(&text).map_err(|source| TrainError::Json {
        path: path.to_owned(),
        source,
    })
}

/// Writes `bytes` to `path` through `<path>.tmp` and a rename (atomic on one file system), with
/// the data flushed to disk before the rename.
///
/// # Errors
///
/// [`TrainError::Io`] naming the file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> TrainResult<()> {
    let tmp = temporary_name(path);
    {
        use std::io::Write;
        let mut f = std::fs::File::create(&tmp).map_err(|e| TrainError::io(&tmp, e))?;
        f.write_all(bytes).map_err(|e| TrainError::io(&tmp, e))?;
        f.sync_all().map_err(|e| TrainError::io(&tmp, e))?;
    }
    std::fs::rename(&tmp, path).map_err(|e| TrainError::io(path, e))
}

/// `<dir>/<name>.tmp`: the temporary twin of `path`, in its folder (a rename across file
/// systems would not be atomic).
pub fn temporary_name(path: &Path) -> std::path::PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}
