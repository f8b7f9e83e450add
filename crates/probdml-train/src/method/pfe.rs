//! Probabilistic face embeddings (PFE; Shi & Jain 2019), the LAM Table 2 baseline: a
//! deterministic model's backbone and μ head, frozen, and an uncertainty module trained by the
//! mutual likelihood score of same-class pairs (LAM appendix: "The rest of the model is frozen
//! during training and initialized with a deterministically trained model. The uncertainty
//! model consists of [linear, batchnorm1d, relu, linear, batchnorm1d]").
//!
//! Each image is `N(μ, diag σ²)` with `μ = y/‖y‖` the frozen unit embedding and `ln σ²` per
//! dimension from [`VarianceHead::pfe`](crate::network::variance_head::VarianceHead::pfe). The mutual likelihood score of two images is the log
//! density that both are noisy views of one latent point (PFE eq. (3)):
//!
//! `MLS(i, j) = −½ Σ_l [(μ_i − μ_j)_l²/(σ²_il + σ²_jl) + ln(σ²_il + σ²_jl)] − (D/2) ln 2π`,
//!
//! and the loss of a batch is `−` its mean over every same-class pair of the batch (PFE eq. (6):
//! "all genuine pairs in the mini-batch"; the negatives carry no term).
//!
//! The deterministic weights come from the checkpoint named by
//! [`PfeOptions::warm_start`] in
//! [`Method::initialise`](crate::method::Method::initialise), so that `probdml reproduce` trains the deterministic run once and
//! reuses it for both post-hoc LAM and PFE, as the paper's two rows are built (LAM §5: "both
//! methods are initialized with the deterministic parameters"); `probdml train --method pfe`
//! without `--init-checkpoint` trains that deterministic run first (`pipeline::prerequisites`).
//! The backbone and μ head do not require gradients, so the optimiser sees only `head_var.*`.
//!
//! Prediction: the mean direction, the mean σ² over the dimensions as the uncertainty score,
//! and S draws of `N(μ, diag σ²)` projected onto the sphere for the ECE.

use super::options::MethodOptions;
use crate::config::WarmStartOptions;
use serde::{Deserialize, Serialize};

#[cfg(feature = "tch")]
use crate::config::RunOptions;
#[cfg(feature = "tch")]
use crate::error::TrainResult;

/// PFE's options (`config.json`: `"init_checkpoint"` beside `"method": "pfe"`): the
/// deterministic checkpoint it freezes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct PfeOptions {
    /// The deterministic checkpoint to freeze (None: the pipeline trains one first).
    #[serde(flatten)]
    #[cfg_attr(feature = "tch", command(flatten))]
    pub warm_start: WarmStartOptions,
}

impl PfeOptions {
    /// No checkpoint named: `probdml train` trains the deterministic model first.
    pub const DEFAULT: PfeOptions = PfeOptions {
        warm_start: WarmStartOptions::DEFAULT,
    };
}

impl MethodOptions for PfeOptions {
    const NAME: &'static str = "pfe";

    fn defaults() -> Self {
        Self::DEFAULT
    }

    fn warm_start(&self) -> Option<&WarmStartOptions> {
        Some(&self.warm_start)
    }

    fn warm_start_mut(&mut self) -> Option<&mut WarmStartOptions> {
        Some(&mut self.warm_start)
    }

    #[cfg(feature = "tch")]
    fn build(
        &self,
        run: &RunOptions,
        device: tch::Device,
        seed: u64,
    ) -> TrainResult<Box<dyn super::Method>> {
        Ok(Box::new(Pfe::new(self, run, device, seed)))
    }
}

#[cfg(feature = "tch")]
pub use libtorch::*;

/// The method on libtorch.
#[cfg(feature = "tch")]
mod libtorch {
    use super::PfeOptions;
    use crate::config::RunOptions;
    use crate::error::{TrainError, TrainResult};
    use crate::guards::{check_collapse, check_finite};
    use crate::method::btl::{gaussian_sphere_samples, no_triplets};
    use crate::method::{Batch, Method, Step};
    use crate::network::variance_head::VarianceHead;
    use crate::network::warm_start::{deterministic_part, load_deterministic};
    use crate::network::Network;
    use crate::network::{features_no_grad, normalise};
    use crate::prediction::EVAL_CHUNK;
    use crate::prediction::{PredictRequest, Prediction};
    use std::path::PathBuf;
    use tch::{Device, Kind, Tensor};

    /// The PFE method.
    #[derive(Debug)]
    pub struct Pfe {
        network: Network,
        var_head: VarianceHead,
        init: Option<PathBuf>,
        latent_dim: usize,
    }

    impl Pfe {
        /// A fresh network whose backbone and μ head are frozen; the deterministic weights come
        /// with [`Method::initialise`].
        pub fn new(options: &PfeOptions, run: &RunOptions, device: Device, seed: u64) -> Self {
            let network = Network::without_dropout(run, device, seed);
            let var_head = VarianceHead::pfe(
                &(network.vs.root() / "head_var"),
                network.net.backbone.feature_count(),
                run.model.latent_dim as i64,
            );
            for (name, t) in network.vs.variables() {
                if deterministic_part(&name) {
                    let _ = t.set_requires_grad(false);
                }
            }
            Self {
                network,
                var_head,
                init: options.warm_start.init_checkpoint.clone(),
                latent_dim: run.model.latent_dim,
            }
        }
    }

    /// `MLS(i, j)` of the rows of `mu_i`, `mu_j` (P × D) with variances `var_i`, `var_j` (P × D):
    /// P scores (module docs).
    pub fn mutual_likelihood_score(
        mu_i: &Tensor,
        var_i: &Tensor,
        mu_j: &Tensor,
        var_j: &Tensor,
    ) -> Tensor {
        let s = var_i + var_j;
        let d = mu_i.size()[1] as f64;
        let terms = (mu_i - mu_j).square() / &s + s.log();
        terms.sum_dim_intlist(1i64, false, mu_i.kind()) * -0.5
            - 0.5 * d * (2.0 * std::f64::consts::PI).ln()
    }

    /// The PFE loss of a batch: `−` mean MLS over the same-class pairs i < j of `mu`, `var`
    /// (B × D) with `labels` (int64, B), and the number of pairs (`None` when there is none).
    pub fn mls_loss(mu: &Tensor, var: &Tensor, labels: &Tensor) -> Option<(Tensor, i64)> {
        let b = mu.size()[0];
        let (i, j) = tch::no_grad(|| {
            let same = labels.unsqueeze(1).eq_tensor(&labels.unsqueeze(0));
            let upper = Tensor::ones([b, b], (Kind::Bool, mu.device())).triu(1);
            let nz = same.logical_and(&upper).nonzero();
            (nz.select(1, 0), nz.select(1, 1))
        });
        let pairs = i.size()[0];
        if pairs == 0 {
            return None;
        }
        let row = |x: &Tensor, k: &Tensor| x.index_select(0, k);
        let mls = mutual_likelihood_score(&row(mu, &i), &row(var, &i), &row(mu, &j), &row(var, &j));
        Some((mls.mean(mu.kind()).neg(), pairs))
    }

    impl Method for Pfe {
        fn network(&self) -> &Network {
            &self.network
        }
        fn network_mut(&mut self) -> &mut Network {
            &mut self.network
        }
        fn initialise(&mut self) -> TrainResult<()> {
            let Some(dir) = self.init.clone() else {
                return Err(TrainError::config(
                    "init-checkpoint",
                    "none",
                    "PFE freezes a deterministic model: name its checkpoint folder (probdml train --method deterministic --out DIR)",
                ));
            };
            load_deterministic(&self.network.vs, &dir, "PFE", self.latent_dim)?;
            Ok(())
        }
        fn step(&mut self, batch: &Batch<'_>) -> TrainResult<Step> {
            let net = &self.network.net;
            let (f, y) = tch::no_grad(|| {
                let f = net.backbone.features(batch.images, false);
                let y = net.head.raw(&f);
                (f, y)
            });
            check_finite(&y, "head output y = Wx + b", batch.at)?;
            check_collapse(&y, batch.at)?;
            let log_var = self.var_head.forward(&f, true);
            check_finite(&log_var, "ln σ² (head_var)", batch.at)?;
            let var = log_var.exp();
            check_finite(&var, "σ² = exp(head_var)", batch.at)?;
            Ok(match mls_loss(&normalise(&y), &var, batch.labels) {
                Some((loss, pairs)) => Step {
                    loss,
                    pairs,
                    at_bound: None,
                },
                None => no_triplets(batch.images.device()),
            })
        }
        fn predict(&self, images: &Tensor, request: &PredictRequest) -> TrainResult<Prediction> {
            let (unit, var) = tch::no_grad(|| {
                let f = features_no_grad(
                    &self.network.net.backbone,
                    images,
                    EVAL_CHUNK,
                    false,
                    request.device,
                );
                let unit = normalise(&self.network.net.head.raw(&f));
                (unit, self.var_head.forward(&f, false).exp())
            });
            let samples =
                gaussian_sphere_samples(&unit, &var, request.samples, request.batch_seed());
            Ok(Prediction::Distribution {
                uncertainty: var.mean_dim(1i64, false, var.kind()),
                mean: unit,
                samples: Some(samples),
            })
        }
    }
}
