//! HIB's own experiment (Oh et al., ICLR 2019, §4 and Appendix A) on N-digit MNIST: point
//! embeddings, HIB with one Gaussian (MoG-1) and with two (MoG-2), scored on the clean and the
//! corrupt test twin by
//!
//! * [`pairs`] — verification: 10 000 seeded test pairs, half matching (§4.3), ranked by the
//!   match probability p(m | x₁, x₂) (HIB) or by −distance (point embeddings);
//! * [`tasks`] — the verification AP, the K-NN (K = 5) identification accuracy against the
//!   training images as the labelled gallery, and the Kendall τ between the self-mismatch
//!   η(x) = 1 − p(m | x, x) (eq. 9) and each task's performance over 20 uncertainty bins (§4.4);
//! * [`galleries`] — the K-NN accuracy against other galleries, to locate a gap in the
//!   gallery's occlusions, the gallery itself or the fit of the training images;
//! * [`record`] — the run file `hib_tasks.json`; [`embedding`] — the run file
//!   `hib_embedding.json` (a seeded subset of both twins' embeddings, for HIB's Figs. 3–4); [`paper`] — the paper's Tables 1 and 2;
//!   [`tables`] — our tables beside them (`probdml hib-tables`).
//!
//! The scores themselves come from a trained model (`crate::pipeline::hib_tasks`, feature
//! "tch").

pub mod embedding;
pub mod galleries;
pub mod pairs;
pub mod paper;
pub mod record;
pub mod tables;
pub mod tasks;

pub use embedding::{
    embedding_subset, read_embedding, HibEmbedding, TwinEmbedding, EMBEDDING_IMAGES, HIB_EMBEDDING,
};
pub use galleries::{fit_images, KnnGalleries};
pub use pairs::{VerificationPairs, PAPER_PAIRS};
pub use record::{cpu_model, paper_method, read_record, training_steps, HibRunRecord, HIB_TASKS};
pub use tables::hib_tables;
pub use tasks::{TwinMetrics, TwinScores, KNN_K, TAU_BINS};
