//! S unit embeddings per input: the predictive distribution of each method, as
//! [`EmbeddingSamples`] for [`crate::train::evaluate`].
//!
//! * LAM (post-hoc and online): S last-layer weight draws θ_s ~ N(θ, Λ⁻¹) shared across the
//!   inputs (one network per draw, as in the paper), pushed through the features, normalised;
//! * MC dropout: S dropout masks in the backbone;
//! * ensemble: one embedding per member;
//! * deterministic: one embedding (S = 1; the evaluation then reports no uncertainty metrics).

use super::super::config::Method;
use super::super::error::TrainResult;
use super::super::evaluate::EmbeddingSamples;
use super::super::model::{features_no_grad, normalise};
use super::Trained;
use tch::{Device, Kind, Tensor};

/// Images per forward pass during evaluation.
const EVAL_CHUNK: i64 = 500;

/// The S embeddings of every image of `images` (N × 1 × 28 × 28) under `trained`; `samples` is S
/// for LAM and MC dropout. The weight draws are seeded by `seed` (the same draws for the ID and
/// the OOD set when called with the same seed).
///
/// # Errors
///
/// Non-unit or non-finite embeddings are rejected by [`EmbeddingSamples::new`].
pub fn embedding_samples(
    trained: &Trained,
    images: &Tensor,
    samples: usize,
    seed: u64,
    device: Device,
) -> TrainResult<EmbeddingSamples> {
    let n = images.size()[0];
    let d = trained.config.latent_dim as i64;
    let per_input: Vec<Tensor> = tch::no_grad(|| match trained.config.method {
        Method::Deterministic => {
            let m = &trained.members[0];
            let f = features_no_grad(&m.net.backbone, images, EVAL_CHUNK, false, device);
            vec![normalise(&m.net.head.raw(&f))]
        }
        Method::Ensemble => trained
            .members
            .iter()
            .map(|m| {
                let f = features_no_grad(&m.net.backbone, images, EVAL_CHUNK, false, device);
                normalise(&m.net.head.raw(&f))
            })
            .collect(),
        Method::McDropout => {
            let m = &trained.members[0];
            tch::manual_seed(seed as i64);
            (0..samples)
                .map(|_| {
                    let f = features_no_grad(&m.net.backbone, images, EVAL_CHUNK, true, device);
                    normalise(&m.net.head.raw(&f))
                })
                .collect()
        }
        Method::LamPosthoc | Method::LamOnline => {
            let m = &trained.members[0];
            let f = features_no_grad(&m.net.backbone, images, EVAL_CHUNK, false, device);
            let (std_w, std_b) = match &m.precision {
                Some(p) => p.std(),
                None => (m.net.head.weight.zeros_like(), m.net.head.bias.zeros_like()),
            };
            tch::manual_seed(seed as i64);
            (0..samples)
                .map(|_| {
                    let w = &m.net.head.weight + &std_w * Tensor::randn_like(&std_w);
                    let b = &m.net.head.bias + &std_b * Tensor::randn_like(&std_b);
                    normalise(&f.linear(&w, Some(&b)))
                })
                .collect()
        }
    });
    let s = per_input.len();
    // N × S × D, row-major, as f32 on the host.
    let stacked = Tensor::stack(&per_input, 1)
        .to_kind(Kind::Float)
        .to_device(Device::Cpu)
        .contiguous()
        .view([n * s as i64 * d]);
    let data = Vec::<f32>::try_from(&stacked)?;
    EmbeddingSamples::new(n as usize, s, d as usize, data)
}
