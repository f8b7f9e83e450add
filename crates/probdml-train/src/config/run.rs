//! Everything of a run's configuration but its method: the narrow piece a method's constructor
//! and label are given, and the groups of `config.json` besides the method's section.

use super::groups::{
    DataOptions, EvaluationOptions, LaplaceOptions, ModelOptions, OptimiserOptions, PairOptions,
};
use crate::protocol::{Protocol, ProtocolSettings, Score};
use serde::{Deserialize, Serialize};

/// The groups of a run that are not its method's own options, in the order `config.json`
/// writes them after the method: the protocol, the seed, the data, the network, the optimiser,
/// the pairs, the Laplace posterior and the evaluation. A method reads what it needs of them
/// ([`MethodOptions::build`](crate::method::options::MethodOptions)); the method itself never
/// sees the whole configuration, which names every method.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunOptions {
    /// Training protocol.
    pub protocol: Protocol,
    /// Seed of every random draw.
    pub seed: u64,
    /// The data.
    pub data: DataOptions,
    /// The network.
    pub model: ModelOptions,
    /// The optimiser and its schedule.
    pub optimiser: OptimiserOptions,
    /// The pairs of the pair losses.
    pub pairs: PairOptions,
    /// The Laplace posterior.
    pub laplace: LaplaceOptions,
    /// The evaluation.
    pub evaluation: EvaluationOptions,
}

impl RunOptions {
    /// The protocol's settings ([`Protocol::settings`]).
    pub fn settings(&self) -> ProtocolSettings {
        self.protocol.settings()
    }

    /// The uncertainty score of sampled predictions: the override, else the protocol's.
    pub fn score(&self) -> Score {
        self.evaluation.score(self.protocol)
    }
}
