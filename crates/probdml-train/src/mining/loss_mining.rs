//! Which pairs the contrastive loss of form L averages over, and how often each counts: the
//! choice itself, which the run's pair options hold (without libtorch); the mining is
//! [`super::pairs`] (feature "tch").

use serde::{Deserialize, Serialize};

/// The pairs of form L's two averages (book chapter 09, "The reference code's protocol").
///
/// Both average the positive and the negative pairs' losses separately over the non-zero ones
/// (pytorch-metric-learning's `ContrastiveLoss`); they differ in which pairs enter and how many
/// times each is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum LossMining {
    /// Every positive pair of the batch and every negative pair inside the margin, each once
    /// (chapter 09; the default).
    #[default]
    Pairs,
    /// The LAM reference code's: the pairs of every triplet (a, p, n) of the "all" triplet miner
    /// (d(a, n) − d(a, p) ≤ margin, uncapped), each triplet giving its (a, p) and its (a, n), so
    /// that a pair counts once per triplet it is in. A positive pair that no negative comes
    /// within the margin of drops out, and a hard positive counts as often as the negatives
    /// that violate it.
    Triplets,
}

impl LossMining {
    /// Whether this is the default (`config.json` leaves it out, so that runs of the default
    /// write the file older versions wrote).
    pub fn is_pairs(&self) -> bool {
        *self == LossMining::Pairs
    }
}
