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
use super::super::model::EmbeddingNet;
use super::epochs::check_finite;
use super::{LastLayerPrecision, TensorSet};
use tch::{Device, Tensor};

/// Batch size of the Hessian pass.
pub const POSTHOC_BATCH: i64 = 64;

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
    tch::manual_seed(config.seed as i64);
    for k in 0..batches {
        let (dw, db) = tch::no_grad(|| -> TrainResult<(Tensor, Tensor)> {
            let x = train
                .images
                .narrow(0, k * POSTHOC_BATCH, POSTHOC_BATCH)
                .to_device(device);
            let labels = train.labels.narrow(0, k * POSTHOC_BATCH, POSTHOC_BATCH);
            let features = net.backbone.features(&x, false);
            let z = super::super::model::normalise(&net.head.raw(&features));
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
        check_finite(
            &dw,
            "posthoc ggn_diagonal(head.weight)",
            0,
            k as usize + 1,
            k as usize + 1,
        )?;
        h_w += dw;
        h_b += db;
    }
    Ok(LastLayerPrecision {
        weight: h_w.clamp_min(0.0) * config.tempering + config.prior_precision,
        bias: h_b.clamp_min(0.0) * config.tempering + config.prior_precision,
    })
}
