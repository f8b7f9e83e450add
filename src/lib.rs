//! # probdml — verified primitives for probabilistic deep metric learning
//!
//! Five papers put uncertainty into image-retrieval embeddings: the Laplacian Metric Learner
//! (LAM), the Bayesian triplet loss (BTL), hedged instance embeddings (HIB) and non-isotropic
//! vMF proxies (nivMF). Every derivation they rely on is implemented **twice**:
//!
//! * **fast** — what you call: closed forms, `f64`, no allocation in hot loops;
//! * **exact** — the reference, at the same path under `exact::` with the same signature:
//!   arbitrary-precision series, numerical integration, brute force.
//!
//! `proofs/` checks each fast twin against its exact twin within the budget declared in the
//! [`registry`], and each paper's claims as property tests; where a paper is wrong, the proof
//! file holds a refutation with a concrete counterexample and the corrected theorem.
//!
//! ```
//! use probdml::{special, vmf};
//! // ln C_M(κ) at M = 512, κ = 50, where a linear-space normaliser would underflow.
//! let ln_c = vmf::log_norm_const(512, 50.0);
//! assert!((ln_c - 865.538149369).abs() < 1e-9);
//! // The fast twin agrees with the 256-bit reference.
//! let ln_c_exact = vmf::exact::log_norm_const(512, 50.0);
//! assert!((ln_c - ln_c_exact).abs() <= 4e-15 * ln_c_exact.abs());
//! // Mean resultant length A_M(κ) = I_{M/2}(κ)/I_{M/2−1}(κ) and its inverse, the κ MLE.
//! let rbar = vmf::mean_resultant_length(512, 50.0);
//! let kappa = vmf::kappa_mle(512, rbar).unwrap();
//! assert!((kappa - 50.0).abs() < 1e-10);
//! # let _ = special::log_bessel_i(0.0, 1.0);
//! ```
//!
//! Raw `f64` kernels (`special::log_bessel_i`, `vmf::log_norm_const`, …) return NaN on input
//! outside their domain, like `f64::ln`; every other entry point validates and returns
//! [`Result`] with an [`Error`] that names the argument and the rule it broke.
#![warn(missing_docs)]

pub(crate) mod compensated;
pub mod contrastive;
pub mod error;
pub mod gaussian_quadratic_form;
pub mod ggn;
pub mod hib;
pub mod instruction_set;
pub mod laplace;
pub mod metrics;
pub mod nivmf;
pub mod quadrature;
pub mod registry;
pub mod special;
#[cfg(feature = "report")]
pub mod train;
pub mod triplet;
pub mod vmf;

pub use error::{Error, Result};

/// The book's chapters, compiled as doctests so that every number they show is checked by
/// `cargo test` (the PyO3 pattern).
#[cfg(doctest)]
pub mod book {
    #[doc = include_str!("../docs/src/introduction.md")]
    pub struct Introduction;
    #[doc = include_str!("../docs/src/01-special.md")]
    pub struct Special;
    #[doc = include_str!("../docs/src/02-vmf.md")]
    pub struct Vmf;
    #[doc = include_str!("../docs/src/03-contrastive.md")]
    pub struct Contrastive;
    #[doc = include_str!("../docs/src/04-ggn.md")]
    pub struct Ggn;
    #[doc = include_str!("../docs/src/05-triplet.md")]
    pub struct Triplet;
    #[doc = include_str!("../docs/src/06-nivmf.md")]
    pub struct Nivmf;
    #[doc = include_str!("../docs/src/07-hib.md")]
    pub struct Hib;
    #[doc = include_str!("../docs/src/08-metrics.md")]
    pub struct Metrics;
    #[doc = include_str!("../README.md")]
    pub struct Readme;
}
