//! What is mined within a batch: pairs and Hessian triplets for the contrastive loss and its
//! GGN ([`pairs`], chapters 03 and 04), anchor–positive–negative triplets for the Bayesian
//! triplet loss ([`triplets`], chapter 05), with the choice of their negatives ([`negatives`]).
//! Only that choice is built without libtorch: BTL's options hold it.

pub mod negatives;
#[cfg(feature = "tch")]
pub mod pairs;
#[cfg(feature = "tch")]
pub mod triplets;

pub use negatives::Negatives;
#[cfg(feature = "tch")]
pub use pairs::{hessian_tuples, HessianTriplets, MinedPairs};
#[cfg(feature = "tch")]
pub use triplets::{MinedTriplets, NEGATIVES_PER_ANCHOR};
