//! The result of k-NN identification and the class labels it needs. Shared by the fast and the exact twins.

use crate::error::{Error, Result};
use crate::metrics::input::labels::Labels;
use crate::metrics::input::retrieval_task::Relevance;
use crate::metrics::input::retrieval_task::Retrieval;

/// The result of K-NN identification: which queries were classified correctly, and the share.
#[derive(Debug, Clone, PartialEq)]
pub struct KnnIdentification {
    /// Per query: whether the majority label of its `k` nearest neighbours is its own label.
    pub correct: Vec<bool>,
    /// The mean of `correct`.
    pub accuracy: f64,
}

/// The class labels of a task (shared by both twins).
#[doc(hidden)]
pub fn labels<'a>(task: &Retrieval<'a>) -> Result<(Labels<'a>, Labels<'a>)> {
    match task.relevance() {
        Relevance::Labels { queries, database } => Ok((queries, database)),
        Relevance::Positives(_) => Err(Error::Undefined {
            arg: "task",
            quantity: "K-NN identification accuracy",
            reason: "it needs class labels, and the task lists positives instead",
        }),
    }
}
