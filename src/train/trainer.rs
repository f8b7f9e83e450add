//! The epoch loop every method shares: seeded batches, RMSprop with exponential decay
//! ([`super::optimiser`]), NaN/Inf and collapse detection, a progress bar, a `tracing` line per
//! epoch and an atomic checkpoint per epoch ([`super::checkpoint`]) that `--resume` verifies and
//! continues bit for bit (weights, optimiser state, the method's state, the epoch's seeds).

use super::checkpoint::{self, Content};
use super::config::TrainConfig;
use super::error::{TrainError, TrainResult};
use super::json;
use super::method::{self, Batch, Method, Model, Position, TensorSet};
use super::optimiser::RmsProp;
use super::seeds;
use indicatif::{ProgressBar, ProgressStyle};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;
use tch::{Device, Tensor};

/// Steps with a bit-for-bit identical loss after which training counts as collapsed: random
/// batches of a healthy model never repeat a loss exactly.
pub const CONSTANT_LOSS_STEPS: usize = 50;

/// What one epoch of one member did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EpochLog {
    /// The member's seed.
    pub seed: u64,
    /// Epoch, from 1.
    pub epoch: usize,
    /// Mean training loss (form L) over the epoch's steps.
    pub mean_loss: f64,
    /// Wall-clock seconds of the epoch (training steps only, no checkpoint).
    pub seconds: f64,
    /// Steps taken.
    pub steps: usize,
    /// Mean pairs used per step (after mining and the cap).
    pub mean_pairs: f64,
}

/// Progress stored beside the weights.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainingState {
    /// Completed epochs.
    pub epochs_done: usize,
    /// The per-epoch log so far.
    pub history: Vec<EpochLog>,
}

/// The outcome of training: the model and the per-epoch log.
#[derive(Debug)]
pub struct Trained {
    /// The configuration that produced it.
    pub config: TrainConfig,
    /// The model (one method, or an ensemble of members).
    pub model: Model,
    /// Per-epoch statistics of every member, in training order.
    pub history: Vec<EpochLog>,
}

/// Fails with [`TrainError::NonFinite`] unless every entry of `t` is finite.
///
/// # Errors
///
/// [`TrainError::NonFinite`] naming `name` and the position.
pub fn check_finite(t: &Tensor, name: &str, at: Position) -> TrainResult<()> {
    if bool::try_from(t.isfinite().all())? {
        Ok(())
    } else {
        Err(TrainError::NonFinite {
            tensor: name.to_owned(),
            epoch: at.epoch,
            step: at.step,
            global_step: at.global_step,
        })
    }
}

/// Fails with [`TrainError::Collapse`] when a raw output row `y` (B × D) cannot be normalised
/// in `f32`: a norm below the registry's
/// [`COLLAPSED_OUTPUT_NORM`](crate::registry::budget::COLLAPSED_OUTPUT_NORM) (the embeddings
/// collapsed to zero: the direction is undefined and the GGN refuses it) or a norm that
/// overflows `f32` although every entry is finite (weights blown up by a far too large
/// learning rate: y/‖y‖ is then 0, a "unit" embedding of norm 0).
///
/// # Errors
///
/// [`TrainError::Collapse`] naming the tensor and the position.
pub fn check_collapse(y: &Tensor, at: Position) -> TrainResult<()> {
    let (smallest, largest) = tch::no_grad(|| {
        let norms = y.detach().norm_scalaropt_dim(2.0, [1i64], false);
        (norms.min().double_value(&[]), norms.max().double_value(&[]))
    });
    let floor = crate::registry::budget::COLLAPSED_OUTPUT_NORM;
    let detail = if smallest.is_nan() || largest.is_nan() {
        None
    } else if smallest < floor {
        Some(format!(
            "has a row of norm {smallest:e} < {floor:e} (the embeddings collapsed to zero)"
        ))
    } else if !largest.is_finite() {
        Some(
            "has a row whose norm overflows f32 (the weights blew up; its embedding y/‖y‖ is 0)"
                .to_string(),
        )
    } else {
        None
    };
    match detail {
        None => Ok(()),
        Some(detail) => Err(TrainError::Collapse {
            tensor: "head output y = Wx + b".into(),
            detail,
            epoch: at.epoch,
            step: at.step,
            global_step: at.global_step,
        }),
    }
}

/// Trains `config` on `train`, writing a checkpoint after every epoch into `out_dir` (one
/// folder per member for an ensemble, the run's `config.json` at the top), and resuming from
/// it when `resume` is set and one is there; then each member's finish pass (post-hoc LAM's
/// Hessian), checkpointed too.
///
/// # Errors
///
/// An invalid configuration, a non-finite or collapsed quantity (naming the step and tensor),
/// a checkpoint that fails verification, and I/O.
pub fn train(
    config: &TrainConfig,
    train: &TensorSet,
    device: Device,
    out_dir: Option<&Path>,
    resume: bool,
) -> TrainResult<Trained> {
    config.validate()?;
    let members = config.members();
    if let (Some(dir), true) = (out_dir, members > 1) {
        // The run's own configuration at the top, so that `eval`/`diagnose` of the ensemble
        // folder find it.
        std::fs::create_dir_all(dir).map_err(|e| TrainError::io(dir, e))?;
        json::write_json(&dir.join(checkpoint::CONFIG), config)?;
    }
    let member_config = config.member_config();
    let mut trained = Vec::with_capacity(members);
    let mut history = Vec::new();
    for k in 0..members {
        let seed = seeds::member(config.seed, k);
        let dir = out_dir.map(|d| {
            if members > 1 {
                d.join(format!("member-{k}"))
            } else {
                d.to_owned()
            }
        });
        let (mut m, log) =
            train_member(&member_config, train, device, seed, dir.as_deref(), resume)?;
        m.finish(train, device)?;
        if let (Some(dir), Some(state)) = (dir.as_deref(), m.state()) {
            // The finish pass's state (post-hoc Λ) joins the last epoch's checkpoint.
            let manifest = checkpoint::verify(dir)?;
            let epoch = manifest.map_or(0, |m| m.epoch);
            save_member(
                dir,
                &member_config,
                m.as_ref(),
                None,
                &log,
                epoch,
                Some(state),
            )?;
        }
        trained.push(m);
        history.extend(log);
    }
    let model = if members > 1 {
        Model::Ensemble(trained)
    } else {
        Model::Single(trained.pop().ok_or_else(|| {
            TrainError::config("ensemble-size", 0, "at least one model is trained")
        })?)
    };
    Ok(Trained {
        config: config.clone(),
        model,
        history,
    })
}

/// Writes one member's checkpoint; the optimiser file only while training (`opt`).
fn save_member(
    dir: &Path,
    config: &TrainConfig,
    m: &dyn Method,
    opt: Option<&RmsProp>,
    history: &[EpochLog],
    epochs_done: usize,
    state: Option<method::MethodState>,
) -> TrainResult<()> {
    let mut files: Vec<(&str, Content)> = vec![
        (
            checkpoint::CONFIG,
            Content::Bytes(json::to_text(config, &dir.join(checkpoint::CONFIG))?.into_bytes()),
        ),
        (
            checkpoint::MODEL,
            Content::Tensors(sorted_variables(m.var_store())),
        ),
        (
            checkpoint::STATE,
            Content::Bytes(
                json::to_text(
                    &TrainingState {
                        epochs_done,
                        history: history.to_vec(),
                    },
                    &dir.join(checkpoint::STATE),
                )?
                .into_bytes(),
            ),
        ),
    ];
    if let Some(opt) = opt {
        files.push((checkpoint::OPTIMISER, Content::Tensors(opt.state())));
    } else if dir.join(checkpoint::OPTIMISER).exists() {
        // Keep the optimiser of the last epoch in the manifest (a finish pass changes nothing
        // there), so that the run stays resumable.
        let t = checkpoint::read_tensors(&dir.join(checkpoint::OPTIMISER))?;
        files.push((checkpoint::OPTIMISER, Content::Tensors(t)));
    }
    if let Some(s) = state {
        files.push((s.file, Content::Tensors(s.tensors)));
    }
    checkpoint::save(dir, epochs_done, files)
}

fn sorted_variables(vs: &tch::nn::VarStore) -> Vec<(String, Tensor)> {
    let mut v: Vec<(String, Tensor)> = vs.variables().into_iter().collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

/// Loads a training checkpoint of `dir` into `m` and `opt` after verifying it; None when
/// `dir` holds none.
fn resume_member(
    dir: &Path,
    config: &TrainConfig,
    m: &mut dyn Method,
    opt: &mut RmsProp,
) -> TrainResult<Option<TrainingState>> {
    let Some(manifest) = checkpoint::verify(dir)? else {
        if dir.join(checkpoint::STATE).exists() || dir.join(checkpoint::MODEL).exists() {
            return legacy_complete(dir, config, m);
        }
        return Ok(None);
    };
    let saved = checkpoint::read_config(dir)?;
    let comparable = TrainConfig {
        epochs: config.epochs,
        ..saved
    };
    if &comparable != config {
        return Err(TrainError::Checkpoint {
            path: dir.to_owned(),
            reason: "its config.json differs from this run's configuration (only --epochs may change on resume); use another --out or the same flags".into(),
        });
    }
    let state_path = dir.join(checkpoint::STATE);
    let state: TrainingState = json::read_json(&state_path)?;
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
    if !listed(checkpoint::OPTIMISER) {
        return Err(TrainError::Checkpoint {
            path: dir.join(checkpoint::OPTIMISER),
            reason: "missing from the manifest: the optimiser state is needed to resume exactly (this folder is not a training checkpoint)".into(),
        });
    }
    checkpoint::load_model(dir, m.var_store_mut())?;
    let opt_path = dir.join(checkpoint::OPTIMISER);
    opt.load_state(&checkpoint::read_tensors(&opt_path)?, &opt_path)?;
    if let Some(file) = m.state_file() {
        if listed(file) {
            let path = dir.join(file);
            m.load_state(&checkpoint::read_tensors(&path)?, &path)?;
        }
    }
    Ok(Some(state))
}

/// A checkpoint without a manifest (written before manifests existed) has no optimiser state
/// and cannot be continued exactly; when it has already done every epoch asked for (a
/// `reproduce` run of an older probdml), nothing is trained and it is loaded as it is.
fn legacy_complete(
    dir: &Path,
    config: &TrainConfig,
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
    let state: TrainingState = json::read_json(&dir.join(checkpoint::STATE))
        .map_err(|_| refuse("no readable state.json"))?;
    let saved = checkpoint::read_config(dir)?;
    if state.epochs_done < config.epochs
        || (TrainConfig {
            epochs: config.epochs,
            ..saved
        }) != *config
    {
        return Err(refuse("epochs or configuration to continue"));
    }
    tracing::warn!(dir = %dir.display(), "a complete checkpoint of an older probdml (no manifest.json): loaded unverified, nothing to train");
    checkpoint::load_model(dir, m.var_store_mut())?;
    if let Some(file) = m.state_file() {
        let path = dir.join(file);
        if path.exists() {
            m.load_state(&checkpoint::read_tensors(&path)?, &path)?;
        }
    }
    Ok(Some(state))
}

/// Trains one member for `config.epochs` epochs; writes a checkpoint into `dir` after each
/// and, with `resume`, continues from the one found there.
///
/// # Errors
///
/// See [`train`].
pub fn train_member(
    config: &TrainConfig,
    train: &TensorSet,
    device: Device,
    seed: u64,
    dir: Option<&Path>,
    resume: bool,
) -> TrainResult<(Box<dyn Method>, Vec<EpochLog>)> {
    let mut m = method::build(config, device, seed)?;
    let mut opt = RmsProp::new(m.var_store(), config.learning_rate);
    opt.weight_decay = config.settings().weight_decay;
    let mut history = Vec::new();
    let mut start_epoch = 0;
    let mut resumed = false;
    if let (true, Some(dir)) = (resume, dir) {
        if let Some(state) = resume_member(dir, config, m.as_mut(), &mut opt)? {
            tracing::info!(dir = %dir.display(), epochs_done = state.epochs_done, "resuming");
            start_epoch = state.epochs_done;
            history = state.history;
            resumed = true;
        }
    }
    if !resumed {
        m.initialise()?;
    }
    let n = train.len() as usize;
    let batch = config.batch_size.min(n);
    if batch < 2 {
        return Err(TrainError::config(
            "train-limit",
            n,
            "pairs need at least 2 training images",
        ));
    }
    let steps_per_epoch = n / batch;
    let mut global_step = start_epoch * steps_per_epoch;
    let (mut last_loss, mut repeats) = (f64::NAN, 0usize);
    for epoch in start_epoch..config.epochs {
        opt.lr = config.learning_rate * config.lr_decay.powi(epoch as i32);
        tch::manual_seed(seeds::epoch(seed, epoch));
        let mut order: Vec<i64> = (0..n as i64).collect();
        order.shuffle(&mut rand::rngs::StdRng::seed_from_u64(
            seeds::epoch(seed, epoch) as u64,
        ));
        let bar = ProgressBar::new(steps_per_epoch as u64);
        bar.set_style(
            ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {per_sec} eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_message(format!(
            "{} seed {seed} epoch {}/{}",
            config.method.name(),
            epoch + 1,
            config.epochs
        ));
        let started = Instant::now();
        let (mut loss_sum, mut pair_sum) = (0.0, 0.0);
        let mut last_batch = None;
        for step in 0..steps_per_epoch {
            global_step += 1;
            let at = Position {
                epoch: epoch + 1,
                step: step + 1,
                global_step,
            };
            let idx =
                Tensor::from_slice(&order[step * batch..(step + 1) * batch]).to_device(device);
            let x = train.images.index_select(0, &idx);
            let labels = train.labels.index_select(0, &idx);
            let out = m.step(&Batch {
                images: &x,
                labels: &labels,
                at,
                train_size: n as i64,
            })?;
            let loss_value = out.loss.double_value(&[]);
            if !loss_value.is_finite() {
                return Err(TrainError::NonFinite {
                    tensor: "loss".into(),
                    epoch: at.epoch,
                    step: at.step,
                    global_step,
                });
            }
            if loss_value.to_bits() == last_loss.to_bits() {
                repeats += 1;
                if repeats + 1 >= CONSTANT_LOSS_STEPS {
                    return Err(TrainError::Collapse {
                        tensor: "loss".into(),
                        detail: format!(
                            "stayed exactly {loss_value:e} for {CONSTANT_LOSS_STEPS} steps"
                        ),
                        epoch: at.epoch,
                        step: at.step,
                        global_step,
                    });
                }
            } else {
                (last_loss, repeats) = (loss_value, 0);
            }
            if out.loss.requires_grad() {
                opt.backward_step(&out.loss)?;
            }
            loss_sum += loss_value;
            pair_sum += out.pairs as f64;
            bar.inc(1);
            last_batch = Some(x);
        }
        bar.finish_and_clear();
        let seconds = started.elapsed().as_secs_f64();
        let end = Position {
            epoch: epoch + 1,
            step: steps_per_epoch,
            global_step,
        };
        for (name, t) in sorted_variables(m.var_store()) {
            check_finite(&t, &name, end)?;
        }
        for (name, t) in m.state_to_check() {
            check_finite(&t, &name, end)?;
        }
        if let Some(x) = &last_batch {
            // The last update can collapse the model after the last step's own check: look at
            // the weights the checkpoint would save, on the last batch, before saving them.
            let net = m.net();
            let y = tch::no_grad(|| net.head.raw(&net.backbone.features(x, false)));
            check_finite(&y, "head output y = Wx + b", end)?;
            check_collapse(&y, end)?;
        }
        let log = EpochLog {
            seed,
            epoch: epoch + 1,
            mean_loss: loss_sum / steps_per_epoch.max(1) as f64,
            seconds,
            steps: steps_per_epoch,
            mean_pairs: pair_sum / steps_per_epoch.max(1) as f64,
        };
        tracing::info!(
            method = config.method.name(),
            seed,
            epoch = log.epoch,
            loss = log.mean_loss,
            seconds = log.seconds,
            pairs_per_step = log.mean_pairs,
            lr = opt.lr,
            "epoch done"
        );
        history.push(log);
        if let Some(dir) = dir {
            save_member(
                dir,
                config,
                m.as_ref(),
                Some(&opt),
                &history,
                epoch + 1,
                m.state(),
            )?;
        }
    }
    Ok((m, history))
}
