//! K-NN identification from the brute-force neighbour lists.

use crate::error::Result;
use crate::metrics::exact::nearest_neighbours;
use crate::metrics::identification::{labels, score, KnnIdentification};
use crate::metrics::retrieval_task::Retrieval;

/// Exact twin of [`metrics::knn_identification`](crate::metrics::knn_identification): the same
/// vote on the neighbour lists of the brute-force search (full sort of every distance).
///
/// # Formula
///
/// As [`metrics::knn_identification`](crate::metrics::knn_identification).
///
/// # Errors
///
/// As [`metrics::knn_identification`](crate::metrics::knn_identification).
///
/// # Examples
///
/// ```
/// use probdml::metrics::{self, exact, Distance, Embeddings, Retrieval};
/// let x = [0.0, 0.1, 0.2, 1.0, 1.1, 0.15];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &[0, 0, 0, 1, 1, 1], Distance::Euclidean)?;
/// assert_eq!(exact::knn_identification(&task, 3)?, metrics::knn_identification(&task, 3)?);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn knn_identification(task: &Retrieval<'_>, k: usize) -> Result<KnnIdentification> {
    let (queries, database) = labels(task)?;
    let neighbours = nearest_neighbours(task, k)?;
    Ok(score(&neighbours, queries, database))
}
