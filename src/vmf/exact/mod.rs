//! Exact twins of the vMF functions.
mod normaliser;

pub use normaliser::{log_norm_const, mean_resultant_length};
