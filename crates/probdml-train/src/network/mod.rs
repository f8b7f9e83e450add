//! The networks: the reference backbone and its last layer ([`backbone`]), the variance heads
//! of the amortised methods ([`variance_head`]), and starting from a trained deterministic model
//! ([`warm_start`]).

pub mod backbone;
pub mod variance_head;
pub mod warm_start;

pub use backbone::{features_no_grad, normalise, Backbone, EmbeddingNet, LastLayer};

use crate::config::{ModelOptions, RunOptions};
use crate::input_geometry::InputGeometry;
use tch::{nn, Device};

/// A method's network with the variables it reads.
#[derive(Debug)]
pub struct Network {
    /// The variables (`backbone.conv1.*`, `backbone.conv2.*`, `head.*`, and any head a method
    /// adds).
    pub vs: nn::VarStore,
    /// The network reading them.
    pub net: EmbeddingNet,
}

impl Network {
    /// A freshly initialised network for images of `geometry`, of `model`'s latent dimension,
    /// convolutions' layout and law, on `device` (libtorch seeded from `seed`), with `dropout` (its
    /// rate and where: [`crate::dropout`]).
    pub fn new(
        model: &ModelOptions,
        geometry: InputGeometry,
        device: Device,
        seed: u64,
        dropout: crate::dropout::Dropout,
    ) -> Self {
        tch::manual_seed(crate::seeds::initialisation(seed));
        let vs = nn::VarStore::new(device);
        let net = EmbeddingNet::new(
            &vs,
            model.latent_dim as i64,
            dropout,
            geometry,
            model.backbone,
            model.conv_init,
        );
        Self { vs, net }
    }

    /// [`Network::new`] for the run's images and model, without dropout: the network of every
    /// method but MC dropout.
    pub fn without_dropout(run: &RunOptions, device: Device, seed: u64) -> Self {
        Self::new(
            &run.model,
            run.data.geometry(),
            device,
            seed,
            crate::dropout::Dropout::NONE,
        )
    }
}
