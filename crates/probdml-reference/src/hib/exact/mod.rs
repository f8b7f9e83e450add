//! Exact (reference) twins of chapter 07, at the same names as the fast ones.
//!
//! The match probability is a one-dimensional integral against the law of `‖Δ‖²`
//! ([`match_probability`]): the scaled non-central χ² density when the variances are isotropic,
//! the CDF of a Gaussian quadratic form (chapter 05's [`crate::gaussian_quadratic_form`])
//! otherwise. The polar route ([`match_probability_polar`], `D ≤ 4`) integrates over the sphere
//! and along rays instead and shares nothing with either, which is what the proofs compare.
//! The KL divergence is integrated from its definition; the VIB gradient comes from dual
//! numbers. Exact twins never call the fast twins of this chapter (the Monte Carlo estimator,
//! the moment-matched approximation, the hand-derived gradient, the closed-form KL).
mod difference;
mod divergence;
mod isotropic;
mod log_concave;
#[doc(hidden)]
pub mod logistic;
mod match_probability;
mod polar;
mod quadratic_form;
mod self_mismatch;
mod vib;

pub use divergence::kl_to_standard_normal;
pub use match_probability::{
    match_probability, match_probability_by_quadratic_form, match_probability_polar,
    mixture_match_probability,
};
pub use polar::POLAR_MAX_DIM;
pub use self_mismatch::self_mismatch;
pub use vib::vib_loss;
