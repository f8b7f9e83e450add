//! K-NN identification from the brute-force neighbour lists, with the vote counted from its
//! definition.

use crate::error::Result;
use crate::metrics::exact::nearest_neighbours;
use crate::metrics::input::identification::{labels, KnnIdentification};
use crate::metrics::input::retrieval_task::Retrieval;

/// The majority label of `votes`, ranked nearest first: the label with the most votes, and of
/// the labels tied for most, the one whose nearest vote ranks first (HIB §4.1's K-NN; the tie
/// rule is the crate's). Counted literally: every vote's label is recounted over all votes
/// (`O(k²)`), and the first vote in rank order whose label reaches the maximum names the
/// winner — that vote is the nearest vote of every label tied at the maximum.
fn majority(votes: &[i128]) -> Option<i128> {
    let count = |label: i128| votes.iter().filter(|&&v| v == label).count();
    let most = votes.iter().map(|&v| count(v)).max()?;
    votes.iter().copied().find(|&v| count(v) == most)
}

/// Exact twin of `metrics::knn_identification`: the
/// neighbour lists of the brute-force search (full sort of every distance) and the majority
/// vote counted from its definition.
///
/// # Formula
///
/// As `metrics::knn_identification`.
///
/// # Errors
///
/// As `metrics::knn_identification`.
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
    let correct: Vec<bool> = (0..neighbours.query_count())
        .map(|q| {
            let votes: Vec<i128> = neighbours
                .indices(q)
                .iter()
                .map(|&j| database.get(j))
                .collect();
            majority(&votes) == Some(queries.get(q))
        })
        .collect();
    let hits = correct.iter().filter(|&&c| c).count();
    let accuracy = hits as f64 / correct.len() as f64;
    Ok(KnnIdentification { correct, accuracy })
}
