//! BTL with Gaussian embeddings (chapter 05; Warburg et al. 2021, §3–4): each image is
//! `N(μ, σ²I)`, the loss of a batch is the mean CLT NLL of its mined triplets plus
//! `kl_scale · (KL̄_a + KL̄_p + KL̄_n)` to the prior `N(0, I/D)` ("implicit ℓ₂ normalisation"),
//! `kl_scale = 10⁻⁶` ([`probdml::triplet::DEFAULT_KL_SCALE`]).
//!
//! * μ: the paper "ℓ₂-normalises the mean embedding for the uniform prior, and scales with a
//!   single positive trainable parameter for the Gaussian prior": `μ = s · y/‖y‖`, `y` the μ
//!   head, `s = exp(head_scale.log_scale)` (1 at the start: the prior's E‖x‖² = 1).
//! * σ²: the isotropic softplus head of [`crate::network::variance_head`].
//! * Prediction: the mean direction `y/‖y‖` for retrieval, σ² as the uncertainty score (the
//!   "mean σ²" of an isotropic head), and S draws of `N(μ, σ²I)` projected onto the sphere for
//!   the ECE.

use super::BtlOptions;
use crate::config::WarmStartOptions;
use crate::method::options::{overlay, MethodOptions};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

#[cfg(feature = "tch")]
use crate::config::RunOptions;
#[cfg(feature = "tch")]
use crate::error::TrainResult;

/// BTL with Gaussian embeddings: the options of both BTL methods ([`BtlOptions`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct BtlGaussianOptions {
    /// The options.
    #[cfg_attr(feature = "tch", command(flatten))]
    pub btl: BtlOptions,
}

impl MethodOptions for BtlGaussianOptions {
    const NAME: &'static str = "btl-gaussian";

    fn defaults() -> Self {
        Self {
            btl: BtlOptions::DEFAULT,
        }
    }

    fn warm_start(&self) -> Option<&WarmStartOptions> {
        Some(&self.btl.warm_start)
    }

    fn warm_start_mut(&mut self) -> Option<&mut WarmStartOptions> {
        Some(&mut self.btl.warm_start)
    }

    /// A flat file without the negatives was written before `--btl-negatives` existed: the
    /// hardest negatives.
    fn from_flat(flat: &Map<String, Value>) -> serde_json::Result<Self> {
        let before = Self {
            btl: BtlOptions::before_the_option(),
        };
        overlay(&before, flat)
    }

    #[cfg(feature = "tch")]
    fn build(
        &self,
        run: &RunOptions,
        device: tch::Device,
        seed: u64,
    ) -> TrainResult<Box<dyn crate::method::Method>> {
        Ok(Box::new(BtlGaussian::new(&self.btl, run, device, seed)))
    }
}

#[cfg(feature = "tch")]
pub use libtorch::*;

/// The method on libtorch.
#[cfg(feature = "tch")]
mod libtorch {
    use crate::config::RunOptions;
    use crate::error::TrainResult;
    use crate::loss::bayesian_triplet::gaussian_kl_rows;
    use crate::method::btl::{
        gaussian_sphere_samples, no_triplets, triplet_kl, triplet_nll, BtlNet, BtlOptions,
    };
    use crate::method::{Batch, Method, Step};
    use crate::network::Network;
    use crate::prediction::{PredictRequest, Prediction};
    use probdml::triplet::DEFAULT_KL_SCALE;
    use tch::{nn, Device, Tensor};

    /// The BTL (Gaussian prior) method.
    #[derive(Debug)]
    pub struct BtlGaussian {
        net: BtlNet,
        log_scale: Tensor,
        prior_var: f64,
    }

    impl BtlGaussian {
        /// A fresh network, seeded.
        pub fn new(options: &BtlOptions, run: &RunOptions, device: Device, seed: u64) -> Self {
            let net = BtlNet::new(options, run, device, seed);
            let log_scale =
                (net.network.vs.root() / "head_scale").var("log_scale", &[1], nn::Init::Const(0.0));
            Self {
                net,
                log_scale,
                prior_var: 1.0 / run.model.latent_dim as f64,
            }
        }

        /// The scale s of the means.
        fn scale(&self) -> Tensor {
            self.log_scale.exp()
        }
    }

    impl Method for BtlGaussian {
        fn network(&self) -> &Network {
            &self.net.network
        }
        fn network_mut(&mut self) -> &mut Network {
            &mut self.net.network
        }
        fn initialise(&mut self) -> TrainResult<()> {
            self.net.initialise("BTL (Gaussian)")
        }
        fn step(&mut self, batch: &Batch<'_>) -> TrainResult<Step> {
            let fwd = self.net.forward(batch)?;
            if fwd.triplets.is_empty() {
                return Ok(no_triplets(batch.images.device()));
            }
            let mu = &fwd.unit * self.scale();
            let nll = triplet_nll(&mu, &fwd.var, &fwd.triplets)?;
            let kl = gaussian_kl_rows(&mu, &fwd.var, self.prior_var)?;
            Ok(Step {
                loss: nll + triplet_kl(&kl, &fwd.triplets) * DEFAULT_KL_SCALE,
                pairs: fwd.triplets.len(),
                at_bound: None,
            })
        }
        fn predict(&self, images: &Tensor, request: &PredictRequest) -> TrainResult<Prediction> {
            let (unit, var) = self.net.predict_parts(images, request.device);
            let mu = tch::no_grad(|| &unit * self.scale().detach());
            let samples = gaussian_sphere_samples(
                &mu,
                &var.to_kind(mu.kind()),
                request.samples,
                request.batch_seed(),
            );
            Ok(Prediction::Distribution {
                mean: unit,
                uncertainty: var.squeeze_dim(1),
                samples: Some(samples),
            })
        }
    }
}
