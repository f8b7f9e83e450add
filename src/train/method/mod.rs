//! The training methods of chapter 09 and their predictive distributions.
//!
//! * deterministic — form-L contrastive loss, RMSprop ([`epochs`]);
//! * LAM online — chapter 04's Monte Carlo EM on the last layer ([`online`]);
//! * LAM post-hoc — deterministic θ*, then the training-set GGN diagonal ([`posthoc`]);
//! * MC dropout — dropout p in the backbone, on at test time;
//! * deep ensemble — independently seeded deterministic members.
//!
//! [`predictive`] turns each into S unit embeddings per input, which
//! [`crate::train::evaluate`] reduces to a vMF fit and the chapter-08 metrics.

pub mod epochs;
pub mod online;
pub mod posthoc;
pub mod predictive;

use super::config::{Method, TrainConfig};
use super::data::ImageSet;
use super::error::{TrainError, TrainResult};
use super::model::EmbeddingNet;
use tch::{nn, Device, Kind, Tensor};

/// A labelled image set as tensors on the training device.
#[derive(Debug)]
pub struct TensorSet {
    /// Images, N × C × H × W, values in [0, 1].
    pub images: Tensor,
    /// Labels, int64, N.
    pub labels: Tensor,
    /// Labels as `usize` (for the metrics).
    pub labels_host: Vec<usize>,
}

impl TensorSet {
    /// Uploads `set` to `device`.
    ///
    /// # Errors
    ///
    /// An empty set, or images that are not 28 × 28 with one channel (the backbone's input).
    pub fn new(set: &ImageSet, device: Device) -> TrainResult<Self> {
        if set.is_empty() {
            return Err(TrainError::config("dataset", &set.name, "holds no image"));
        }
        if (set.channels, set.rows, set.cols) != (1, 28, 28) {
            return Err(TrainError::config(
                "dataset",
                format!("{} ({}×{}×{})", set.name, set.channels, set.rows, set.cols),
                "the reference backbone takes 1 × 28 × 28 images",
            ));
        }
        let n = set.len() as i64;
        let pixels = Tensor::from_slice(&set.images)
            .to_kind(Kind::Float)
            .g_div_scalar(255.0)
            .view([n, 1, 28, 28])
            .to_device(device);
        let labels_host = set.labels_usize();
        let labels = Tensor::from_slice(&set.labels)
            .to_kind(Kind::Int64)
            .to_device(device);
        Ok(Self {
            images: pixels,
            labels,
            labels_host,
        })
    }

    /// Number of images.
    pub fn len(&self) -> i64 {
        self.images.size()[0]
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The diagonal posterior precision Λ of the last layer (LAM), for W (D × F) and b (D).
#[derive(Debug)]
pub struct LastLayerPrecision {
    /// Λ for the entries of W.
    pub weight: Tensor,
    /// Λ for the entries of b.
    pub bias: Tensor,
}

impl LastLayerPrecision {
    /// Λ₀ = σ_prior⁻² I, shaped like the last layer of `net`.
    pub fn prior(net: &EmbeddingNet, prior_precision: f64) -> Self {
        Self {
            weight: net.head.weight.detach().ones_like() * prior_precision,
            bias: net.head.bias.detach().ones_like() * prior_precision,
        }
    }

    /// Posterior standard deviations (Λ)^{-1/2}.
    pub fn std(&self) -> (Tensor, Tensor) {
        (self.weight.rsqrt(), self.bias.rsqrt())
    }
}

/// One trained member: the weights, and the last-layer precision for LAM.
#[derive(Debug)]
pub struct Member {
    /// The variables (`backbone.conv1.*`, `backbone.conv2.*`, `head.weight`, `head.bias`).
    pub vs: nn::VarStore,
    /// The network reading them.
    pub net: EmbeddingNet,
    /// Λ of the last layer (LAM methods only).
    pub precision: Option<LastLayerPrecision>,
}

impl Member {
    /// A freshly initialised member on `device`, seeded.
    pub fn new(config: &TrainConfig, device: Device, seed: u64) -> Self {
        tch::manual_seed(seed as i64);
        let vs = nn::VarStore::new(device);
        let dropout = if config.method == Method::McDropout {
            config.dropout
        } else {
            0.0
        };
        let net = EmbeddingNet::new(&vs, config.latent_dim as i64, dropout);
        Self {
            vs,
            net,
            precision: None,
        }
    }
}

/// The outcome of training: one member, or several for an ensemble, and the per-epoch log.
#[derive(Debug)]
pub struct Trained {
    /// The configuration that produced it.
    pub config: TrainConfig,
    /// The members (one unless the method is an ensemble).
    pub members: Vec<Member>,
    /// Per-epoch statistics of every member, in training order.
    pub history: Vec<epochs::EpochLog>,
}

/// Trains `config.method` on `train`, writing a checkpoint after every epoch into `out_dir`
/// (resuming from it when `resume` is set and one is there).
///
/// # Errors
///
/// An invalid configuration, a non-finite loss or Hessian (naming the step and tensor), and
/// checkpoint I/O.
pub fn train(
    config: &TrainConfig,
    train: &TensorSet,
    device: Device,
    out_dir: Option<&std::path::Path>,
    resume: bool,
) -> TrainResult<Trained> {
    config.validate()?;
    let members = match config.method {
        Method::Ensemble => config.ensemble_size,
        _ => 1,
    };
    let mut trained = Trained {
        config: config.clone(),
        members: Vec::with_capacity(members),
        history: Vec::new(),
    };
    for k in 0..members {
        let seed = config.seed.wrapping_add(1000 * k as u64);
        let dir = out_dir.map(|d| {
            if members > 1 {
                d.join(format!("member-{k}"))
            } else {
                d.to_owned()
            }
        });
        let (member, log) =
            epochs::train_member(config, train, device, seed, dir.as_deref(), resume)?;
        trained.members.push(member);
        trained.history.extend(log);
    }
    if config.method == Method::LamPosthoc {
        for member in &mut trained.members {
            member.precision = Some(posthoc::posthoc_precision(
                config,
                &member.net,
                train,
                device,
            )?);
        }
        if let Some(dir) = out_dir {
            super::checkpoint::save_precision(dir, trained.members[0].precision.as_ref())?;
        }
    }
    Ok(trained)
}
