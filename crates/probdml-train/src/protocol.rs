//! Every way the LAM reference code's protocol differs from chapter 09's, as data in one place.
//!
//! A [`Protocol`] value names a protocol; [`Protocol::settings`] turns it into the
//! [`ProtocolSettings`] that the command line, the trainer, the optimiser and the LAM methods
//! read. No other file asks *which* protocol runs: each asks the settings for the one choice it
//! makes (the prior precision, the learning-rate scaling, the weight decay, how the post-hoc pass
//! orders and mines the training set, how the online precision starts and scales, how a
//! prediction is scored). `ours` reproduces chapter 09 bit for bit.
//!
//! The reference is FrederikWarburg/bayesian-metric-learning at e0188f4 with the StochMan fork
//! IlMioFrizzantinoAmabile/stochman at 1d285ae (the commit its README pins); chapter 09 of the
//! book lists every difference with the file it comes from:
//!
//! * prior precision 1 (`src/lightning/laplace_posthoc_model.py`: `prior_prec =
//!   torch.tensor(1.0)`; `laplace_online_model.py`: `posterior_scale(relu(H))` with the default
//!   `prior_prec=1` of stochman `laplace.py`);
//! * learning rate × batch size (`src/run.py`: `config.lr = config.lr * config.batch_size *
//!   torch.cuda.device_count()`), RMSprop weight decay 1e−5 (`src/lightning/base.py`:
//!   `weight_decay=self.args.get("weight_decay", 10e-6)`), `ExponentialLR(gamma=exp(-0.01))`
//!   stepped once per epoch (`base.py`);
//! * post-hoc: one pass of the shuffled training loader (`src/datasets/imageretrievaldata.py`:
//!   `shuffle=True, drop_last=True`) at the config's batch 64, triplets from the "all" miner
//!   (`src/miners/triplet_miners.py`) with margin 0.7, at most 5000 kept at random, the batch
//!   Hessians summed raw (`self.hessian += h`);
//! * online: H₀ = N·1 (`DiagLaplace.init_hessian(dataset_size)`), each step's Hessian scaled by
//!   N²/(kept triplets) (`laplace.scale(h_s, min(n_triplets, max_pairs), dataset_size**2)`), then
//!   H ← 0.999·H + ReLU(h), and the prior 1 added only when sampling;
//! * 100 weight samples per test image (`base.py`: `test_n_samples` 100), scored by the sum over
//!   dimensions of the per-dimension sample standard deviation (`src/evaluate/ood.py`:
//!   `id_sigma.sum(axis=1)` of `zs.std(dim=0)`), no vMF fit; MC dropout's masks and an
//!   ensemble's members are scored the same way (`mcdropout_model.py`, `deep_ensemble_model.py`).

use super::error::{TrainError, TrainResult};
use serde::{Deserialize, Serialize};

/// The training protocol: how a method's details (prior, Hessian scaling, optimiser, scoring)
/// are chosen. `ours` is chapter 09's; the LAM reference code's protocol is a further variant,
/// recorded in `config.json` like every other choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Protocol {
    /// Chapter 09 (the README's numbers).
    #[default]
    Ours,
    /// The LAM reference code's (every difference is listed in the protocol module).
    Reference,
}

/// How the tuples of a batch that enter the Hessian are mined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HessianMining {
    /// Chapter 09: every positive pair and every negative pair inside the margin, at most
    /// `max_pairs` drawn in the batch's proportion with the rescaled targets +P/p and −N/q.
    Pairs,
    /// The reference: triplets (a, p, n) with d(a, n) − d(a, p) ≤ margin (a ≠ p of one class, n of
    /// another), at most `max_pairs` triplets kept uniformly at random, each contributing its
    /// positive pair (a, p) with target +1 and its negative pair (a, n) with target −1.
    Triplets,
}

/// The order of the post-hoc Hessian pass over the training set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassOrder {
    /// The files' order, consecutive batches (chapter 09).
    FileOrder,
    /// One seeded random permutation, the last incomplete batch dropped (the reference's
    /// training loader).
    Shuffled,
}

/// How the online precision starts, scales its batch Hessians and meets the prior.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OnlinePrecision {
    /// Λ₀ = N (the training-set size) instead of the configuration's prior precision.
    pub start_at_dataset_size: bool,
    /// Scale each step's Hessian by N² / (tuples used) (the reference's `laplace.scale`).
    pub scale_by_dataset_squared_per_tuple: bool,
    /// The prior precision added to the running precision only when sampling (the reference's
    /// `posterior_scale(relu(H), prior_prec = 1)`); 0 for chapter 09, whose running precision
    /// holds the (decaying) prior itself.
    pub prior_at_sampling: f64,
}

/// The uncertainty score of a sampled prediction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Score {
    /// 1/κ̂ of the vMF fit of the samples (chapter 09, LAM App. C).
    #[default]
    Vmf,
    /// Σ_d std_d: the sum over dimensions of the per-dimension sample standard deviation
    /// (Bessel-corrected, as `torch.std`), the reference's score.
    StdSum,
    /// The feature norm ‖x‖ of the backbone alone (no posterior): the baseline that tells how
    /// much of a posterior's separation the feature norm already explains.
    FeatureNorm,
    /// tr Cov(y) of the raw last-layer output y = Wx + b under the Laplace posterior, in closed
    /// form (`laplace::output_variance`): the posterior's spread before normalisation
    /// (LAM posteriors only; the samples still give the mean direction and the ECE).
    OutputVariance,
}

impl Score {
    /// The command-line spelling.
    pub fn name(self) -> &'static str {
        match self {
            Score::Vmf => "vmf",
            Score::StdSum => "std-sum",
            Score::FeatureNorm => "feature-norm",
            Score::OutputVariance => "output-variance",
        }
    }
}

/// Everything a protocol decides (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProtocolSettings {
    /// The prior precision of the last layer (None: the configuration's default, the fan-in F).
    pub prior_precision: Option<f64>,
    /// Multiply the learning rate by the batch size.
    pub lr_times_batch: bool,
    /// The learning-rate factor per epoch (None: the configuration's default 0.95).
    pub lr_decay: Option<f64>,
    /// RMSprop's L2 weight decay (added to the gradient, as PyTorch's `weight_decay`).
    pub weight_decay: f64,
    /// Weight samples per test image (None: the configuration's default 16).
    pub eval_samples: Option<usize>,
    /// How the Hessian's tuples are mined (post-hoc pass and online steps).
    pub hessian_mining: HessianMining,
    /// The order of the post-hoc pass.
    pub posthoc_order: PassOrder,
    /// The online precision.
    pub online: OnlinePrecision,
    /// The uncertainty score of a sampled prediction.
    pub score: Score,
}

impl Protocol {
    /// Every protocol.
    pub const ALL: [Protocol; 2] = [Protocol::Ours, Protocol::Reference];

    /// The command-line spelling.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Ours => "ours",
            Protocol::Reference => "reference",
        }
    }

    /// Parses the command-line spelling.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] listing the choices.
    pub fn parse(s: &str) -> TrainResult<Self> {
        Protocol::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| TrainError::config("protocol", s, "one of ours, reference"))
    }

    /// The settings of the protocol (the module documentation cites the reference's files).
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml_train::protocol::{Protocol, Score};
    /// let r = Protocol::Reference.settings();
    /// assert_eq!(r.prior_precision, Some(1.0));
    /// assert_eq!(r.lr_decay, Some((-0.01f64).exp()));
    /// assert_eq!(r.score, Score::StdSum);
    /// assert_eq!(Protocol::Ours.settings().weight_decay, 0.0);
    /// ```
    pub fn settings(self) -> ProtocolSettings {
        match self {
            Protocol::Ours => ProtocolSettings {
                prior_precision: None,
                lr_times_batch: false,
                lr_decay: None,
                weight_decay: 0.0,
                eval_samples: None,
                hessian_mining: HessianMining::Pairs,
                posthoc_order: PassOrder::FileOrder,
                online: OnlinePrecision {
                    start_at_dataset_size: false,
                    scale_by_dataset_squared_per_tuple: false,
                    prior_at_sampling: 0.0,
                },
                score: Score::Vmf,
            },
            Protocol::Reference => ProtocolSettings {
                prior_precision: Some(1.0),
                lr_times_batch: true,
                // ExponentialLR(gamma = exp(-0.01)), stepped once per epoch.
                lr_decay: Some((-0.01f64).exp()),
                // `10e-6` in base.py is 1e-5.
                weight_decay: 1e-5,
                eval_samples: Some(100),
                hessian_mining: HessianMining::Triplets,
                posthoc_order: PassOrder::Shuffled,
                online: OnlinePrecision {
                    start_at_dataset_size: true,
                    scale_by_dataset_squared_per_tuple: true,
                    prior_at_sampling: 1.0,
                },
                score: Score::StdSum,
            },
        }
    }
}

impl ProtocolSettings {
    /// The learning rate the optimiser starts from: `lr`, times `batch` when the protocol scales
    /// it by the batch size.
    pub fn effective_learning_rate(&self, lr: f64, batch: usize) -> f64 {
        if self.lr_times_batch {
            lr * batch as f64
        } else {
            lr
        }
    }

    /// The online step's Hessian factor: N²/(tuples) when the protocol scales it, else 1
    /// (None for "leave the Hessian as it is", so that chapter 09's step is not even multiplied
    /// by 1). Zero tuples give no factor (the step's Hessian is 0 then).
    pub fn online_hessian_factor(&self, dataset_size: i64, tuples: i64) -> Option<f64> {
        if self.online.scale_by_dataset_squared_per_tuple && tuples > 0 {
            let n = dataset_size as f64;
            Some(n * n / tuples as f64)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{OptimiserOptions, TrainConfig};

    #[test]
    fn ours_changes_nothing() {
        let s = Protocol::Ours.settings();
        assert_eq!(s.effective_learning_rate(1e-3, 256), 1e-3);
        assert_eq!(s.online_hessian_factor(60_000, 5000), None);
        assert_eq!(s.prior_precision, None);
        assert_eq!(s.eval_samples, None);
    }

    #[test]
    fn reference_scales_by_hand_derived_values() {
        let s = Protocol::Reference.settings();
        // 1e-3 × 256 = 0.256 (the deterministic model), 1e-3 × 64 = 0.064 (online LAM).
        assert!((s.effective_learning_rate(1e-3, 256) - 0.256).abs() < 1e-15);
        assert!((s.effective_learning_rate(1e-3, 64) - 0.064).abs() < 1e-15);
        // 60000² / 5000 = 720000.
        assert_eq!(s.online_hessian_factor(60_000, 5000), Some(720_000.0));
        assert_eq!(s.online_hessian_factor(60_000, 0), None);
        assert_eq!(s.eval_samples, Some(100));
    }

    #[test]
    fn schedule_lr_per_epoch_matches_exponential_lr() {
        // ExponentialLR(γ = e^{−0.01}) from 0.064: epoch e runs at 0.064·e^{−0.01e}; by hand
        // e^{−0.01} = 0.990049833749168, e^{−0.19} = 0.8269591339433623.
        let c = TrainConfig {
            optimiser: OptimiserOptions {
                batch_size: 64,
                ..OptimiserOptions::DEFAULT
            },
            ..TrainConfig::default()
        }
        .with_protocol(Protocol::Reference);
        assert!((c.optimiser.lr_decay - 0.990_049_833_749_168).abs() < 1e-15);
        let lr = |epoch: i32| c.optimiser.learning_rate * c.optimiser.lr_decay.powi(epoch);
        assert!((lr(0) - 0.064).abs() < 1e-15);
        assert!((lr(1) - 0.064 * 0.990_049_833_749_168).abs() < 1e-15);
        assert!((lr(19) - 0.064 * 0.826_959_133_943_362_3).abs() < 1e-14);
    }

    #[test]
    fn names_round_trip() {
        for p in Protocol::ALL {
            assert_eq!(Protocol::parse(p.name()).unwrap(), p);
        }
        assert!(Protocol::parse("paper").is_err());
    }
}
