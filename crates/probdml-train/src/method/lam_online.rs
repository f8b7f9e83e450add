//! One step of online LAM (chapter 04, LAM App. E): Monte Carlo EM on the last layer.
//!
//! q_t = N(θ_t, Λ_t⁻¹) over θ = (W, b). Each step draws S samples θ_s = θ_t + Λ_t^{-1/2} ε
//! (reparameterised, so the gradient reaches θ_t and, through the shared features, the
//! backbone), takes the mean form-L loss over the samples, and updates
//! Λ_{t+1} = (1 − α) Λ_t + mean_s ReLU(diag H(θ_s)), the same rule as
//! [`probdml::laplace::online_update`], with the GGN diagonal of [`crate::laplace::ggn`] at
//! the sampled weights over the pairs mined from the sampled embeddings (targets ±1 per pair,
//! rescaled when the 5000-pair cap subsamples).
//!
//! **The prior decays, on purpose.** Λ₀ = σ⁻² I is forgotten as (1 − α)^t (e^{−18.7} of itself
//! after 20 epochs at batch 64), so a weight whose ReLU'd Hessian stays 0 — a feature the
//! in-distribution data never uses — ends with a very large variance. That is what makes the
//! online posterior detect OOD inputs: measured on Fashion-MNIST vs MNIST (20 epochs, D = 3) this
//! literal rule gives AUROC 0.962, while the post-hoc posterior, whose prior stays at σ⁻², gives
//! 0.699 on the same features' kind of model. The price is a noisier training loss late in
//! training (0.599 at epoch 3, 0.637 at epoch 13). With memory factor 0.999 the precision is,
//! in steady state, the sum of the last ~1000 batch Hessians: about one epoch at batch 64,
//! which is what the post-hoc method sums over once.
//!
//! **The reference protocol** ([`crate::protocol`]) differs in four data-driven ways:
//! Λ₀ = N·1 (the training-set size), the Hessian from the triplet miner, each step's Hessian
//! scaled by N²/(kept triplets) before its ReLU, and the prior precision 1 added only when
//! sampling, (Λ_t + 1)^{-1/2}, so that a forgotten weight's std tends to 1, not to ∞. (With
//! S > 1 samples the reference ReLUs the mean of the samples' Hessians, this file the mean of
//! their ReLUs; the protocol's S is 1, where the two agree.)

use super::options::MethodOptions;
use crate::config::{limits, RunOptions};
use crate::error::TrainResult;
use serde::{Deserialize, Serialize};

/// Online LAM's options (`config.json`: `"train_samples"` and `"memory_factor"` beside
/// `"method": "lam-online"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct LamOnlineOptions {
    /// Weight samples per online-LAM step.
    #[cfg_attr(
        feature = "tch",
        arg(long, default_value_t = LamOnlineOptions::DEFAULT.train_samples)
    )]
    pub train_samples: usize,
    /// Memory factor 1 − α of the online precision update.
    #[cfg_attr(feature = "tch", arg(skip = LamOnlineOptions::DEFAULT.memory_factor))]
    pub memory_factor: f64,
}

impl LamOnlineOptions {
    /// One weight sample per step, memory factor 0.999.
    pub const DEFAULT: LamOnlineOptions = LamOnlineOptions {
        train_samples: 1,
        memory_factor: 0.999,
    };
}

impl Default for LamOnlineOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl MethodOptions for LamOnlineOptions {
    const NAME: &'static str = "lam-online";

    fn defaults() -> Self {
        Self::DEFAULT
    }

    fn validate(&self) -> TrainResult<()> {
        limits::repeats("train-samples", self.train_samples, 1)?;
        limits::factor("memory-factor", self.memory_factor)
    }

    fn label(&self, run: &RunOptions) -> String {
        format!("{} {}", Self::NAME, run.laplace.table_label())
    }

    #[cfg(feature = "tch")]
    fn build(
        &self,
        run: &RunOptions,
        device: tch::Device,
        seed: u64,
    ) -> TrainResult<Box<dyn super::Method>> {
        Ok(Box::new(LamOnline::new(self, run, device, seed)))
    }
}

#[cfg(feature = "tch")]
pub use libtorch::*;

/// The method on libtorch.
#[cfg(feature = "tch")]
mod libtorch {
    use super::LamOnlineOptions;
    use crate::config::RunOptions;
    use crate::error::TrainResult;
    use crate::guards::{check_collapse, check_finite};
    use crate::laplace::ggn::last_layer_ggn_diagonal_tensor;
    use crate::laplace::{posterior as laplace, LastLayerPrecision};
    use crate::loss::contrastive::contrastive_loss_form_l;
    use crate::method::{Batch, Method, Step};
    use crate::mining::{HessianTriplets, LossMining, MinedPairs};
    use crate::network::normalise;
    use crate::network::Network;
    use crate::prediction::{PredictRequest, Prediction};
    use crate::protocol::HessianMining;
    use std::path::Path;
    use tch::{Device, Tensor};

    /// Online LAM: the network and its running precision Λ_t.
    #[derive(Debug)]
    pub struct LamOnline {
        network: Network,
        options: LamOnlineOptions,
        run: RunOptions,
        precision: LastLayerPrecision,
    }

    impl LamOnline {
        /// A fresh network, seeded, with Λ₀ = σ_prior⁻² I.
        pub fn new(
            options: &LamOnlineOptions,
            run: &RunOptions,
            device: Device,
            seed: u64,
        ) -> Self {
            let network = Network::without_dropout(run, device, seed);
            let precision = LastLayerPrecision::prior(&network.net, run.laplace.prior_precision);
            Self {
                network,
                options: options.clone(),
                run: run.clone(),
                precision,
            }
        }

        /// Λ_t.
        pub fn precision(&self) -> &LastLayerPrecision {
            &self.precision
        }
    }

    impl Method for LamOnline {
        fn network(&self) -> &Network {
            &self.network
        }
        fn network_mut(&mut self) -> &mut Network {
            &mut self.network
        }

        /// Monte Carlo EM: S reparameterised draws of the last layer, the mean form-L loss over
        /// them, and Λ ← (1 − α)Λ + mean_s ReLU(diag H(θ_s)) over the pairs mined from each draw's
        /// embeddings (targets rescaled when the pair cap subsamples).
        fn step(&mut self, batch: &Batch<'_>) -> TrainResult<Step> {
            let (options, run) = (&self.options, &self.run);
            let net = &self.network.net;
            let features = net.backbone.features(batch.images, false);
            let features_const = features.detach();
            let settings = run.settings();
            if settings.online.start_at_dataset_size && batch.at.global_step == 1 {
                // The reference's H₀ = N·1 (`init_hessian(dataset_size)`): N is known from the
                // first batch on (a resumed run loads its H instead and never starts at step 1).
                self.precision = LastLayerPrecision::prior(net, batch.train_size as f64);
            }
            let (std_w, std_b) = self
                .precision
                .std_with_prior(settings.online.prior_at_sampling);
            let s = options.train_samples;
            let max_pairs = run.pairs.max_pairs as i64;
            let mut loss: Option<Tensor> = None;
            let mut h_w = Tensor::zeros_like(&std_w);
            let mut h_b = Tensor::zeros_like(&std_b);
            let mut pairs = 0;
            for _ in 0..s {
                let w = &net.head.weight + &std_w * Tensor::randn_like(&std_w);
                let b = &net.head.bias + &std_b * Tensor::randn_like(&std_b);
                let y = features.linear(&w, Some(&b));
                check_collapse(&y, batch.at)?;
                let z = normalise(&y);
                let mined =
                    MinedPairs::mine(&z.detach(), batch.labels, run.pairs.margin, max_pairs);
                let kept = mined.kept();
                pairs += kept.0 + kept.1;
                // The loss's pairs are the mined ones unless `--loss-mining` asks for the
                // reference's triplet pairs; the Hessian's follow `hessian_mining` either way.
                let l = match run.pairs.loss_mining {
                    LossMining::Pairs => contrastive_loss_form_l(&z, &mined, run.pairs.margin),
                    LossMining::Triplets => contrastive_loss_form_l(
                        &z,
                        &MinedPairs::from_triplets(&z.detach(), batch.labels, run.pairs.margin),
                        run.pairs.margin,
                    ),
                };
                let kind = features_const.kind();
                let (hessian_pairs, tuples) = match settings.hessian_mining {
                    HessianMining::Pairs => (mined.hessian_pairs(kind), kept.0 + kept.1),
                    HessianMining::Triplets => {
                        let t = HessianTriplets::mine(
                            &z.detach(),
                            batch.labels,
                            run.pairs.margin,
                            max_pairs,
                        );
                        (t.hessian_pairs(kind), t.kept())
                    }
                };
                loss = Some(match loss {
                    Some(acc) => acc + l,
                    None => l,
                });
                let (dw, db) = tch::no_grad(|| {
                    last_layer_ggn_diagonal_tensor(
                        &w.detach(),
                        &b.detach(),
                        &features_const,
                        &hessian_pairs,
                        run.laplace.split,
                        run.laplace.approximation,
                    )
                })?;
                // The reference scales each step's Hessian by N²/(tuples) before its ReLU.
                let (dw, db) = match settings.online_hessian_factor(batch.train_size, tuples) {
                    Some(c) => (dw * c, db * c),
                    None => (dw, db),
                };
                h_w += dw.relu();
                h_b += db.relu();
            }
            let inv_s = 1.0 / s as f64;
            let (h_w, h_b) = (h_w * inv_s, h_b * inv_s);
            check_finite(&h_w, "ggn_diagonal(head.weight)", batch.at)?;
            tch::no_grad(|| {
                self.precision.weight = &self.precision.weight * options.memory_factor + &h_w;
                self.precision.bias = &self.precision.bias * options.memory_factor + &h_b;
            });
            let loss = match loss {
                Some(l) => l * inv_s,
                // train_samples >= 1 is validated; an empty sum is the zero loss.
                None => Tensor::zeros([], (features.kind(), features.device())),
            };
            Ok(Step {
                loss,
                pairs: pairs / s as i64,
                at_bound: None,
            })
        }

        fn predict(&self, images: &Tensor, request: &PredictRequest) -> TrainResult<Prediction> {
            laplace::predict(
                &self.network.net,
                Some(&self.precision),
                self.run.settings().online.prior_at_sampling,
                self.run.score(),
                images,
                request,
            )
        }
        fn posterior(&self) -> Option<&LastLayerPrecision> {
            Some(&self.precision)
        }
        fn set_posterior(
            &mut self,
            posterior: LastLayerPrecision,
            _source: &Path,
        ) -> TrainResult<()> {
            self.precision = posterior;
            Ok(())
        }
    }
}
