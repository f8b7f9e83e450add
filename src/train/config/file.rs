//! The layout of `config.json`, version 3: the run's options grouped by concern, and the method's
//! own options under its name.
//!
//! ```json
//! {
//!   "version": 3,
//!   "method": "mc-dropout",
//!   "dropout": 0.05,
//!   "protocol": "ours",
//!   "seed": 0,
//!   "data": { "dataset": "fashion-mnist", "train_limit": null, "test_limit": null },
//!   "model": { "latent_dim": 3 },
//!   "optimiser": { "epochs": 20, "batch_size": 256, "learning_rate": 0.001, "lr_decay": 0.95 },
//!   "pairs": { "margin": 0.7, "max_pairs": 5000 },
//!   "laplace": { "split": "arccos", "approximation": "fixed", "prior_precision": 9216.0, "tempering": 1.0 },
//!   "evaluation": { "eval_samples": 16 }
//! }
//! ```
//!
//! `"method"` tags [`MethodOptions`]: each method carries the options only it reads (an
//! ensemble: its size and the `member` method with that method's options). Options several
//! methods or later stages read stay in their group: the Laplace options are read by `probdml
//! posthoc` from a deterministic checkpoint too, the pair options by every pair loss.
//!
//! An option a method does not read has no place in its file, so [`ValidConfig`] holds it at
//! its default ([`TrainConfig::canonical`]); the layout then writes every run losslessly.
//!
//! [`ValidConfig`]: super::ValidConfig

use super::{
    BtlOptions, DatasetChoice, HibOptions, MethodKind, Protocol, ProxyOptions, TrainConfig,
};
use crate::ggn::{Approximation, Split};
use crate::train::error::{TrainError, TrainResult};
use crate::train::protocol::Score;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// A version-3 `config.json`, less its `version`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct ConfigV3 {
    #[serde(flatten)]
    method: MethodOptions,
    protocol: Protocol,
    seed: u64,
    data: DataOptions,
    model: ModelOptions,
    optimiser: OptimiserOptions,
    pairs: PairOptions,
    laplace: LaplaceOptions,
    evaluation: EvaluationOptions,
}

/// The method and the options only it reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "kebab-case")]
enum MethodOptions {
    Deterministic,
    McDropout {
        dropout: f64,
    },
    LamPosthoc,
    LamOnline {
        train_samples: usize,
        memory_factor: f64,
    },
    Ensemble {
        ensemble_size: usize,
        member: Box<MethodOptions>,
    },
    Hib {
        hib: HibOptions,
    },
    ProxyNca {
        proxy: ProxyOptions,
    },
    BtlGaussian {
        btl: BtlOptions,
        init_checkpoint: Option<PathBuf>,
    },
    BtlVmf {
        btl: BtlOptions,
        init_checkpoint: Option<PathBuf>,
    },
    Pfe {
        init_checkpoint: Option<PathBuf>,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct DataOptions {
    dataset: DatasetChoice,
    train_limit: Option<usize>,
    test_limit: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct ModelOptions {
    latent_dim: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct OptimiserOptions {
    epochs: usize,
    batch_size: usize,
    learning_rate: f64,
    lr_decay: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct PairOptions {
    margin: f64,
    max_pairs: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct LaplaceOptions {
    #[serde(with = "super::split_serde")]
    split: Split,
    #[serde(with = "super::approximation_serde")]
    approximation: Approximation,
    prior_precision: f64,
    tempering: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct EvaluationOptions {
    eval_samples: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    score: Option<Score>,
}

impl MethodOptions {
    /// The options of a single model of `method`, read from `c`.
    fn single(method: MethodKind, c: &TrainConfig) -> MethodOptions {
        match method {
            MethodKind::Deterministic => MethodOptions::Deterministic,
            MethodKind::McDropout => MethodOptions::McDropout { dropout: c.dropout },
            MethodKind::LamPosthoc => MethodOptions::LamPosthoc,
            MethodKind::LamOnline => MethodOptions::LamOnline {
                train_samples: c.train_samples,
                memory_factor: c.memory_factor,
            },
            MethodKind::Hib => MethodOptions::Hib { hib: c.hib.clone() },
            MethodKind::ProxyNca => MethodOptions::ProxyNca {
                proxy: c.proxy.clone(),
            },
            MethodKind::BtlGaussian => MethodOptions::BtlGaussian {
                btl: c.btl.clone(),
                init_checkpoint: c.init_checkpoint.clone(),
            },
            MethodKind::BtlVmf => MethodOptions::BtlVmf {
                btl: c.btl.clone(),
                init_checkpoint: c.init_checkpoint.clone(),
            },
            MethodKind::Pfe => MethodOptions::Pfe {
                init_checkpoint: c.init_checkpoint.clone(),
            },
            MethodKind::Ensemble => MethodOptions::Ensemble {
                ensemble_size: c.ensemble_size,
                member: Box::new(match c.member_method {
                    // An ensemble of ensembles fails validation; written, it fails again when
                    // read (and the recursion ends here).
                    MethodKind::Ensemble => MethodOptions::Ensemble {
                        ensemble_size: c.ensemble_size,
                        member: Box::new(MethodOptions::Deterministic),
                    },
                    member => MethodOptions::single(member, c),
                }),
            },
        }
    }

    /// The method these options are of.
    fn kind(&self) -> MethodKind {
        match self {
            MethodOptions::Deterministic => MethodKind::Deterministic,
            MethodOptions::McDropout { .. } => MethodKind::McDropout,
            MethodOptions::LamPosthoc => MethodKind::LamPosthoc,
            MethodOptions::LamOnline { .. } => MethodKind::LamOnline,
            MethodOptions::Ensemble { .. } => MethodKind::Ensemble,
            MethodOptions::Hib { .. } => MethodKind::Hib,
            MethodOptions::ProxyNca { .. } => MethodKind::ProxyNca,
            MethodOptions::BtlGaussian { .. } => MethodKind::BtlGaussian,
            MethodOptions::BtlVmf { .. } => MethodKind::BtlVmf,
            MethodOptions::Pfe { .. } => MethodKind::Pfe,
        }
    }

    /// Sets the options of a single model on `c` (its `method` is set by the caller).
    fn apply_single(self, c: &mut TrainConfig) -> TrainResult<()> {
        match self {
            MethodOptions::Deterministic | MethodOptions::LamPosthoc => {}
            MethodOptions::McDropout { dropout } => c.dropout = dropout,
            MethodOptions::LamOnline {
                train_samples,
                memory_factor,
            } => {
                c.train_samples = train_samples;
                c.memory_factor = memory_factor;
            }
            MethodOptions::Hib { hib } => c.hib = hib,
            MethodOptions::ProxyNca { proxy } => c.proxy = proxy,
            MethodOptions::BtlGaussian {
                btl,
                init_checkpoint,
            }
            | MethodOptions::BtlVmf {
                btl,
                init_checkpoint,
            } => {
                c.btl = btl;
                c.init_checkpoint = init_checkpoint;
            }
            MethodOptions::Pfe { init_checkpoint } => c.init_checkpoint = init_checkpoint,
            MethodOptions::Ensemble { .. } => {
                return Err(TrainError::config(
                    "member-method",
                    "ensemble",
                    "an ensemble's members are single models, not ensembles",
                ))
            }
        }
        Ok(())
    }
}

impl From<&TrainConfig> for ConfigV3 {
    fn from(c: &TrainConfig) -> ConfigV3 {
        ConfigV3 {
            method: MethodOptions::single(c.method, c),
            protocol: c.protocol,
            seed: c.seed,
            data: DataOptions {
                dataset: c.dataset,
                train_limit: c.train_limit,
                test_limit: c.test_limit,
            },
            model: ModelOptions {
                latent_dim: c.latent_dim,
            },
            optimiser: OptimiserOptions {
                epochs: c.epochs,
                batch_size: c.batch_size,
                learning_rate: c.learning_rate,
                lr_decay: c.lr_decay,
            },
            pairs: PairOptions {
                margin: c.margin,
                max_pairs: c.max_pairs,
            },
            laplace: LaplaceOptions {
                split: c.split,
                approximation: c.approximation,
                prior_precision: c.prior_precision,
                tempering: c.tempering,
            },
            evaluation: EvaluationOptions {
                eval_samples: c.eval_samples,
                score: c.score,
            },
        }
    }
}

impl ConfigV3 {
    /// The configuration these options describe; an option no group or method carries is at
    /// its default ([`TrainConfig::DEFAULT`]).
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] for an ensemble whose member is an ensemble.
    pub(super) fn into_config(self) -> TrainResult<TrainConfig> {
        let mut c = TrainConfig {
            method: self.method.kind(),
            protocol: self.protocol,
            seed: self.seed,
            dataset: self.data.dataset,
            train_limit: self.data.train_limit,
            test_limit: self.data.test_limit,
            latent_dim: self.model.latent_dim,
            epochs: self.optimiser.epochs,
            batch_size: self.optimiser.batch_size,
            learning_rate: self.optimiser.learning_rate,
            lr_decay: self.optimiser.lr_decay,
            margin: self.pairs.margin,
            max_pairs: self.pairs.max_pairs,
            split: self.laplace.split,
            approximation: self.laplace.approximation,
            prior_precision: self.laplace.prior_precision,
            tempering: self.laplace.tempering,
            eval_samples: self.evaluation.eval_samples,
            score: self.evaluation.score,
            ..TrainConfig::DEFAULT
        };
        match self.method {
            MethodOptions::Ensemble {
                ensemble_size,
                member,
            } => {
                c.ensemble_size = ensemble_size;
                c.member_method = member.kind();
                member.apply_single(&mut c)?;
            }
            single => single.apply_single(&mut c)?,
        }
        Ok(c)
    }
}
