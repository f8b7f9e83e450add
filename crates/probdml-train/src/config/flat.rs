//! The flat layout of `config.json` versions 1 and 2, which `summary.json` still records a run's
//! configuration in: every option of the run and of every method side by side, as
//! [`TrainConfig`](super::TrainConfig) was before it was grouped.
//!
//! The options of the methods version 2 knew sit in their places of the time, typed as they were
//! (HIB's and ProxyNCA++'s groups are those methods' option structs); those of methods added
//! since follow them. Each method reads its own of them ([`MethodOptions::from_flat`]) and
//! writes its own ([`MethodOptions::to_flat`]); an option absent from the file reads with its
//! default of the time (see [`super::CONFIG_VERSION`]).
//!
//! [`MethodOptions::from_flat`]: crate::method::options::MethodOptions::from_flat
//! [`MethodOptions::to_flat`]: crate::method::options::MethodOptions::to_flat

use super::dataset::DatasetChoice;
use super::groups::{
    DataOptions, EvaluationOptions, LaplaceOptions, ModelOptions, OptimiserOptions, PairOptions,
};
use super::run::RunOptions;
use crate::backbone_layout::BackboneLayout;
use crate::batch_sampler::BatchSampler;
use crate::conv_init::ConvInit;
use crate::method::hib::HibOptions;
use crate::method::proxy_nca::ProxyOptions;
use crate::mining::{LossMining, Negatives};
use crate::n_digit_gap::NDigitGap;
use crate::optimiser_algorithm::OptimiserAlgorithm;
use crate::protocol::{Protocol, Score};
use probdml::ggn::{Approximation, Split};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::path::PathBuf;

/// A version-1 or -2 `config.json`, less its `version`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ConfigV2 {
    /// The method's name.
    pub(crate) method: String,
    #[serde(with = "crate::config::spelling::split_serde")]
    split: Split,
    #[serde(with = "crate::config::spelling::approximation_serde")]
    approximation: Approximation,
    dataset: DatasetChoice,
    latent_dim: usize,
    /// Absent before the option existed, and for its default: tch's Kaiming bound.
    #[serde(default, skip_serializing_if = "ConvInit::is_kaiming")]
    conv_init: ConvInit,
    /// Absent before the option existed, and for its default: the reference layout.
    #[serde(default, skip_serializing_if = "BackboneLayout::is_reference")]
    backbone: BackboneLayout,
    epochs: usize,
    batch_size: usize,
    learning_rate: f64,
    lr_decay: f64,
    /// Absent before the option existed, and for its default: RMSprop.
    #[serde(default, skip_serializing_if = "OptimiserAlgorithm::is_rmsprop")]
    optimiser: OptimiserAlgorithm,
    /// Absent before the option existed, and for its default: shuffled.
    #[serde(default, skip_serializing_if = "BatchSampler::is_shuffled")]
    batch_sampler: BatchSampler,
    margin: f64,
    max_pairs: usize,
    /// Absent before the option existed, and for its default: the pairs each once.
    #[serde(default, skip_serializing_if = "LossMining::is_pairs")]
    loss_mining: LossMining,
    train_samples: usize,
    eval_samples: usize,
    memory_factor: f64,
    prior_precision: f64,
    tempering: f64,
    dropout: f64,
    ensemble_size: usize,
    /// Absent before the option existed: deterministic, the only member method then.
    #[serde(default)]
    member_method: Option<String>,
    #[serde(default)]
    protocol: Protocol,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    score: Option<Score>,
    seed: u64,
    train_limit: Option<usize>,
    test_limit: Option<usize>,
    /// Absent before the option existed, and for its default: instance.
    #[serde(default, skip_serializing_if = "NDigitGap::is_instance")]
    n_digit_gap: NDigitGap,
    #[serde(default)]
    hib: Option<HibOptions>,
    #[serde(default)]
    proxy: Option<ProxyOptions>,
    /// Absent before the option existed: the hardest negatives, the only rule then.
    #[serde(default)]
    btl: Option<BtlGroup>,
    #[serde(default)]
    pub(super) init_checkpoint: Option<PathBuf>,
    /// The options of methods added after version 2.
    #[serde(flatten)]
    newer: Map<String, Value>,
}

impl ConfigV2 {
    /// The layout of the method named `method` with the flat fields `methods` (every method's
    /// options, each under its name, as [`MethodOptions::to_flat`] writes them) and the groups
    /// of `run`.
    ///
    /// # Errors
    ///
    /// An option of the methods version 2 knew missing from `methods` or of another type.
    ///
    /// [`MethodOptions::to_flat`]: crate::method::options::MethodOptions::to_flat
    pub(crate) fn new(
        method: &str,
        run: &RunOptions,
        mut methods: Map<String, Value>,
    ) -> serde_json::Result<Self> {
        let mut take = |name: &'static str| -> serde_json::Result<Value> {
            methods
                .remove(name)
                .ok_or_else(|| serde::de::Error::missing_field(name))
        };
        fn typed<T: DeserializeOwned>(v: Value) -> serde_json::Result<T> {
            serde_json::from_value(v)
        }
        Ok(ConfigV2 {
            method: method.to_string(),
            split: run.laplace.split,
            approximation: run.laplace.approximation,
            dataset: run.data.dataset,
            latent_dim: run.model.latent_dim,
            conv_init: run.model.conv_init,
            backbone: run.model.backbone,
            epochs: run.optimiser.epochs,
            batch_size: run.optimiser.batch_size,
            learning_rate: run.optimiser.learning_rate,
            lr_decay: run.optimiser.lr_decay,
            optimiser: run.optimiser.algorithm,
            batch_sampler: run.optimiser.batch_sampler,
            margin: run.pairs.margin,
            max_pairs: run.pairs.max_pairs,
            loss_mining: run.pairs.loss_mining,
            train_samples: typed(take("train_samples")?)?,
            eval_samples: run.evaluation.eval_samples,
            memory_factor: typed(take("memory_factor")?)?,
            prior_precision: run.laplace.prior_precision,
            tempering: run.laplace.tempering,
            dropout: typed(take("dropout")?)?,
            ensemble_size: typed(take("ensemble_size")?)?,
            member_method: Some(typed(take("member_method")?)?),
            protocol: run.protocol,
            score: run.evaluation.score,
            seed: run.seed,
            train_limit: run.data.train_limit,
            test_limit: run.data.test_limit,
            n_digit_gap: run.data.n_digit_gap,
            hib: Some(typed(take("hib")?)?),
            proxy: Some(typed(take("proxy")?)?),
            btl: Some(typed(take("btl")?)?),
            init_checkpoint: typed(take("init_checkpoint")?)?,
            newer: methods,
        })
    }

    /// Every method's options the file holds, each under its name (an option absent from the
    /// file is absent here).
    ///
    /// # Errors
    ///
    /// None for options that were read from a file (they are JSON already).
    pub(crate) fn methods(&self) -> serde_json::Result<Map<String, Value>> {
        let mut methods = self.newer.clone();
        let mut put = |name: &str, v: serde_json::Result<Value>| -> serde_json::Result<()> {
            methods.insert(name.to_string(), v?);
            Ok(())
        };
        put("train_samples", serde_json::to_value(self.train_samples))?;
        put("memory_factor", serde_json::to_value(self.memory_factor))?;
        put("dropout", serde_json::to_value(self.dropout))?;
        put("ensemble_size", serde_json::to_value(self.ensemble_size))?;
        if let Some(m) = &self.member_method {
            put("member_method", serde_json::to_value(m))?;
        }
        if let Some(hib) = &self.hib {
            put("hib", serde_json::to_value(hib))?;
        }
        if let Some(proxy) = &self.proxy {
            put("proxy", serde_json::to_value(proxy))?;
        }
        if let Some(btl) = &self.btl {
            put("btl", serde_json::to_value(btl))?;
        }
        if let Some(dir) = &self.init_checkpoint {
            put("init_checkpoint", serde_json::to_value(dir))?;
        }
        Ok(methods)
    }

    /// The groups every run has.
    pub(crate) fn run_options(&self) -> RunOptions {
        RunOptions {
            protocol: self.protocol,
            seed: self.seed,
            data: DataOptions {
                dataset: self.dataset,
                train_limit: self.train_limit,
                test_limit: self.test_limit,
                n_digit_gap: self.n_digit_gap,
            },
            model: ModelOptions {
                latent_dim: self.latent_dim,
                conv_init: self.conv_init,
                backbone: self.backbone,
            },
            optimiser: OptimiserOptions {
                epochs: self.epochs,
                batch_size: self.batch_size,
                learning_rate: self.learning_rate,
                lr_decay: self.lr_decay,
                algorithm: self.optimiser,
                batch_sampler: self.batch_sampler,
            },
            pairs: PairOptions {
                margin: self.margin,
                max_pairs: self.max_pairs,
                loss_mining: self.loss_mining,
            },
            laplace: LaplaceOptions {
                split: self.split,
                approximation: self.approximation,
                prior_precision: self.prior_precision,
                tempering: self.tempering,
            },
            evaluation: EvaluationOptions {
                eval_samples: self.eval_samples,
                score: self.score,
            },
        }
    }
}

/// BTL's group of the flat layout: `"btl": {"negatives": …}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct BtlGroup {
    negatives: Negatives,
}
