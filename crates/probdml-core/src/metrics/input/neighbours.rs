//! The nearest-neighbour lists of a retrieval task. Shared by the fast and the exact twins.

/// The k nearest database items of every query, ranked by distance with ties broken by
/// database index (see [`Retrieval`](crate::metrics::Retrieval)).
///
/// Produced by `nearest_neighbours` and by
/// `exact::nearest_neighbours`.
#[derive(Debug, Clone, PartialEq)]
pub struct Neighbours {
    k: usize,
    indices: Vec<usize>,
    distances: Vec<f64>,
}

impl Neighbours {
    /// Builds from flat row-major `indices` and `distances`, `k` per query.
    #[doc(hidden)]
    pub fn from_parts(k: usize, indices: Vec<usize>, distances: Vec<f64>) -> Self {
        debug_assert_eq!(indices.len(), distances.len());
        Self {
            k,
            indices,
            distances,
        }
    }

    /// Neighbours per query.
    pub fn k(&self) -> usize {
        self.k
    }

    /// Number of queries.
    pub fn query_count(&self) -> usize {
        self.indices.len() / self.k
    }

    /// Database indices of the neighbours of query `q`, nearest first. Panics if `q` is out of
    /// range.
    pub fn indices(&self, q: usize) -> &[usize] {
        &self.indices[q * self.k..(q + 1) * self.k]
    }

    /// Distances of the neighbours of query `q` (Euclidean ‖q − x‖ or cosine 1 − cos),
    /// nondecreasing up to rounding. Panics if `q` is out of range.
    pub fn distances(&self, q: usize) -> &[f64] {
        &self.distances[q * self.k..(q + 1) * self.k]
    }
}
