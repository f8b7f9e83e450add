//! The groups of options every run has, as `config.json` groups them (book chapter 09, "The
//! run's configuration"): the data, the network, the optimiser, the pairs, the Laplace
//! posterior and the evaluation. Each default is written once, in its group's `DEFAULT`.
//!
//! With feature "tch" the groups are flags of `probdml train` (`clap::Args`): a flag's default
//! is the group's. The options whose default depends on the method or the protocol (`batch_size`,
//! `eval_samples`, `prior_precision`), and those with no flag, are skipped by the parser and set
//! by the caller.

use super::dataset::DatasetChoice;
use super::spelling::{approximation_name, split_name};
#[cfg(feature = "tch")]
use super::spelling::{approximation_parser, split_parser};
use crate::backbone_layout::BackboneLayout;
use crate::batch_sampler::BatchSampler;
use crate::conv_init::ConvInit;
use crate::mining::LossMining;
use crate::n_digit_gap::NDigitGap;
use crate::optimiser_algorithm::OptimiserAlgorithm;
use crate::protocol::{Protocol, Score};
use probdml::ggn::{Approximation, Split};
use serde::{Deserialize, Serialize};

/// Features the reference backbone hands the last layer for a 28×28 input: 64 channels of
/// 12×12 (the fan-in F of the head, and the default prior precision).
pub const BACKBONE_FEATURES: i64 =
    BackboneLayout::Reference.features(crate::input_geometry::InputGeometry::MNIST);

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
    /// N-digit MNIST only: `instance` (every number in training and test, the digit images
    /// apart) or `number` (70 % of the numbers in training, the rest tested as unseen; HIB
    /// Table 3).
    #[cfg_attr(
        feature = "tch",
        arg(long = "n-digit-gap", value_enum, default_value_t = DataOptions::DEFAULT.n_digit_gap)
    )]
    #[serde(default, skip_serializing_if = "NDigitGap::is_instance")]
    pub n_digit_gap: NDigitGap,
}

impl DataOptions {
    /// The size of the run's images ([`DatasetChoice::geometry`]), which its network is built for.
    pub fn geometry(&self) -> crate::input_geometry::InputGeometry {
        self.dataset.geometry()
    }
}

impl DataOptions {
    /// Every image of Fashion-MNIST and MNIST.
    pub const DEFAULT: DataOptions = DataOptions {
        dataset: DatasetChoice::FashionMnist,
        train_limit: None,
        test_limit: None,
        n_digit_gap: NDigitGap::Instance,
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
    /// How the convolutions start: `kaiming` (weights U(±√(6/fan_in)), biases 0) or `pytorch`
    /// (weights and biases U(±1/√fan_in), the LAM reference code's).
    #[cfg_attr(
        feature = "tch",
        arg(long, value_enum, default_value_t = ModelOptions::DEFAULT.conv_init)
    )]
    #[serde(default, skip_serializing_if = "ConvInit::is_kaiming")]
    pub conv_init: ConvInit,
    /// The convolutions and pools: `reference` (the LAM reference code's two 3×3 convolutions
    /// and one pool) or `hib` (HIB §4.1's two 5×5 convolutions, each followed by a pool).
    #[cfg_attr(
        feature = "tch",
        arg(long = "backbone", value_enum, default_value_t = ModelOptions::DEFAULT.backbone)
    )]
    #[serde(default, skip_serializing_if = "BackboneLayout::is_reference")]
    pub backbone: BackboneLayout,
}

impl ModelOptions {
    /// D = 3, the latent dimension of LAM Table 2; the reference layout's convolutions as tch
    /// initialises them.
    pub const DEFAULT: ModelOptions = ModelOptions {
        latent_dim: 3,
        conv_init: ConvInit::Kaiming,
        backbone: BackboneLayout::Reference,
    };
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
    /// defaults to the method's, [`MethodRow::batch`](crate::catalogue::MethodRow::batch)).
    #[cfg_attr(feature = "tch", arg(skip = OptimiserOptions::DEFAULT.batch_size))]
    pub batch_size: usize,
    /// Learning rate (of either update rule; the reference protocol multiplies it by the batch size).
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
    /// The update rule: `rmsprop` (chapter 09's) or `adam`.
    #[cfg_attr(
        feature = "tch",
        arg(long = "optimiser", value_enum, default_value_t = OptimiserOptions::DEFAULT.algorithm)
    )]
    #[serde(default, skip_serializing_if = "OptimiserAlgorithm::is_rmsprop")]
    pub algorithm: OptimiserAlgorithm,
    /// How an epoch is cut into batches: `shuffled` (every chapter's) or `two-streams` (HIB
    /// §2.3: half of each batch another image of a class already in it).
    #[cfg_attr(
        feature = "tch",
        arg(long = "batch-sampler", value_enum, default_value_t = OptimiserOptions::DEFAULT.batch_sampler)
    )]
    #[serde(default, skip_serializing_if = "BatchSampler::is_shuffled")]
    pub batch_sampler: BatchSampler,
}

impl OptimiserOptions {
    /// Chapter 09's: 20 epochs of RMSprop at 10⁻³, decayed by 0.95 per epoch, 64 images a step.
    pub const DEFAULT: OptimiserOptions = OptimiserOptions {
        epochs: 20,
        batch_size: 64,
        learning_rate: 1e-3,
        lr_decay: 0.95,
        algorithm: OptimiserAlgorithm::RmsProp,
        batch_sampler: BatchSampler::Shuffled,
    };
}

/// The pairs of the contrastive losses and of the Hessian (`config.json`'s `pairs`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct PairOptions {
    /// Contrastive margin m on the distance (form L).
    #[cfg_attr(
        feature = "tch",
        arg(long, default_value_t = PairOptions::DEFAULT.margin)
    )]
    pub margin: f64,
    /// At most this many pairs per step; more are subsampled with the rescaled targets of
    /// chapter 03.
    #[cfg_attr(
        feature = "tch",
        arg(long, default_value_t = PairOptions::DEFAULT.max_pairs)
    )]
    pub max_pairs: usize,
    /// The pairs of form L: `pairs` (every positive, every negative inside the margin, each
    /// once) or `triplets` (the LAM reference code's: each pair once per margin-violating triplet
    /// it is in, uncapped). Read by the methods that train on form L.
    #[cfg_attr(
        feature = "tch",
        arg(long, value_enum, default_value_t = PairOptions::DEFAULT.loss_mining)
    )]
    #[serde(default, skip_serializing_if = "LossMining::is_pairs")]
    pub loss_mining: LossMining,
}

impl PairOptions {
    /// The reference code's margin 0.7 and cap of 5000 pairs; form L over the pairs, each once.
    pub const DEFAULT: PairOptions = PairOptions {
        margin: 0.7,
        max_pairs: 5000,
        loss_mining: LossMining::Pairs,
    };
}

/// The last-layer Laplace posterior (`config.json`'s `laplace`): read by LAM post-hoc and online,
/// and by `probdml posthoc` from a deterministic checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct LaplaceOptions {
    /// GGN split (LAM).
    #[serde(with = "crate::config::spelling::split_serde")]
    #[cfg_attr(
        feature = "tch",
        arg(long, value_parser = split_parser(), default_value = split_name(LaplaceOptions::DEFAULT.split))
    )]
    pub split: Split,
    /// PSD approximation (LAM).
    #[serde(with = "crate::config::spelling::approximation_serde")]
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

    /// `(split, approximation)`, as the result tables label a Laplace run after its method.
    pub fn table_label(&self) -> String {
        format!(
            "({}, {})",
            split_name(self.split),
            approximation_name(self.approximation)
        )
    }
}

/// The evaluation (`config.json`'s `evaluation`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvaluationOptions {
    /// Weight samples (or dropout masks) per test image, S >= 16 for the reported metrics.
    pub eval_samples: usize,
    /// The uncertainty score of sampled predictions when it differs from the protocol's
    /// (`probdml posthoc --score`; None: the protocol's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<Score>,
}

impl EvaluationOptions {
    /// S = 16 samples per image, the protocol's score.
    pub const DEFAULT: EvaluationOptions = EvaluationOptions {
        eval_samples: 16,
        score: None,
    };

    /// The uncertainty score of sampled predictions under `protocol`: the override, else the
    /// protocol's.
    pub fn score(&self, protocol: Protocol) -> Score {
        self.score.unwrap_or(protocol.settings().score)
    }
}
