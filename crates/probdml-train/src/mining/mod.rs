//! What is mined within a batch: pairs and Hessian triplets for the contrastive loss and its
//! GGN ([`pairs`], chapters 03 and 04), anchor–positive–negative triplets for the Bayesian
//! triplet loss ([`triplets`], chapter 05).

pub mod pairs;
pub mod triplets;

pub use pairs::{hessian_tuples, HessianTriplets, MinedPairs};
pub use triplets::{MinedTriplets, Negatives, NEGATIVES_PER_ANCHOR};
