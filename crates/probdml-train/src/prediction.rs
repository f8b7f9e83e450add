//! What a method predicts for a batch of images ([`crate::method::Method::predict`]):
//! S embedding samples per input or a distribution in closed form, and how the protocol scores
//! samples.

use crate::network::normalise;
use crate::protocol::Score;
use tch::{Device, Tensor};

/// Images per forward pass during prediction.
pub const EVAL_CHUNK: i64 = 500;

/// Images per evaluation batch: the unit in which a data-parallel run shares the evaluation
/// sets out among its ranks, and the unit of the per-input draws' seeds
/// ([`PredictRequest::batch_seed`]). Every method predicts one batch at a time, in any world
/// size, so that a batch's embeddings are the same bits whichever rank computes them; 100
/// images make 100 batches of the 10 000 test images, enough to share among many ranks.
pub const EVAL_BATCH: usize = 100;

/// What [`Method::predict`] is asked for.
#[derive(Debug, Clone, Copy)]
pub struct PredictRequest {
    /// Samples per input S (weight draws, dropout masks); ignored by methods with one sample.
    pub samples: usize,
    /// Seed of the draws (the same for the ID and the OOD set).
    pub seed: u64,
    /// The index of the evaluation batch of [`EVAL_BATCH`] images being predicted, counted
    /// over the whole set (0 for a set predicted in one call).
    pub batch: usize,
    /// The device to compute on.
    pub device: Device,
}

impl PredictRequest {
    /// Seed of draws made per input — dropout masks, samples of a closed-form predictive — in
    /// this batch ([`crate::seeds::evaluation_batch`]): they depend on the batch, never
    /// on the rank that predicts it. Draws of the weights (a Laplace posterior's `S` networks)
    /// use [`PredictRequest::seed`] itself: the same `S` networks embed every image.
    pub fn batch_seed(&self) -> u64 {
        crate::seeds::evaluation_batch(self.seed, self.batch)
    }
}

/// A predictive distribution for N inputs.
#[derive(Debug)]
pub enum Prediction {
    /// S unit embeddings per input, N × S × D.
    Samples(Tensor),
    /// A distribution in closed form: mean directions (N × D, unit), the method's uncertainty
    /// score (N, larger = more uncertain) and optionally samples (N × S × D) for calibration.
    Distribution {
        /// Mean directions, N × D.
        mean: Tensor,
        /// Uncertainty score, N.
        uncertainty: Tensor,
        /// Samples, N × S × D, for the ECE.
        samples: Option<Tensor>,
    },
}

/// A sampled prediction scored the protocol's way: [`Score::StdSum`] turns S > 1 samples into
/// [`std_sum_prediction`]; every other prediction (one sample, a closed form, or the vMF score,
/// which the evaluation fits to the samples) is returned as it is.
///
/// The LAM reference code scores MC dropout and deep ensembles by Σ_d std_d as it scores its
/// Laplace posteriors (`src/lightning/mcdropout_model.py`, `deep_ensemble_model.py`:
/// `z_sigma = zs.std(dim=0)`), so under `--protocol reference` every sampling method follows it.
pub fn score_samples(score: Score, prediction: Prediction) -> Prediction {
    match prediction {
        Prediction::Samples(samples) if score == Score::StdSum && samples.size()[1] > 1 => {
            std_sum_prediction(samples)
        }
        other => other,
    }
}

/// The normalised sample mean of S unit samples per input (N × S × D → N × D): the mean
/// direction of the summaries that replace the vMF fit's score (the fit's own μ̂ is the same
/// direction, formed in f64).
pub fn sample_mean_direction(samples: &Tensor) -> Tensor {
    normalise(&samples.mean_dim(1i64, false, samples.kind()))
}

/// The reference's summary of S unit samples per input (N × S × D): the normalised sample mean
/// as the mean direction and Σ_d std_d as the uncertainty, with std_d the Bessel-corrected
/// sample standard deviation of dimension d (`torch.std`, reference `ood.py`:
/// `id_sigma.sum(axis=1)`); the samples are kept for the ECE.
///
/// # Formula
///
/// $$ u_i = \sum_{d=1}^D \sqrt{\tfrac{1}{S-1}\sum_{s=1}^S (z_{isd} - \bar z_{id})^2} $$
pub fn std_sum_prediction(samples: Tensor) -> Prediction {
    tch::no_grad(|| Prediction::Distribution {
        mean: sample_mean_direction(&samples),
        uncertainty: samples.std_dim(1i64, true, false).sum_dim_intlist(
            1i64,
            false,
            samples.kind(),
        ),
        samples: Some(samples.shallow_clone()),
    })
}
