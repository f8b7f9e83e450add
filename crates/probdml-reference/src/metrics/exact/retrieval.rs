//! Retrieval metrics by their definitions: full rankings, positives recounted by scanning,
//! precision@i recounted at every rank.

use crate::error::Result;
use crate::metrics::exact::neighbours::full_ranking;
use crate::metrics::input::retrieval::{QueryAtK, RetrievalReport};
use crate::metrics::input::retrieval_task::{Relevance, Retrieval};

/// Whether database item j is a positive of query q, straight from the relevance rule.
fn is_positive(task: &Retrieval<'_>, q: usize, j: usize) -> bool {
    match task.relevance() {
        Relevance::Labels { queries, database } => database.get(j) == queries.get(q),
        Relevance::Positives(sets) => sets[q].contains(&j),
    }
}

/// R: the database items other than the query itself that are positives, counted one by one.
fn positives(task: &Retrieval<'_>, q: usize) -> usize {
    (0..task.database().len())
        .filter(|&j| !(task.is_leave_one_out() && j == q))
        .filter(|&j| is_positive(task, q, j))
        .count()
}

/// rel_1 … rel_n of query q's full ranking.
fn relevance(task: &Retrieval<'_>, q: usize) -> Vec<bool> {
    full_ranking(task, q)
        .iter()
        .map(|&(_, j)| is_positive(task, q, j))
        .collect()
}

/// precision@i = (1/i) #{positives among the first i}, recounted from scratch.
fn precision_at(rel: &[bool], i: usize) -> f64 {
    rel[..i].iter().filter(|&&r| r).count() as f64 / i as f64
}

/// AP over the first `k` ranks with normaliser `norm`: (1/norm) Σ_{i ≤ k} precision@i · rel_i.
fn average_precision(rel: &[bool], k: usize, norm: usize) -> f64 {
    let mut sum = 0.0;
    for i in 1..=k {
        if rel[i - 1] {
            sum += precision_at(rel, i);
        }
    }
    sum / norm as f64
}

/// Exact twin of `metrics::per_query_at_k`.
///
/// # Formula
///
/// As the fast twin, with the ranking from a full sort and every precision@i recounted.
///
/// # Errors
///
/// As `metrics::per_query_at_k`.
///
/// # Examples
///
/// ```
/// use probdml::metrics::{exact, Distance, Embeddings, Retrieval};
/// let x = [0.0, 1.0, 3.0, 3.5];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &[0, 1, 0, 0], Distance::Euclidean)?;
/// assert_eq!(exact::per_query_at_k(&task, 2)?[0].average_precision, 0.25);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn per_query_at_k(task: &Retrieval<'_>, k: usize) -> Result<Vec<QueryAtK>> {
    let k = task.check_k("k", k)?;
    let mut scores = Vec::new();
    for q in 0..task.query_count() {
        let r = positives(task, q);
        if r == 0 {
            continue;
        }
        let rel = relevance(task, q);
        let hits = rel[..k].iter().filter(|&&x| x).count();
        scores.push(QueryAtK {
            query: q,
            positives: r,
            nearest: full_ranking(task, q)[0].1,
            hit: hits > 0,
            precision: precision_at(&rel, k),
            average_precision: average_precision(&rel, k, r.min(k)),
        });
    }
    if scores.is_empty() {
        return Err(task.no_scored_query());
    }
    Ok(scores)
}

/// Exact twin of `metrics::evaluate_retrieval`.
///
/// # Formula
///
/// recall@k, precision@k, mAP@k as the fast twin; each query's full ranking is re-derived for
/// every cut-off.
///
/// # Errors
///
/// As `metrics::evaluate_retrieval`.
///
/// # Examples
///
/// ```
/// use probdml::metrics::{exact, Distance, Embeddings, Retrieval};
/// let x = [0.0, 0.2, 1.0, 1.1, 5.0];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &[0, 1, 0, 1, 1], Distance::Euclidean)?;
/// assert_eq!(exact::evaluate_retrieval(&task, &[1, 2])?.recall, vec![0.2, 0.6]);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn evaluate_retrieval(task: &Retrieval<'_>, ks: &[usize]) -> Result<RetrievalReport> {
    task.check_ks("ks", ks)?;
    let mut recall = vec![0.0; ks.len()];
    let mut precision = vec![0.0; ks.len()];
    let mut map = vec![0.0; ks.len()];
    let mut scored = 0usize;
    for q in 0..task.query_count() {
        let r = positives(task, q);
        if r == 0 {
            continue;
        }
        scored += 1;
        for (c, &k) in ks.iter().enumerate() {
            let rel = relevance(task, q);
            let hit = rel[..k].iter().any(|&x| x);
            recall[c] += if hit { 1.0 } else { 0.0 };
            precision[c] += precision_at(&rel, k);
            map[c] += average_precision(&rel, k, r.min(k));
        }
    }
    if scored == 0 {
        return Err(task.no_scored_query());
    }
    for c in 0..ks.len() {
        recall[c] /= scored as f64;
        precision[c] /= scored as f64;
        map[c] /= scored as f64;
    }
    Ok(RetrievalReport {
        ks: ks.to_vec(),
        recall,
        precision,
        map,
        scored_queries: scored,
        excluded_queries: task.query_count() - scored,
    })
}

/// Exact twin of `metrics::recall_at_k`.
///
/// # Formula
///
/// recall@k = (1/|Q⁺|) Σ_{q ∈ Q⁺} [∃ i ≤ k: rel_i(q)].
///
/// # Errors
///
/// As `metrics::evaluate_retrieval`.
///
/// # Examples
///
/// ```
/// use probdml::metrics::{exact, Distance, Embeddings, Retrieval};
/// let x = [0.0, 0.2, 1.0, 1.1, 5.0];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &[0, 1, 0, 1, 1], Distance::Euclidean)?;
/// assert_eq!(exact::recall_at_k(&task, 1)?, 0.2);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn recall_at_k(task: &Retrieval<'_>, k: usize) -> Result<f64> {
    task.check_k("k", k)?;
    Ok(evaluate_retrieval(task, &[k])?.recall[0])
}

/// Exact twin of `metrics::precision_at_k`.
///
/// # Formula
///
/// precision@k = (1/|Q⁺|) Σ_{q ∈ Q⁺} (1/k) Σ_{i ≤ k} rel_i(q).
///
/// # Errors
///
/// As `metrics::evaluate_retrieval`.
///
/// # Examples
///
/// ```
/// use probdml::metrics::{exact, Distance, Embeddings, Retrieval};
/// let x = [0.0, 0.2, 1.0, 1.1, 5.0];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &[0, 1, 0, 1, 1], Distance::Euclidean)?;
/// assert!((exact::precision_at_k(&task, 2)? - 0.3).abs() < 1e-15);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn precision_at_k(task: &Retrieval<'_>, k: usize) -> Result<f64> {
    task.check_k("k", k)?;
    Ok(evaluate_retrieval(task, &[k])?.precision[0])
}

/// Exact twin of `metrics::map_at_k`.
///
/// # Formula
///
/// AP@k(q) = (1/min(R, k)) Σ_{i ≤ k} precision@i · rel_i; mAP@k = mean over Q⁺.
///
/// # Errors
///
/// As `metrics::evaluate_retrieval`.
///
/// # Examples
///
/// ```
/// use probdml::metrics::{exact, Distance, Embeddings, Retrieval};
/// let x = [0.0, 0.2, 1.0, 1.1, 5.0];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &[0, 1, 0, 1, 1], Distance::Euclidean)?;
/// assert_eq!(exact::map_at_k(&task, 2)?, 0.25);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn map_at_k(task: &Retrieval<'_>, k: usize) -> Result<f64> {
    task.check_k("k", k)?;
    Ok(evaluate_retrieval(task, &[k])?.map[0])
}

/// Exact twin of `metrics::map_at_r`.
///
/// # Formula
///
/// MAP@R(q) = (1/R) Σ_{i ≤ R} precision@i · rel_i, averaged over queries with R ≥ 1.
///
/// # Errors
///
/// As `metrics::map_at_r`.
///
/// # Examples
///
/// ```
/// use probdml::metrics::{exact, Distance, Embeddings, Retrieval};
/// let x = [0.0, 0.2, 1.0, 1.1, 5.0];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &[0, 1, 0, 1, 1], Distance::Euclidean)?;
/// assert!((exact::map_at_r(&task)? - 0.15).abs() < 1e-15);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn map_at_r(task: &Retrieval<'_>) -> Result<f64> {
    let (mut total, mut scored) = (0.0, 0usize);
    for q in 0..task.query_count() {
        let r = positives(task, q);
        if r > 0 {
            total += average_precision(&relevance(task, q), r, r);
            scored += 1;
        }
    }
    if scored == 0 {
        return Err(task.no_scored_query());
    }
    Ok(total / scored as f64)
}

/// Exact twin of `metrics::r_precision`.
///
/// # Formula
///
/// R-precision(q) = (1/R) Σ_{i ≤ R} rel_i, averaged over queries with R ≥ 1.
///
/// # Errors
///
/// As `metrics::r_precision`.
///
/// # Examples
///
/// ```
/// use probdml::metrics::{exact, Distance, Embeddings, Retrieval};
/// let x = [0.0, 0.2, 1.0, 1.1, 5.0];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &[0, 1, 0, 1, 1], Distance::Euclidean)?;
/// assert!((exact::r_precision(&task)? - 0.2).abs() < 1e-15);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn r_precision(task: &Retrieval<'_>) -> Result<f64> {
    let (mut total, mut scored) = (0.0, 0usize);
    for q in 0..task.query_count() {
        let r = positives(task, q);
        if r > 0 {
            total += precision_at(&relevance(task, q), r);
            scored += 1;
        }
    }
    if scored == 0 {
        return Err(task.no_scored_query());
    }
    Ok(total / scored as f64)
}
