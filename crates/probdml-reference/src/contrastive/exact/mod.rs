//! Exact (reference) twins of chapter 03, at the same names and signatures as the fast ones.
//!
//! Every sum is an explicit loop over **ordered** pairs (i, j), trivial pairs included, with
//! distances from the explicit differences ‖z_i − z_j‖² (never the Gram shortcut 2 − 2G), each
//! difference split exactly by TwoSum and squared exactly, and every accumulation compensated
//! (Neumaier). Margin decisions compare the double-double d² with m² unrounded. Minibatch
//! expectations enumerate every batch. Exact twins call only exact twins (and the shared input
//! checks); the normalisers come from [`crate::vmf::exact`].
mod compensated;
mod likelihood;
mod loss;
mod pairs;
mod rescaling;

pub use likelihood::{
    class_likelihood, likelihood_constant, negative_log_likelihood, negative_log_likelihood_dd,
};
pub use loss::{loss, loss_gradient};
pub use pairs::{hard_negatives, pair_counts, pair_targets};
pub use rescaling::{batch_expectation, rescaled_loss, BatchExpectation};
