//! MC dropout (chapter 09): dropout p after the backbone's features during training, kept on at
//! test time; S masks give S embeddings per image.

use super::deterministic::contrastive_step;
use super::{Batch, Method, Step};
use crate::config::TrainConfig;
use crate::error::TrainResult;
use crate::network::Network;
use crate::network::{features_no_grad, normalise};
use crate::prediction::EVAL_CHUNK;
use crate::prediction::{PredictRequest, Prediction};
use tch::{Device, Tensor};

/// The MC-dropout method.
#[derive(Debug)]
pub struct McDropout {
    network: Network,
    margin: f64,
}

impl McDropout {
    /// A fresh network with dropout `config.mc_dropout.dropout`, seeded.
    pub fn new(config: &TrainConfig, device: Device, seed: u64) -> Self {
        let network = Network::new(config, device, seed, config.mc_dropout.dropout);
        Self {
            network,
            margin: config.pairs.margin,
        }
    }
}

impl Method for McDropout {
    fn network(&self) -> &Network {
        &self.network
    }
    fn network_mut(&mut self) -> &mut Network {
        &mut self.network
    }
    fn step(&mut self, batch: &Batch<'_>) -> TrainResult<Step> {
        contrastive_step(&self.network.net, batch, self.margin)
    }
    fn predict(&self, images: &Tensor, request: &PredictRequest) -> TrainResult<Prediction> {
        let per_sample: Vec<Tensor> = tch::no_grad(|| {
            tch::manual_seed(request.batch_seed() as i64);
            (0..request.samples)
                .map(|_| {
                    let f = features_no_grad(
                        &self.network.net.backbone,
                        images,
                        EVAL_CHUNK,
                        true,
                        request.device,
                    );
                    normalise(&self.network.net.head.raw(&f))
                })
                .collect()
        });
        Ok(Prediction::Samples(Tensor::f_stack(&per_sample, 1)?))
    }
}
