//! The von Mises–Fisher distribution on S^{M−1} (spec chapters 01–02).
pub mod exact;
mod normaliser;

pub use normaliser::{log_norm_const, mean_resultant_length};
