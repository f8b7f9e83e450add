//! The runs other runs start from, in one place: PFE freezes a deterministic model, and
//! `probdml reproduce` derives post-hoc LAM from the deterministic run of the same seed. Which
//! methods need one is their row of the method table ([`crate::catalogue`]).

use super::environment::Environment;
use super::output::OutPolicy;
use super::train::train_and_evaluate;
use crate::catalogue::WarmStart;
use crate::checkpoint::layout::PFE_DETERMINISTIC;
use crate::config::{MethodKind, TrainConfig, ValidConfig};
use crate::error::TrainResult;
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// Trains (or resumes) into `out` the deterministic run with the settings of `config` that a
/// PFE or post-hoc LAM run of that configuration starts from, and returns `out`.
///
/// # Errors
///
/// Those of [`train_and_evaluate`].
pub fn deterministic_parent(
    config: &ValidConfig,
    out: &Path,
    env: &Environment,
) -> TrainResult<PathBuf> {
    let parent = ValidConfig::new(TrainConfig {
        method: MethodKind::Deterministic,
        init_checkpoint: None,
        ..(**config).clone()
    })?;
    train_and_evaluate(&parent, out, OutPolicy::Resume, env)?;
    Ok(out.to_owned())
}

/// The configuration a run into `out` trains: `config` itself, or — for a method that freezes
/// a deterministic model and names none — `config` starting from the deterministic parent,
/// trained first into `<out>/deterministic`.
///
/// # Errors
///
/// Those of [`deterministic_parent`].
pub fn with_prerequisites<'a>(
    config: &'a ValidConfig,
    out: &Path,
    env: &Environment,
) -> TrainResult<Cow<'a, ValidConfig>> {
    match (
        config.model_method().row().warm_start,
        &config.init_checkpoint,
    ) {
        (WarmStart::Required, None) => {
            let parent = deterministic_parent(config, &out.join(PFE_DETERMINISTIC), env)?;
            Ok(Cow::Owned(ValidConfig::new(TrainConfig {
                init_checkpoint: Some(parent),
                ..(**config).clone()
            })?))
        }
        _ => Ok(Cow::Borrowed(config)),
    }
}
