//! The training methods of chapter 09, one file per method: its options ([`MethodOptions`]:
//! spelling, defaults, rules, table label, flags, constructor) and its training code behind one
//! trait, [`Method`] (feature "tch").
//!
//! A [`Method`] owns its network, its variables and whatever state it adds (post-hoc and online
//! LAM: the last-layer precision Λ). It provides
//!
//! * [`Method::step`] — the loss of one batch (and any update of its own state, from detached
//!   quantities): the shared loop of [`crate::trainer`] back-propagates it;
//! * [`Method::finish`] — an optional pass over the training set after the last epoch (post-hoc
//!   LAM's Hessian pass, which is also what `probdml posthoc` runs on a deterministic
//!   checkpoint: it exists once);
//! * [`Method::predict`] — the predictive distribution of a batch of images: `S` embedding
//!   samples ([`Prediction::Samples`](crate::prediction::Prediction::Samples)), or a distribution in closed form with its own
//!   uncertainty score ([`Prediction::Distribution`](crate::prediction::Prediction::Distribution));
//! * [`Method::posterior`] — the Laplace posterior of the last layer, for the methods that keep
//!   one: [`crate::checkpoint`] stores it without knowing which method it belongs to.
//!
//! The methods:
//!
//! * [`deterministic`] — form-L contrastive loss, RMSprop;
//! * [`lam_posthoc`] — deterministic θ*, then the training-set GGN diagonal
//!   ([`crate::laplace`]);
//! * [`lam_online`] — chapter 04's Monte Carlo EM on the last layer;
//! * [`mc_dropout`] — dropout p in the backbone, on at test time;
//! * [`ensemble`] — independently seeded members of any one of them;
//! * [`hib`] — hedged instance embeddings: μ and σ² heads, the VIB loss, self-mismatch η;
//! * [`proxy_nca`] — probabilistic ProxyNCA++: nivMF proxies, EL-nivMF (or Cos, EL-vMF).
//! * [`btl::gaussian`], [`btl::vmf`] — the Bayesian triplet loss with Gaussian or vMF
//!   embeddings (their shared network and likelihood in [`btl`]; the loss in
//!   [`crate::loss::bayesian_triplet`], the triplets in [`crate::mining::triplets`],
//!   the variance head in [`crate::network::variance_head`]);
//! * [`pfe`] — a frozen deterministic model and a σ² head trained by the mutual likelihood score.
//!
//! A method is a new file here, with its options struct implementing [`MethodOptions`] and its
//! network implementing [`Method`], and one row of the method table ([`crate::catalogue`]), as
//! the five amortised methods above show: their heads live in
//! their own [`tch::nn::VarStore`] paths (ProxyNCA++'s proxies too, so that the optimiser state
//! restores them), and a closed-form predictive in [`Prediction::Distribution`](crate::prediction::Prediction::Distribution), which
//! [`crate::evaluate::evaluate_distribution`] scores with the method's own uncertainty.

pub mod btl;
pub mod deterministic;
pub mod ensemble;
pub mod hib;
pub mod lam_online;
pub mod lam_posthoc;
pub mod mc_dropout;
pub mod options;
pub mod pfe;
pub mod proxy_nca;
#[cfg(feature = "tch")]
mod training;

pub use options::MethodOptions;

#[cfg(feature = "tch")]
pub use ensemble::Model;
#[cfg(feature = "tch")]
pub use training::{Batch, Method, Step, TensorSet};

#[cfg(feature = "tch")]
use crate::config::TrainConfig;
#[cfg(feature = "tch")]
use crate::error::TrainResult;

/// The method of `config`, freshly initialised on `device` with `seed`; for an ensemble, one
/// member of its member method.
///
/// # Errors
///
/// Those of the method's constructor (options it refuses).
#[cfg(feature = "tch")]
pub fn build(config: &TrainConfig, device: tch::Device, seed: u64) -> TrainResult<Box<dyn Method>> {
    config.method.build(&config.run_options(), device, seed)
}
