//! The per-query and summary results of retrieval at k. Shared by the fast and the exact twins.

/// The scores of one query at one cut-off k (see `per_query_at_k`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QueryAtK {
    /// The query's index.
    pub query: usize,
    /// R: its number of positives in the database (its own row excluded), at least 1.
    pub positives: usize,
    /// Database index of its nearest neighbour (rank 1), e.g. for LAM's pair uncertainty.
    pub nearest: usize,
    /// Whether a positive is among the k nearest (recall@k of this query).
    pub hit: bool,
    /// Positives among the k nearest, divided by k.
    pub precision: f64,
    /// AP@k = (1/min(R, k)) Σ_{i ≤ k} precision@i · [item i is positive].
    pub average_precision: f64,
}

/// recall@k, precision@k and mAP@k at several cut-offs from one search (see
/// `evaluate_retrieval`).
#[derive(Debug, Clone, PartialEq)]
pub struct RetrievalReport {
    /// The cut-offs, as given.
    pub ks: Vec<usize>,
    /// recall@k for each entry of `ks`.
    pub recall: Vec<f64>,
    /// precision@k for each entry of `ks`.
    pub precision: Vec<f64>,
    /// mAP@k for each entry of `ks`.
    pub map: Vec<f64>,
    /// Queries with at least one positive: the ones averaged over.
    pub scored_queries: usize,
    /// Queries with no positive in the database: excluded from every mean, counted here.
    pub excluded_queries: usize,
}
