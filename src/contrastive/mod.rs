//! The contrastive loss, its vMF likelihood, and minibatch rescaling (spec chapter 03;
//! LAM App. A, B, D).
mod pairs;

pub use pairs::{pair_targets, PairTarget};
