//! The epoch loop every method shares: seeded batches ([`crate::batch_sampler`]), RMSprop or
//! Adam with exponential decay ([`crate::optimiser`]), the [`crate::guards`] on the loss, the weights and the
//! outputs, a progress bar, a `tracing` line per epoch and an atomic checkpoint per epoch
//! ([`crate::checkpoint::member`]) that `--resume` verifies and continues bit for bit
//! (weights, optimiser state, the posterior, the epoch's seeds).

use crate::batch_sampler::{epoch_batches, BatchSampler, ClassMembers};
use crate::checkpoint::layout::member_dir;
use crate::checkpoint::member::{resume_member, save_member, sorted_variables};
use crate::checkpoint::{self, AtBound, EpochLog, TrainingState};
use crate::config::{OptimiserOptions, ValidConfig};
use crate::data_parallel;
use crate::error::{TrainError, TrainResult};
use crate::guards::{check_collapse, check_finite, Position, CONSTANT_LOSS_STEPS};
use crate::method::{Batch, Method, Model, TensorSet};
use crate::optimiser::Optimiser;
use crate::seeds;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::Path;
use std::time::Instant;
use tch::{Device, Tensor};

/// The outcome of training: the model and the per-epoch log.
#[derive(Debug)]
pub struct Trained {
    /// The configuration that produced it.
    pub config: ValidConfig,
    /// The model (one method, or an ensemble of members).
    pub model: Model,
    /// Per-epoch statistics of every member, in training order.
    pub history: Vec<EpochLog>,
}

/// Trains `config` on `train`, writing a checkpoint after every epoch into `out_dir` (one
/// folder per member for an ensemble, the run's `config.json` at the top), and resuming from
/// it when `resume` is set and one is there; then each member's finish pass (post-hoc LAM's
/// Hessian), checkpointed too.
///
/// # Errors
///
/// A non-finite or collapsed quantity (naming the step and tensor), a checkpoint that fails
/// verification, and I/O.
pub fn train(
    config: &ValidConfig,
    train: &TensorSet,
    device: Device,
    out_dir: Option<&Path>,
    resume: bool,
) -> TrainResult<Trained> {
    let members = config.method.members();
    if let (Some(dir), true, true) = (out_dir, members > 1, data_parallel::is_writer()) {
        // The run's own configuration at the top, so that `eval`/`diagnose` of the ensemble
        // folder find it.
        std::fs::create_dir_all(dir).map_err(|e| TrainError::io(dir, e))?;
        config.write_json(&dir.join(checkpoint::CONFIG))?;
    }
    // What every member reads of the configuration, taken from it once: each member's
    // `config.json`, its method and the run's groups.
    let member = config.member();
    let run = member.run_options();
    let member_json = member.to_json_text(Path::new(checkpoint::CONFIG))?;
    let mut trained = Vec::with_capacity(members);
    let mut history = Vec::new();
    for k in 0..members {
        let seed = seeds::member(config.seed, k);
        let dir = out_dir.map(|d| member_dir(d, k, members));
        let mut m = member.method.build(&run, device, seed)?;
        let mut opt = Optimiser::new(
            m.var_store(),
            run.optimiser.algorithm,
            run.optimiser.learning_rate,
        );
        opt.weight_decay = run.settings().weight_decay;
        let resumed = match (resume, dir.as_deref()) {
            (true, Some(dir)) => resume_member(dir, &member, m.as_mut(), &mut opt)?,
            _ => None,
        };
        let log = train_member(
            m.as_mut(),
            &mut opt,
            &Member {
                method: member.method.name(),
                optimiser: &run.optimiser,
                config_json: &member_json,
                seed,
            },
            train,
            device,
            dir.as_deref(),
            resumed,
        )?;
        m.finish(train, device)?;
        if let (Some(dir), true, true) = (
            dir.as_deref(),
            m.posterior().is_some(),
            data_parallel::is_writer(),
        ) {
            // The finish pass's posterior (post-hoc Λ) joins the last epoch's checkpoint.
            let manifest = checkpoint::verify(dir)?;
            let epoch = manifest.map_or(0, |m| m.epoch);
            save_member(dir, &member_json, m.as_ref(), None, &log, epoch)?;
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

/// What the epoch loop of one member reads of the run's configuration.
#[derive(Debug, Clone, Copy)]
struct Member<'a> {
    /// The method's name (the progress bar and the log).
    method: &'a str,
    /// The optimiser and its schedule.
    optimiser: &'a OptimiserOptions,
    /// The member's `config.json`, saved with every checkpoint.
    config_json: &'a str,
    /// The member's seed.
    seed: u64,
}

/// Trains the member `m` with `opt` for `member.optimiser.epochs` epochs, continuing from
/// `resumed` (the checkpoint found in `dir`, already loaded into `m` and `opt`) or initialising
/// it; writes a checkpoint into `dir` after each epoch.
///
/// # Errors
///
/// See [`train`].
#[allow(clippy::too_many_arguments)]
fn train_member(
    m: &mut dyn Method,
    opt: &mut Optimiser,
    member: &Member<'_>,
    train: &TensorSet,
    device: Device,
    dir: Option<&Path>,
    resumed: Option<TrainingState>,
) -> TrainResult<Vec<EpochLog>> {
    let Member {
        method,
        optimiser,
        config_json,
        seed,
    } = *member;
    let mut history = Vec::new();
    let mut start_epoch = 0;
    match (resumed, dir) {
        (Some(state), Some(dir)) => {
            tracing::info!(dir = %dir.display(), epochs_done = state.epochs_done, "resuming");
            start_epoch = state.epochs_done;
            history = state.history;
        }
        _ => m.initialise()?,
    }
    // Every rank starts from rank 0's weights (a resumed run reads the same checkpoint anyway).
    data_parallel::gradients::broadcast_parameters(m.var_store())?;
    let n = train.len() as usize;
    // `--batch` is per rank: a global batch holds `world` of them, cut into whole row blocks
    // (see data_parallel).
    let world = data_parallel::world_size();
    let blocks = data_parallel::row_blocks::total();
    let batch = (optimiser.batch_size * world).min(n) / blocks * blocks;
    if batch < 2 {
        return Err(TrainError::config(
            "train-limit",
            n,
            format!(
                "pairs need at least 2 training images, and each of the {blocks} row blocks \
                 at least one"
            ),
        ));
    }
    let steps_per_epoch = n / batch;
    let sampler = optimiser.batch_sampler;
    let classes = match sampler {
        BatchSampler::Shuffled => None,
        BatchSampler::TwoStreams => Some(ClassMembers::new(&train.labels_host)),
    };
    let mut global_step = start_epoch * steps_per_epoch;
    let (mut last_loss, mut repeats) = (f64::NAN, 0usize);
    for epoch in start_epoch..optimiser.epochs {
        opt.lr = optimiser.learning_rate * optimiser.lr_decay.powi(epoch as i32);
        tch::manual_seed(seeds::epoch(seed, epoch));
        let order = epoch_batches(
            sampler,
            classes.as_ref(),
            n,
            batch,
            steps_per_epoch,
            seeds::epoch(seed, epoch) as u64,
        );
        let bar = ProgressBar::new(steps_per_epoch as u64);
        bar.set_style(
            ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {per_sec} eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_message(format!(
            "{method} seed {seed} epoch {}/{}",
            epoch + 1,
            optimiser.epochs
        ));
        let started = Instant::now();
        let (mut loss_sum, mut pair_sum) = (0.0, 0.0);
        let mut at_bound = Vec::new();
        let mut last_batch = None;
        for step in 0..steps_per_epoch {
            global_step += 1;
            let at = Position {
                epoch: epoch + 1,
                step: step + 1,
                global_step,
            };
            let global = &order[step * batch..(step + 1) * batch];
            let own = data_parallel::shard::local_rows(global, data_parallel::rank(), world);
            let x = train
                .images
                .index_select(0, &Tensor::from_slice(own).to_device(device));
            // The labels of the whole global batch: the backbone's features are gathered to
            // it inside the step (data_parallel::shard).
            let labels = train
                .labels
                .index_select(0, &Tensor::from_slice(global).to_device(device));
            let gathering = data_parallel::shard::GatherDuringStep::start();
            let out = m.step(&Batch {
                images: &x,
                labels: &labels,
                at,
                train_size: n as i64,
            });
            drop(gathering);
            if let Some(e) = data_parallel::shard::take_failure() {
                return Err(e);
            }
            let out = out?;
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
                if world == 1 && blocks == 1 {
                    opt.backward_step(&out.loss)?;
                } else {
                    opt.zero_grad();
                    out.loss.f_backward()?;
                    data_parallel::gradients::reduce_gradients(m.var_store())?;
                    opt.step()?;
                    opt.zero_grad();
                }
            }
            loss_sum += loss_value;
            pair_sum += out.pairs as f64;
            at_bound.extend(out.at_bound);
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
        if let Some(p) = m.posterior() {
            check_finite(&p.weight, "precision(head.weight)", end)?;
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
            at_bound: AtBound::of_steps(&at_bound),
        };
        if let Some(bound) = log.at_bound.filter(|b| b.steps > 0) {
            tracing::warn!(
                method,
                seed,
                epoch = log.epoch,
                steps = bound.steps,
                mean_fraction = bound.mean_fraction,
                "outputs at or past their bound, where a clamp passes no gradient (HIB: ln σ² at its cap)"
            );
        }
        tracing::info!(
            method,
            seed,
            epoch = log.epoch,
            loss = log.mean_loss,
            seconds = log.seconds,
            pairs_per_step = log.mean_pairs,
            lr = opt.lr,
            "epoch done"
        );
        history.push(log);
        if let (Some(dir), true) = (dir, data_parallel::is_writer()) {
            save_member(dir, config_json, &*m, Some(&*opt), &history, epoch + 1)?;
        }
    }
    Ok(history)
}
