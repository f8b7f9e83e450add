//! Hedged instance embeddings (HIB, Oh et al., ICLR 2019; chapter 07) as a training method.
//!
//! # Heads
//!
//! The backbone's features x feed a mean head and a log-variance head. `p(z | x)` is an
//! equal-weight mixture of `C` diagonal Gaussians `N(μ_c(x), diag σ_c²(x))` in `ℝ^D` (`C = 1`:
//! the single Gaussian of HIB §2.2; `C = 2`: the paper's MoG, `--hib-components 2`). Component
//! 0's mean is the shared last layer `head` (so the checkpoint layout, the collapse check and the
//! diagnosis read it as for every method); further components' means come from `hib.mean_head`,
//! the log-variances `ln σ²` from `hib.log_variance_head`. Every mean is ℓ₂-normalised, as the
//! reference backbone's output is (chapter 09): the means live on the sphere where retrieval is
//! evaluated, the samples `z = μ + σ ⊙ ε` in `ℝ^D` around them. (With unit means the VIB term
//! acts on σ² only.)
//!
//! # Loss (HIB eq. 3, 5, 8)
//!
//! For a pair (i, j) with ground truth `m̂`, K reparametrised draws per component of each image
//! (stratified: `KC` per image), all `(KC)²` pairs:
//!
//! `L_ij = −ln (1/(KC)²) Σ_{k,l} sigmoid(±(−a‖z_i^k − z_j^l‖ + b)) + β (KL_i + KL_j)`,
//!
//! a log-sum-exp of log-sigmoids ([`vib_loss_tensor`]), never NaN when the sigmoid saturates:
//! the tensor twin of [`probdml::hib::SoftThreshold::vib_loss`]. `a = e^{ln a}` and `b` are learned scalars
//! (`hib.log_a`, `hib.b`, trained with the network; the exponential keeps `a > 0`).
//! `KL_i = KL(p(z|x_i) ‖ N(0, I))` in closed form for `C = 1`; for a mixture it is the mean of
//! the components' KLs, an upper bound of the mixture's KL (convexity of KL; the mixture's own
//! has no closed form). β = 10⁻⁴ by default (`--vib-beta`): the value HIB implementations use
//! (the seed text's extraction lost the paper's own statement of it).
//!
//! Pairs (`--hib-pairs`; HIB §2.3 balances m = 0 and m = 1 within a batch):
//!
//! * `balanced` (the default): every positive pair (i < j, same label) of the batch and as many
//!   negatives, drawn uniformly, at most `max_pairs` in all; the loss is the mean of `L_ij`
//!   over the pairs.
//! * `all`: every pair i < j of the batch, weighted so that the positives and the negatives
//!   each carry half the loss, `L = ½ mean_{m̂=1} L_ij + ½ mean_{m̂=0} L_ij` (the whole weight
//!   on the one kind a batch has when it lacks the other). Its expectation is the balanced
//!   loss's; a batch of 128 images over 100 classes gives it all 8 128 pairs instead of about
//!   162. `max_pairs` does not apply.
//!
//! # Prediction (HIB eq. 9)
//!
//! Mean direction: the normalised sum of the component means (μ for C = 1). Uncertainty: the
//! self-mismatch `η(x) = 1 − p(m | x, x)` by Monte Carlo, two independent sets of `S` draws per
//! component and all `(SC)²` pairs ([`self_mismatch_tensor`], the tensor twin of
//! [`probdml::hib::SoftThreshold::self_mismatch`]). The first set, normalised, is the sample set of the ECE.

use super::options::MethodOptions;
use crate::config::limits::MAX_METHOD_SAMPLES;
use crate::config::RunOptions;
use crate::error::{TrainError, TrainResult};
use serde::{Deserialize, Serialize};

/// Largest HIB mixture: C components of K samples make (CK)² sample pairs per image pair.
pub const MAX_HIB_COMPONENTS: usize = 8;

/// HIB's options (chapter 07; `probdml train --method hib`; `config.json`: `"hib": {…}` beside
/// `"method": "hib"`).
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
    /// HIB: where the means live: `sphere` (ℓ₂-normalised) or `euclidean` (ℝ^D, the paper's).
    #[cfg_attr(
        feature = "tch",
        arg(id = "hib_means", long = "hib-means", value_enum, default_value_t = HibOptions::DEFAULT.means)
    )]
    #[serde(default, skip_serializing_if = "HibMeans::is_sphere")]
    pub means: HibMeans,
    /// HIB: point embeddings, σ = 0 (one draw, the mean; no VIB term): the soft contrastive
    /// loss of HIB eq. 3, the paper's point baseline (§4.2).
    #[cfg_attr(feature = "tch", arg(id = "hib_point", long = "hib-point"))]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub point: bool,
    /// HIB: the pairs of a batch the loss is formed over: `balanced` (every positive and as
    /// many random negatives) or `all` (every pair, positives and negatives weighted to half
    /// the loss each).
    #[cfg_attr(
        feature = "tch",
        arg(id = "hib_pairs", long = "hib-pairs", value_enum, default_value_t = HibOptions::DEFAULT.pairs)
    )]
    #[serde(default, skip_serializing_if = "HibPairs::is_balanced")]
    pub pairs: HibPairs,
    /// HIB: how the log-variance head's output is held below ln σ² = 20: `clamp` (no gradient
    /// past it) or `soft` (20 − softplus(20 − x), a gradient everywhere).
    #[cfg_attr(
        feature = "tch",
        arg(id = "hib_variance_cap", long = "hib-variance-cap", value_enum, default_value_t = HibOptions::DEFAULT.variance_cap)
    )]
    #[serde(default, skip_serializing_if = "VarianceCap::is_clamp")]
    pub variance_cap: VarianceCap,
}

/// How HIB's log-variance head is held below [`MAX_LOG_VARIANCE`] (see `Hib`'s heads for why
/// there is a cap at all).
///
/// A clamp passes no gradient past the cap: an entry the first steps push past it stays there
/// until the head's weights, trained through the entries still below it, bring it back, and a
/// run without the VIB term can spend most of its first epochs there (chapter 10). The soft cap
/// `c − softplus(c − x)` is below `c` everywhere, equals `x` to within `e^{x − c}` below it
/// (2·10⁻¹¹ at the initial ln σ² = ln 0.01), and its slope `sigmoid(c − x)` is never 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum VarianceCap {
    /// `min(x, c)`: no gradient past the cap.
    #[default]
    Clamp,
    /// `c − softplus(c − x)`: smooth, strictly below the cap, a gradient everywhere.
    Soft,
}

impl VarianceCap {
    /// Whether this is the default (`config.json` leaves it out, so that runs of the default
    /// write the file older versions wrote).
    pub fn is_clamp(&self) -> bool {
        *self == VarianceCap::Clamp
    }

    /// The least capped value whose head output `x` is at or past the cap: `c` for the clamp,
    /// `c − ln 2` (= `c − softplus(0)`) for the soft cap, which is increasing, so that
    /// `capped ≥ threshold ⇔ x ≥ c` for both.
    pub fn threshold(&self) -> f64 {
        match self {
            VarianceCap::Clamp => MAX_LOG_VARIANCE,
            VarianceCap::Soft => MAX_LOG_VARIANCE - std::f64::consts::LN_2,
        }
    }
}

/// The largest `ln σ²` HIB's log-variance head outputs ([`VarianceCap`]; see `Hib`'s heads): far
/// beyond any useful spread, far below f32's overflow of `σ = e^{ln σ² / 2}` at `ln σ² ≈ 177`.
pub const MAX_LOG_VARIANCE: f64 = 20.0;

/// Which pairs of a batch HIB's loss is formed over (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum HibPairs {
    /// Every positive pair and as many negatives drawn uniformly, the mean over them.
    #[default]
    Balanced,
    /// Every pair, the positives and the negatives weighted to half the loss each.
    All,
}

impl HibPairs {
    /// Whether this is the default (`config.json` leaves it out, so that runs of the default
    /// write the file older versions wrote).
    pub fn is_balanced(&self) -> bool {
        *self == HibPairs::Balanced
    }
}

/// Where HIB's component means live.
///
/// HIB (Oh et al. 2019, §2, Figs. 3–4) embeds in ℝ^D: its D = 2 figures place 100 numbers in
/// the plane. Chapter 09's methods ℓ₂-normalise their embeddings, and so does HIB here by
/// default, so that it is scored on the sphere like the methods of LAM Table 2. At D = 2 the
/// sphere is a circle, 2π long: 100 classes a soft threshold b/a apart cannot all fit on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum HibMeans {
    /// ℓ₂-normalised means: the samples `μ + σ ⊙ ε` scatter around the unit sphere.
    #[default]
    Sphere,
    /// Unconstrained means in ℝ^D, as in the paper; the VIB term then pulls them towards 0.
    Euclidean,
}

impl HibMeans {
    /// Whether the means are on the sphere, the default: `config.json` leaves the default out,
    /// so that a run of the defaults writes the file older versions wrote.
    pub fn is_sphere(&self) -> bool {
        *self == HibMeans::Sphere
    }
}

impl HibOptions {
    /// The defaults: one Gaussian, the paper's K = 8, β = 10⁻⁴, means on the sphere, σ learned.
    pub const DEFAULT: HibOptions = HibOptions {
        components: 1,
        samples: 8,
        beta: 1e-4,
        means: HibMeans::Sphere,
        point: false,
        pairs: HibPairs::Balanced,
        variance_cap: VarianceCap::Clamp,
    };
}

impl Default for HibOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl MethodOptions for HibOptions {
    const NAME: &'static str = "hib";
    const KEY: Option<&'static str> = Some("hib");

    fn defaults() -> Self {
        Self::DEFAULT
    }

    fn validate(&self) -> TrainResult<()> {
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
        if self.point && !self.variance_cap.is_clamp() {
            return Err(TrainError::config(
                "hib-variance-cap",
                "soft",
                "point embeddings (--hib-point) have no σ to cap",
            ));
        }
        if self.point && self.components != 1 {
            return Err(TrainError::config(
                "hib-components",
                self.components,
                "point embeddings (--hib-point) have one component",
            ));
        }
        Ok(())
    }

    fn label(&self, _run: &RunOptions) -> String {
        let kind = match (self.point, self.components) {
            (true, _) => Some("point".to_string()),
            (false, 1) => None,
            (false, k) => Some(format!("MoG, C = {k}")),
        };
        let space = (self.means == HibMeans::Euclidean).then(|| "ℝ^D".to_string());
        let pairs = (self.pairs == HibPairs::All).then(|| "all pairs".to_string());
        let parts: Vec<String> = kind.into_iter().chain(space).chain(pairs).collect();
        if parts.is_empty() {
            Self::NAME.to_string()
        } else {
            format!("{} ({})", Self::NAME, parts.join(", "))
        }
    }

    #[cfg(feature = "tch")]
    fn build(
        &self,
        run: &RunOptions,
        device: tch::Device,
        seed: u64,
    ) -> TrainResult<Box<dyn super::Method>> {
        Ok(Box::new(Hib::new(self, run, device, seed)?))
    }
}

#[cfg(feature = "tch")]
pub use libtorch::*;

/// The method on libtorch, and the tensor twins of its maths.
#[cfg(feature = "tch")]
mod libtorch {
    use super::{HibMeans, HibOptions, HibPairs, VarianceCap, MAX_LOG_VARIANCE};
    use crate::config::RunOptions;
    use crate::error::{TrainError, TrainResult};
    use crate::guards::{check_collapse, check_finite};
    use crate::method::options::MethodOptions;
    use crate::method::{Batch, Method, Step};
    use crate::network::Network;
    use crate::network::{features_no_grad, normalise};
    use crate::prediction::EVAL_CHUNK;
    use crate::prediction::{PredictRequest, Prediction};
    use tch::{nn, Device, Kind, Tensor};

    /// Initial `ln σ²` of every coordinate: σ = 0.1 around unit means (classes on the sphere lie
    /// about 1 apart), well inside the sigmoid's slope at the initial `a`, `b`.
    pub const LOG_VARIANCE_INIT: f64 = -4.605_170_185_988_091; // ln 0.01
    /// Initial `a` of the match probability sigmoid(−a‖z₁ − z₂‖ + b).
    pub const A_INIT: f64 = 5.0;
    /// Initial `b`: the match probability crosses ½ at ‖z₁ − z₂‖ = b/a = 0.5.
    pub const B_INIT: f64 = 2.5;

    /// The smallest squared distance differentiated through √: √ has an infinite derivative at 0,
    /// and [`probdml::hib::SoftThreshold::vib_loss`] takes the subgradient 0 there, which the clamp reproduces (its
    /// gradient is 0 below the floor); the value moves by at most √floor = 10⁻¹⁵.
    const SQUARED_DISTANCE_FLOOR: f64 = 1e-30;

    /// The pairs of a batch for the soft contrastive loss.
    #[derive(Debug)]
    pub struct PairIndices {
        /// First image of each pair (int64, P).
        pub first: Tensor,
        /// Second image of each pair (int64, P).
        pub second: Tensor,
        /// Whether the pair matches (bool, P).
        pub is_match: Tensor,
        /// Each pair's weight in the loss (P, summing to 1); None: the plain mean over the
        /// pairs.
        pub weight: Option<Tensor>,
    }

    impl PairIndices {
        /// Every positive pair i < j of `labels` (int64, B) and as many negative pairs drawn
        /// uniformly without replacement (libtorch's generator), at most `max_pairs` in all (half of
        /// them positive when there are more).
        pub fn balanced(labels: &Tensor, max_pairs: i64) -> Self {
            tch::no_grad(|| {
                let b = labels.size()[0];
                let device = labels.device();
                let upper = Tensor::ones([b, b], (Kind::Bool, device)).triu(1);
                let same = labels.unsqueeze(1).eq_tensor(&labels.unsqueeze(0));
                let pos = same.logical_and(&upper).nonzero();
                let neg = same.logical_not().logical_and(&upper).nonzero();
                let (np, nn) = (pos.size()[0], neg.size()[0]);
                let keep_p = np.min((max_pairs / 2).max(1));
                let keep_n = nn.min(if keep_p > 0 { keep_p } else { max_pairs.max(1) });
                let take = |pairs: &Tensor, n: i64, keep: i64| {
                    if keep < n {
                        let perm = Tensor::randperm(n, (Kind::Int64, device)).narrow(0, 0, keep);
                        pairs.index_select(0, &perm)
                    } else {
                        pairs.shallow_clone()
                    }
                };
                let (pos, neg) = (take(&pos, np, keep_p), take(&neg, nn, keep_n));
                let all = Tensor::cat(&[&pos, &neg], 0);
                PairIndices {
                    first: all.select(1, 0),
                    second: all.select(1, 1),
                    is_match: Tensor::cat(
                        &[
                            Tensor::ones([keep_p], (Kind::Bool, device)),
                            Tensor::zeros([keep_n], (Kind::Bool, device)),
                        ],
                        0,
                    ),
                    weight: None,
                }
            })
        }

        /// Every pair i < j of `labels` (int64, B), row by row, weighted `1/(2 n₊)` if it
        /// matches and `1/(2 n₋)` if not (n₊, n₋ the batch's matching and other pairs), so that
        /// each kind carries half the loss; `1/n` each when the batch has only one kind.
        pub fn all_weighted(labels: &Tensor, kind: Kind) -> Self {
            tch::no_grad(|| {
                let b = labels.size()[0];
                let device = labels.device();
                let upper = Tensor::ones([b, b], (Kind::Bool, device)).triu(1);
                let all = upper.nonzero();
                let (first, second) = (all.select(1, 0), all.select(1, 1));
                let is_match = labels
                    .index_select(0, &first)
                    .eq_tensor(&labels.index_select(0, &second));
                let positives = is_match.sum(Kind::Int64).int64_value(&[]);
                let negatives = first.size()[0] - positives;
                let share = |n: i64, other: i64| match (n, other) {
                    (0, _) => 0.0,
                    (_, 0) => 1.0 / n as f64,
                    _ => 0.5 / n as f64,
                };
                let on_match = share(positives, negatives);
                let otherwise = share(negatives, positives);
                let weight = is_match.to_kind(kind) * (on_match - otherwise) + otherwise;
                PairIndices {
                    first,
                    second,
                    is_match,
                    weight: Some(weight),
                }
            })
        }

        /// Number of pairs.
        pub fn len(&self) -> i64 {
            self.first.size()[0]
        }

        /// Whether there is no pair.
        pub fn is_empty(&self) -> bool {
            self.len() == 0
        }
    }

    /// The terms of the VIB loss of a batch of pairs.
    #[derive(Debug)]
    pub struct VibTerms {
        /// Mean over the pairs of `NLL_ij + β (KL_i + KL_j)` (a scalar).
        pub loss: Tensor,
        /// The soft contrastive NLL `−ln p̂(m = m̂ | x_i, x_j)` of each pair (P).
        pub nll: Tensor,
        /// `KL(p(z|x) ‖ N(0, I))` of each image (B; the mean over components for a mixture).
        pub kl: Tensor,
    }

    impl VarianceCap {
        /// The log-variance head's output `raw` held below [`MAX_LOG_VARIANCE`].
        pub fn apply(&self, raw: &Tensor) -> Tensor {
            match self {
                VarianceCap::Clamp => raw.clamp_max(MAX_LOG_VARIANCE),
                // libtorch's softplus is linear past 20 (its threshold) and never overflows: the
                // cap is x itself for x < c − 20 = 0, within ln(1 + e⁻²⁰) = 2.1·10⁻⁹ of the
                // closed form.
                VarianceCap::Soft => -(-raw + MAX_LOG_VARIANCE).softplus() + MAX_LOG_VARIANCE,
            }
        }
    }

    /// The fraction of the entries of `log_variance` (the heads' output, already capped by
    /// `cap`) whose head output is at or past [`MAX_LOG_VARIANCE`] ([`VarianceCap::threshold`]).
    /// Under the clamp no gradient reaches them: neither the match probability nor the VIB term
    /// pulls them back directly, only a change of the features or of the head's weights, which
    /// the entries still below the cap train (chapter 10 measures how long a run stays there
    /// with and without the VIB term); under the soft cap the share `sigmoid(c − x) ≤ ½` of it
    /// does, which falls as `e^{−(x − c)}` far past the cap.
    /// At the cap σ ≈ 2.2·10⁴, and `β·KL` alone is about `β·e²⁰/2 ≈ 2.4·10⁴` per coordinate at
    /// β = 10⁻⁴: a step's loss in the thousands says the cap was reached.
    pub fn at_cap(log_variance: &Tensor, cap: VarianceCap) -> f64 {
        if log_variance.numel() == 0 {
            return 0.0;
        }
        tch::no_grad(|| {
            log_variance
                .ge(cap.threshold())
                .to_kind(Kind::Double)
                .mean(Kind::Double)
                .double_value(&[])
        })
    }

    /// Stratified reparametrised draws `z = μ_c + σ_c ⊙ ε`: `mean` and `log_variance` are
    /// B × C × D, `noise` B × C × K × D (component by component, draw by draw, coordinate by
    /// coordinate, the order of [`probdml::hib::SoftThreshold::match_probability`]); returns B × (C·K) × D.
    pub fn draws(mean: &Tensor, log_variance: &Tensor, noise: &Tensor) -> Tensor {
        let sd = (log_variance * 0.5).exp();
        let z = mean.unsqueeze(2) + sd.unsqueeze(2) * noise;
        let size = z.size();
        z.reshape([size[0], size[1] * size[2], size[3]])
    }

    /// `‖z1_k − z2_l‖` for all sample pairs: `z1`, `z2` are P × S × D; returns P × S × S.
    fn sample_distances(z1: &Tensor, z2: &Tensor) -> Tensor {
        (z1.unsqueeze(2) - z2.unsqueeze(1))
            .square()
            .sum_dim_intlist(-1i64, false, z1.kind())
            .clamp_min(SQUARED_DISTANCE_FLOOR)
            .sqrt()
    }

    /// Checks the shapes and values shared by [`vib_loss_tensor`] and [`self_mismatch_tensor`].
    fn check_soft_threshold(a: &Tensor, b: &Tensor) -> TrainResult<()> {
        let (a_value, b_value) = (a.double_value(&[]), b.double_value(&[]));
        if !(a_value.is_finite() && a_value > 0.0) {
            return Err(TrainError::config(
                "hib a",
                a_value,
                "the match probability sigmoid(−a‖z₁ − z₂‖ + b) needs a finite a > 0",
            ));
        }
        if !b_value.is_finite() {
            return Err(TrainError::config("hib b", b_value, "b must be finite"));
        }
        Ok(())
    }

    /// The VIB loss of HIB (eq. 8) over `pairs` of a batch, the tensor twin of
    /// [`probdml::hib::SoftThreshold::vib_loss`] (which it equals pair by pair for `C = 1`, value and gradient,
    /// on the same noise: `crates/probdml-train/tests/train_hib.rs`).
    ///
    /// `mean`, `log_variance`: B × C × D; `noise`: B × C × K × D standard normals; `a`, `b`:
    /// one-element tensors (`a > 0`); `beta ≥ 0`.
    ///
    /// # Formula
    ///
    /// $$ L = \frac1P \sum_{(i,j)} \Big[ \ln (KC)^2 - \operatorname{LSE}_{k,l} \ln \operatorname{sigmoid}\big(\pm(-a\lVert z_i^{(k)} - z_j^{(l)}\rVert + b)\big) + \beta (\mathrm{KL}_i + \mathrm{KL}_j) \Big] $$
    ///
    /// with the pairs' weights `w_ij` in place of `1/P` where `pairs.weight` holds them
    /// ([`PairIndices::all_weighted`]).
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] for mismatched shapes, `K = 0`, no pair, pair weights not
    /// one per pair, `a ≤ 0` or not finite, a non-finite `b`, or `β` negative or not finite.
    pub fn vib_loss_tensor(
        mean: &Tensor,
        log_variance: &Tensor,
        noise: &Tensor,
        pairs: &PairIndices,
        a: &Tensor,
        b: &Tensor,
        beta: f64,
    ) -> TrainResult<VibTerms> {
        let shape = mean.size();
        if shape.len() != 3 || log_variance.size() != shape {
            return Err(TrainError::config(
                "hib heads",
                format!("mean {:?}, log-variance {:?}", shape, log_variance.size()),
                "mean and log-variance must both be B × C × D",
            ));
        }
        let noise_shape = noise.size();
        if noise_shape.len() != 4
            || noise_shape[0] != shape[0]
            || noise_shape[1] != shape[1]
            || noise_shape[3] != shape[2]
            || noise_shape[2] == 0
        {
            return Err(TrainError::config(
                "hib-samples",
                format!("noise {noise_shape:?} for heads {shape:?}"),
                "the noise must be B × C × K × D with K >= 1 samples",
            ));
        }
        if pairs.is_empty() {
            return Err(TrainError::config(
                "pairs",
                0,
                "the soft contrastive loss needs at least one pair",
            ));
        }
        if let Some(w) = &pairs.weight {
            if w.size() != [pairs.len()] {
                return Err(TrainError::config(
                    "pairs",
                    format!("weights {:?} for {} pairs", w.size(), pairs.len()),
                    "one weight per pair",
                ));
            }
        }
        if !(beta.is_finite() && beta >= 0.0) {
            return Err(TrainError::config(
                "vib-beta",
                beta,
                "must be finite and >= 0",
            ));
        }
        check_soft_threshold(a, b)?;
        let z = draws(mean, log_variance, noise);
        let d = sample_distances(
            &z.index_select(0, &pairs.first),
            &z.index_select(0, &pairs.second),
        );
        let logit = -(a * &d) + b;
        // ln s for matches, ln(1 − s) = ln sigmoid(−logit) otherwise.
        let sign = pairs
            .is_match
            .to_kind(d.kind())
            .f_mul_scalar(2.0)?
            .f_sub_scalar(1.0)?
            .view([-1, 1, 1]);
        let log_terms = (logit * sign).log_sigmoid();
        let samples = d.size()[1] as f64;
        let nll = -log_terms.logsumexp([1i64, 2], false) + 2.0 * samples.ln();
        // ½ Σ_d (σ² + μ² − 1 − ln σ²), mean over components.
        let kl = ((log_variance.exp() + mean.square() - 1.0 - log_variance).sum_dim_intlist(
            -1i64,
            false,
            mean.kind(),
        ) * 0.5)
            .mean_dim(-1i64, false, mean.kind());
        let pair_kl = kl.index_select(0, &pairs.first) + kl.index_select(0, &pairs.second);
        let per_pair = &nll + pair_kl * beta;
        let loss = match &pairs.weight {
            None => per_pair.mean(mean.kind()),
            Some(w) => (per_pair * w).sum(mean.kind()),
        };
        Ok(VibTerms { loss, nll, kl })
    }

    /// The self-mismatch `η = 1 − p(m | x, x)` of each input by Monte Carlo (HIB eq. 9), the tensor
    /// twin of [`probdml::hib::SoftThreshold::self_mismatch`]: `z1`, `z2` are N × S × D independent draws from each
    /// `p(z | x)`; returns the N means of `sigmoid(a‖z1_k − z2_l‖ − b)` over all `S²` pairs.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] for `a ≤ 0`, a non-finite `b` or shapes that differ.
    pub fn self_mismatch_tensor(
        z1: &Tensor,
        z2: &Tensor,
        a: &Tensor,
        b: &Tensor,
    ) -> TrainResult<Tensor> {
        if z1.size() != z2.size() || z1.size().len() != 3 || z1.size()[1] == 0 {
            return Err(TrainError::config(
                "hib samples",
                format!("{:?} and {:?}", z1.size(), z2.size()),
                "two N × S × D sample sets with S >= 1",
            ));
        }
        check_soft_threshold(a, b)?;
        let d = sample_distances(z1, z2);
        Ok((a * d - b)
            .sigmoid()
            .mean_dim([1i64, 2].as_slice(), false, z1.kind()))
    }

    /// The HIB method: the network with its extra heads and the match probability's `a`, `b`.
    #[derive(Debug)]
    pub struct Hib {
        network: Network,
        /// Means of components 1..C ((C − 1)·D × F), None for C = 1.
        mean_head: Option<(Tensor, Tensor)>,
        /// `ln σ²` of every component (C·D × F); None for point embeddings (σ = 0).
        log_variance_head: Option<(Tensor, Tensor)>,
        log_a: Tensor,
        b: Tensor,
        options: HibOptions,
        max_pairs: i64,
    }

    impl Hib {
        /// A fresh network with HIB's heads, seeded.
        ///
        /// # Errors
        ///
        /// Invalid HIB options.
        pub fn new(
            options: &HibOptions,
            run: &RunOptions,
            device: Device,
            seed: u64,
        ) -> TrainResult<Self> {
            options.validate()?;
            let network = Network::without_dropout(run, device, seed);
            let (c, d) = (options.components as i64, run.model.latent_dim as i64);
            let root = network.vs.root() / "hib";
            let features = network.net.backbone.feature_count();
            let bound = 1.0 / (features as f64).sqrt();
            let uniform = nn::Init::Uniform {
                lo: -bound,
                up: bound,
            };
            let linear = |name: &str, outputs: i64, bias: nn::Init| {
                let p = &root / name;
                (
                    p.var("weight", &[outputs, features], uniform),
                    p.var("bias", &[outputs], bias),
                )
            };
            let mean_head = (c > 1).then(|| linear("mean_head", (c - 1) * d, uniform));
            let log_variance_head = (!options.point).then(|| {
                linear(
                    "log_variance_head",
                    c * d,
                    nn::Init::Const(LOG_VARIANCE_INIT),
                )
            });
            let log_a = root.var("log_a", &[1], nn::Init::Const(A_INIT.ln()));
            let b = root.var("b", &[1], nn::Init::Const(B_INIT));
            Ok(Self {
                network,
                mean_head,
                log_variance_head,
                log_a,
                b,
                options: options.clone(),
                max_pairs: run.pairs.max_pairs as i64,
            })
        }

        /// `a = e^{ln a}` (one element).
        pub fn a(&self) -> Tensor {
            self.log_a.exp()
        }

        /// `b` (one element).
        pub fn b(&self) -> &Tensor {
            &self.b
        }

        /// The mixture's mean `Σ_c μ_c / C` of each image (N × D), on `device`.
        fn means(&self, images: &Tensor, device: Device) -> Tensor {
            tch::no_grad(|| {
                let f = features_no_grad(
                    &self.network.net.backbone,
                    images,
                    EVAL_CHUNK,
                    false,
                    device,
                );
                let (_, mean, _) = self.heads(&f);
                mean.mean_dim(1i64, false, mean.kind())
            })
        }

        /// The raw output of component 0 (for the collapse check), the means (B × C × D; unit
        /// on the sphere) and the log-variances (B × C × D; None for point embeddings) of
        /// features `f`.
        fn heads(&self, f: &Tensor) -> (Tensor, Tensor, Option<Tensor>) {
            let net = &self.network.net;
            let d = net.latent_dim;
            let b = f.size()[0];
            let place = |y: &Tensor| match self.options.means {
                HibMeans::Sphere => normalise(y),
                HibMeans::Euclidean => y.shallow_clone(),
            };
            let y0 = net.head.raw(f);
            let mut means = vec![place(&y0)];
            if let Some((w, bias)) = &self.mean_head {
                let extra = f.linear(w, Some(bias)).view([-1, d]);
                means.push(place(&extra).view([b, -1]));
            }
            let mean = Tensor::cat(&means, 1).view([b, -1, d]);
            let Some((w, bias)) = &self.log_variance_head else {
                return (y0, mean, None);
            };
            // Capped at ln σ² = 20 (`--hib-variance-cap`; σ ≈ 2.2·10⁴ around unit means, where
            // p(m | x₁, x₂) is long at its floor): the head's fan-in is F = 64·12·(14N − 2)
            // features on N-digit images (30 720 for N = 3), and one RMSprop step moves every
            // weight by up to 10·lr, so a batch of non-matching pairs alone (1 000 classes) can
            // push ln σ² past 176, where σ overflows f32 and the draws z = μ + σε become infinite.
            let log_variance = self
                .options
                .variance_cap
                .apply(&f.linear(w, Some(bias)).view([b, -1, d]));
            (y0, mean, Some(log_variance))
        }

        /// `samples` draws per component of each row of `mean` and `log_variance` (B × C × D
        /// each): the stratified [`draws`] (B × C·S × D) from fresh normals; for point
        /// embeddings (no log-variance) the means themselves, one draw per component, through
        /// the same [`draws`] with σ = 1 and zero noise (exactly `μ + 1 · 0`).
        fn sample(mean: &Tensor, log_variance: Option<&Tensor>, samples: i64) -> Tensor {
            let size = mean.size();
            let options = (mean.kind(), mean.device());
            match log_variance {
                Some(v) => draws(
                    mean,
                    v,
                    &Tensor::randn([size[0], size[1], samples, size[2]], options),
                ),
                None => draws(
                    mean,
                    &Tensor::zeros_like(mean),
                    &Tensor::zeros([size[0], size[1], 1, size[2]], options),
                ),
            }
        }
    }

    impl Method for Hib {
        fn network(&self) -> &Network {
            &self.network
        }
        fn network_mut(&mut self) -> &mut Network {
            &mut self.network
        }

        /// The VIB loss over the batch's pairs (`--hib-pairs`), K draws per component and image.
        fn step(&mut self, batch: &Batch<'_>) -> TrainResult<Step> {
            let f = self.network.net.backbone.features(batch.images, false);
            let (y0, mean, log_variance) = self.heads(&f);
            check_collapse(&y0, batch.at)?;
            let size = mean.size();
            let options = (mean.kind(), mean.device());
            let cap = self.options.variance_cap;
            let at_bound = log_variance.as_ref().map(|v| at_cap(v, cap));
            // Point embeddings: σ = 1 and zero noise make the one draw the mean itself, and
            // the VIB term is left out (its KL is infinite at σ = 0): the soft contrastive loss.
            let (log_variance, noise, beta) = match log_variance {
                Some(v) => {
                    check_finite(&v, "hib log-variance ln σ²", batch.at)?;
                    let samples = self.options.samples as i64;
                    let noise = Tensor::randn([size[0], size[1], samples, size[2]], options);
                    (v, noise, self.options.beta)
                }
                None => (
                    Tensor::zeros_like(&mean),
                    Tensor::zeros([size[0], size[1], 1, size[2]], options),
                    0.0,
                ),
            };
            let pairs = match self.options.pairs {
                HibPairs::Balanced => PairIndices::balanced(batch.labels, self.max_pairs),
                HibPairs::All => PairIndices::all_weighted(batch.labels, mean.kind()),
            };
            if pairs.is_empty() {
                return Ok(Step {
                    loss: Tensor::zeros([], (mean.kind(), mean.device())),
                    pairs: 0,
                    at_bound,
                });
            }
            let terms = vib_loss_tensor(
                &mean,
                &log_variance,
                &noise,
                &pairs,
                &self.a(),
                &self.b,
                beta,
            )?;
            Ok(Step {
                loss: terms.loss,
                pairs: pairs.len(),
                at_bound,
            })
        }

        /// p(m | x₁, x₂) = E sigmoid(−a‖z₁ − z₂‖ + b) (HIB eq. 4) over `S` draws per component
        /// of each side of a pair, all `(SC)²` sample pairs: one minus [`self_mismatch_tensor`]
        /// of the two sides' draws, which is the same mean of sigmoids with the sign turned.
        /// The heads are computed once per image; the draws are fresh for every pair.
        fn match_probability(
            &self,
            images: &Tensor,
            first: &Tensor,
            second: &Tensor,
            request: &PredictRequest,
        ) -> TrainResult<Option<Tensor>> {
            if first.size() != second.size() || first.size().len() != 1 {
                return Err(TrainError::config(
                    "pairs",
                    format!("{:?} and {:?}", first.size(), second.size()),
                    "the first and second images of the pairs: two index vectors of one length",
                ));
            }
            let (a, b) = (self.a().detach(), self.b.detach());
            let samples = request.samples.max(1) as i64;
            tch::no_grad(|| -> TrainResult<Option<Tensor>> {
                let f = features_no_grad(
                    &self.network.net.backbone,
                    images,
                    EVAL_CHUNK,
                    false,
                    request.device,
                );
                let (_, mean, log_variance) = self.heads(&f);
                tch::manual_seed(request.batch_seed() as i64);
                let draw = |index: &Tensor| {
                    let index = index.to_device(mean.device());
                    let v = log_variance.as_ref().map(|v| v.index_select(0, &index));
                    Self::sample(&mean.index_select(0, &index), v.as_ref(), samples)
                };
                let (z1, z2) = (draw(first), draw(second));
                let mismatch = self_mismatch_tensor(&z1, &z2, &a, &b)?;
                Ok(Some(mismatch.f_neg()?.f_add_scalar(1.0)?))
            })
        }

        /// The mixture's mean in ℝ^D for means off the sphere; None on the sphere, where the
        /// mean direction of [`Method::predict`] is the embedding.
        fn embedding_means(
            &self,
            images: &Tensor,
            request: &PredictRequest,
        ) -> TrainResult<Option<Tensor>> {
            Ok(match self.options.means {
                HibMeans::Sphere => None,
                HibMeans::Euclidean => Some(self.means(images, request.device)),
            })
        }

        /// Mean direction, self-mismatch η from `S` draws per component, the draws for the ECE.
        /// Point embeddings: one sample, the mean's direction, and no uncertainty.
        fn predict(&self, images: &Tensor, request: &PredictRequest) -> TrainResult<Prediction> {
            if self.options.point {
                let mean = self.means(images, request.device);
                return Ok(Prediction::Samples(normalise(&mean).unsqueeze(1)));
            }
            let (a, b) = (self.a().detach(), self.b.detach());
            let samples = request.samples.max(1) as i64;
            let parts = tch::no_grad(|| -> TrainResult<Vec<(Tensor, Tensor, Tensor)>> {
                let f = features_no_grad(
                    &self.network.net.backbone,
                    images,
                    EVAL_CHUNK,
                    false,
                    request.device,
                );
                tch::manual_seed(request.batch_seed() as i64);
                let n = f.size()[0];
                let mut parts = Vec::new();
                let mut start = 0;
                while start < n {
                    let len = EVAL_CHUNK.min(n - start);
                    let (_, mean, log_variance) = self.heads(&f.narrow(0, start, len));
                    let z1 = Self::sample(&mean, log_variance.as_ref(), samples);
                    let z2 = Self::sample(&mean, log_variance.as_ref(), samples);
                    let eta = self_mismatch_tensor(&z1, &z2, &a, &b)?;
                    let sum = mean.sum_dim_intlist(1i64, false, mean.kind());
                    // Antipodal components sum to 0: fall back on component 0's direction.
                    let usable = sum.norm_scalaropt_dim(2.0, [1i64], true).gt(1e-6);
                    let direction = normalise(&sum.where_self(&usable, &mean.select(1, 0)));
                    let unit = &z1 / z1.norm_scalaropt_dim(2.0, [-1i64], true).clamp_min(1e-12);
                    parts.push((direction, eta, unit));
                    start += len;
                }
                Ok(parts)
            })?;
            let cat = |k: usize| -> TrainResult<Tensor> {
                let v: Vec<&Tensor> = parts
                    .iter()
                    .map(|p| match k {
                        0 => &p.0,
                        1 => &p.1,
                        _ => &p.2,
                    })
                    .collect();
                Ok(Tensor::f_cat(&v, 0)?)
            };
            Ok(Prediction::Distribution {
                mean: cat(0)?,
                uncertainty: cat(1)?,
                samples: Some(cat(2)?),
            })
        }
    }
}
