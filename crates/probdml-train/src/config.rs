//! The configuration of one training run: what the `train` subcommand's flags fill in, what a
//! checkpoint stores beside its weights (`config.json`), and what `eval` and `--resume` read back.

use super::error::{TrainError, TrainResult};
use probdml::ggn::{Approximation, Split};
use serde::{Deserialize, Serialize};
use std::path::Path;

pub use super::catalogue::MethodKind;
use super::catalogue::WarmStart;
pub use super::protocol::Protocol;

mod file;

/// Which images to train and evaluate on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum DatasetChoice {
    /// Fashion-MNIST (ID) against the official MNIST test split (OOD), as in LAM Table 2.
    FashionMnist,
    /// A seeded synthetic set of 28 × 28 images (tests, smoke runs).
    Synthetic,
}

impl DatasetChoice {
    /// The command-line spelling.
    pub fn name(self) -> &'static str {
        match self {
            DatasetChoice::FashionMnist => "fashion-mnist",
            DatasetChoice::Synthetic => "synthetic",
        }
    }

    /// Parses the command-line spelling.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] listing the choices.
    pub fn parse(s: &str) -> TrainResult<Self> {
        match s {
            "fashion-mnist" => Ok(DatasetChoice::FashionMnist),
            "synthetic" => Ok(DatasetChoice::Synthetic),
            _ => Err(TrainError::config(
                "dataset",
                s,
                "one of fashion-mnist, synthetic",
            )),
        }
    }

    /// "ID vs OOD" as the tables title it, e.g. "Fashion-MNIST (ID) vs MNIST (OOD)".
    pub fn title(self) -> &'static str {
        match self {
            DatasetChoice::FashionMnist => "Fashion-MNIST (ID) vs MNIST (OOD)",
            DatasetChoice::Synthetic => "synthetic (ID) vs synthetic OOD images",
        }
    }

    /// Number of classes of the training set (the proxies of ProxyNCA++): 10 for both.
    pub fn classes(self) -> usize {
        match self {
            DatasetChoice::FashionMnist | DatasetChoice::Synthetic => 10,
        }
    }

    /// Whether LAM Table 2 has rows for this data (only Fashion-MNIST vs MNIST is compared).
    pub fn has_paper_rows(self) -> bool {
        self == DatasetChoice::FashionMnist
    }
}

/// The schedule of `probdml reproduce`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Schedule {
    /// The main command: LAM online under our protocol and the reference code's, 5 epochs, 1 seed.
    #[default]
    Short,
    /// LAM Table 2's protocol: its seven rows (deterministic, deep ensemble, PFE, HIB, MC dropout,
    /// LAM post-hoc and online), then BTL (both priors) and ProxyNCA++, 20 epochs, 5 seeds.
    Paper,
}

/// Parses a GGN split name (`euclidean` | `arccos`).
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] listing the choices.
pub fn parse_split(s: &str) -> TrainResult<Split> {
    match s {
        "euclidean" => Ok(Split::Euclidean),
        "arccos" => Ok(Split::Arccos),
        _ => Err(TrainError::config("split", s, "one of euclidean, arccos")),
    }
}

/// Parses a PSD approximation name (`positive` | `fixed` | `full`).
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] listing the choices.
pub fn parse_approximation(s: &str) -> TrainResult<Approximation> {
    match s {
        "positive" => Ok(Approximation::Positive),
        "fixed" => Ok(Approximation::Fixed),
        "full" => Ok(Approximation::Full),
        _ => Err(TrainError::config(
            "approximation",
            s,
            "one of positive, fixed, full",
        )),
    }
}

/// The command-line spelling of a split.
pub fn split_name(s: Split) -> &'static str {
    match s {
        Split::Euclidean => "euclidean",
        Split::Arccos => "arccos",
    }
}

/// The command-line spelling of an approximation.
pub fn approximation_name(a: Approximation) -> &'static str {
    match a {
        Approximation::Positive => "positive",
        Approximation::Fixed => "fixed",
        Approximation::Full => "full",
    }
}

/// `--split` for clap: `--help` lists the choices, a typo gets "possible values". (The type is
/// the maths crate's, so the parser is built here rather than as a `clap::ValueEnum` impl.)
#[cfg(feature = "tch")]
pub fn split_parser() -> impl clap::builder::TypedValueParser<Value = Split> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new([Split::Euclidean, Split::Arccos].map(split_name))
        .try_map(|s| parse_split(&s))
}

/// `--approximation` for clap.
#[cfg(feature = "tch")]
pub fn approximation_parser() -> impl clap::builder::TypedValueParser<Value = Approximation> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(
        [
            Approximation::Positive,
            Approximation::Fixed,
            Approximation::Full,
        ]
        .map(approximation_name),
    )
    .try_map(|s| parse_approximation(&s))
}

/// Features the reference backbone hands the last layer: 64 channels of 12×12 for a 28×28
/// input (the fan-in F of the head, and the default prior precision).
pub const BACKBONE_FEATURES: i64 = 9216;

/// Largest latent dimension accepted: the head alone holds D × 9216 weights (D = 4096: 150 MB
/// in f32, more with the optimiser state and Λ).
pub const MAX_LATENT_DIM: usize = 4096;
/// Largest count accepted for batch sizes, pair caps and limits: casts to libtorch's i64 stay
/// exact.
pub const MAX_COUNT: usize = 1 << 31;
/// Largest batch: mining builds several B × B matrices (B = 4096: 67 MB each in f32).
pub const MAX_BATCH: usize = 4096;
/// Largest epoch count, samples per image or ensemble size accepted: beyond it a run would not
/// end in any useful time.
pub const MAX_REPEATS: usize = 100_000;

/// Everything that determines a run, grouped by concern as `config.json` groups it (book chapter
/// 09, "The run's configuration"): the data, the model, the optimiser, the pairs, the Laplace
/// posterior, the evaluation, and the options each method alone reads. Defaults are the
/// reference configuration of chapter 09 (LAM online, Arccos, fixed, D = 3), each written once in
/// its group's `DEFAULT`; the short schedule of the main command only lowers `epochs`.
///
/// With feature "tch" the groups are the flags of `probdml train` (`clap::Args`): a flag's
/// default is the group's. The options whose default depends on the method or the protocol
/// (`--batch`, `--eval-samples`, `--prior-precision`), and those with no flag, are skipped by
/// the parser and set by the caller.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
#[serde(from = "file::ConfigV2", into = "file::ConfigV2")]
pub struct TrainConfig {
    /// The method.
    #[cfg_attr(
        feature = "tch",
        arg(long, value_enum, default_value_t = TrainConfig::DEFAULT.method)
    )]
    pub method: MethodKind,
    /// A deep ensemble's options (`method = ensemble` only).
    #[cfg_attr(feature = "tch", command(flatten))]
    pub ensemble: EnsembleOptions,
    /// The Laplace posterior (LAM post-hoc and online; `probdml posthoc`).
    #[cfg_attr(feature = "tch", command(flatten))]
    pub laplace: LaplaceOptions,
    /// The data.
    #[cfg_attr(feature = "tch", command(flatten))]
    pub data: DataOptions,
    /// Training protocol.
    #[cfg_attr(
        feature = "tch",
        arg(long, value_enum, default_value_t = TrainConfig::DEFAULT.protocol)
    )]
    pub protocol: Protocol,
    /// The network.
    #[cfg_attr(feature = "tch", command(flatten))]
    pub model: ModelOptions,
    /// The optimiser and its schedule.
    #[cfg_attr(feature = "tch", command(flatten))]
    pub optimiser: OptimiserOptions,
    /// Seed of every random draw (weights init, batches, weight samples).
    #[cfg_attr(
        feature = "tch",
        arg(long, default_value_t = TrainConfig::DEFAULT.seed)
    )]
    pub seed: u64,
    /// The pairs of the pair losses (no flags).
    #[cfg_attr(feature = "tch", arg(skip = PairOptions::DEFAULT))]
    pub pairs: PairOptions,
    /// The evaluation (its flags' defaults are the protocol's: set by the caller).
    #[cfg_attr(feature = "tch", arg(skip = EvaluationOptions::DEFAULT))]
    pub evaluation: EvaluationOptions,
    /// Online LAM's options (`method = lam-online` only).
    #[cfg_attr(feature = "tch", command(flatten))]
    pub lam_online: LamOnlineOptions,
    /// MC dropout's options (`method = mc-dropout` only).
    #[cfg_attr(feature = "tch", command(flatten))]
    pub mc_dropout: McDropoutOptions,
    /// The deterministic checkpoint PFE freezes (`probdml train` trains one into
    /// `<out>/deterministic` when it is not given), or BTL's optional start for the backbone and
    /// the μ head (the paper starts from pretrained weights).
    #[cfg_attr(
        feature = "tch",
        arg(
            long,
            help = "PFE: the deterministic checkpoint to freeze (default: train one into <out>/deterministic); BTL: an optional deterministic checkpoint to start the backbone and μ head from (the paper starts from pretrained weights)"
        )
    )]
    pub init_checkpoint: Option<std::path::PathBuf>,
    /// HIB's options (`method = hib` only).
    #[cfg_attr(feature = "tch", command(flatten))]
    pub hib: HibOptions,
    /// ProxyNCA++'s options (`method = proxy-nca` only).
    #[cfg_attr(feature = "tch", command(flatten))]
    pub proxy: ProxyOptions,
    /// The Bayesian triplet loss's options (`method = btl-gaussian, btl-vmf` only).
    #[cfg_attr(feature = "tch", command(flatten))]
    pub btl: BtlOptions,
}

impl TrainConfig {
    /// The defaults: the reference configuration of chapter 09, each group's own.
    pub const DEFAULT: TrainConfig = TrainConfig {
        method: MethodKind::LamOnline,
        ensemble: EnsembleOptions::DEFAULT,
        laplace: LaplaceOptions::DEFAULT,
        data: DataOptions::DEFAULT,
        protocol: Protocol::Ours,
        model: ModelOptions::DEFAULT,
        optimiser: OptimiserOptions::DEFAULT,
        seed: 0,
        pairs: PairOptions::DEFAULT,
        evaluation: EvaluationOptions::DEFAULT,
        lam_online: LamOnlineOptions::DEFAULT,
        mc_dropout: McDropoutOptions::DEFAULT,
        init_checkpoint: None,
        hib: HibOptions::DEFAULT,
        proxy: ProxyOptions::DEFAULT,
        btl: BtlOptions::DEFAULT,
    };
}

impl Default for TrainConfig {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// `Default` as the group's `DEFAULT`, the one place its defaults are written.
macro_rules! default_is_the_const {
    ($($group:ty),* $(,)?) => {
        $(impl Default for $group {
            fn default() -> Self {
                Self::DEFAULT
            }
        })*
    };
}

default_is_the_const!(
    DataOptions,
    ModelOptions,
    OptimiserOptions,
    PairOptions,
    LaplaceOptions,
    EvaluationOptions,
    EnsembleOptions,
    LamOnlineOptions,
    McDropoutOptions,
);

/// Which images a run trains and evaluates on (`config.json`'s `data`); a limit of None takes
/// every image.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct DataOptions {
    /// The data.
    #[cfg_attr(
        feature = "tch",
        arg(long, value_enum, default_value_t = DataOptions::DEFAULT.dataset)
    )]
    pub dataset: DatasetChoice,
    /// Use only the first N training images.
    #[cfg_attr(feature = "tch", arg(long))]
    pub train_limit: Option<usize>,
    /// Use only the first N test and OOD images.
    #[cfg_attr(feature = "tch", arg(long))]
    pub test_limit: Option<usize>,
}

impl DataOptions {
    /// Every image of Fashion-MNIST and MNIST.
    pub const DEFAULT: DataOptions = DataOptions {
        dataset: DatasetChoice::FashionMnist,
        train_limit: None,
        test_limit: None,
    };
}

/// The network (`config.json`'s `model`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct ModelOptions {
    /// Latent dimension D (3 or 128 in the reference configs).
    #[cfg_attr(
        feature = "tch",
        arg(long, default_value_t = ModelOptions::DEFAULT.latent_dim)
    )]
    pub latent_dim: usize,
}

impl ModelOptions {
    /// D = 3, the latent dimension of LAM Table 2.
    pub const DEFAULT: ModelOptions = ModelOptions { latent_dim: 3 };
}

/// The optimiser and its schedule (`config.json`'s `optimiser`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct OptimiserOptions {
    /// Epochs over the training set.
    #[cfg_attr(
        feature = "tch",
        arg(long, default_value_t = OptimiserOptions::DEFAULT.epochs)
    )]
    pub epochs: usize,
    /// Images per step (chapter 09: 64 for LAM online, 256 for the others; the flag `--batch`
    /// defaults to the method's, [`TrainConfig::reference_batch_size`]).
    #[cfg_attr(feature = "tch", arg(skip = OptimiserOptions::DEFAULT.batch_size))]
    pub batch_size: usize,
    /// Learning rate (RMSprop; the reference protocol multiplies it by the batch size).
    #[cfg_attr(
        feature = "tch",
        arg(
            long = "lr",
            value_name = "LR",
            default_value_t = OptimiserOptions::DEFAULT.learning_rate
        )
    )]
    pub learning_rate: f64,
    /// Exponential learning-rate decay per epoch.
    #[cfg_attr(feature = "tch", arg(skip = OptimiserOptions::DEFAULT.lr_decay))]
    pub lr_decay: f64,
}

impl OptimiserOptions {
    /// Chapter 09's: 20 epochs of RMSprop at 10⁻³, decayed by 0.95 per epoch, 64 images a step.
    pub const DEFAULT: OptimiserOptions = OptimiserOptions {
        epochs: 20,
        batch_size: 64,
        learning_rate: 1e-3,
        lr_decay: 0.95,
    };
}

/// The pairs of the contrastive losses and of the Hessian (`config.json`'s `pairs`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairOptions {
    /// Contrastive margin m on the distance (form L).
    pub margin: f64,
    /// At most this many pairs per step; more are subsampled with the rescaled targets of
    /// chapter 03.
    pub max_pairs: usize,
}

impl PairOptions {
    /// The reference code's margin 0.7 and cap of 5000 pairs.
    pub const DEFAULT: PairOptions = PairOptions {
        margin: 0.7,
        max_pairs: 5000,
    };
}

/// The last-layer Laplace posterior (`config.json`'s `laplace`): read by LAM post-hoc and online,
/// and by `probdml posthoc` from a deterministic checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct LaplaceOptions {
    /// GGN split (LAM).
    #[serde(with = "split_serde")]
    #[cfg_attr(
        feature = "tch",
        arg(long, value_parser = split_parser(), default_value = split_name(LaplaceOptions::DEFAULT.split))
    )]
    pub split: Split,
    /// PSD approximation (LAM).
    #[serde(with = "approximation_serde")]
    #[cfg_attr(
        feature = "tch",
        arg(long, value_parser = approximation_parser(), default_value = approximation_name(LaplaceOptions::DEFAULT.approximation))
    )]
    pub approximation: Approximation,
    /// Prior precision σ⁻² of the last-layer weights. The default is the fan-in F = 9216: a prior
    /// standard deviation of 1/√F, the scale of PyTorch's initialisation of the layer, so that
    /// the prior's spread of y = Wx is O(|x|/√F·√D), not O(|x|) (σ = 1 on 9216 weights would drown
    /// the trained signal, of row norm ~1, in noise). The protocol may choose another.
    #[cfg_attr(feature = "tch", arg(skip = LaplaceOptions::DEFAULT.prior_precision))]
    pub prior_precision: f64,
    /// Tempering β of the post-hoc Hessian (and of the online sampler).
    #[cfg_attr(
        feature = "tch",
        arg(long, default_value_t = LaplaceOptions::DEFAULT.tempering)
    )]
    pub tempering: f64,
}

impl LaplaceOptions {
    /// Arccos, fixed, the prior precision F of the fan-in, no tempering.
    pub const DEFAULT: LaplaceOptions = LaplaceOptions {
        split: Split::Arccos,
        approximation: Approximation::Fixed,
        prior_precision: BACKBONE_FEATURES as f64,
        tempering: 1.0,
    };
}

/// The evaluation (`config.json`'s `evaluation`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvaluationOptions {
    /// Weight samples (or dropout masks) per test image, S >= 16 for the reported metrics.
    pub eval_samples: usize,
    /// The uncertainty score of sampled predictions when it differs from the protocol's
    /// (`probdml posthoc --score`; None: the protocol's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<super::protocol::Score>,
}

impl EvaluationOptions {
    /// S = 16 samples per image, the protocol's score.
    pub const DEFAULT: EvaluationOptions = EvaluationOptions {
        eval_samples: 16,
        score: None,
    };
}

/// A deep ensemble's options (`method = ensemble` only).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct EnsembleOptions {
    /// The method of every member (--method ensemble only; an ensemble wraps any other method).
    #[cfg_attr(
        feature = "tch",
        arg(long, value_enum, default_value_t = EnsembleOptions::DEFAULT.member_method)
    )]
    pub member_method: MethodKind,
    /// Members of an ensemble.
    #[cfg_attr(
        feature = "tch",
        arg(
            long = "ensemble-size",
            value_name = "ENSEMBLE_SIZE",
            default_value_t = EnsembleOptions::DEFAULT.size
        )
    )]
    pub size: usize,
}

impl EnsembleOptions {
    /// Five deterministic members, as LAM Table 2's deep ensemble.
    pub const DEFAULT: EnsembleOptions = EnsembleOptions {
        member_method: MethodKind::Deterministic,
        size: 5,
    };
}

/// Online LAM's options (`method = lam-online` only).
#[derive(Debug, Clone, PartialEq)]
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

/// MC dropout's options (`method = mc-dropout` only).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct McDropoutOptions {
    /// Dropout probability (MC dropout).
    #[cfg_attr(
        feature = "tch",
        arg(long, default_value_t = McDropoutOptions::DEFAULT.dropout)
    )]
    pub dropout: f64,
}

impl McDropoutOptions {
    /// p = 0.05.
    pub const DEFAULT: McDropoutOptions = McDropoutOptions { dropout: 0.05 };
}

impl TrainConfig {
    /// The method a single model of this run trains: the member method for an ensemble, the
    /// method itself otherwise.
    pub fn model_method(&self) -> MethodKind {
        match self.method {
            MethodKind::Ensemble => self.ensemble.member_method,
            m => m,
        }
    }

    /// Models trained: the ensemble's size for an ensemble, 1 otherwise.
    pub fn members(&self) -> usize {
        match self.method {
            MethodKind::Ensemble => self.ensemble.size,
            _ => 1,
        }
    }

    /// The configuration of one member of an ensemble (the run itself otherwise); the
    /// ensemble's own options are at their defaults in it, as in any single model's.
    pub fn member_config(&self) -> TrainConfig {
        match self.method {
            MethodKind::Ensemble => TrainConfig {
                method: self.ensemble.member_method,
                ensemble: EnsembleOptions::DEFAULT,
                ..self.clone()
            },
            _ => self.clone(),
        }
    }

    /// The reference batch size of a method (its row of the method table).
    pub fn reference_batch_size(method: MethodKind) -> usize {
        method.row().batch
    }

    /// The protocol's settings ([`Protocol::settings`]).
    pub fn settings(&self) -> super::protocol::ProtocolSettings {
        self.protocol.settings()
    }

    /// The uncertainty score of sampled predictions: the override, else the protocol's.
    pub fn score(&self) -> super::protocol::Score {
        self.evaluation.score.unwrap_or(self.settings().score)
    }

    /// Checks every field against its rule.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] naming the field and the rule.
    pub fn validate(&self) -> TrainResult<()> {
        // Every real value enters libtorch as f32: a value that rounds to 0 or ±∞ there would
        // turn into a silent NaN several steps later.
        let f32_range =
            |v: f64| v.abs() <= f64::from(f32::MAX) && v.abs() >= f64::from(f32::MIN_POSITIVE);
        let positive = |arg: &'static str, v: f64| {
            if v.is_finite() && v > 0.0 && f32_range(v) {
                Ok(())
            } else {
                Err(TrainError::config(
                    arg,
                    v,
                    "must be finite, > 0 and within f32's normal range [1.2e-38, 3.4e38]",
                ))
            }
        };
        let count = |arg: &'static str, v: usize, min: usize| {
            if (min..=MAX_COUNT).contains(&v) {
                Ok(())
            } else {
                Err(TrainError::config(
                    arg,
                    v,
                    format!("must lie in [{min}, {MAX_COUNT}]"),
                ))
            }
        };
        if !(2..=MAX_LATENT_DIM).contains(&self.model.latent_dim) {
            return Err(TrainError::config(
                "latent-dim",
                self.model.latent_dim,
                format!(
                    "an embedding on the sphere S^{{D-1}} needs D >= 2 (and D <= {MAX_LATENT_DIM})"
                ),
            ));
        }
        let repeats = |arg: &'static str, v: usize, min: usize| {
            if (min..=MAX_REPEATS).contains(&v) {
                Ok(())
            } else {
                Err(TrainError::config(
                    arg,
                    v,
                    format!("must lie in [{min}, {MAX_REPEATS}]"),
                ))
            }
        };
        repeats("epochs", self.optimiser.epochs, 1)?;
        if !(2..=MAX_BATCH).contains(&self.optimiser.batch_size) {
            return Err(TrainError::config(
                "batch",
                self.optimiser.batch_size,
                format!(
                    "pairs need at least 2 images per batch, and the batch's B × B pair \
                     matrices limit it to {MAX_BATCH}"
                ),
            ));
        }
        positive("lr", self.optimiser.learning_rate)?;
        if !(self.optimiser.lr_decay > 0.0
            && self.optimiser.lr_decay <= 1.0
            && f32_range(self.optimiser.lr_decay))
        {
            return Err(TrainError::config(
                "lr-decay",
                self.optimiser.lr_decay,
                "must lie in (0, 1]",
            ));
        }
        if !(self.pairs.margin > 0.0 && self.pairs.margin <= 2.0 && f32_range(self.pairs.margin)) {
            return Err(TrainError::config(
                "margin",
                self.pairs.margin,
                "unit vectors are at distance <= 2: the margin must lie in (0, 2]",
            ));
        }
        count("max-pairs", self.pairs.max_pairs, 1)?;
        repeats("train-samples", self.lam_online.train_samples, 1)?;
        if !(2..=MAX_REPEATS).contains(&self.evaluation.eval_samples) {
            return Err(TrainError::config(
                "eval-samples",
                self.evaluation.eval_samples,
                "a vMF fit needs >= 2 samples (16 or more for reported numbers)",
            ));
        }
        if !(self.lam_online.memory_factor > 0.0
            && self.lam_online.memory_factor <= 1.0
            && f32_range(self.lam_online.memory_factor))
        {
            return Err(TrainError::config(
                "memory-factor",
                self.lam_online.memory_factor,
                "must lie in (0, 1]",
            ));
        }
        positive("prior-precision", self.laplace.prior_precision)?;
        positive("tempering", self.laplace.tempering)?;
        if !(0.0..1.0).contains(&self.mc_dropout.dropout) {
            return Err(TrainError::config(
                "dropout",
                self.mc_dropout.dropout,
                "must lie in [0, 1)",
            ));
        }
        if self.method == MethodKind::Ensemble {
            repeats("ensemble-size", self.ensemble.size, 2).map_err(|_| {
                TrainError::config(
                    "ensemble-size",
                    self.ensemble.size,
                    format!("an ensemble needs >= 2 members (and <= {MAX_REPEATS})"),
                )
            })?;
            if self.ensemble.member_method == MethodKind::Ensemble {
                return Err(TrainError::config(
                    "member-method",
                    self.ensemble.member_method.name(),
                    "an ensemble's members are single models, not ensembles",
                ));
            }
        }
        if let Some(k) = self.data.train_limit {
            count("train-limit", k, 2)?;
        }
        if let Some(k) = self.data.test_limit {
            // The retrieval metrics rank 10 neighbours besides the query.
            count("test-limit", k, 11)?;
        }
        self.hib.validate()?;
        self.proxy.validate()?;
        let warm_starts = self.model_method().row().warm_start != WarmStart::Never;
        if let (Some(dir), false) = (&self.init_checkpoint, warm_starts) {
            return Err(TrainError::config(
                "init-checkpoint",
                dir.display(),
                format!(
                    "only --method {} start from a deterministic checkpoint",
                    super::catalogue::METHODS
                        .iter()
                        .filter(|r| r.warm_start != WarmStart::Never)
                        .map(|r| r.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        Ok(())
    }

    /// Writes the configuration as `config.json` text: [`CONFIG_VERSION`] first, then the
    /// options grouped by concern, the method's own under its name (book chapter 09, "The run's
    /// configuration"); an option the method does not read is not written
    /// ([`TrainConfig::canonical`]).
    ///
    /// # Errors
    ///
    /// Serialisation failures, naming `path`.
    pub fn to_json_text(&self, path: &Path) -> TrainResult<String> {
        super::json::to_text(
            &ConfigFileOut {
                version: CONFIG_VERSION,
                config: file::ConfigV3::from(self),
            },
            path,
        )
    }

    /// This configuration with every option its method does not read at its default: what
    /// `config.json` records of it, so that a configuration reads back equal to itself.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] for an ensemble of ensembles (which
    /// [`TrainConfig::validate`] refuses first).
    pub fn canonical(&self) -> TrainResult<TrainConfig> {
        file::ConfigV3::from(self).into_config()
    }

    /// Writes the configuration as `config.json` (atomically, [`crate::json`]).
    ///
    /// # Errors
    ///
    /// I/O or serialisation failures, naming the file.
    pub fn write_json(&self, path: &Path) -> TrainResult<()> {
        super::json::write_atomic(path, self.to_json_text(path)?.as_bytes())
    }

    /// Reads and validates a configuration written by [`TrainConfig::write_json`] or by an
    /// older probdml (see [`CONFIG_VERSION`]).
    ///
    /// # Errors
    ///
    /// A missing or unreadable file, invalid JSON, a version newer than this program's, or a
    /// configuration that fails [`TrainConfig::validate`] (reported as a checkpoint error
    /// naming the file).
    pub fn read_json(path: &Path) -> TrainResult<ValidConfig> {
        let mut fields: serde_json::Map<String, serde_json::Value> = super::json::read_json(path)?;
        let invalid = |reason: String| TrainError::Checkpoint {
            path: path.to_owned(),
            reason,
        };
        let json = |source| TrainError::Json {
            path: path.to_owned(),
            source,
        };
        let version = match fields.remove("version") {
            None => 1,
            Some(v) => v
                .as_u64()
                .ok_or_else(|| invalid(format!("holds the version {v}, not a whole number")))?,
        };
        let fields = serde_json::Value::Object(fields);
        let config = match version {
            1 | 2 => TrainConfig::deserialize(fields).map_err(json)?,
            3 => file::ConfigV3::deserialize(fields)
                .map_err(json)?
                .into_config()
                .map_err(|e| invalid(format!("holds an invalid configuration: {e}")))?,
            _ => {
                return Err(invalid(format!(
                    "was written by a newer probdml (config version {version}, this one reads up to {CONFIG_VERSION})"
                )))
            }
        };
        ValidConfig::new(config)
            .map_err(|e| invalid(format!("holds an invalid configuration: {e}")))
    }
}

impl TrainConfig {
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

/// The version of `config.json` this program writes; it reads every earlier one.
///
/// * 1 — no `version` field: every option flat, as [`TrainConfig`] was before it was grouped by
///   concern (its serde form, which `summary.json` keeps), every field added after the first
///   release read with its serde default (`protocol`: ours; `member_method`:
///   deterministic; `btl`: [`BtlOptions::before_the_option`]; `hib`, `proxy`: their defaults).
/// * 2 — the same fields, with `version` first.
/// * 3 — grouped by concern, the method's own options under its name (the layout of
///   `train/config/file.rs`, chapter 09).
pub const CONFIG_VERSION: u32 = 3;

#[derive(Serialize)]
struct ConfigFileOut {
    version: u32,
    #[serde(flatten)]
    config: file::ConfigV3,
}

/// A [`TrainConfig`] that passed [`TrainConfig::validate`], in its [`TrainConfig::canonical`]
/// form: the only form the pipeline, the trainer and the checkpoints take, so that a
/// configuration is validated once, where it is made (from the command line, from
/// `config.json`, or by `posthoc` from its checkpoint).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct ValidConfig(TrainConfig);

impl ValidConfig {
    /// Validates `config`.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] naming the field and the rule.
    pub fn new(config: TrainConfig) -> TrainResult<Self> {
        config.validate()?;
        Ok(Self(config.canonical()?))
    }

    /// The configuration of one member of an ensemble (the run itself otherwise): the run's
    /// rules cover it (the member method is checked not to be an ensemble), and it is canonical
    /// as the run is (a member reads the options the ensemble records for it).
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

/// Serde for [`Split`] by its command-line name (the math crate has no serde dependency).
mod split_serde {
    use super::{parse_split, split_name, Split};
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &Split, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(split_name(*v))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Split, D::Error> {
        let s = String::deserialize(d)?;
        parse_split(&s).map_err(serde::de::Error::custom)
    }
}

/// Serde for [`Approximation`] by its command-line name.
mod approximation_serde {
    use super::{approximation_name, parse_approximation, Approximation};
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &Approximation, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(approximation_name(*v))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Approximation, D::Error> {
        let s = String::deserialize(d)?;
        parse_approximation(&s).map_err(serde::de::Error::custom)
    }
}

/// HIB's options (chapter 07; `probdml train --method hib`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct HibOptions {
    /// HIB: mixture components C of p(z|x) (1: one Gaussian; 2: the paper's MoG).
    #[cfg_attr(
        feature = "tch",
        arg(id = "hib_components", long = "hib-components", default_value_t = HibOptions::DEFAULT.components)
    )]
    pub components: usize,
    /// HIB: samples K per component and image (the paper's K = 8).
    #[cfg_attr(
        feature = "tch",
        arg(id = "hib_samples", long = "hib-samples", default_value_t = HibOptions::DEFAULT.samples)
    )]
    pub samples: usize,
    /// HIB: weight β of the VIB regulariser KL(p(z|x) ‖ N(0, I)).
    #[cfg_attr(
        feature = "tch",
        arg(id = "vib_beta", long = "vib-beta", default_value_t = HibOptions::DEFAULT.beta)
    )]
    pub beta: f64,
}

impl HibOptions {
    /// The defaults: one Gaussian, the paper's K = 8, β = 10⁻⁴.
    pub const DEFAULT: HibOptions = HibOptions {
        components: 1,
        samples: 8,
        beta: 1e-4,
    };
}

impl Default for HibOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Largest HIB mixture: C components of K samples make (CK)² sample pairs per image pair.
pub const MAX_HIB_COMPONENTS: usize = 8;
/// Largest HIB or EL-nivMF sample count per image.
pub const MAX_METHOD_SAMPLES: usize = 1024;

impl HibOptions {
    /// Checks each option against its rule.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] naming the flag and the rule.
    pub fn validate(&self) -> TrainResult<()> {
        if !(1..=MAX_HIB_COMPONENTS).contains(&self.components) {
            return Err(TrainError::config(
                "hib-components",
                self.components,
                format!("a mixture needs 1 to {MAX_HIB_COMPONENTS} components"),
            ));
        }
        if !(1..=MAX_METHOD_SAMPLES).contains(&self.samples) {
            return Err(TrainError::config(
                "hib-samples",
                self.samples,
                format!(
                    "the Monte Carlo match probability needs 1 to {MAX_METHOD_SAMPLES} samples"
                ),
            ));
        }
        if !(self.beta.is_finite() && self.beta >= 0.0 && self.beta <= f64::from(f32::MAX)) {
            return Err(TrainError::config(
                "vib-beta",
                self.beta,
                "must be finite and >= 0 (0: no VIB regulariser)",
            ));
        }
        Ok(())
    }
}

/// How the Bayesian triplet loss chooses the negatives of an anchor among those of its batch
/// (chapter 05; `train::mining::triplets` has the measurements behind the default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Negatives {
    /// The anchor's nearest negatives (the BTL paper's hard-negative mining). Trained from
    /// scratch at D = 3 it inflates every σ² and retrieval stays poor (mAP@1 0.37 on
    /// Fashion-MNIST after 10 epochs, against 0.83 with uniform negatives).
    Hardest,
    /// Negatives drawn uniformly without replacement (the default).
    #[default]
    Random,
}

/// The Bayesian triplet loss's options (chapter 05; `probdml train --method btl-gaussian`,
/// `btl-vmf`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct BtlOptions {
    /// BTL: how the negatives of an anchor are chosen (random: the default; hardest: the
    /// paper's rule, which inflates σ² and stalls retrieval when training from scratch at small
    /// D, see chapter 09).
    #[cfg_attr(
        feature = "tch",
        arg(
            id = "btl_negatives",
            long = "btl-negatives",
            value_enum,
            default_value_t = BtlOptions::DEFAULT.negatives
        )
    )]
    pub negatives: Negatives,
}

impl Default for BtlOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl BtlOptions {
    /// The default: uniformly drawn negatives.
    pub const DEFAULT: BtlOptions = BtlOptions {
        negatives: Negatives::Random,
    };

    /// The options of a run recorded before `--btl-negatives` existed: the hardest negatives,
    /// the only rule then.
    pub fn before_the_option() -> Self {
        Self {
            negatives: Negatives::Hardest,
        }
    }
}

/// The distance of ProxyNCA++ between a proxy and an embedding (chapter 06).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum ProxyDistanceChoice {
    /// −cos(μ_p, μ_z): plain ProxyNCA++.
    Cos,
    /// −ln PPK₁ between the vMFs of the embedding and the proxy (closed form).
    ElVmf,
    /// −ln of the Monte Carlo mean of the proxy's nivMF density over vMF draws of the embedding.
    #[default]
    ElNivmf,
}

impl ProxyDistanceChoice {
    /// The command-line spelling.
    pub fn name(self) -> &'static str {
        match self {
            ProxyDistanceChoice::Cos => "cos",
            ProxyDistanceChoice::ElVmf => "el-vmf",
            ProxyDistanceChoice::ElNivmf => "el-nivmf",
        }
    }

    /// The temperature used when none is given: from the nivMF paper's grid {1, 1/32, 1/256}
    /// (Supp. I), 1/32 for the cosine (distances in [−1, 1]) and 1 for the probabilistic
    /// distances (log-densities spread over tens of nats at κ ≈ 10).
    pub fn default_temperature(self) -> f64 {
        match self {
            ProxyDistanceChoice::Cos => 1.0 / 32.0,
            ProxyDistanceChoice::ElVmf | ProxyDistanceChoice::ElNivmf => 1.0,
        }
    }
}

/// ProxyNCA++'s options (chapter 06; `probdml train --method proxy-nca`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct ProxyOptions {
    /// ProxyNCA++: the proxy–embedding distance.
    #[cfg_attr(
        feature = "tch",
        arg(
            id = "proxy_distance",
            long = "proxy-distance",
            value_enum,
            default_value_t = ProxyOptions::DEFAULT.distance
        )
    )]
    pub distance: ProxyDistanceChoice,
    /// ProxyNCA++: softmax temperature t > 0 (default: 1/32 for cos, 1 otherwise).
    #[cfg_attr(
        feature = "tch",
        arg(id = "proxy_temperature", long = "proxy-temperature")
    )]
    pub temperature: Option<f64>,
    /// ProxyNCA++: Monte Carlo draws N per embedding of the EL-nivMF distance (paper: 5–20).
    #[cfg_attr(
        feature = "tch",
        arg(id = "proxy_samples", long = "proxy-samples", default_value_t = ProxyOptions::DEFAULT.samples)
    )]
    pub samples: usize,
    /// ProxyNCA++: weight ω of ProxyAnchor in the joint loss L + ω·L_PA (0: ProxyNCA++ alone).
    #[cfg_attr(
        feature = "tch",
        arg(id = "proxy_omega", long = "proxy-omega", default_value_t = ProxyOptions::DEFAULT.omega)
    )]
    pub omega: f64,
}

impl ProxyOptions {
    /// The defaults: EL-nivMF, the distance's temperature, N = 10 draws, no ProxyAnchor.
    pub const DEFAULT: ProxyOptions = ProxyOptions {
        distance: ProxyDistanceChoice::ElNivmf,
        temperature: None,
        samples: 10,
        omega: 0.0,
    };
}

impl Default for ProxyOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl ProxyOptions {
    /// The softmax temperature t: the one given, or the distance's default.
    pub fn temperature(&self) -> f64 {
        self.temperature
            .unwrap_or_else(|| self.distance.default_temperature())
    }

    /// Checks each option against its rule.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] naming the flag and the rule.
    pub fn validate(&self) -> TrainResult<()> {
        let t = self.temperature();
        if !(t.is_finite() && t >= f64::from(f32::MIN_POSITIVE) && t <= f64::from(f32::MAX)) {
            return Err(TrainError::config(
                "proxy-temperature",
                t,
                "the softmax temperature t must be finite and > 0 (within f32's normal range)",
            ));
        }
        if !(1..=MAX_METHOD_SAMPLES).contains(&self.samples) {
            return Err(TrainError::config(
                "proxy-samples",
                self.samples,
                format!("the EL-nivMF Monte Carlo estimate needs 1 to {MAX_METHOD_SAMPLES} draws"),
            ));
        }
        if !(self.omega.is_finite() && self.omega >= 0.0 && self.omega <= f64::from(f32::MAX)) {
            return Err(TrainError::config(
                "proxy-omega",
                self.omega,
                "the ProxyAnchor weight must be finite and >= 0",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `config.json` as the first probdml wrote it (commit e46cac9): no `version`, none of the
    /// fields added since (member method, protocol, score, HIB, ProxyNCA++, BTL, warm start).
    const FIRST_CONFIG: &str = include_str!("../../../tests/data/config-v1.json");

    /// A version-2 `config.json` as probdml wrote it (commit 858c373, the ensemble run of
    /// `docs/runs/2026-11-26-synthetic`): every field flat, `version` first.
    const SECOND_CONFIG: &str = include_str!("../../../tests/data/config-v2.json");

    fn scratch_file(name: &str, text: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("probdml-config-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("config.json");
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn a_first_version_config_still_loads() {
        let path = scratch_file("v1", FIRST_CONFIG);
        let read = TrainConfig::read_json(&path).unwrap();
        // The file's values are the defaults of the time, which are today's.
        assert_eq!(*read, TrainConfig::DEFAULT);
    }

    #[test]
    fn a_first_version_btl_config_reads_the_hardest_negatives() {
        // The BTL negatives of the time were the hardest: a BTL run of version 1 reads so.
        let btl = FIRST_CONFIG.replacen("\"lam-online\"", "\"btl-gaussian\"", 1);
        let read = TrainConfig::read_json(&scratch_file("v1-btl", &btl)).unwrap();
        assert_eq!(read.method, MethodKind::BtlGaussian);
        assert_eq!(read.btl.negatives, Negatives::Hardest);
    }

    #[test]
    fn a_second_version_config_still_loads() {
        let path = scratch_file("v2", SECOND_CONFIG);
        let read = TrainConfig::read_json(&path).unwrap();
        let expected = TrainConfig {
            method: MethodKind::Ensemble,
            data: DataOptions {
                dataset: DatasetChoice::Synthetic,
                train_limit: Some(384),
                test_limit: Some(100),
            },
            optimiser: OptimiserOptions {
                epochs: 2,
                ..OptimiserOptions::DEFAULT
            },
            evaluation: EvaluationOptions {
                eval_samples: 8,
                ..EvaluationOptions::DEFAULT
            },
            ensemble: EnsembleOptions {
                size: 3,
                ..EnsembleOptions::DEFAULT
            },
            ..TrainConfig::DEFAULT
        };
        assert_eq!(*read, expected);
    }

    /// A run of every method, each option away from its default where the method reads it.
    fn unusual_configs() -> Vec<TrainConfig> {
        let base = TrainConfig {
            laplace: LaplaceOptions {
                split: Split::Euclidean,
                approximation: Approximation::Full,
                prior_precision: 1.0 / 3.0,
                tempering: 0.25,
            },
            data: DataOptions {
                dataset: DatasetChoice::Synthetic,
                train_limit: Some(50),
                test_limit: Some(20),
            },
            model: ModelOptions { latent_dim: 16 },
            optimiser: OptimiserOptions {
                epochs: 3,
                batch_size: 32,
                learning_rate: 0.1 + 0.2,
                lr_decay: 0.9,
            },
            pairs: PairOptions {
                margin: 0.5,
                max_pairs: 77,
            },
            evaluation: EvaluationOptions {
                eval_samples: 9,
                score: Some(crate::protocol::Score::OutputVariance),
            },
            protocol: Protocol::Reference,
            seed: u64::MAX,
            ..TrainConfig::DEFAULT
        };
        let mut configs: Vec<TrainConfig> = crate::catalogue::METHODS
            .iter()
            .map(|row| TrainConfig {
                method: row.kind,
                ..base.clone()
            })
            .collect();
        for c in &mut configs {
            match c.method {
                MethodKind::McDropout => c.mc_dropout.dropout = 0.3,
                MethodKind::LamOnline => {
                    c.lam_online.train_samples = 4;
                    c.lam_online.memory_factor = 0.5;
                }
                MethodKind::Hib => {
                    c.hib = HibOptions {
                        components: 2,
                        samples: 3,
                        beta: 0.5,
                    }
                }
                MethodKind::ProxyNca => {
                    c.proxy = ProxyOptions {
                        distance: ProxyDistanceChoice::Cos,
                        temperature: Some(0.125),
                        samples: 4,
                        omega: 0.5,
                    }
                }
                MethodKind::BtlGaussian | MethodKind::BtlVmf => {
                    c.btl = BtlOptions::before_the_option();
                    c.init_checkpoint = Some("runs/det".into());
                }
                MethodKind::Pfe => c.init_checkpoint = Some("runs/det".into()),
                MethodKind::Ensemble => {
                    c.ensemble.size = 4;
                    c.ensemble.member_method = MethodKind::Hib;
                    c.hib.samples = 5;
                }
                MethodKind::Deterministic | MethodKind::LamPosthoc => {}
            }
        }
        configs
    }

    #[test]
    fn a_written_config_carries_its_version_and_reads_back() {
        for config in unusual_configs() {
            let path = scratch_file(config.method.name(), "");
            let valid = ValidConfig::new(config.clone()).unwrap();
            // Every option set above is one the method reads: none is dropped.
            assert_eq!(*valid, config, "{}", config.method.name());
            valid.write_json(&path).unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(
                text.starts_with(&format!(
                    "{{\n  \"version\": {CONFIG_VERSION},\n  \"method\": \"{}\",\n",
                    config.method.name()
                )),
                "{text}"
            );
            assert_eq!(TrainConfig::read_json(&path).unwrap(), valid, "{text}");
        }
    }

    #[test]
    fn a_written_config_is_grouped_by_concern() {
        let config = TrainConfig {
            method: MethodKind::Ensemble,
            ensemble: EnsembleOptions {
                member_method: MethodKind::McDropout,
                ..EnsembleOptions::DEFAULT
            },
            mc_dropout: McDropoutOptions { dropout: 0.25 },
            ..TrainConfig::DEFAULT
        };
        let text = ValidConfig::new(config)
            .unwrap()
            .to_json_text(Path::new("config.json"))
            .unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["version"], 3);
        assert_eq!(value["method"], "ensemble");
        assert_eq!(value["ensemble_size"], 5);
        assert_eq!(value["member"]["method"], "mc-dropout");
        assert_eq!(value["member"]["dropout"], 0.25);
        assert_eq!(value["data"]["dataset"], "fashion-mnist");
        assert_eq!(value["model"]["latent_dim"], 3);
        assert_eq!(value["optimiser"]["batch_size"], 64);
        assert_eq!(value["pairs"]["margin"], 0.7);
        assert_eq!(value["laplace"]["split"], "arccos");
        assert_eq!(value["evaluation"]["eval_samples"], 16);
        // Options no part of this run reads are not written.
        for absent in [
            "hib",
            "proxy",
            "btl",
            "train_samples",
            "dropout",
            "member_method",
        ] {
            assert!(value.get(absent).is_none(), "{absent} in {text}");
        }
    }

    #[test]
    fn an_option_the_method_does_not_read_is_not_kept() {
        let config = TrainConfig {
            method: MethodKind::Deterministic,
            mc_dropout: McDropoutOptions { dropout: 0.5 },
            lam_online: LamOnlineOptions {
                train_samples: 7,
                ..LamOnlineOptions::DEFAULT
            },
            ..TrainConfig::DEFAULT
        };
        assert_eq!(
            *ValidConfig::new(config).unwrap(),
            TrainConfig {
                method: MethodKind::Deterministic,
                ..TrainConfig::DEFAULT
            }
        );
    }

    #[test]
    fn an_ensemble_of_ensembles_in_a_file_is_refused() {
        let text = r#"{"version": 3, "method": "ensemble", "ensemble_size": 2,
            "member": {"method": "ensemble", "ensemble_size": 2, "member": {"method": "deterministic"}},
            "protocol": "ours", "seed": 0,
            "data": {"dataset": "synthetic", "train_limit": null, "test_limit": null},
            "model": {"latent_dim": 3},
            "optimiser": {"epochs": 1, "batch_size": 8, "learning_rate": 0.001, "lr_decay": 0.95},
            "pairs": {"margin": 0.7, "max_pairs": 10},
            "laplace": {"split": "arccos", "approximation": "fixed", "prior_precision": 1.0, "tempering": 1.0},
            "evaluation": {"eval_samples": 16}}"#;
        match TrainConfig::read_json(&scratch_file("nested", text)) {
            Err(TrainError::Checkpoint { reason, .. }) => {
                assert!(reason.contains("not ensembles"), "{reason}")
            }
            other => panic!("accepted or wrong error: {other:?}"),
        }
    }

    #[test]
    fn a_config_of_a_newer_program_is_refused_naming_the_file() {
        let newer = FIRST_CONFIG.replacen(
            '{',
            &format!("{{\n  \"version\": {},", CONFIG_VERSION + 1),
            1,
        );
        let path = scratch_file("newer", &newer);
        match TrainConfig::read_json(&path) {
            Err(TrainError::Checkpoint { path: p, reason }) => {
                assert_eq!(p, path);
                assert!(reason.contains("newer probdml"), "{reason}");
            }
            other => panic!("accepted or wrong error: {other:?}"),
        }
    }

    /// `probdml train`'s flags as the binary flattens them.
    #[cfg(feature = "tch")]
    #[derive(clap::Parser)]
    struct Flags {
        #[command(flatten)]
        config: TrainConfig,
    }

    #[cfg(feature = "tch")]
    fn parse_flags(flags: &[&str]) -> TrainConfig {
        use clap::Parser;
        Flags::try_parse_from(std::iter::once("probdml").chain(flags.iter().copied()))
            .unwrap()
            .config
    }

    #[cfg(feature = "tch")]
    #[test]
    fn the_flags_default_to_the_configuration_defaults() {
        assert_eq!(parse_flags(&[]), TrainConfig::DEFAULT);
    }

    #[cfg(feature = "tch")]
    #[test]
    fn every_flag_sets_its_own_field() {
        let parsed = parse_flags(&[
            "--method=ensemble",
            "--member-method=hib",
            "--ensemble-size=3",
            "--split=euclidean",
            "--approximation=full",
            "--tempering=0.5",
            "--dataset=synthetic",
            "--train-limit=70",
            "--test-limit=30",
            "--protocol=reference",
            "--latent-dim=8",
            "--epochs=2",
            "--lr=0.25",
            "--seed=9",
            "--train-samples=4",
            "--dropout=0.2",
            "--init-checkpoint=runs/det",
            "--hib-components=2",
            "--hib-samples=3",
            "--vib-beta=0.125",
            "--proxy-distance=cos",
            "--proxy-temperature=0.5",
            "--proxy-samples=6",
            "--proxy-omega=0.75",
            "--btl-negatives=hardest",
        ]);
        let d = TrainConfig::DEFAULT;
        let expected = TrainConfig {
            method: MethodKind::Ensemble,
            ensemble: EnsembleOptions {
                member_method: MethodKind::Hib,
                size: 3,
            },
            laplace: LaplaceOptions {
                split: Split::Euclidean,
                approximation: Approximation::Full,
                tempering: 0.5,
                ..d.laplace
            },
            data: DataOptions {
                dataset: DatasetChoice::Synthetic,
                train_limit: Some(70),
                test_limit: Some(30),
            },
            protocol: Protocol::Reference,
            model: ModelOptions { latent_dim: 8 },
            optimiser: OptimiserOptions {
                epochs: 2,
                learning_rate: 0.25,
                ..d.optimiser
            },
            seed: 9,
            lam_online: LamOnlineOptions {
                train_samples: 4,
                ..d.lam_online
            },
            mc_dropout: McDropoutOptions { dropout: 0.2 },
            init_checkpoint: Some("runs/det".into()),
            hib: HibOptions {
                components: 2,
                samples: 3,
                beta: 0.125,
            },
            proxy: ProxyOptions {
                distance: ProxyDistanceChoice::Cos,
                temperature: Some(0.5),
                samples: 6,
                omega: 0.75,
            },
            btl: BtlOptions {
                negatives: Negatives::Hardest,
            },
            ..d
        };
        assert_eq!(parsed, expected);
    }
}
