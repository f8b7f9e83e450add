//! The [`Method`] trait every training method implements (module documentation of
//! [`crate::method`]), and what the epoch loop hands it: the training set on the device
//! ([`TensorSet`]), a [`Batch`], and what a step returns ([`Step`]).

use crate::data::ImageSet;
use crate::error::{TrainError, TrainResult};
use crate::guards::Position;
use crate::input_geometry::InputGeometry;
use crate::laplace::LastLayerPrecision;
use crate::network::{EmbeddingNet, Network};
use crate::prediction::{PredictRequest, Prediction};
use std::path::Path;
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
    /// An empty set, or images that are not one channel of the [`InputGeometry`] of the
    /// run's data (the backbone's input).
    pub fn new(set: &ImageSet, geometry: InputGeometry, device: Device) -> TrainResult<Self> {
        if set.is_empty() {
            return Err(TrainError::config("dataset", &set.name, "holds no image"));
        }
        let (h, w) = (geometry.height(), geometry.width());
        if (set.channels, set.rows as i64, set.cols as i64) != (1, h, w) {
            return Err(TrainError::config(
                "dataset",
                format!("{} ({}×{}×{})", set.name, set.channels, set.rows, set.cols),
                format!("the backbone of this run takes 1 × {h} × {w} images"),
            ));
        }
        let n = set.len() as i64;
        let pixels = Tensor::f_from_slice(&set.images)?
            .to_kind(Kind::Float)
            .g_div_scalar(255.0)
            .f_view([n, 1, h, w])?
            .to_device(device);
        let labels_host = set.labels_usize();
        let wide: Vec<i64> = set.labels.iter().map(|&l| i64::from(l)).collect();
        let labels = Tensor::f_from_slice(&wide)?.to_device(device);
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

/// One training batch.
#[derive(Debug)]
pub struct Batch<'a> {
    /// Images, B × 1 × H × W.
    pub images: &'a Tensor,
    /// Labels, int64, B.
    pub labels: &'a Tensor,
    /// Where the step is.
    pub at: Position,
    /// Images in the training set (N, for protocols that scale by it).
    pub train_size: i64,
}

/// What one step returns to the loop.
#[derive(Debug)]
pub struct Step {
    /// The loss to back-propagate (no graph when the batch held no usable pair: the step is
    /// then skipped).
    pub loss: Tensor,
    /// Pairs used (after mining and the cap).
    pub pairs: i64,
    /// The fraction of the method's bounded outputs at or past their bound in this step, where
    /// a clamp passes no gradient and a soft bound little (HIB: `ln σ²` at its cap
    /// [`super::hib::MAX_LOG_VARIANCE`], [`super::hib::VarianceCap`]); None for a method without
    /// such a bound. The epoch's log keeps its mean, so that a run stuck at the bound says so
    /// instead of only showing a large loss.
    pub at_bound: Option<f64>,
}

/// A training method (see the module documentation).
pub trait Method: std::fmt::Debug {
    /// The method's network.
    fn network(&self) -> &Network;

    /// The same, mutably (to load a checkpoint into it).
    fn network_mut(&mut self) -> &mut Network;

    /// The variables the optimiser trains (the checkpoint's `model.safetensors`).
    fn var_store(&self) -> &nn::VarStore {
        &self.network().vs
    }

    /// The same, mutably.
    fn var_store_mut(&mut self) -> &mut nn::VarStore {
        &mut self.network_mut().vs
    }

    /// The network.
    fn net(&self) -> &EmbeddingNet {
        &self.network().net
    }

    /// The loss of one batch. The method may update its own state here from detached
    /// quantities (online LAM's Λ).
    ///
    /// # Errors
    ///
    /// Non-finite or collapsed quantities (naming the step and tensor), GGN errors.
    fn step(&mut self, batch: &Batch<'_>) -> TrainResult<Step>;

    /// Called once before the first step of a fresh run (not on resume, not when a checkpoint
    /// is loaded for evaluation): PFE loads its frozen deterministic weights here (default:
    /// nothing).
    ///
    /// # Errors
    ///
    /// Those of the initialisation (a missing or unsuitable checkpoint).
    fn initialise(&mut self) -> TrainResult<()> {
        Ok(())
    }

    /// A pass over the training set after the last epoch (default: nothing).
    ///
    /// # Errors
    ///
    /// Those of the pass.
    fn finish(&mut self, _train: &TensorSet, _device: Device) -> TrainResult<()> {
        Ok(())
    }

    /// The predictive distribution of `images` (N × 1 × H × W, on any device).
    ///
    /// # Errors
    ///
    /// libtorch failures.
    fn predict(&self, images: &Tensor, request: &PredictRequest) -> TrainResult<Prediction>;

    /// The match probability p(m | x₁, x₂) of each pair (`images[first[i]]`,
    /// `images[second[i]]`) (`first`, `second`: int64 indices, P each; HIB eq. 4, by Monte Carlo
    /// with `request.samples` draws per component and pair side), for the methods that define
    /// one; None for the others, which HIB's verification task scores by −distance instead
    /// (default). Each image is embedded once, however many pairs it is in.
    ///
    /// # Errors
    ///
    /// libtorch failures; index vectors of different lengths.
    fn match_probability(
        &self,
        _images: &Tensor,
        _first: &Tensor,
        _second: &Tensor,
        _request: &PredictRequest,
    ) -> TrainResult<Option<Tensor>> {
        Ok(None)
    }

    /// The embeddings (N × D) of `images` in ℝ^D, for the methods that place them off the unit
    /// sphere (HIB with `--hib-means euclidean`: the mixture's mean); None for the others,
    /// whose embedding is the unit mean direction of [`Method::predict`] (default). HIB's
    /// K-NN identification measures distances between these.
    ///
    /// # Errors
    ///
    /// libtorch failures.
    fn embedding_means(
        &self,
        _images: &Tensor,
        _request: &PredictRequest,
    ) -> TrainResult<Option<Tensor>> {
        Ok(None)
    }

    /// The Laplace posterior of the last layer, for the methods that keep one (post-hoc LAM
    /// after its finish pass, online LAM from the start); None for the others. The checkpoint
    /// stores it, the epoch loop keeps it finite, the diagnosis reads its spread.
    fn posterior(&self) -> Option<&LastLayerPrecision> {
        None
    }

    /// Replaces the posterior with one read from a checkpoint.
    ///
    /// # Errors
    ///
    /// [`TrainError::Checkpoint`] naming `source` for a method that keeps no posterior.
    fn set_posterior(&mut self, _posterior: LastLayerPrecision, source: &Path) -> TrainResult<()> {
        Err(TrainError::Checkpoint {
            path: source.to_owned(),
            reason: "holds a Laplace posterior, but the checkpoint's method keeps none".into(),
        })
    }
}
