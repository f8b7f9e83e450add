//! Post-hoc LAM (chapter 04): Λ = β · H(θ*) + σ_prior⁻² I at the deterministic optimum, with
//! H the last-layer GGN diagonal summed over one pass of the training set in batches of 64 (the
//! online method's batch, so that the two precisions have the same scale: see
//! [`super::lam_online`]), pairs mined per batch with the same margin and 5000-pair cap.
//!
//! "full" clamps the summed diagonal at 0 by definition; "fixed" can also sum to a negative
//! entry (the negatives' blocks enter with t < 0), and a precision below the prior's would not
//! be a Gaussian at all, so the summed H is clamped at 0 for every approximation.
//!
//! The protocol ([`crate::protocol`]) chooses the order of the pass (file order, or the
//! reference's shuffled loader) and the mining (pairs, or the reference's triplets);
//! [`posthoc_precision_with`] adds the reference protocol's variants: H ≡ 0 (the isotropic posterior) and
//! the prior precision that maximises the last layer's Laplace evidence.

use super::options::MethodOptions;
use crate::config::RunOptions;
use serde::{Deserialize, Serialize};

#[cfg(feature = "tch")]
use crate::error::TrainResult;

/// Post-hoc LAM's options: none of its own (the Laplace group, which `probdml posthoc` reads of
/// a deterministic checkpoint too, is every run's).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct LamPosthocOptions {}

impl LamPosthocOptions {
    /// The options (there are none).
    pub const DEFAULT: LamPosthocOptions = LamPosthocOptions {};
}

impl MethodOptions for LamPosthocOptions {
    const NAME: &'static str = "lam-posthoc";

    fn defaults() -> Self {
        Self::DEFAULT
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
        Ok(Box::new(LamPosthoc::new(run, device, seed)))
    }
}

#[cfg(feature = "tch")]
pub use libtorch::*;

/// The method on libtorch, and the post-hoc pass `probdml posthoc` runs on a deterministic
/// checkpoint.
#[cfg(feature = "tch")]
mod libtorch {
    use crate::config::RunOptions;
    use crate::data_parallel::chunked_sum::sum_chunks;
    use crate::error::TrainResult;
    use crate::guards::{check_finite, Position};
    use crate::laplace::ggn::last_layer_ggn_diagonal_tensor;
    use crate::laplace::{posterior as laplace, LastLayerPrecision};
    use crate::method::deterministic::contrastive_step;
    use crate::method::{Batch, Method, Step, TensorSet};
    use crate::mining::hessian_tuples;
    use crate::network::Network;
    use crate::network::{normalise, EmbeddingNet};
    use crate::prediction::{PredictRequest, Prediction};
    use crate::protocol::PassOrder;
    use std::path::Path;
    use tch::{Device, Kind, Tensor};

    /// Batch size of the Hessian pass.
    pub const POSTHOC_BATCH: i64 = 64;

    /// Post-hoc LAM: trained as the deterministic method; [`Method::finish`] adds Λ.
    #[derive(Debug)]
    pub struct LamPosthoc {
        network: Network,
        run: RunOptions,
        precision: Option<LastLayerPrecision>,
    }

    impl LamPosthoc {
        /// A fresh network, seeded; Λ comes with [`Method::finish`].
        pub fn new(run: &RunOptions, device: Device, seed: u64) -> Self {
            let network = Network::without_dropout(run, device, seed);
            Self {
                network,
                run: run.clone(),
                precision: None,
            }
        }

        /// Λ, once [`Method::finish`] has run (or a checkpoint was loaded).
        pub fn precision(&self) -> Option<&LastLayerPrecision> {
            self.precision.as_ref()
        }
    }

    /// The curvature the post-hoc precision is built from.
    #[derive(
        Debug,
        Clone,
        Copy,
        PartialEq,
        Eq,
        Default,
        serde::Serialize,
        serde::Deserialize,
        clap::ValueEnum,
    )]
    #[serde(rename_all = "kebab-case")]
    pub enum PosthocHessian {
        /// The last-layer GGN diagonal summed over one pass of the training set.
        #[default]
        Ggn,
        /// H ≡ 0: the posterior is the prior N(θ*, I/δ) (the isotropic baseline, and
        /// what the reference's ReLU made of a Hessian that is ≤ 0 everywhere).
        Zero,
    }

    /// How the prior precision δ of the post-hoc posterior is chosen.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub enum PriorChoice {
        /// A given value.
        Fixed(f64),
        /// The maximiser of the last layer's Laplace evidence ([`probdml::laplace::optimal_prior_precision`]
        /// on θ* = (W, b) and the ReLU'd, tempered GGN diagonal).
        Marglik,
    }

    /// What a post-hoc pass chose, for the run's records (`posthoc.json`, the log).
    #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
    pub struct PosthocChoices {
        /// The curvature used.
        pub hessian: PosthocHessian,
        /// `"marglik"` or `"fixed"`.
        pub prior_choice: String,
        /// The prior precision δ used.
        pub prior_precision: f64,
        /// ln p(D | δ) − ln p(D | θ*) at the δ used (the Laplace evidence without its data-fit
        /// term, which does not depend on δ); None with H ≡ 0.
        pub log_evidence_minus_fit: Option<f64>,
        /// Σ of the ReLU'd, tempered curvature over W and b.
        pub curvature_sum: f64,
        /// Entries of the curvature that are 0 (their posterior std is the prior's).
        pub zero_curvature_entries: i64,
        /// Entries of W and b.
        pub parameters: i64,
    }

    /// The last-layer GGN diagonal of `net` over one pass of `train`, summed raw over the batches
    /// of [`POSTHOC_BATCH`] images (in the order and with the mining of the configuration's
    /// protocol), clamped at 0 and tempered by β: the (W, b) curvature of the post-hoc precision.
    ///
    /// # Errors
    ///
    /// A non-finite Hessian (naming the batch) or a GGN error.
    pub fn posthoc_curvature(
        run: &RunOptions,
        net: &EmbeddingNet,
        train: &TensorSet,
        device: Device,
    ) -> TrainResult<(Tensor, Tensor)> {
        let settings = run.settings();
        let n = train.len();
        let (weight, bias) = (net.head.weight.detach(), net.head.bias.detach());
        let batches = n / POSTHOC_BATCH;
        tch::manual_seed(crate::seeds::posthoc(run.seed));
        // The reference's shuffled loader: one permutation, the last incomplete batch dropped.
        let order = match settings.posthoc_order {
            PassOrder::FileOrder => None,
            PassOrder::Shuffled => Some(Tensor::randperm(n, (Kind::Int64, train.images.device()))),
        };
        // Batch k's curvature is computed by one rank (all of them when alone) and the batch sums
        // are added in batch order in f64 (data_parallel::chunked_sum): the same bits for any world
        // size. Each batch reseeds libtorch's generator from its index, so that its pair
        // subsampling does not depend on which rank draws it, or after which batches.
        let zeros = [weight.zeros_like(), bias.zeros_like()];
        let sums = sum_chunks(batches, &zeros, |k| {
            tch::manual_seed(crate::seeds::posthoc_batch(run.seed, k));
            let (dw, db) = tch::no_grad(|| -> TrainResult<(Tensor, Tensor)> {
                let (x, labels) = match &order {
                    None => (
                        train.images.narrow(0, k * POSTHOC_BATCH, POSTHOC_BATCH),
                        train.labels.narrow(0, k * POSTHOC_BATCH, POSTHOC_BATCH),
                    ),
                    Some(perm) => {
                        let idx = perm.narrow(0, k * POSTHOC_BATCH, POSTHOC_BATCH);
                        (
                            train.images.index_select(0, &idx),
                            train.labels.index_select(0, &idx),
                        )
                    }
                };
                let x = x.to_device(device);
                let labels = labels.to_device(device);
                let features = net.backbone.features(&x, false);
                let z = normalise(&net.head.raw(&features));
                let (pairs, _) = hessian_tuples(
                    &z,
                    &labels,
                    run.pairs.margin,
                    run.pairs.max_pairs as i64,
                    settings.hessian_mining,
                    features.kind(),
                );
                last_layer_ggn_diagonal_tensor(
                    &weight,
                    &bias,
                    &features,
                    &pairs,
                    run.laplace.split,
                    run.laplace.approximation,
                )
            })?;
            let at = Position {
                epoch: 0,
                step: k as usize + 1,
                global_step: k as usize + 1,
            };
            check_finite(&dw, "posthoc ggn_diagonal(head.weight)", at)?;
            Ok(vec![dw, db])
        })?;
        let h_w = sums[0].to_kind(weight.kind());
        let h_b = sums[1].to_kind(bias.kind());
        Ok((
            h_w.clamp_min(0.0) * run.laplace.tempering,
            h_b.clamp_min(0.0) * run.laplace.tempering,
        ))
    }

    /// The post-hoc precision of `net`'s last layer over `train`: Λ = β·ReLU(H) + δ with the
    /// configuration's prior precision δ.
    ///
    /// # Errors
    ///
    /// A non-finite Hessian (naming the batch) or a GGN error.
    pub fn posthoc_precision(
        run: &RunOptions,
        net: &EmbeddingNet,
        train: &TensorSet,
        device: Device,
    ) -> TrainResult<LastLayerPrecision> {
        let (h_w, h_b) = posthoc_curvature(run, net, train, device)?;
        Ok(LastLayerPrecision {
            weight: h_w + run.laplace.prior_precision,
            bias: h_b + run.laplace.prior_precision,
        })
    }

    /// Flattens W then b into one host vector (the parameter order of the evidence).
    fn flat_host(w: &Tensor, b: &Tensor) -> TrainResult<Vec<f64>> {
        let t = Tensor::cat(&[w.reshape([-1]), b.reshape([-1])], 0)
            .to_kind(Kind::Double)
            .to_device(Device::Cpu);
        Ok(Vec::<f64>::try_from(&t)?)
    }

    /// The post-hoc precision with an explicit curvature and prior choice, and what was chosen.
    ///
    /// # Errors
    ///
    /// Those of [`posthoc_curvature`], and for [`PriorChoice::Marglik`] the evidence's errors
    /// (e.g. no maximiser when the curvature is 0 everywhere, as with [`PosthocHessian::Zero`]).
    pub fn posthoc_precision_with(
        run: &RunOptions,
        net: &EmbeddingNet,
        train: &TensorSet,
        device: Device,
        hessian: PosthocHessian,
        prior: PriorChoice,
    ) -> TrainResult<(LastLayerPrecision, PosthocChoices)> {
        let (h_w, h_b) = match hessian {
            PosthocHessian::Ggn => posthoc_curvature(run, net, train, device)?,
            PosthocHessian::Zero => (
                net.head.weight.detach().zeros_like(),
                net.head.bias.detach().zeros_like(),
            ),
        };
        let h = flat_host(&h_w, &h_b)?;
        let theta = flat_host(&net.head.weight.detach(), &net.head.bias.detach())?;
        let (delta, prior_choice) = match prior {
            PriorChoice::Fixed(d) => (d, "fixed"),
            PriorChoice::Marglik => (
                probdml::laplace::optimal_prior_precision(&theta, &h)?,
                "marglik",
            ),
        };
        let log_evidence_minus_fit = match hessian {
            PosthocHessian::Ggn => Some(probdml::laplace::log_marginal_likelihood(
                0.0, &theta, &h, delta,
            )?),
            PosthocHessian::Zero => None,
        };
        let choices = PosthocChoices {
            hessian,
            prior_choice: prior_choice.to_string(),
            prior_precision: delta,
            log_evidence_minus_fit,
            curvature_sum: h.iter().sum(),
            zero_curvature_entries: h.iter().filter(|&&v| v == 0.0).count() as i64,
            parameters: h.len() as i64,
        };
        tracing::info!(
            prior = prior_choice,
            prior_precision = delta,
            ?hessian,
            zero_entries = choices.zero_curvature_entries,
            "post-hoc prior precision"
        );
        Ok((
            LastLayerPrecision {
                weight: h_w + delta,
                bias: h_b + delta,
            },
            choices,
        ))
    }

    impl LamPosthoc {
        /// [`Method::finish`] with an explicit curvature and prior choice (`probdml posthoc`
        /// `--hessian`, `--prior-precision`); returns what was chosen.
        ///
        /// # Errors
        ///
        /// Those of [`posthoc_precision_with`].
        pub fn finish_with(
            &mut self,
            train: &TensorSet,
            device: Device,
            hessian: PosthocHessian,
            prior: PriorChoice,
        ) -> TrainResult<PosthocChoices> {
            let (precision, choices) = posthoc_precision_with(
                &self.run,
                &self.network.net,
                train,
                device,
                hessian,
                prior,
            )?;
            self.precision = Some(precision);
            self.run.laplace.prior_precision = choices.prior_precision;
            Ok(choices)
        }
    }

    impl Method for LamPosthoc {
        fn network(&self) -> &Network {
            &self.network
        }
        fn network_mut(&mut self) -> &mut Network {
            &mut self.network
        }
        fn step(&mut self, batch: &Batch<'_>) -> TrainResult<Step> {
            contrastive_step(&self.network.net, batch, &self.run.pairs)
        }
        fn finish(&mut self, train: &TensorSet, device: Device) -> TrainResult<()> {
            self.precision = Some(posthoc_precision(
                &self.run,
                &self.network.net,
                train,
                device,
            )?);
            Ok(())
        }
        fn predict(&self, images: &Tensor, request: &PredictRequest) -> TrainResult<Prediction> {
            laplace::predict(
                &self.network.net,
                self.precision.as_ref(),
                0.0,
                self.run.score(),
                images,
                request,
            )
        }
        fn posterior(&self) -> Option<&LastLayerPrecision> {
            self.precision.as_ref()
        }
        fn set_posterior(
            &mut self,
            posterior: LastLayerPrecision,
            _source: &Path,
        ) -> TrainResult<()> {
            self.precision = Some(posterior);
            Ok(())
        }
    }
}
