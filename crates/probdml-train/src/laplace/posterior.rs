//! The diagonal Laplace posterior of the last layer that post-hoc and online LAM share:
//! q(θ) = N(θ̂, Λ⁻¹) over θ = (W, b), its checkpoint tensors, and its predictive — S weight draws
//! θ_s = θ̂ + Λ^{-1/2} ε shared across the inputs (one network per draw, as in the paper),
//! pushed through the features and normalised.

use crate::error::{TrainError, TrainResult};
use crate::network::{features_no_grad, normalise, EmbeddingNet};
use crate::prediction::{
    sample_mean_direction, score_samples, PredictRequest, Prediction, EVAL_CHUNK,
};
use crate::protocol::Score;
use std::path::Path;
use tch::Tensor;

/// The diagonal posterior precision Λ of the last layer (LAM), for W (D × F) and b (D).
#[derive(Debug)]
pub struct LastLayerPrecision {
    /// Λ for the entries of W.
    pub weight: Tensor,
    /// Λ for the entries of b.
    pub bias: Tensor,
}

impl LastLayerPrecision {
    /// Λ₀ = σ_prior⁻² I, shaped like the last layer of `net`.
    pub fn prior(net: &EmbeddingNet, prior_precision: f64) -> Self {
        Self {
            weight: net.head.weight.detach().ones_like() * prior_precision,
            bias: net.head.bias.detach().ones_like() * prior_precision,
        }
    }

    /// Posterior standard deviations (Λ)^{-1/2}.
    pub fn std(&self) -> (Tensor, Tensor) {
        (self.weight.rsqrt(), self.bias.rsqrt())
    }

    /// Posterior standard deviations (Λ + δ)^{-1/2} when the prior precision δ is added only at
    /// sampling (the reference's online posterior); δ = 0 is exactly [`Self::std`].
    pub fn std_with_prior(&self, prior_at_sampling: f64) -> (Tensor, Tensor) {
        if prior_at_sampling == 0.0 {
            self.std()
        } else {
            (
                (&self.weight + prior_at_sampling).rsqrt(),
                (&self.bias + prior_at_sampling).rsqrt(),
            )
        }
    }

    /// Λ as the checkpoint stores it (names `head.weight`, `head.bias`).
    pub fn tensors(&self) -> Vec<(String, Tensor)> {
        vec![
            ("head.weight".into(), self.weight.shallow_clone()),
            ("head.bias".into(), self.bias.shallow_clone()),
        ]
    }

    /// Λ from a checkpoint's tensors, checked against the shapes of `net`'s last layer and moved
    /// to its device.
    ///
    /// # Errors
    ///
    /// [`TrainError::Checkpoint`] naming `source` for a missing tensor, a wrong shape, or a
    /// precision that is not finite and positive.
    pub fn from_tensors(
        net: &EmbeddingNet,
        tensors: &[(String, Tensor)],
        source: &Path,
    ) -> TrainResult<Self> {
        let find = |name: &str, like: &Tensor| -> TrainResult<Tensor> {
            let t = crate::checkpoint::find_tensor(tensors, name, &like.size(), source)?;
            let t = t.f_to_device(like.device())?.f_to_kind(like.kind())?;
            let ok = bool::try_from(t.isfinite().all().logical_and(&t.gt(0.0).all()))?;
            if !ok {
                return Err(TrainError::Checkpoint {
                    path: source.to_owned(),
                    reason: format!("`{name}` holds a precision that is not finite and > 0"),
                });
            }
            Ok(t)
        };
        Ok(Self {
            weight: find("head.weight", &net.head.weight)?,
            bias: find("head.bias", &net.head.bias)?,
        })
    }
}

/// S last-layer draws from N(θ̂, (Λ + δ)⁻¹) for every image (N × S × D), with δ the prior
/// added at sampling (0 unless the protocol says otherwise); zero spread without Λ. The
/// `score` decides the prediction's form: the samples themselves ([`Score::Vmf`]: the evaluation
/// fits a vMF), or a [`Prediction::Distribution`] scored by the sum over dimensions of the
/// per-dimension sample standard deviation ([`Score::StdSum`], the reference's score), or by
/// tr Cov(y) of the raw output in closed form ([`Score::OutputVariance`], [`output_variance`]),
/// or by the feature norm ‖x‖ with the mean weights' embedding ([`Score::FeatureNorm`], no
/// samples drawn).
///
/// # Errors
///
/// libtorch failures.
pub fn predict(
    net: &EmbeddingNet,
    precision: Option<&LastLayerPrecision>,
    prior_at_sampling: f64,
    score: Score,
    images: &Tensor,
    request: &PredictRequest,
) -> TrainResult<Prediction> {
    let f =
        tch::no_grad(|| features_no_grad(&net.backbone, images, EVAL_CHUNK, false, request.device));
    if score == Score::FeatureNorm {
        return Ok(tch::no_grad(|| Prediction::Distribution {
            mean: normalise(&net.head.raw(&f)),
            uncertainty: f.norm_scalaropt_dim(2.0, [1i64], false),
            samples: None,
        }));
    }
    let (std_w, std_b) = tch::no_grad(|| match precision {
        Some(p) => p.std_with_prior(prior_at_sampling),
        None => (net.head.weight.zeros_like(), net.head.bias.zeros_like()),
    });
    let per_sample: Vec<Tensor> = tch::no_grad(|| {
        tch::manual_seed(request.seed as i64);
        (0..request.samples)
            .map(|_| {
                let w = &net.head.weight + &std_w * Tensor::randn_like(&std_w);
                let b = &net.head.bias + &std_b * Tensor::randn_like(&std_b);
                normalise(&f.linear(&w, Some(&b)))
            })
            .collect()
    });
    let samples = Tensor::f_stack(&per_sample, 1)?;
    if score == Score::OutputVariance {
        return Ok(tch::no_grad(|| Prediction::Distribution {
            mean: sample_mean_direction(&samples),
            uncertainty: output_variance(&f, &std_w, &std_b),
            samples: Some(samples.shallow_clone()),
        }));
    }
    Ok(score_samples(score, Prediction::Samples(samples)))
}

/// tr Cov(y) of y = Wx + b for every row of the features `f` (N × F) under the diagonal
/// posterior with standard deviations `std_w` (M × F) and `std_b` (M), in closed form: the
/// tensor form of [`probdml::laplace::output_variance`] (checked against it in
/// `crates/probdml-train/tests/train_protocol.rs`).
///
/// # Formula
///
/// $$ \operatorname{tr}\operatorname{Cov}(y_i) = \sum_{k,l} x_{il}^2\\,\sigma_{kl}^2 + \sum_k \sigma_{b,k}^2 $$
pub fn output_variance(f: &Tensor, std_w: &Tensor, std_b: &Tensor) -> Tensor {
    let kind = f.kind();
    // Σ_l x_l² Σ_k σ_kl²: one matrix-vector product with the column sums of σ².
    let per_feature = std_w.square().sum_dim_intlist(0i64, false, kind);
    f.square().mv(&per_feature) + std_b.square().sum(kind)
}
