//! What the two Bayesian-triplet-loss methods share (chapter 05; [`gaussian`],
//! [`vmf`]): the backbone and μ head of chapter 09 plus the isotropic variance head
//! ([`VarianceHead::btl`](crate::network::variance_head::VarianceHead::btl), softplus), the
//! in-batch triplets ([`MinedTriplets`](crate::mining::triplets::MinedTriplets)), the CLT
//! likelihood ([`TripletBatch::clt_nll`](crate::loss::bayesian_triplet::TripletBatch::clt_nll)), and Gaussian calibration samples projected onto the
//! sphere (also PFE's).
//!
//! σ² starts at [`BTL_INITIAL_VARIANCE`] for every image (see [`crate::network::variance_head`]), and
//! the negatives follow `--btl-negatives` ([`Negatives`]; uniform by default, the paper's
//! hardest on request: [`crate::mining::triplets`] says why).
//!
//! The margin is [`BTL_MARGIN`] = 0: the paper's text gives no value and its listing's default
//! is `margin = 0.0`. (The listing evaluates `P(τ < m)`; chapter 05 and the math crate use the
//! constraint `τ < −m`, m ≥ 0, which coincide at m = 0.)

pub mod gaussian;
pub mod vmf;

use crate::config::WarmStartOptions;
use crate::mining::Negatives;
use serde::{Deserialize, Serialize};

/// The options of both BTL methods (chapter 05; `probdml train --method btl-gaussian`,
/// `btl-vmf`; `config.json`: `"btl": {"negatives": …}` and `"init_checkpoint"` beside the
/// method). Each method's own options ([`gaussian::BtlGaussianOptions`],
/// [`vmf::BtlVmfOptions`]) are these.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct BtlOptions {
    /// BTL: how the negatives of an anchor are chosen (random: the default; hardest: the
    /// paper's rule, which inflates σ² and stalls retrieval when training from scratch at small
    /// D, see chapter 09).
    #[serde(rename = "btl", with = "negatives_group")]
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
    /// The deterministic checkpoint to start the backbone and μ head from, if any.
    #[serde(flatten)]
    #[cfg_attr(feature = "tch", command(flatten))]
    pub warm_start: WarmStartOptions,
}

impl BtlOptions {
    /// The default: uniformly drawn negatives, a fresh start.
    pub const DEFAULT: BtlOptions = BtlOptions {
        negatives: Negatives::Random,
        warm_start: WarmStartOptions::DEFAULT,
    };

    /// The options of a run recorded before `--btl-negatives` existed: the hardest negatives,
    /// the only rule then.
    pub fn before_the_option() -> Self {
        Self {
            negatives: Negatives::Hardest,
            ..Self::DEFAULT
        }
    }
}

impl Default for BtlOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// `"btl": {"negatives": …}`: `config.json` keeps the negatives in a group of their own, as
/// every version of the file has.
mod negatives_group {
    use crate::mining::Negatives;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Group {
        negatives: Negatives,
    }

    pub fn serialize<S: Serializer>(negatives: &Negatives, s: S) -> Result<S::Ok, S::Error> {
        Group {
            negatives: *negatives,
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Negatives, D::Error> {
        Group::deserialize(d).map(|g| g.negatives)
    }
}

#[cfg(feature = "tch")]
pub use libtorch::*;

/// What the two methods share on libtorch: the network, the likelihood and the samples.
#[cfg(feature = "tch")]
mod libtorch {
    use super::BtlOptions;
    use crate::config::RunOptions;
    use crate::error::TrainResult;
    use crate::guards::{check_collapse, check_finite};
    use crate::loss::bayesian_triplet::TripletBatch;
    use crate::method::{Batch, Step};
    use crate::mining::triplets::{MinedTriplets, Negatives, NEGATIVES_PER_ANCHOR};
    use crate::network::variance_head::{softplus_variance, VarianceHead};
    use crate::network::warm_start::load_deterministic;
    use crate::network::Network;
    use crate::network::{features_no_grad, normalise};
    use crate::prediction::EVAL_CHUNK;
    use std::path::PathBuf;
    use tch::{Device, Kind, Tensor};

    /// The triplet margin m of the BTL methods (module docs).
    pub const BTL_MARGIN: f64 = 0.0;

    /// σ² of every image at the start of training: a tangent spread of 0.1 per dimension on the
    /// unit sphere (κ = 100 for the vMF prior), small against the distances between classes, so
    /// that triplets start out as the deterministic triplet loss sees them.
    pub const BTL_INITIAL_VARIANCE: f64 = 1e-2;

    /// Backbone, μ head and the isotropic σ² head (`head_var.*`).
    #[derive(Debug)]
    pub struct BtlNet {
        /// Backbone and μ head (`backbone.*`, `head.*`), and every variable.
        pub network: Network,
        /// The σ² head.
        pub var_head: VarianceHead,
        /// The deterministic checkpoint to start the backbone and μ head from (`--init-checkpoint`),
        /// if any.
        init: Option<PathBuf>,
        latent_dim: usize,
        negatives: Negatives,
    }

    /// One batch through a [`BtlNet`]: unit mean directions, σ² (B × 1) and the mined triplets.
    #[derive(Debug)]
    pub struct BtlForward {
        /// ℓ₂-normalised μ head outputs, B × D.
        pub unit: Tensor,
        /// σ², B × 1.
        pub var: Tensor,
        /// The triplets of the batch.
        pub triplets: MinedTriplets,
    }

    impl BtlNet {
        /// A fresh network for `options` and `run`, seeded.
        pub fn new(options: &BtlOptions, run: &RunOptions, device: Device, seed: u64) -> Self {
            let network = Network::without_dropout(run, device, seed);
            let var_head = VarianceHead::btl(
                &(network.vs.root() / "head_var"),
                network.net.backbone.feature_count(),
                1,
                BTL_INITIAL_VARIANCE,
            );
            Self {
                network,
                var_head,
                init: options.warm_start.init_checkpoint.clone(),
                latent_dim: run.model.latent_dim,
                negatives: options.negatives,
            }
        }

        /// Loads the backbone and μ head from `--init-checkpoint` when one is given (the paper's
        /// pretrained start, [`crate::network::warm_start`]); a fresh start otherwise.
        ///
        /// # Errors
        ///
        /// Those of [`load_deterministic`].
        pub fn initialise(&self, method: &str) -> TrainResult<()> {
            match &self.init {
                Some(dir) => load_deterministic(&self.network.vs, dir, method, self.latent_dim),
                None => Ok(()),
            }
        }

        /// The training forward pass of a batch, checked: finite, non-collapsed μ head outputs and
        /// finite σ² (naming the step and tensor otherwise).
        ///
        /// # Errors
        ///
        /// [`TrainError::NonFinite`](crate::TrainError::NonFinite) or
        /// [`TrainError::Collapse`](crate::TrainError::Collapse).
        pub fn forward(&self, batch: &Batch<'_>) -> TrainResult<BtlForward> {
            let net = &self.network.net;
            let f = net.backbone.features(batch.images, true);
            let y = net.head.raw(&f);
            check_finite(&y, "head output y = Wx + b", batch.at)?;
            check_collapse(&y, batch.at)?;
            let var = softplus_variance(&self.var_head.forward(&f, true));
            check_finite(&var, "σ² (head_var)", batch.at)?;
            let unit = normalise(&y);
            let triplets = MinedTriplets::mine(
                &unit.detach(),
                batch.labels,
                NEGATIVES_PER_ANCHOR,
                self.negatives,
            );
            Ok(BtlForward {
                unit,
                var,
                triplets,
            })
        }

        /// Unit mean directions (N × D) and σ² (N × 1, **f64**) of `images`, without a graph.
        ///
        /// σ² is formed in f64 from the head's raw output: where softplus(x) falls far below the
        /// floor 10⁻⁶, f32's `softplus(x) + 10⁻⁶` rounds to exactly 10⁻⁶ and ties the scores of
        /// different images, f64 keeps them apart down to softplus(x) ≈ 10⁻²². (It does not rescue
        /// a head that collapsed further: with uniform negatives, see [`crate::mining::triplets`],
        /// every score tied in f64 too.)
        pub fn predict_parts(&self, images: &Tensor, device: Device) -> (Tensor, Tensor) {
            tch::no_grad(|| {
                let f = features_no_grad(
                    &self.network.net.backbone,
                    images,
                    EVAL_CHUNK,
                    false,
                    device,
                );
                let unit = normalise(&self.network.net.head.raw(&f));
                let raw = self.var_head.forward(&f, false).to_kind(Kind::Double);
                (unit, softplus_variance(&raw))
            })
        }
    }

    /// The mean CLT NLL of the mined triplets of `mu` (B × D) and `var` (B × 1), margin
    /// [`BTL_MARGIN`].
    ///
    /// # Errors
    ///
    /// Those of [`TripletBatch::clt_nll`].
    pub fn triplet_nll(mu: &Tensor, var: &Tensor, t: &MinedTriplets) -> TrainResult<Tensor> {
        let rows = |x: &Tensor, i: &Tensor| x.index_select(0, i);
        let (ma, mp, mn) = (
            rows(mu, &t.anchor),
            rows(mu, &t.positive),
            rows(mu, &t.negative),
        );
        let (va, vp, vn) = (
            rows(var, &t.anchor),
            rows(var, &t.positive),
            rows(var, &t.negative),
        );
        TripletBatch {
            mu_a: &ma,
            var_a: &va,
            mu_p: &mp,
            var_p: &vp,
            mu_n: &mn,
            var_n: &vn,
        }
        .clt_nll(BTL_MARGIN)
    }

    /// `Σ_{role ∈ a, p, n}` mean over the triplets of a per-image term `per_image` (B): the
    /// listing's `kl_A.mean() + kl_P.mean() + kl_N.mean()`.
    pub fn triplet_kl(per_image: &Tensor, t: &MinedTriplets) -> Tensor {
        let kind = per_image.kind();
        per_image.index_select(0, &t.anchor).mean(kind)
            + per_image.index_select(0, &t.positive).mean(kind)
            + per_image.index_select(0, &t.negative).mean(kind)
    }

    /// A step with no triplet (a batch of one class): zero loss, no graph, skipped by the loop.
    pub fn no_triplets(device: Device) -> Step {
        Step {
            loss: Tensor::zeros([], (Kind::Float, device)),
            pairs: 0,
            at_bound: None,
        }
    }

    /// `samples` draws per input of `N(mean, diag var)` (mean N × D, var N × 1 or N × D), each
    /// projected onto the unit sphere (LAM §3: samples of a Gaussian do not lie on the sphere),
    /// N × S × D; libtorch's generator seeded with `seed`.
    pub fn gaussian_sphere_samples(
        mean: &Tensor,
        var: &Tensor,
        samples: usize,
        seed: u64,
    ) -> Tensor {
        tch::no_grad(|| {
            tch::manual_seed(seed as i64);
            let size = mean.size();
            let (n, d) = (size[0], size[1]);
            let eps = Tensor::randn([n, samples as i64, d], (mean.kind(), mean.device()));
            let x = mean.unsqueeze(1) + eps * var.sqrt().unsqueeze(1);
            let norms = x.norm_scalaropt_dim(2.0, [2i64], true).clamp_min(1e-12);
            x / norms
        })
    }
}
