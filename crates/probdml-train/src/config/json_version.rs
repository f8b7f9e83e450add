//! The versions of `config.json`: which one a file is, and what every version says without
//! knowing the methods — the method's name and the groups every run has. A checkpoint's model
//! is read so ([`read_model`]) where the method table cannot be named: a method that starts from
//! a deterministic checkpoint checks it with this.
//!
//! * 1 — no `version` field: every option flat, as [`TrainConfig`](super::TrainConfig) was
//!   before it was grouped by concern (its serde form, which `summary.json` keeps), every field
//!   added after the first release read with its default of the time (`protocol`: ours;
//!   `member_method`: deterministic; `btl`: the hardest negatives; `hib`, `proxy`: their
//!   defaults).
//! * 2 — the same fields, with `version` first.
//! * 3 — grouped by concern, the method's own options in its section (the layout of
//!   `config/file.rs`, chapter 09).

use super::flat::ConfigV2;
use super::run::RunOptions;
use crate::error::{TrainError, TrainResult};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::path::Path;

/// The version of `config.json` this program writes; it reads every earlier one.
pub const CONFIG_VERSION: u32 = 3;

/// A `config.json` as read, less its `version`.
#[derive(Debug)]
pub(crate) enum ConfigJson {
    /// Versions 1 and 2: every option flat.
    Flat(Box<ConfigV2>),
    /// Version 3: the method's section and the groups, as fields.
    Grouped(Map<String, Value>),
}

/// Reads `path` and tells its version.
///
/// # Errors
///
/// A missing or unreadable file, invalid JSON ([`TrainError::Json`] naming the file), a version
/// that is not a whole number or is newer than this program's ([`TrainError::Checkpoint`]).
pub(crate) fn read(path: &Path) -> TrainResult<ConfigJson> {
    let mut fields: Map<String, Value> = crate::json::read_json(path)?;
    let invalid = |reason: String| TrainError::Checkpoint {
        path: path.to_owned(),
        reason,
    };
    let version = match fields.remove("version") {
        None => 1,
        Some(v) => v
            .as_u64()
            .ok_or_else(|| invalid(format!("holds the version {v}, not a whole number")))?,
    };
    match version {
        1 | 2 => ConfigV2::deserialize(Value::Object(fields))
            .map(|flat| ConfigJson::Flat(Box::new(flat)))
            .map_err(|source| TrainError::Json {
                path: path.to_owned(),
                source,
            }),
        3 => Ok(ConfigJson::Grouped(fields)),
        _ => Err(invalid(format!(
            "was written by a newer probdml (config version {version}, this one reads up to {CONFIG_VERSION})"
        ))),
    }
}

/// The name of the method a checkpoint's `config.json` (`path`) trained and the groups of its
/// run, read without knowing the methods.
///
/// # Errors
///
/// Those of reading the file, and a file without a method's name or with invalid groups
/// ([`TrainError::Json`] naming the file).
pub fn read_model(path: &Path) -> TrainResult<(String, RunOptions)> {
    let json = |source| TrainError::Json {
        path: path.to_owned(),
        source,
    };
    match read(path)? {
        ConfigJson::Flat(flat) => Ok((flat.method.clone(), flat.run_options())),
        ConfigJson::Grouped(fields) => {
            let method = match fields.get("method") {
                Some(Value::String(name)) => name.clone(),
                _ => return Err(json(serde::de::Error::missing_field("method"))),
            };
            let run = RunOptions::deserialize(Value::Object(fields)).map_err(json)?;
            Ok((method, run))
        }
    }
}
