//! The inputs, results and input checks of the metrics, shared by the fast and the exact twins:
//! the embeddings and their distance, a retrieval task, the score types, each metric's result
//! type and the checks that make both twins refuse the same inputs with the same error. Nothing
//! here computes a metric.

#[doc(hidden)]
pub mod binned_correlation;
#[doc(hidden)]
pub mod calibration;
#[doc(hidden)]
pub mod checks;
#[doc(hidden)]
pub mod embeddings;
#[doc(hidden)]
pub mod identification;
#[doc(hidden)]
pub mod kendall;
// Class labels are shared with the contrastive, calibration and ProxyNCA++ inputs.
#[doc(hidden)]
pub use crate::labels;
#[doc(hidden)]
pub mod neighbours;
#[doc(hidden)]
pub mod ood;
#[doc(hidden)]
pub mod retrieval;
#[doc(hidden)]
pub mod retrieval_task;
#[doc(hidden)]
pub mod score;
#[doc(hidden)]
pub mod sparsification;
