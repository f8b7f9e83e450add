//! Hedged instance embeddings (HIB, Oh et al.): stochastic embeddings
//! `p(z | x)`, their match probability, the VIB objective and the self-mismatch uncertainty.
//!
//! The fast twins live here; the references, under [`exact`].
//!
//! # Embeddings
//!
//! [`HedgedEmbedding`]: `N(μ, diag σ²)` in `ℝ^D`, or an equal-weight mixture of `C` of them
//! (HIB §2.2). `σ² = 0` is allowed (a point mass; the point embedding is `σ² = 0` everywhere).
//!
//! # Match probability (HIB eq. 2, 4, 5)
//!
//! [`SoftThreshold`] `{ a, b }` is `p(m | z₁, z₂) = sigmoid(−a‖z₁ − z₂‖ + b)`; every quantity
//! below is a method of it (the positional free functions, where `a` and `b` could be swapped
//! without an error, are deprecated). Of two embeddings, `p(m | x₁, x₂) = E p(m | z₁, z₂)`. For two
//! Gaussians `Δ = z₁ − z₂ ~ N(δ, diag s)`, `δ = μ₁ − μ₂`, `s = σ₁² + σ₂²`, and
//!
//! `‖Δ‖² = c + Σ_{s_k > 0} s_k (Z_k + δ_k/√s_k)²`, `c = Σ_{s_k = 0} δ_k²`,
//!
//! a weighted sum of non-central χ²₁ terms, so `p` is a 1-D integral against the law of
//! `‖Δ‖²` ([`exact::match_probability`]: the non-central χ²_D density when isotropic, chapter
//! 05's quadratic-form CDF otherwise, by parts). For mixtures it is the mean over component
//! pairs ([`exact::mixture_match_probability`]). The paper's estimator ([`SoftThreshold::match_probability`])
//! averages all `(KC)²` pairs of `K` stratified draws per component; it is unbiased with
//! variance `A/K + B/K²`. [`SoftThreshold::match_probability_moment_matched`] is a deterministic O(D)
//! approximation (Jensen–Solomon power-normal law of `‖Δ‖²`).
//!
//! # Loss (HIB eq. 3, 8)
//!
//! [`SoftThreshold::vib_loss`]: `−ln p̂(m = m̂ | x₁, x₂) + β[KL(p(z₁|x₁) ‖ N(0, I)) + KL(p(z₂|x₂) ‖ N(0, I))]` with
//! [`kl_to_standard_normal`] `= ½Σ(σ² + μ² − 1 − ln σ²)`; the NLL is a log-sum-exp of
//! [`log_sigmoid`]s, never NaN or `−∞`, and the gradient follows by the reparametrisation trick.
//!
//! # Uncertainty (HIB eq. 9)
//!
//! [`SoftThreshold::self_mismatch`] `η(x) = 1 − p(m | x, x)` (two independent draws from `p(z | x)`): for a
//! Gaussian, `Δ ~ N(0, 2 diag σ²)`; `η = 1 − sigmoid(b)` for a point mass and increases with
//! every `σ_k²`.
//!
//! # Input checks
//!
//! Every entry point returns [`crate::Result`]: `σ² < 0`, `a ≤ 0`, `K = 0`, `C = 0`, mismatched
//! dimensions and NaN/±∞ are errors naming the argument; both twins check alike.
#![cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
#[cfg(feature = "reference")]
pub use probdml_reference::hib::exact;

mod divergence;
use probdml_core::hib::input;
mod logistic;
mod moment_matched;
mod monte_carlo;
mod soft_threshold;
mod vib;

pub use divergence::{kl_to_standard_normal, KlToStandardNormal};
pub use input::embedding::HedgedEmbedding;
pub(crate) use input::{checks, embedding};
pub use logistic::log_sigmoid;
// The batch of Gaussians a `HedgedEmbedding` is built from, where a reader of this module looks.
pub use crate::gaussians::Gaussians;
pub use input::vib::{VibLoss, VibPair};
#[allow(deprecated)]
pub use moment_matched::match_probability_moment_matched;
#[allow(deprecated)]
pub use monte_carlo::{match_probability, self_mismatch};
pub use soft_threshold::SoftThreshold;
#[allow(deprecated)]
pub use vib::vib_loss;
