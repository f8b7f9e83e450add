//! Deterministic contrastive training (chapter 09): the form-L contrastive loss over the pairs
//! mined in the batch, no uncertainty (one embedding per image).

use super::options::MethodOptions;
use serde::{Deserialize, Serialize};

#[cfg(feature = "tch")]
use crate::config::RunOptions;
#[cfg(feature = "tch")]
use crate::error::TrainResult;

/// The deterministic method's options: none of its own (its `config.json` section is its name).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct DeterministicOptions {}

impl DeterministicOptions {
    /// The options (there are none).
    pub const DEFAULT: DeterministicOptions = DeterministicOptions {};
}

impl MethodOptions for DeterministicOptions {
    const NAME: &'static str = "deterministic";

    fn defaults() -> Self {
        Self::DEFAULT
    }

    #[cfg(feature = "tch")]
    fn build(
        &self,
        run: &RunOptions,
        device: tch::Device,
        seed: u64,
    ) -> TrainResult<Box<dyn super::Method>> {
        Ok(Box::new(Deterministic::new(run, device, seed)))
    }
}

#[cfg(feature = "tch")]
pub use libtorch::*;

/// The method on libtorch: its network, its step and its prediction (shared with the methods
/// that train as it does).
#[cfg(feature = "tch")]
mod libtorch {
    use crate::config::{PairOptions, RunOptions};
    use crate::error::TrainResult;
    use crate::guards::check_collapse;
    use crate::loss::contrastive::contrastive_loss_form_l;
    use crate::method::{Batch, Method, Step};
    use crate::mining::MinedPairs;
    use crate::network::Network;
    use crate::network::{features_no_grad, normalise, EmbeddingNet};
    use crate::prediction::EVAL_CHUNK;
    use crate::prediction::{PredictRequest, Prediction};
    use tch::{Device, Tensor};

    /// The deterministic method.
    #[derive(Debug)]
    pub struct Deterministic {
        network: Network,
        pairs: PairOptions,
    }

    impl Deterministic {
        /// A fresh network, seeded.
        pub fn new(run: &RunOptions, device: Device, seed: u64) -> Self {
            let network = Network::without_dropout(run, device, seed);
            Self {
                network,
                pairs: run.pairs.clone(),
            }
        }
    }

    /// The form-L loss of one batch under `net` (dropout on during training when the backbone has
    /// one), over the pairs `pairs.loss_mining` asks for, uncapped: the step of the
    /// deterministic, post-hoc LAM and MC-dropout methods.
    ///
    /// # Errors
    ///
    /// [`TrainError::Collapse`](crate::TrainError::Collapse) when the raw outputs collapsed.
    pub fn contrastive_step(
        net: &EmbeddingNet,
        batch: &Batch<'_>,
        pairs: &PairOptions,
    ) -> TrainResult<Step> {
        let y = net.head.raw(&net.backbone.features(batch.images, true));
        check_collapse(&y, batch.at)?;
        let z = normalise(&y);
        let mined = MinedPairs::for_loss(&z.detach(), batch.labels, pairs, i64::MAX);
        let (p, n) = mined.kept();
        Ok(Step {
            loss: contrastive_loss_form_l(&z, &mined, pairs.margin),
            pairs: p + n,
            at_bound: None,
        })
    }

    /// One embedding per image with the mean weights (dropout off): N × 1 × D.
    ///
    /// # Errors
    ///
    /// libtorch failures.
    pub fn predict_point(
        net: &EmbeddingNet,
        images: &Tensor,
        device: Device,
    ) -> TrainResult<Prediction> {
        let z = tch::no_grad(|| {
            let f = features_no_grad(&net.backbone, images, EVAL_CHUNK, false, device);
            normalise(&net.head.raw(&f))
        });
        Ok(Prediction::Samples(z.f_unsqueeze(1)?))
    }

    impl Method for Deterministic {
        fn network(&self) -> &Network {
            &self.network
        }
        fn network_mut(&mut self) -> &mut Network {
            &mut self.network
        }
        fn step(&mut self, batch: &Batch<'_>) -> TrainResult<Step> {
            contrastive_step(&self.network.net, batch, &self.pairs)
        }
        fn predict(&self, images: &Tensor, request: &PredictRequest) -> TrainResult<Prediction> {
            predict_point(&self.network.net, images, request.device)
        }
    }
}
