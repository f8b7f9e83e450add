//! One member's checkpoint: what the epoch loop saves after every epoch and what `--resume`
//! and `eval` load back, verified against the manifest ([`super::commit`]).

use super::commit::{load_model, read_tensors, save, verify, Content};
use super::layout::{member_dir, CONFIG, MODEL, OPTIMISER, POSTERIOR, STATE};
use super::progress::{EpochLog, TrainingState};
use super::run_config::read_config;
use crate::config::ValidConfig;
use crate::error::{TrainError, TrainResult};
use crate::json;
use crate::laplace::LastLayerPrecision;
use crate::method::Method;
use crate::optimiser::Optimiser;
use crate::seeds;
use std::path::Path;
use tch::{Device, Tensor};

/// Writes one member's checkpoint into `dir`: its configuration (`config_json`, the text of its
/// `config.json`), weights, progress, the optimiser while training (`opt`) and the method's
/// posterior when it has one.
///
/// # Errors
///
/// I/O failures naming the file.
pub fn save_member(
    dir: &Path,
    config_json: &str,
    m: &dyn Method,
    opt: Option<&Optimiser>,
    history: &[EpochLog],
    epochs_done: usize,
) -> TrainResult<()> {
    let mut files: Vec<(&str, Content)> = vec![
        (CONFIG, Content::Bytes(config_json.as_bytes().to_vec())),
        (MODEL, Content::Tensors(sorted_variables(m.var_store()))),
        (
            STATE,
            Content::Bytes(
                json::to_text(
                    &TrainingState {
                        epochs_done,
                        history: history.to_vec(),
                        world_size: crate::data_parallel::world_size(),
                    },
                    &dir.join(STATE),
                )?
                .into_bytes(),
            ),
        ),
    ];
    if let Some(opt) = opt {
        files.push((OPTIMISER, Content::Tensors(opt.state())));
    } else if dir.join(OPTIMISER).exists() {
        // Keep the optimiser of the last epoch in the manifest (a finish pass changes nothing
        // there), so that the run stays resumable.
        let t = read_tensors(&dir.join(OPTIMISER))?;
        files.push((OPTIMISER, Content::Tensors(t)));
    }
    if let Some(p) = m.posterior() {
        files.push((POSTERIOR, Content::Tensors(p.tensors())));
    }
    save(dir, epochs_done, files)
}

/// The variables of `vs` sorted by name (the order of `model.safetensors`).
pub fn sorted_variables(vs: &tch::nn::VarStore) -> Vec<(String, Tensor)> {
    let mut v: Vec<(String, Tensor)> = vs.variables().into_iter().collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

/// Loads a training checkpoint of `dir` into `m` and `opt` after verifying it; None when
/// `dir` holds none.
pub fn resume_member(
    dir: &Path,
    config: &ValidConfig,
    m: &mut dyn Method,
    opt: &mut Optimiser,
) -> TrainResult<Option<TrainingState>> {
    let Some(manifest) = verify(dir)? else {
        if dir.join(STATE).exists() || dir.join(MODEL).exists() {
            return legacy_complete(dir, config, m);
        }
        return Ok(None);
    };
    let mut comparable = read_config(dir)?.into_inner();
    comparable.optimiser.epochs = config.optimiser.epochs;
    if comparable != **config {
        return Err(TrainError::Checkpoint {
            path: dir.to_owned(),
            reason: "its config.json differs from this run's configuration (only --epochs may change on resume); use another --out or the same flags".into(),
        });
    }
    let state_path = dir.join(STATE);
    let state: TrainingState = json::read_json(&state_path)?;
    let world = crate::data_parallel::world_size();
    if state.world_size != world {
        return Err(TrainError::Checkpoint {
            path: state_path,
            reason: format!(
                "was trained by {} rank(s) and this run has {world}: the global batch and the shards follow the number of ranks, so resume it with `torchrun --nproc-per-node {}` (or a plain run for 1)",
                state.world_size, state.world_size
            ),
        });
    }
    if state.epochs_done != manifest.epoch {
        return Err(TrainError::Checkpoint {
            path: state_path,
            reason: format!(
                "records {} epochs, the manifest {}",
                state.epochs_done, manifest.epoch
            ),
        });
    }
    let listed = |name: &str| manifest.files.iter().any(|f| f.name == name);
    if !listed(OPTIMISER) {
        return Err(TrainError::Checkpoint {
            path: dir.join(OPTIMISER),
            reason: "missing from the manifest: the optimiser state is needed to resume exactly (this folder is not a training checkpoint)".into(),
        });
    }
    load_model(dir, m.var_store_mut())?;
    let opt_path = dir.join(OPTIMISER);
    opt.load_state(&read_tensors(&opt_path)?, &opt_path)?;
    if listed(POSTERIOR) {
        load_posterior(&dir.join(POSTERIOR), m)?;
    }
    Ok(Some(state))
}

/// A checkpoint without a manifest (written before manifests existed) has no optimiser state
/// and cannot be continued exactly; when it has already done every epoch asked for (a
/// `reproduce` run of an older probdml), nothing is trained and it is loaded as it is.
fn legacy_complete(
    dir: &Path,
    config: &ValidConfig,
    m: &mut dyn Method,
) -> TrainResult<Option<TrainingState>> {
    let refuse = |why: &str| {
        TrainError::Checkpoint {
        path: dir.to_owned(),
        reason: format!(
            "holds checkpoint files but no manifest.json (written by an older probdml, or not a complete checkpoint) and {why}: it cannot be resumed exactly; train into a new --out or use --force"
        ),
    }
    };
    let state: TrainingState =
        json::read_json(&dir.join(STATE)).map_err(|_| refuse("no readable state.json"))?;
    let mut comparable = read_config(dir)?.into_inner();
    comparable.optimiser.epochs = config.optimiser.epochs;
    if state.epochs_done < config.optimiser.epochs || comparable != **config {
        return Err(refuse("epochs or configuration to continue"));
    }
    tracing::warn!(dir = %dir.display(), "a complete checkpoint of an older probdml (no manifest.json): loaded unverified, nothing to train");
    load_model(dir, m.var_store_mut())?;
    if config.method.kind().is_laplace() {
        let path = dir.join(POSTERIOR);
        if path.exists() {
            load_posterior(&path, m)?;
        }
    }
    Ok(Some(state))
}

/// Reads the posterior file `path` into `m`, checked against `m`'s last layer.
fn load_posterior(path: &Path, m: &mut dyn Method) -> TrainResult<()> {
    let posterior = LastLayerPrecision::from_tensors(m.net(), &read_tensors(path)?, path)?;
    m.set_posterior(posterior, path)
}

/// Loads member `k` of the run in `run` (of `config`, whose method's members tell the folder) for
/// evaluation, verified against its manifest when it has one; returns it with its epoch log.
///
/// # Errors
///
/// Missing, inconsistent or corrupt files, naming them.
pub fn load_member(
    run: &Path,
    config: &ValidConfig,
    k: usize,
    device: Device,
) -> TrainResult<(Box<dyn Method>, Vec<EpochLog>)> {
    let dir = member_dir(run, k, config.method.members());
    if verify(&dir)?.is_none() {
        tracing::warn!(dir = %dir.display(), "no manifest.json (a checkpoint of an older probdml): loading it unverified");
    }
    let model = config.method.model();
    let mut m = model.build(&config.run_options(), device, seeds::member(config.seed, k))?;
    load_model(&dir, m.var_store_mut())?;
    if model.kind().is_laplace() {
        load_posterior(&dir.join(POSTERIOR), m.as_mut())?;
    }
    let state_path = dir.join(STATE);
    let history = if state_path.exists() {
        json::read_json::<TrainingState>(&state_path)?.history
    } else {
        Vec::new()
    };
    Ok((m, history))
}
