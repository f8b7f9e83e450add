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
//! The groups are [`TrainConfig`]'s own; only the methods' options, one group per method in
//! memory (the flags of each method are parsed whatever `--method` says), are gathered under
//! the tag here.
//!
//! Versions 1 and 2 hold every option flat ([`ConfigV2`]), the layout in which `summary.json`
//! still records a run's configuration.
//!
//! [`ValidConfig`]: super::ValidConfig

use super::{
    BtlOptions, DataOptions, DatasetChoice, EnsembleOptions, EvaluationOptions, HibOptions,
    LamOnlineOptions, LaplaceOptions, McDropoutOptions, MethodKind, ModelOptions, OptimiserOptions,
    PairOptions, Protocol, ProxyOptions, TrainConfig,
};
use crate::error::{TrainError, TrainResult};
use crate::protocol::Score;
use probdml::ggn::{Approximation, Split};
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

impl MethodOptions {
    /// The options of a single model of `method`, read from `c`.
    fn single(method: MethodKind, c: &TrainConfig) -> MethodOptions {
        match method {
            MethodKind::Deterministic => MethodOptions::Deterministic,
            MethodKind::McDropout => MethodOptions::McDropout {
                dropout: c.mc_dropout.dropout,
            },
            MethodKind::LamPosthoc => MethodOptions::LamPosthoc,
            MethodKind::LamOnline => MethodOptions::LamOnline {
                train_samples: c.lam_online.train_samples,
                memory_factor: c.lam_online.memory_factor,
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
                ensemble_size: c.ensemble.size,
                member: Box::new(match c.ensemble.member_method {
                    // An ensemble of ensembles fails validation; written, it fails again when
                    // read (and the recursion ends here).
                    MethodKind::Ensemble => MethodOptions::Ensemble {
                        ensemble_size: c.ensemble.size,
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
            MethodOptions::McDropout { dropout } => c.mc_dropout = McDropoutOptions { dropout },
            MethodOptions::LamOnline {
                train_samples,
                memory_factor,
            } => {
                c.lam_online = LamOnlineOptions {
                    train_samples,
                    memory_factor,
                }
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
            data: c.data.clone(),
            model: c.model.clone(),
            optimiser: c.optimiser.clone(),
            pairs: c.pairs.clone(),
            laplace: c.laplace.clone(),
            evaluation: c.evaluation.clone(),
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
            data: self.data,
            model: self.model,
            optimiser: self.optimiser,
            pairs: self.pairs,
            laplace: self.laplace,
            evaluation: self.evaluation,
            ..TrainConfig::DEFAULT
        };
        match self.method {
            MethodOptions::Ensemble {
                ensemble_size,
                member,
            } => {
                c.ensemble = EnsembleOptions {
                    size: ensemble_size,
                    member_method: member.kind(),
                };
                member.apply_single(&mut c)?;
            }
            single => single.apply_single(&mut c)?,
        }
        Ok(c)
    }
}

/// A version-1 or -2 `config.json`, less its `version`: every option flat, as [`TrainConfig`]
/// was before it was grouped. A field added after the first release reads with its default of
/// the time (see [`super::CONFIG_VERSION`]); `summary.json` records a run's configuration in
/// this layout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct ConfigV2 {
    method: MethodKind,
    #[serde(with = "super::split_serde")]
    split: Split,
    #[serde(with = "super::approximation_serde")]
    approximation: Approximation,
    dataset: DatasetChoice,
    latent_dim: usize,
    epochs: usize,
    batch_size: usize,
    learning_rate: f64,
    lr_decay: f64,
    margin: f64,
    max_pairs: usize,
    train_samples: usize,
    eval_samples: usize,
    memory_factor: f64,
    prior_precision: f64,
    tempering: f64,
    dropout: f64,
    ensemble_size: usize,
    #[serde(default = "ConfigV2::first_member_method")]
    member_method: MethodKind,
    #[serde(default)]
    protocol: Protocol,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    score: Option<Score>,
    seed: u64,
    train_limit: Option<usize>,
    test_limit: Option<usize>,
    #[serde(default)]
    hib: HibOptions,
    #[serde(default)]
    proxy: ProxyOptions,
    /// A run recorded before the option existed was trained with the hardest negatives.
    #[serde(default = "BtlOptions::before_the_option")]
    btl: BtlOptions,
    #[serde(default)]
    init_checkpoint: Option<PathBuf>,
}

impl ConfigV2 {
    /// The member method before the option existed: deterministic, the only one then.
    fn first_member_method() -> MethodKind {
        MethodKind::Deterministic
    }
}

impl From<TrainConfig> for ConfigV2 {
    fn from(c: TrainConfig) -> ConfigV2 {
        ConfigV2 {
            method: c.method,
            split: c.laplace.split,
            approximation: c.laplace.approximation,
            dataset: c.data.dataset,
            latent_dim: c.model.latent_dim,
            epochs: c.optimiser.epochs,
            batch_size: c.optimiser.batch_size,
            learning_rate: c.optimiser.learning_rate,
            lr_decay: c.optimiser.lr_decay,
            margin: c.pairs.margin,
            max_pairs: c.pairs.max_pairs,
            train_samples: c.lam_online.train_samples,
            eval_samples: c.evaluation.eval_samples,
            memory_factor: c.lam_online.memory_factor,
            prior_precision: c.laplace.prior_precision,
            tempering: c.laplace.tempering,
            dropout: c.mc_dropout.dropout,
            ensemble_size: c.ensemble.size,
            member_method: c.ensemble.member_method,
            protocol: c.protocol,
            score: c.evaluation.score,
            seed: c.seed,
            train_limit: c.data.train_limit,
            test_limit: c.data.test_limit,
            hib: c.hib,
            proxy: c.proxy,
            btl: c.btl,
            init_checkpoint: c.init_checkpoint,
        }
    }
}

impl From<ConfigV2> for TrainConfig {
    fn from(c: ConfigV2) -> TrainConfig {
        TrainConfig {
            method: c.method,
            ensemble: EnsembleOptions {
                member_method: c.member_method,
                size: c.ensemble_size,
            },
            laplace: LaplaceOptions {
                split: c.split,
                approximation: c.approximation,
                prior_precision: c.prior_precision,
                tempering: c.tempering,
            },
            data: DataOptions {
                dataset: c.dataset,
                train_limit: c.train_limit,
                test_limit: c.test_limit,
            },
            protocol: c.protocol,
            model: ModelOptions {
                latent_dim: c.latent_dim,
            },
            optimiser: OptimiserOptions {
                epochs: c.epochs,
                batch_size: c.batch_size,
                learning_rate: c.learning_rate,
                lr_decay: c.lr_decay,
            },
            seed: c.seed,
            pairs: PairOptions {
                margin: c.margin,
                max_pairs: c.max_pairs,
            },
            evaluation: EvaluationOptions {
                eval_samples: c.eval_samples,
                score: c.score,
            },
            lam_online: LamOnlineOptions {
                train_samples: c.train_samples,
                memory_factor: c.memory_factor,
            },
            mc_dropout: McDropoutOptions { dropout: c.dropout },
            init_checkpoint: c.init_checkpoint,
            hib: c.hib,
            proxy: c.proxy,
            btl: c.btl,
        }
    }
}
