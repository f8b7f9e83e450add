//! A run's progress, `state.json`: the epochs done and what each took. Written by the epoch
//! loop with libtorch ([`super::member`]), read without it by the result tables
//! ([`crate::epoch_times`], [`crate::hib_experiment`]).

use serde::{Deserialize, Serialize};

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
    /// Ranks that trained it (data-parallel runs; 1 in checkpoints from before they existed):
    /// the global batch and the shards follow it, so `--resume` needs the same.
    #[serde(default = "one_rank")]
    pub world_size: usize,
}

fn one_rank() -> usize {
    1
}
