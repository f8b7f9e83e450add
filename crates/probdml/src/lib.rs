//! # probdml — verified primitives for probabilistic deep metric learning
//!
//! Four papers put uncertainty into image-retrieval embeddings: the Laplacian Metric Learner
//! (LAM, Warburg et al., in its conference version and the long version with appendices A–G),
//! the Bayesian triplet loss (BTL), hedged instance embeddings (HIB) and non-isotropic vMF
//! proxies (nivMF). Every derivation they rely on is implemented **twice**:
//!
//! * **fast** — what you call: closed forms, `f64`, no allocation in hot loops;
//! * **exact** — the reference, at the same path under `exact::` with the same signature:
//!   arbitrary-precision series, numerical integration, brute force.
//!
//! The repository's `proofs/` check each fast twin against its exact twin within the budget
//! its catalogue of derivations declares (`probdml_proofs::registry`), and each paper's claims as property tests; where a paper is wrong, the proof
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
//! # Checked functions and raw kernels
//!
//! One rule tells them apart: **a function that returns `Result` is checked, a function that
//! returns a bare `f64` is a raw kernel.** A checked function validates every argument and
//! returns an [`Error`] that names the argument, the rule it broke and, for a slice, the position
//! of the offending element or row. A raw kernel takes any input and returns NaN outside its
//! documented domain, like `f64::ln`, so that batch code can map it over arrays without a branch
//! per element. The raw kernels are exactly
//!
//! * the scalar functions of [`special`] (`log_bessel_i`, `bessel_i_ratio`, `log_normal_cdf`, …);
//! * the vMF functions of `(M, κ)` gathered in [`vmf::kernel`] (`log_norm_const`,
//!   `mean_resultant_length`, `mean_resultant_length_complement`, `entropy`, `kl_to_uniform`,
//!   `log_sphere_area`), each with a checked form of the same name in [`vmf::checked`];
//! * [`hib::log_sigmoid`].
//!
//! Methods of a validated object (`VonMisesFisher::entropy`, `GaussianQuadraticForm::cdf`) return
//! `f64` because their object was checked when it was built.
//!
//! ```
//! use probdml::vmf;
//! assert!(vmf::kl_to_uniform(64, -1.0).is_nan()); // the kernel
//! assert!(vmf::checked::kl_to_uniform(64, -1.0).is_err()); // the checked function
//! ```
//!
//! # Twins that differ in signature
//!
//! A fast twin and its exact twin share one signature, except the pairs listed with their reason
//! in the catalogue (`probdml_proofs::registry::SIGNATURE_DIFFERENCES`): the Monte Carlo estimators of chapter 07
//! ([`hib::SoftThreshold::match_probability`], [`hib::SoftThreshold::self_mismatch`]) take a draw count and a generator that
//! the exact expectation does not, and the Laplace twins of chapter 04 take a diagonal where
//! the exact twin takes the dense matrix ([`laplace::output_variance`],
//! [`laplace::posthoc_precision`], [`laplace::sample_posterior`],
//! [`laplace::log_marginal_likelihood`], [`laplace::optimal_prior_precision`]).
//!
//! # Names and argument order
//!
//! One vocabulary across modules: `dim` is the embedding dimension `M`, `mu`/`var` a mean and a
//! diagonal variance, `kappa` a concentration, `nu = κμ` a natural parameter, `n_samples` a
//! number of Monte Carlo draws (`samples` is data). One order: **data first, each row-major
//! matrix followed by its width `dim`, then the scalar parameters**; a function with no data
//! starts with `dim` (`vmf::log_norm_const(dim, kappa)`, `vmf::kappa_mle(dim, rbar)`).
//!
//! Two inputs of one type whose swap would give another valid answer are named at the call: the
//! fields of a value ([`triplet::Triplet`], [`metrics::OodScores`], [`hib::SoftThreshold`], a mean
//! and its variances as [`Gaussian`]), or the point alone as the argument of a distribution's
//! method ([`nivmf::NonIsotropicVmf::ln_pdf`]). Constructors: `new` takes the value's own
//! parameters, `from_<what it is given>` another representation ([`Gaussians::from_rows`],
//! [`hib::HedgedEmbedding::from_gaussian`], [`vmf::VonMisesFisher::from_natural`]), `fit` data.
//! Logarithms: `ln_` only where statrs names a distribution's method so (`ln_pdf`, `ln_cdf`,
//! `ln_sf`) and for `ln_gamma`; every other logarithm is `log_<quantity>`.
//!
//! # Crates and features
//!
//! `probdml` is the fast maths. Its shared inputs, error type and error-free arithmetic come from
//! `probdml-core`; the exact twins live in `probdml-reference`, which depends on the core only,
//! so that a reference cannot call the code it checks. The default feature `reference`
//! re-exports each twin at `probdml::<module>::exact` (and `quadrature`,
//! `gaussian_quadratic_form`); `default-features = false` leaves the reference and its
//! arbitrary-precision and dense-algebra dependencies out. Training on libtorch is the
//! `probdml-train` crate.
//!
//! The other default features: `rayon` runs the retrieval metrics on rayon's thread pool
//! ([`metrics::Retrieval::with_threads`]; without it every search runs on the calling thread),
//! and `std_rng` enables `probdml::rand::rngs::StdRng`. With `default-features = false` the
//! crate depends on 6 others: `rand` and `rand_core` (the [`rand::Rng`] the samplers take),
//! `rand_distr` and its `num-traits` (the Gamma and normal laws of the samplers), `libm` (a
//! sub-ulp `erfc`), and `probdml-core` (the error type, whose `Display` is written out so that
//! no derive macro and its parser are compiled for it). Matrix products are the crate's own (`gemm`: blocked, with register tiles
//! for SSE2, AVX2 and AVX-512, the same bits on every CPU where a caller needs them).
//!
//! # Where to find what
//!
//! | task | function | book chapter |
//! |---|---|---|
//! | $\ln I_\nu(x)$, $I_{\nu+1}/I_\nu$, $\ln\Phi(z)$ | [`special::log_bessel_i`], [`special::bessel_i_ratio`], [`special::log_normal_cdf`] | 01 |
//! | vMF normaliser $\ln C_M(\kappa)$, mean resultant length $A_M(\kappa)$ | [`vmf::log_norm_const`], [`vmf::mean_resultant_length`] | 01 |
//! | sample a vMF, evaluate its density | [`vmf::VonMisesFisher`], [`vmf::log_density`] | 02 |
//! | standard normal draws in bulk (the vMF sampler's tangent directions) | [`ziggurat::fill_standard_normal`] | 02 |
//! | fit a vMF: $\bar R$ of unit vectors, then $\hat\kappa$ | [`vmf::mean_resultant`], [`vmf::kappa_mle`], [`vmf::kappa_sra`] | 02 |
//! | entropy, KL to the uniform distribution | [`vmf::entropy`], [`vmf::kl_to_uniform`] (raw), [`vmf::checked::kl_to_uniform`] | 02 |
//! | contrastive loss, its vMF likelihood, minibatch rescaling | [`contrastive::loss`], [`contrastive::negative_log_likelihood`], [`contrastive::rescaled_loss`] | 03 |
//! | last-layer GGN (Euclidean and Arccos), PSD approximations | [`ggn::last_layer_ggn_diagonal`], [`ggn::apply_approximation`] | 04 |
//! | Laplace posterior: post-hoc, online, prior by evidence | [`laplace::posthoc_precision`], [`laplace::online_update`], [`laplace::optimal_prior_precision`] | 04 |
//! | sample the posterior, predictive variance of the output | [`laplace::sample_posterior`], [`laplace::output_variance`] | 04 |
//! | BTL moments, CLT and exact likelihood, batch gradient | [`triplet::moments`], [`triplet::log_likelihood`], [`triplet::exact::log_likelihood`], [`triplet::nll_gradient`] | 05 |
//! | CDF of a Gaussian quadratic form | [`gaussian_quadratic_form::GaussianQuadraticForm`] | 05 |
//! | KL and product kernels between vMFs, the nivMF density and sampler | [`nivmf::kl_vmf`], [`nivmf::log_ppk`], [`nivmf::NonIsotropicVmf`] (`ln_pdf`, `sample`) | 06 |
//! | ProxyNCA++ with probabilistic distances, ProxyAnchor | [`nivmf::proxy_nca_loss`], [`nivmf::joint_proxy_loss`] | 06 |
//! | HIB match probability: Monte Carlo, exact, moment-matched | [`hib::SoftThreshold::match_probability`], [`hib::exact::match_probability`], [`hib::SoftThreshold::match_probability_moment_matched`] | 07 |
//! | VIB loss, self-mismatch uncertainty | [`hib::SoftThreshold::vib_loss`], [`hib::SoftThreshold::self_mismatch`] | 07 |
//! | retrieval: mAP@k, recall@k, mAP@R | [`metrics::Retrieval`], [`metrics::evaluate_retrieval`], [`metrics::map_at_k`] | 08 |
//! | OOD detection, calibration, sparsification | [`metrics::auroc`], [`metrics::auprc`], [`metrics::expected_calibration_error`], [`metrics::sparsification_curve`] | 08 |
//! | every derivation with its error budget | `probdml_proofs::registry` (the repository's proofs) | all |
//!
//! # The book
//!
//! The book derives each formula, corrects the papers where they are wrong and shows the numbers
//! the proofs check; the table above gives the chapter of each function. It is not part of this
//! package: its chapters are the Markdown files in `docs/src/` of the probdml repository (where
//! they also run as doctests), and `bash scripts/build-docs.sh book` renders them there into
//! `docs/book/index.html`.
//!
//! # Formulas on these pages
//!
//! The formulas are typeset in the browser by KaTeX 0.16.4. Its loader, this package's
//! `docs/katex-header.html`, is part of the docs of this page, of every module and of every item
//! of this crate whose page shows a formula, so that a plain `cargo doc` renders them: with a copy
//! of KaTeX's `dist/` folder in `katex/` under the doc root (`target/doc/katex/`), offline;
//! without one, from cdn.jsdelivr.net, each file checked against its pinned SHA-384 hash. The
//! items that come from `probdml-reference` and `probdml-core` (the exact twins of the `exact`
//! modules, a few input types) lack it. docs.rs passes the loader to rustdoc as a header, which
//! renders every page. For the docs of a crate of yours, pass it the same way:
//!
//! ```text
//! cargo rustdoc -p probdml -- \
//!     --html-in-header <probdml's package directory>/docs/katex-header.html
//! ```
//!
//! (the package directory is that of probdml's `manifest_path` in `cargo metadata`). In the
//! repository, `bash scripts/build-docs.sh api` renders every page offline.
#![cfg_attr(doc, doc = include_str!("../docs/katex-header.html"))]
#![warn(missing_docs)]

/// Error-free transformations and compensated sums (`probdml-core`), with their exact twins.
#[cfg_attr(doc, doc = include_str!("../docs/katex-header.html"))]
pub mod compensated {
    pub use probdml_core::compensated::*;
    #[cfg(feature = "reference")]
    pub use probdml_reference::compensated::exact;
}
pub mod contrastive;
pub use probdml_core::error;
use probdml_core::gauss_rule;
use probdml_core::gaussians;
#[cfg(feature = "reference")]
pub use probdml_reference::gaussian_quadratic_form;
// Public for the benches that compare it with other matrix products; not part of the API.
#[doc(hidden)]
pub mod gemm;
pub mod ggn;
pub mod hib;
pub use probdml_core::instruction_set;
use probdml_core::labels;
use probdml_core::threads;
pub mod laplace;
pub mod metrics;
pub mod nivmf;
pub mod prelude;
#[cfg(feature = "reference")]
pub use probdml_reference::quadrature;
pub mod special;
pub mod triplet;
pub mod vmf;
pub mod xoshiro_x8;
pub mod ziggurat;

pub use error::{Error, Result};
pub use gaussians::{Gaussian, Gaussians};
pub use labels::{IntoLabels, Labels};
/// The `rand` (0.10) whose [`rand::Rng`] the samplers take. A program that adds its own `rand`
/// at another major version (`cargo add rand` picks the newest) gets a second, incompatible
/// `Rng` trait, and the compiler's error does not say why; seeding through this re-export,
/// `probdml::rand::rngs::StdRng::seed_from_u64(…)`, always matches.
pub use rand;
