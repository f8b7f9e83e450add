//! The inputs, results and input checks of the metrics, shared by the fast and the exact twins:
//! the embeddings and their distance, a retrieval task, the score types, each metric's result
//! type and the checks that make both twins refuse the same inputs with the same error. Nothing
//! here computes a metric.

pub(crate) mod binned_correlation;
pub(crate) mod calibration;
pub(crate) mod checks;
pub(crate) mod embeddings;
pub(crate) mod identification;
pub(crate) mod kendall;
pub(crate) mod neighbours;
pub(crate) mod ood;
pub(crate) mod retrieval;
pub(crate) mod retrieval_task;
pub(crate) mod score;
pub(crate) mod sparsification;
