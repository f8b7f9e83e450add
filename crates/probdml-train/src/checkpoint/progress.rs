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
    /// How much of the method's bounded output sat at its bound (HIB: `ln σ²` at its cap);
    /// absent for methods without one and in logs written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_bound: Option<AtBound>,
}

/// The epoch's share of a bounded output at or past its bound, where a clamp passes no gradient
/// ([`crate::method::training::Step::at_bound`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AtBound {
    /// Mean over the epoch's steps of the fraction of entries at the bound.
    pub mean_fraction: f64,
    /// Steps with at least one entry at the bound.
    pub steps: usize,
}

impl AtBound {
    /// The epoch's summary of its steps' fractions; None when no step reported one.
    pub fn of_steps(fractions: &[f64]) -> Option<Self> {
        if fractions.is_empty() {
            return None;
        }
        Some(Self {
            mean_fraction: fractions.iter().sum::<f64>() / fractions.len() as f64,
            steps: fractions.iter().filter(|&&f| f > 0.0).count(),
        })
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The mean over steps of each step's fraction, and the steps with any entry at the bound.
    #[test]
    fn an_epoch_summarises_its_steps_at_the_bound() {
        assert_eq!(AtBound::of_steps(&[]), None);
        assert_eq!(
            AtBound::of_steps(&[0.0, 0.75, 0.0, 0.25]),
            Some(AtBound {
                mean_fraction: 0.25,
                steps: 2
            })
        );
    }

    /// A log written before the bound was recorded still reads (as None); None writes nothing,
    /// so the logs of methods without a bound keep their form.
    #[test]
    fn logs_without_a_bound_read_and_write_as_before() {
        let old = r#"{"seed": 1, "epoch": 1, "mean_loss": 190.68, "seconds": 130.7, "steps": 546,
            "mean_pairs": 8128.0}"#;
        let log: EpochLog = serde_json::from_str(old).unwrap();
        assert_eq!(log.at_bound, None);
        assert!(!serde_json::to_string(&log).unwrap().contains("at_bound"));
        let bounded = EpochLog {
            at_bound: AtBound::of_steps(&[0.5, 0.0]),
            ..log
        };
        let back: EpochLog =
            serde_json::from_str(&serde_json::to_string(&bounded).unwrap()).unwrap();
        assert_eq!(back, bounded);
    }
}
