//! The uncertainty head of the amortised methods: a small network from the backbone's features
//! to the raw parameter of a variance, in its own [`nn::VarStore`] path (`head_var.*`).
//!
//! * BTL (§4): "a variance head … two fully connected layers with a ReLU", isotropic (one
//!   output, `D_σ = 1`), and σ² through a softplus, which the paper "found advantageous" over
//!   estimating ln σ²: softplus grows linearly, so a large raw output does not blow σ² up
//!   exponentially, and its gradient never exceeds 1. A floor [`VARIANCE_FLOOR`] keeps σ² > 0
//!   in f32 (softplus underflows to 0 below −104), so `Var τ > 0` and the KL stays finite.
//! * PFE (LAM appendix): "[linear, batchnorm1d, relu, linear, batchnorm1d]", the last batch
//!   normalisation with one scale and one shift shared by every output (LAM found that slightly
//!   better; so does PFE's own code), per-dimension outputs read as ln σ² (PFE predicts ln σ²:
//!   the mutual likelihood score's optimum σ² of close pairs spans decades).
//!
//! The hidden width is [`HIDDEN`].
//!
//! **The BTL head starts at a set variance** ([`VarianceHead::btl`]): its last layer's weights
//! start at zero and its bias at softplus⁻¹(σ₀² − floor), so every image starts at σ² = σ₀²
//! and the first steps train the means. With PyTorch's default initialisation the head's
//! first outputs follow the backbone's unnormalised features: on Fashion-MNIST (seed 1) they
//! gave σ² between 17 and 72 (mean 46) on the unit sphere, where the CLT likelihood of every
//! triplet is a coin flip (NLL 0.70 ≈ ln 2) and the means hardly learn (see
//! the book's chapter 10 for the measurements). The weights still train from the first step
//! (their gradient is the hidden activation), and the earlier layer from the second.

use tch::nn::{self, Module, ModuleT};
use tch::Tensor;

/// Units of the hidden layer.
pub const HIDDEN: i64 = 64;

/// The smallest σ² the BTL heads produce (see the module docs).
pub const VARIANCE_FLOOR: f64 = 1e-6;

/// The two batch normalisations of the PFE head (the last without its own affine map).
#[derive(Debug)]
struct PfeNorm {
    hidden: nn::BatchNorm,
    output: nn::BatchNorm,
    /// The shared scale γ of the last normalisation.
    gamma: Tensor,
    /// The shared shift β of the last normalisation.
    beta: Tensor,
}

/// features → linear → (BN) → ReLU → linear → (BN with shared γ, β) → raw output; the BN layers
/// only in the PFE head.
#[derive(Debug)]
pub struct VarianceHead {
    fc1: nn::Linear,
    fc2: nn::Linear,
    norm: Option<PfeNorm>,
}

impl VarianceHead {
    /// The BTL variance head under `path`: `outputs` raw values per image (1: isotropic), every
    /// σ² = [`softplus_variance`] of them starting at `initial_variance` (module docs).
    ///
    /// # Panics
    ///
    /// Never for `initial_variance` > [`VARIANCE_FLOOR`] (a crate constant, checked in a test);
    /// below it softplus⁻¹ is undefined and the bias would be NaN, hence the debug assertion.
    pub fn btl(path: &nn::Path<'_>, features: i64, outputs: i64, initial_variance: f64) -> Self {
        debug_assert!(initial_variance > VARIANCE_FLOOR);
        // softplus⁻¹(v) = ln(eᵛ − 1), written with expm1 for small v.
        let bias = (initial_variance - VARIANCE_FLOOR).exp_m1().ln();
        let last = nn::LinearConfig {
            ws_init: nn::Init::Const(0.0),
            bs_init: Some(nn::Init::Const(bias)),
            bias: true,
        };
        Self {
            fc1: nn::linear(path / "fc1", features, HIDDEN, Default::default()),
            fc2: nn::linear(path / "fc2", HIDDEN, outputs, last),
            norm: None,
        }
    }

    /// The PFE uncertainty module under `path`: `outputs` values of ln σ² per image.
    pub fn pfe(path: &nn::Path<'_>, features: i64, outputs: i64) -> Self {
        let plain = nn::BatchNormConfig {
            affine: false,
            ..Default::default()
        };
        Self {
            fc1: nn::linear(path / "fc1", features, HIDDEN, Default::default()),
            fc2: nn::linear(path / "fc2", HIDDEN, outputs, Default::default()),
            norm: Some(PfeNorm {
                hidden: nn::batch_norm1d(path / "bn1", HIDDEN, Default::default()),
                output: nn::batch_norm1d(path / "bn2", outputs, plain),
                gamma: path.var("gamma", &[1], nn::Init::Const(1.0)),
                beta: path.var("beta", &[1], nn::Init::Const(0.0)),
            }),
        }
    }

    /// The raw outputs (B × outputs) of features (B × F); batch normalisation uses the batch's
    /// statistics iff `train`.
    pub fn forward(&self, features: &Tensor, train: bool) -> Tensor {
        let h = self.fc1.forward(features);
        match &self.norm {
            None => self.fc2.forward(&h.relu()),
            Some(n) => {
                let h = n.hidden.forward_t(&h, train).relu();
                let y = n.output.forward_t(&self.fc2.forward(&h), train);
                y * &n.gamma + &n.beta
            }
        }
    }
}

/// σ² = softplus(raw) + [`VARIANCE_FLOOR`] (the BTL heads).
pub fn softplus_variance(raw: &Tensor) -> Tensor {
    raw.softplus() + VARIANCE_FLOOR
}
