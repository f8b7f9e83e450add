//! What is mined within a batch: pairs and Hessian triplets for the contrastive loss and its
//! GGN ([`pairs`], chapters 03 and 04), anchor–positive–negative triplets for the Bayesian
//! triplet loss ([`triplets`], chapter 05), with the choice of their negatives ([`negatives`])
//! and the choice of form L's pairs ([`loss_mining`]). Only the choices are built without
//! libtorch: the run's options hold them.

pub mod loss_mining;
pub mod negatives;
#[cfg(feature = "tch")]
pub mod pairs;
#[cfg(feature = "tch")]
pub mod triplets;

pub use loss_mining::LossMining;
pub use negatives::Negatives;
#[cfg(feature = "tch")]
pub use pairs::{hessian_tuples, HessianTriplets, MinedPairs};
#[cfg(feature = "tch")]
pub use triplets::{MinedTriplets, NEGATIVES_PER_ANCHOR};
