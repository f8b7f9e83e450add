//! The epoch loop shared by every method: seeded batches, RMSprop with exponential decay,
//! NaN/Inf detection, a progress bar, a `tracing` line per epoch and a checkpoint per epoch.

use super::super::checkpoint::{self, TrainingState};
use super::super::config::{Method, TrainConfig};
use super::super::error::{TrainError, TrainResult};
use super::super::mining::{contrastive_loss_form_l, MinedPairs};
use super::{online, LastLayerPrecision, Member, TensorSet};
use indicatif::{ProgressBar, ProgressStyle};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;
use tch::nn::{self, OptimizerConfig};
use tch::{Device, Tensor};

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

/// The libtorch seed of one epoch: a function of the run seed and the epoch only, so that a
/// resumed run draws the same weight samples and subsamples as an uninterrupted one.
fn epoch_seed(seed: u64, epoch: usize) -> i64 {
    (seed.wrapping_mul(1_000_003).wrapping_add(epoch as u64) & 0x7fff_ffff_ffff_ffff) as i64
}

/// Fails with [`TrainError::NonFinite`] unless every entry of `t` is finite.
pub fn check_finite(
    t: &Tensor,
    name: &str,
    epoch: usize,
    step: usize,
    global_step: usize,
) -> TrainResult<()> {
    if bool::try_from(t.isfinite().all())? {
        Ok(())
    } else {
        Err(TrainError::NonFinite {
            tensor: name.to_owned(),
            epoch,
            step,
            global_step,
        })
    }
}

/// Trains one member for `config.epochs` epochs; writes a checkpoint into `dir` after each and,
/// with `resume`, continues from the one found there.
///
/// RMSprop's running averages are not part of libtorch's exported state through `tch`, so a
/// resumed run restarts them (a warm restart); weights, Λ, the learning-rate schedule, the
/// epoch counter and the random streams continue exactly.
pub fn train_member(
    config: &TrainConfig,
    train: &TensorSet,
    device: Device,
    seed: u64,
    dir: Option<&Path>,
    resume: bool,
) -> TrainResult<(Member, Vec<EpochLog>)> {
    let mut member = Member::new(config, device, seed);
    let online = config.method == Method::LamOnline;
    let mut precision =
        online.then(|| LastLayerPrecision::prior(&member.net, config.prior_precision));
    let mut history = Vec::new();
    let mut start_epoch = 0;
    if let (true, Some(dir)) = (resume, dir) {
        if let Some(state) = checkpoint::load_into(dir, config, &mut member.vs, precision.as_mut())?
        {
            tracing::info!(dir = %dir.display(), epochs_done = state.epochs_done, "resuming");
            start_epoch = state.epochs_done;
            history = state.history;
        }
    }
    let mut opt = nn::RmsProp::default().build(&member.vs, config.learning_rate)?;
    let max_pairs = if online {
        config.max_pairs as i64
    } else {
        i64::MAX
    };
    let n = train.len() as usize;
    let batch = config.batch_size.min(n);
    let steps_per_epoch = n / batch;
    let mut global_step = start_epoch * steps_per_epoch;
    for epoch in start_epoch..config.epochs {
        let lr = config.learning_rate * config.lr_decay.powi(epoch as i32);
        opt.set_lr(lr);
        tch::manual_seed(epoch_seed(seed, epoch));
        let mut order: Vec<i64> = (0..n as i64).collect();
        order.shuffle(&mut rand::rngs::StdRng::seed_from_u64(
            epoch_seed(seed, epoch) as u64,
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
        for step in 0..steps_per_epoch {
            global_step += 1;
            let idx =
                Tensor::from_slice(&order[step * batch..(step + 1) * batch]).to_device(device);
            let x = train.images.index_select(0, &idx);
            let labels = train.labels.index_select(0, &idx);
            let (loss, pairs) = match precision.as_mut() {
                Some(lambda) => {
                    let out =
                        online::online_step(config, &member.net, lambda, &x, &labels, max_pairs)?;
                    check_finite(
                        &out.hessian_weight,
                        "ggn_diagonal(head.weight)",
                        epoch + 1,
                        step + 1,
                        global_step,
                    )?;
                    (out.loss, out.pairs)
                }
                None => {
                    let z = member.net.embed(&x, true);
                    let mined = MinedPairs::mine(&z.detach(), &labels, config.margin, max_pairs);
                    let pairs = mined.kept();
                    (
                        contrastive_loss_form_l(&z, &mined, config.margin),
                        pairs.0 + pairs.1,
                    )
                }
            };
            let loss_value = loss.double_value(&[]);
            if !loss_value.is_finite() {
                return Err(TrainError::NonFinite {
                    tensor: "loss".into(),
                    epoch: epoch + 1,
                    step: step + 1,
                    global_step,
                });
            }
            opt.backward_step(&loss);
            loss_sum += loss_value;
            pair_sum += pairs as f64;
            bar.inc(1);
        }
        bar.finish_and_clear();
        let seconds = started.elapsed().as_secs_f64();
        for (name, t) in member.vs.variables() {
            check_finite(&t, &name, epoch + 1, steps_per_epoch, global_step)?;
        }
        if let Some(lambda) = &precision {
            check_finite(
                &lambda.weight,
                "precision(head.weight)",
                epoch + 1,
                steps_per_epoch,
                global_step,
            )?;
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
            lr,
            "epoch done"
        );
        history.push(log);
        if let Some(dir) = dir {
            let state = TrainingState {
                epochs_done: epoch + 1,
                history: history.clone(),
            };
            checkpoint::save(dir, config, &member.vs, precision.as_ref(), &state)?;
        }
    }
    member.precision = precision;
    Ok((member, history))
}
