//! How the Bayesian triplet loss chooses the negatives of an anchor: the choice itself, which
//! BTL's options hold (without libtorch); the mining is [`super::triplets`] (feature "tch").

use serde::{Deserialize, Serialize};

/// How the Bayesian triplet loss chooses the negatives of an anchor among those of its batch
/// (chapter 05; [`super::triplets`] has the measurements behind the default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Negatives {
    /// The anchor's nearest negatives (the BTL paper's hard-negative mining). Trained from
    /// scratch at D = 3 it inflates every σ² and retrieval stays poor (mAP@1 0.37 on
    /// Fashion-MNIST after 10 epochs, against 0.83 with uniform negatives).
    Hardest,
    /// Negatives drawn uniformly without replacement (the default).
    #[default]
    Random,
}
