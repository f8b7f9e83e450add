//! The runs other runs start from, in one place: PFE freezes a deterministic model, and
//! `probdml reproduce` derives post-hoc LAM from the deterministic run of the same seed. Which
//! methods need one is their row of the method table ([`crate::catalogue`]). This file says
//! which run that is and where it goes; `train` trains it
//! ([`train_parent`](super::train::train_parent)).

use crate::catalogue::MethodConfig;
use crate::checkpoint::layout::PFE_DETERMINISTIC;
use crate::config::{MethodKind, TrainConfig, ValidConfig, WarmStart};
use crate::error::TrainResult;
use std::path::{Path, PathBuf};

/// The deterministic run with the settings of `config` that a PFE or post-hoc LAM run of that
/// configuration starts from.
///
/// # Errors
///
/// Those of [`ValidConfig::new`] (none for a valid `config`).
pub fn deterministic_parent(config: &ValidConfig) -> TrainResult<ValidConfig> {
    ValidConfig::new(TrainConfig {
        method: MethodKind::Deterministic.into(),
        ..(**config).clone()
    })
}

/// The folder into which a run of `method` into `out` must first train the deterministic model
/// it starts from: `<out>/deterministic` for a method that freezes one and names none; None
/// otherwise.
pub fn missing_parent(method: &MethodConfig, out: &Path) -> Option<PathBuf> {
    let named = method.warm_start().and_then(|w| w.init_checkpoint.as_ref());
    match (method.model().row().warm_start, named) {
        (WarmStart::Required, None) => Some(out.join(PFE_DETERMINISTIC)),
        _ => None,
    }
}

/// `config` starting from the deterministic checkpoint in `parent` (for a method that starts
/// from none, `config` itself).
///
/// # Errors
///
/// Those of [`ValidConfig::new`] (none for a valid `config`).
pub fn starting_from(config: &ValidConfig, parent: PathBuf) -> TrainResult<ValidConfig> {
    let mut started = (**config).clone();
    if let Some(w) = started.method.warm_start_mut() {
        w.init_checkpoint = Some(parent);
    }
    ValidConfig::new(started)
}
