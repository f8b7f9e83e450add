//! HIB's identification task (§4.1, Table 1): K-nearest-neighbour classification accuracy.

use crate::error::Result;
use crate::metrics::input::identification::labels;
use crate::metrics::input::identification::KnnIdentification;
use crate::metrics::input::labels::Labels;
use crate::metrics::input::neighbours::Neighbours;
use crate::metrics::neighbours::nearest_neighbours;
use crate::metrics::retrieval_task::Retrieval;

/// The majority vote of one query's neighbours (shared by both twins): the label with most
/// votes; ties go to the label whose first vote ranks nearest.
pub(crate) fn vote(neighbour_labels: impl Iterator<Item = i128>) -> Option<i128> {
    // (label, votes, rank of its first vote)
    let mut tally: Vec<(i128, usize, usize)> = Vec::new();
    for (rank, label) in neighbour_labels.enumerate() {
        match tally.iter_mut().find(|t| t.0 == label) {
            Some(t) => t.1 += 1,
            None => tally.push((label, 1, rank)),
        }
    }
    tally
        .iter()
        .max_by(|x, y| x.1.cmp(&y.1).then(y.2.cmp(&x.2)))
        .map(|t| t.0)
}

/// Scores the votes of every query from its neighbour lists (shared by both twins).
pub(crate) fn score(
    neighbours: &Neighbours,
    queries: Labels<'_>,
    database: Labels<'_>,
) -> KnnIdentification {
    let correct: Vec<bool> = (0..neighbours.query_count())
        .map(|q| {
            vote(neighbours.indices(q).iter().map(|&j| database.get(j))) == Some(queries.get(q))
        })
        .collect();
    let accuracy = correct.iter().filter(|&&c| c).count() as f64 / correct.len() as f64;
    KnnIdentification { correct, accuracy }
}

/// K-nearest-neighbour identification (HIB §4.1, K = 5): each query takes the majority label of
/// its `k` nearest database items (the task's distance and tie rule; a tied vote goes to the
/// label whose first vote ranks nearest) and is correct when that is its own label. Fast twin of
/// [`exact::knn_identification`](crate::metrics::exact::knn_identification). The per-query
/// `correct` flags are the performance that [`binned_kendall_tau`](crate::metrics::binned_kendall_tau)
/// correlates with the self-mismatch `η` (HIB §4.3).
///
/// # Formula
///
/// `ŷ_q = argmax_y #{j ∈ N_k(q) : y_j = y}`, accuracy `= (1/n) Σ_q [ŷ_q = y_q]`.
///
/// # Errors
///
/// [`Error::CountOutOfRange`](crate::Error::CountOutOfRange) unless `1 ≤ k ≤` [`Retrieval::max_k`]; [`Error::Undefined`](crate::Error::Undefined) for a
/// task without class labels.
///
/// # Examples
///
/// ```
/// use probdml::metrics::{knn_identification, Distance, Embeddings, Retrieval};
/// let x = [0.0, 0.1, 0.2, 1.0, 1.1, 0.15];
/// let labels = [0, 0, 0, 1, 1, 1];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &labels, Distance::Euclidean)?;
/// let knn = knn_identification(&task, 3)?;
/// // The last point (label 1) sits among the 0s: its neighbours vote 0.
/// assert_eq!(knn.correct, vec![true, true, true, true, true, false]);
/// assert!((knn.accuracy - 5.0 / 6.0).abs() < 1e-15);
/// # Ok::<(), probdml::Error>(())
/// ```
///
/// Cited: HIB §4.1 and Table 1 ("KNN accuracy", K = 5).
pub fn knn_identification(task: &Retrieval<'_>, k: usize) -> Result<KnnIdentification> {
    let (queries, database) = labels(task)?;
    let neighbours = nearest_neighbours(task, k)?;
    Ok(score(&neighbours, queries, database))
}
