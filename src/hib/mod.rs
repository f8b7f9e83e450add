//! Hedged instance embeddings (HIB; spec chapter 07): stochastic embeddings `p(z | x)`, their
//! match probability, the VIB objective and the self-mismatch uncertainty.
//!
//! The fast twins live here; the references, under [`exact`].
pub mod exact;

mod checks;
mod divergence;
mod embedding;
mod gauss_rule;
mod logistic;
mod moment_matched;
mod monte_carlo;
mod vib;

pub use divergence::kl_to_standard_normal;
pub use embedding::HedgedEmbedding;
pub use logistic::log_sigmoid;
pub use moment_matched::match_probability_moment_matched;
pub use monte_carlo::{match_probability, self_mismatch};
pub use vib::{vib_loss, VibLoss, VibPair};
