//! The configuration of one training run: what the `train` subcommand's flags fill in, what a
//! checkpoint stores beside its weights (`config.json`), and what `eval` and `--resume` read back.
//!
//! [`TrainConfig`] is the method with its options ([`MethodConfig`], from the method table) and
//! the groups every run has; [`ValidConfig`] one that passed its rules. Each concept in a file
//! of its own:
//!
//! * the groups ([`DataOptions`], [`ModelOptions`], [`OptimiserOptions`], [`PairOptions`],
//!   [`LaplaceOptions`], [`EvaluationOptions`]), the data's choice ([`DatasetChoice`]), and
//!   [`RunOptions`]: every group but the method, the piece a method reads;
//! * [`limits`]: the largest values accepted and the rules that apply them; `validate`: the
//!   groups' rules (a method's own are in its file);
//! * the spelling of the maths crate's GGN choices ([`split_name`], [`parse_split`], …);
//! * starting from a deterministic checkpoint ([`WarmStart`], [`WarmStartOptions`]);
//! * `config.json`: its versions ([`json_version`], [`CONFIG_VERSION`]), the grouped layout of
//!   version 3 (`file`) and the flat one of versions 1 and 2 (`flat`);
//! * `probdml train`'s flags ([`TrainFlags`], feature "tch");
//! * the schedules of `probdml reproduce` ([`Schedule`]).

mod dataset;
mod file;
#[cfg(feature = "tch")]
mod flags;
mod flat;
mod groups;
pub mod json_version;
pub mod limits;
mod run;
mod schedule;
mod spelling;
mod validate;
mod warm_start;

pub use crate::catalogue::{MethodConfig, MethodKind};
pub use crate::protocol::Protocol;
pub use dataset::{DatasetChoice, N_DIGIT_DATA_SEED, N_DIGIT_OCCLUSION_RATE, N_DIGIT_PAPER_IMAGES};
#[cfg(feature = "tch")]
pub use flags::{MethodFlags, TrainFlags};
pub use groups::{
    DataOptions, EvaluationOptions, LaplaceOptions, ModelOptions, OptimiserOptions, PairOptions,
    BACKBONE_FEATURES,
};
pub use json_version::CONFIG_VERSION;
pub use limits::{MAX_BATCH, MAX_COUNT, MAX_LATENT_DIM, MAX_METHOD_SAMPLES, MAX_REPEATS};
pub use run::RunOptions;
pub use schedule::Schedule;
pub use spelling::{approximation_name, parse_approximation, parse_split, split_name};
#[cfg(feature = "tch")]
pub use spelling::{approximation_parser, split_parser};
pub use warm_start::{WarmStart, WarmStartOptions};

use crate::error::TrainResult;
use crate::method::lam_online::LamOnlineOptions;
use crate::protocol::{ProtocolSettings, Score};
use serde::{Deserialize, Serialize};

/// Everything that determines a run, grouped by concern as `config.json` groups it (book chapter
/// 09, "The run's configuration"): the method with the options only it reads, then the
/// protocol, the seed, the data, the model, the optimiser, the pairs, the Laplace posterior and
/// the evaluation. Defaults are the reference configuration of chapter 09 (LAM online, Arccos,
/// fixed, D = 3), each written once in its group's `DEFAULT`; the short schedule of the main
/// command only lowers `epochs`.
///
/// Its serde form is the flat layout of `config.json` versions 1 and 2, which `summary.json`
/// keeps; `config.json` itself is written and read by [`TrainConfig::write_json`] and
/// [`TrainConfig::read_json`].
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "flat::ConfigV2")]
pub struct TrainConfig {
    /// The method and its own options.
    pub method: MethodConfig,
    /// Training protocol.
    pub protocol: Protocol,
    /// Seed of every random draw (weights init, batches, weight samples).
    pub seed: u64,
    /// The data.
    pub data: DataOptions,
    /// The network.
    pub model: ModelOptions,
    /// The optimiser and its schedule.
    pub optimiser: OptimiserOptions,
    /// The pairs of the pair losses.
    pub pairs: PairOptions,
    /// The Laplace posterior (LAM post-hoc and online; `probdml posthoc`).
    pub laplace: LaplaceOptions,
    /// The evaluation.
    pub evaluation: EvaluationOptions,
}

impl TrainConfig {
    /// The defaults: the reference configuration of chapter 09, each group's own.
    pub const DEFAULT: TrainConfig = TrainConfig {
        method: MethodConfig::LamOnline(LamOnlineOptions::DEFAULT),
        protocol: Protocol::Ours,
        seed: 0,
        data: DataOptions::DEFAULT,
        model: ModelOptions::DEFAULT,
        optimiser: OptimiserOptions::DEFAULT,
        pairs: PairOptions::DEFAULT,
        laplace: LaplaceOptions::DEFAULT,
        evaluation: EvaluationOptions::DEFAULT,
    };

    /// `method` with the groups of `run`.
    pub fn from_parts(method: MethodConfig, run: RunOptions) -> TrainConfig {
        let RunOptions {
            protocol,
            seed,
            data,
            model,
            optimiser,
            pairs,
            laplace,
            evaluation,
        } = run;
        TrainConfig {
            method,
            protocol,
            seed,
            data,
            model,
            optimiser,
            pairs,
            laplace,
            evaluation,
        }
    }

    /// Every group but the method: what the method reads of the run.
    pub fn run_options(&self) -> RunOptions {
        RunOptions {
            protocol: self.protocol,
            seed: self.seed,
            data: self.data.clone(),
            model: self.model.clone(),
            optimiser: self.optimiser.clone(),
            pairs: self.pairs.clone(),
            laplace: self.laplace.clone(),
            evaluation: self.evaluation.clone(),
        }
    }

    /// The configuration of one member of an ensemble: the member method with its options and
    /// the run's groups (the run itself for a single model).
    pub fn member_config(&self) -> TrainConfig {
        TrainConfig {
            method: self.method.model().clone(),
            ..self.clone()
        }
    }

    /// The protocol's settings ([`Protocol::settings`]).
    pub fn settings(&self) -> ProtocolSettings {
        self.protocol.settings()
    }

    /// The uncertainty score of sampled predictions: the override, else the protocol's.
    pub fn score(&self) -> Score {
        self.evaluation.score(self.protocol)
    }

    /// This configuration under `protocol`: the protocol recorded, and the configuration-level
    /// choices it makes applied — the learning rate times the batch size (so set `batch_size`
    /// and the base `learning_rate` first), the per-epoch decay, the prior precision and the
    /// samples per test image. Explicit choices of the user are applied after this call.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml_train::config::{Protocol, TrainConfig};
    /// let mut c = TrainConfig::default();
    /// c.optimiser.batch_size = 256;
    /// let c = c.with_protocol(Protocol::Reference);
    /// assert!((c.optimiser.learning_rate - 0.256).abs() < 1e-15);
    /// assert_eq!((c.laplace.prior_precision, c.evaluation.eval_samples), (1.0, 100));
    /// // Our protocol changes nothing.
    /// assert_eq!(TrainConfig::default().with_protocol(Protocol::Ours), TrainConfig::default());
    /// ```
    pub fn with_protocol(self, protocol: Protocol) -> TrainConfig {
        let s = protocol.settings();
        let mut c = TrainConfig { protocol, ..self };
        c.optimiser.learning_rate =
            s.effective_learning_rate(c.optimiser.learning_rate, c.optimiser.batch_size);
        c.optimiser.lr_decay = s.lr_decay.unwrap_or(c.optimiser.lr_decay);
        c.laplace.prior_precision = s.prior_precision.unwrap_or(c.laplace.prior_precision);
        c.evaluation.eval_samples = s.eval_samples.unwrap_or(c.evaluation.eval_samples);
        c
    }
}

impl Default for TrainConfig {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// A [`TrainConfig`] that passed [`TrainConfig::validate`]: the only form the pipeline, the
/// trainer and the checkpoints take, so that a configuration is validated once, where it is
/// made (from the command line, from `config.json`, or by `posthoc` from its checkpoint).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct ValidConfig(TrainConfig);

impl ValidConfig {
    /// Validates `config`.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`](crate::TrainError::InvalidConfig) naming the field and the
    /// rule.
    pub fn new(config: TrainConfig) -> TrainResult<Self> {
        config.validate()?;
        Ok(Self(config))
    }

    /// The configuration of one member of an ensemble (the run itself otherwise): the run's
    /// rules cover it (the member method is checked not to be an ensemble).
    pub fn member(&self) -> ValidConfig {
        ValidConfig(self.0.member_config())
    }

    /// The configuration.
    pub fn into_inner(self) -> TrainConfig {
        self.0
    }
}

impl std::ops::Deref for ValidConfig {
    type Target = TrainConfig;
    fn deref(&self) -> &TrainConfig {
        &self.0
    }
}
