//! Post-hoc LAM (chapter 04): Λ = β · H(θ*) + σ_prior⁻² I at the deterministic optimum, with
//! H the last-layer GGN diagonal summed over one pass of the training set in batches of 64 (the
//! online method's batch, so that the two precisions have the same scale: see
//! [`super::online`]), pairs mined per batch with the same margin and 5000-pair cap.
//!
//! "full" clamps the summed diagonal at 0 by definition; "fixed" can also sum to a negative
//! entry (the negatives' blocks enter with t < 0), and a precision below the prior's would not
//! be a Gaussian at all, so the summed H is clamped at 0 for every approximation.

use super::super::config::TrainConfig;
use super::super::error::TrainResult;
use super::super::ggn_tensor::last_layer_ggn_diagonal_tensor;
use super::super::mining::MinedPairs;
use super::super::model::{normalise, EmbeddingNet};
use super::super::trainer::check_finite;
use super::deterministic::contrastive_step;
use super::laplace::{self, LastLayerPrecision};
use super::{
    Batch, Method, MethodState, Network, Position, PredictRequest, Prediction, Step, TensorSet,
};
use std::path::Path;
use tch::{Device, Tensor};

/// Batch size of the Hessian pass.
pub const POSTHOC_BATCH: i64 = 64;

/// Post-hoc LAM: trained as the deterministic method; [`Method::finish`] adds Λ.
#[derive(Debug)]
pub struct LamPosthoc {
    network: Network,
    config: TrainConfig,
    precision: Option<LastLayerPrecision>,
}

impl LamPosthoc {
    /// A fresh network, seeded; Λ comes with [`Method::finish`].
    pub fn new(config: &TrainConfig, device: Device, seed: u64) -> Self {
        let network = Network::new(config, device, seed, 0.0);
        Self {
            network,
            config: config.clone(),
            precision: None,
        }
    }

    /// Λ, once [`Method::finish`] has run (or a checkpoint was loaded).
    pub fn precision(&self) -> Option<&LastLayerPrecision> {
        self.precision.as_ref()
    }
}

/// The post-hoc precision of `net`'s last layer over `train`.
///
/// # Errors
///
/// A non-finite Hessian (naming the batch) or a GGN error.
pub fn posthoc_precision(
    config: &TrainConfig,
    net: &EmbeddingNet,
    train: &TensorSet,
    device: Device,
) -> TrainResult<LastLayerPrecision> {
    let n = train.len();
    let (weight, bias) = (net.head.weight.detach(), net.head.bias.detach());
    let mut h_w = Tensor::zeros_like(&weight);
    let mut h_b = Tensor::zeros_like(&bias);
    let batches = n / POSTHOC_BATCH;
    tch::manual_seed(super::super::seeds::posthoc(config.seed));
    for k in 0..batches {
        let (dw, db) = tch::no_grad(|| -> TrainResult<(Tensor, Tensor)> {
            let x = train
                .images
                .narrow(0, k * POSTHOC_BATCH, POSTHOC_BATCH)
                .to_device(device);
            let labels = train.labels.narrow(0, k * POSTHOC_BATCH, POSTHOC_BATCH);
            let features = net.backbone.features(&x, false);
            let z = normalise(&net.head.raw(&features));
            let mined = MinedPairs::mine(&z, &labels, config.margin, config.max_pairs as i64);
            last_layer_ggn_diagonal_tensor(
                &weight,
                &bias,
                &features,
                &mined.hessian_pairs(features.kind()),
                config.split,
                config.approximation,
            )
        })?;
        let at = Position {
            epoch: 0,
            step: k as usize + 1,
            global_step: k as usize + 1,
        };
        check_finite(&dw, "posthoc ggn_diagonal(head.weight)", at)?;
        h_w += dw;
        h_b += db;
    }
    Ok(LastLayerPrecision {
        weight: h_w.clamp_min(0.0) * config.tempering + config.prior_precision,
        bias: h_b.clamp_min(0.0) * config.tempering + config.prior_precision,
    })
}

impl Method for LamPosthoc {
    fn network(&self) -> &Network {
        &self.network
    }
    fn network_mut(&mut self) -> &mut Network {
        &mut self.network
    }
    fn step(&mut self, batch: &Batch<'_>) -> TrainResult<Step> {
        contrastive_step(&self.network.net, batch, self.config.margin)
    }
    fn finish(&mut self, train: &TensorSet, device: Device) -> TrainResult<()> {
        self.precision = Some(posthoc_precision(
            &self.config,
            &self.network.net,
            train,
            device,
        )?);
        Ok(())
    }
    fn predict(&self, images: &Tensor, request: &PredictRequest) -> TrainResult<Prediction> {
        laplace::predict(&self.network.net, self.precision.as_ref(), images, request)
    }
    fn state_file(&self) -> Option<&'static str> {
        Some(laplace::FILE)
    }
    fn state(&self) -> Option<MethodState> {
        self.precision.as_ref().map(LastLayerPrecision::state)
    }
    fn load_state(&mut self, tensors: &[(String, Tensor)], source: &Path) -> TrainResult<()> {
        self.precision = Some(LastLayerPrecision::from_tensors(
            &self.network.net,
            tensors,
            source,
        )?);
        Ok(())
    }
    fn state_to_check(&self) -> Vec<(String, Tensor)> {
        self.precision
            .iter()
            .map(|p| {
                (
                    "precision(head.weight)".to_string(),
                    p.weight.shallow_clone(),
                )
            })
            .collect()
    }
    fn last_layer_std(&self) -> Option<(Tensor, Tensor)> {
        self.precision.as_ref().map(LastLayerPrecision::std)
    }
}
