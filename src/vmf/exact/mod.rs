//! Exact twins of the vMF functions.
mod normaliser;

pub use normaliser::{
    log_norm_const, log_norm_const_dd, mean_resultant_length, mean_resultant_length_dd,
};
