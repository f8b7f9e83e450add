//! Fast retrieval metrics: recall@k, precision@k, mAP@k (LAM/BTL) and mAP@R, R-precision
//! (pytorch-metric-learning), from one top-k search per call.

use std::collections::HashMap;

use crate::error::Result;
use crate::metrics::input::retrieval::QueryAtK;
use crate::metrics::input::retrieval::RetrievalReport;
use crate::metrics::neighbours::ranked_lists;
use crate::metrics::retrieval_task::{Relevance, Retrieval};
use crate::threads;

/// Positives of each query, answered in O(1) (labels) or O(log |set|) (sorted sets).
pub(crate) enum PositiveIndex {
    // The labels as `i128`s, read once: every integer type compares by value.
    Labels {
        queries: Vec<i128>,
        database: Vec<i128>,
        counts: HashMap<i128, usize>,
        leave_one_out: bool,
    },
    Sets(Vec<Vec<u32>>),
}

impl PositiveIndex {
    pub(crate) fn new(task: &Retrieval<'_>) -> Self {
        let leave_one_out = task.is_leave_one_out();
        match task.relevance() {
            Relevance::Labels { queries, database } => {
                let (queries, database) = (queries.to_vec(), database.to_vec());
                let mut counts = HashMap::new();
                for &label in &database {
                    *counts.entry(label).or_insert(0) += 1;
                }
                Self::Labels {
                    queries,
                    database,
                    counts,
                    leave_one_out,
                }
            }
            Relevance::Positives(sets) => Self::Sets(
                sets.iter()
                    .enumerate()
                    .map(|(q, set)| {
                        let mut s: Vec<u32> = set
                            .iter()
                            .filter(|&&j| !(leave_one_out && j == q))
                            .map(|&j| j as u32)
                            .collect();
                        s.sort_unstable();
                        s.dedup();
                        s
                    })
                    .collect(),
            ),
        }
    }

    /// R_q: positives of query q that it can retrieve.
    pub(crate) fn count(&self, q: usize) -> usize {
        match self {
            Self::Labels {
                queries,
                counts,
                leave_one_out,
                ..
            } => counts.get(&queries[q]).copied().unwrap_or(0) - usize::from(*leave_one_out),
            Self::Sets(sets) => sets[q].len(),
        }
    }

    #[inline]
    pub(crate) fn is_positive(&self, q: usize, j: u32) -> bool {
        match self {
            Self::Labels {
                queries, database, ..
            } => database[j as usize] == queries[q],
            Self::Sets(sets) => sets[q].binary_search(&j).is_ok(),
        }
    }
}

/// Running sums along one ranked list: hits and Σ precision@i over positive ranks.
fn prefix_scores(relevant: &[bool], k: usize) -> (usize, f64) {
    let mut hits = 0usize;
    let mut sum = 0.0;
    for (i, &rel) in relevant.iter().take(k).enumerate() {
        if rel {
            hits += 1;
            sum += hits as f64 / (i + 1) as f64;
        }
    }
    (hits, sum)
}

/// The relevance flags of every query's first `k` results, and R for each, in parallel.
fn relevance_lists(
    task: &Retrieval<'_>,
    index: &PositiveIndex,
    k_of: &(dyn Fn(usize) -> usize + Sync),
) -> Result<Vec<Vec<bool>>> {
    let lists = ranked_lists(task, k_of)?;
    Ok(threads::map_indexed(
        lists,
        task.threads() != Some(1),
        |q, list| list.iter().map(|&(_, j)| index.is_positive(q, j)).collect(),
    ))
}

/// The scores of every query with at least one positive, at cut-off k.
///
/// Fast twin of [`exact::per_query_at_k`](crate::metrics::exact::per_query_at_k). This is the
/// per-query input of [`sparsification_curve`](crate::metrics::sparsification_curve) (1-NN
/// accuracy is `hit` at k = 1) and of [`ece_at_k`](crate::metrics::ece_at_k).
///
/// # Formula
///
/// With rel_i = [the i-th nearest item is a positive] and R the number of positives:
/// hit = [Σ_{i≤k} rel_i > 0], precision = (1/k) Σ_{i≤k} rel_i,
/// AP@k = (1/min(R, k)) Σ_{i≤k} rel_i · (1/i) Σ_{j≤i} rel_j  (LAM §5, BTL §5).
///
/// # Errors
///
/// [`Error::CountOutOfRange`](crate::Error::CountOutOfRange) unless 1 ≤ k ≤
/// [`Retrieval::max_k`]; [`Error::Undefined`](crate::Error::Undefined) if no query has a
/// positive.
///
/// # Examples
///
/// ```
/// use probdml::metrics::{per_query_at_k, Distance, Embeddings, Retrieval};
/// let x = [0.0, 1.0, 3.0, 3.5];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &[0, 1, 0, 0], Distance::Euclidean)?;
/// let scores = per_query_at_k(&task, 2)?;
/// // Query 1 (label 1) has no positive: excluded.
/// assert_eq!(scores.iter().map(|s| s.query).collect::<Vec<_>>(), vec![0, 2, 3]);
/// // Query 0 ranks 1 (negative) then 2 (positive): AP@2 = (1/2)·(1/2) = 0.25.
/// assert_eq!(scores[0].average_precision, 0.25);
/// assert_eq!(scores[0].nearest, 1);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn per_query_at_k(task: &Retrieval<'_>, k: usize) -> Result<Vec<QueryAtK>> {
    let k = task.check_k("k", k)?;
    let index = PositiveIndex::new(task);
    let lists = ranked_lists(task, &|_| k)?;
    let scores: Vec<QueryAtK> =
        threads::map_indexed(lists, task.threads() != Some(1), |q, list| {
            let r = index.count(q);
            if r == 0 {
                return None;
            }
            let relevant: Vec<bool> = list.iter().map(|&(_, j)| index.is_positive(q, j)).collect();
            let (hits, sum) = prefix_scores(&relevant, k);
            Some(QueryAtK {
                query: q,
                positives: r,
                nearest: list[0].1 as usize,
                hit: hits > 0,
                precision: hits as f64 / k as f64,
                average_precision: sum / r.min(k) as f64,
            })
        })
        .into_iter()
        .flatten()
        .collect();
    if scores.is_empty() {
        return Err(task.no_scored_query());
    }
    Ok(scores)
}

/// recall@k, precision@k and mAP@k for every cut-off in `ks`, from one top-max(ks) search.
///
/// Fast twin of [`exact::evaluate_retrieval`](crate::metrics::exact::evaluate_retrieval). Means
/// run over the queries with at least one positive; the others are counted in
/// `excluded_queries` (not scored 1, as `apk` in LAM's `map.py` does).
///
/// # Formula
///
/// recall@k = mean_q [a positive among the k nearest]; precision@k = mean_q (positives among
/// the k nearest)/k; mAP@k = mean_q AP@k(q) with AP@k as in [`per_query_at_k`].
///
/// # Errors
///
/// [`Error::TooFew`](crate::Error::TooFew) if `ks` is empty;
/// [`Error::CountOutOfRange`](crate::Error::CountOutOfRange) for a cut-off outside
/// 1 ..= [`Retrieval::max_k`]; [`Error::Undefined`](crate::Error::Undefined) if no query has a
/// positive.
///
/// # Examples
///
/// ```
/// use probdml::metrics::{evaluate_retrieval, Distance, Embeddings, Retrieval};
/// let x = [0.0, 0.2, 1.0, 1.1, 5.0];
/// let labels = [0, 1, 0, 1, 1];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &labels, Distance::Euclidean)?;
/// let report = evaluate_retrieval(&task, &[1, 2])?;
/// // Nearest neighbours: 0→1 (miss), 1→0 (miss), 2→3 (miss), 3→2 (miss), 4→3 (hit).
/// assert_eq!(report.recall[0], 0.2);
/// // Second neighbours: 0→2 (hit), 1→2 (miss), 2→1 (miss), 3→1 (hit).
/// assert_eq!(report.recall[1], 0.6);
/// assert_eq!((report.scored_queries, report.excluded_queries), (5, 0));
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn evaluate_retrieval(task: &Retrieval<'_>, ks: &[usize]) -> Result<RetrievalReport> {
    let k_max = task.check_ks("ks", ks)?;
    let index = PositiveIndex::new(task);
    let relevant = relevance_lists(task, &index, &|_| k_max)?;
    let mut recall = vec![0.0; ks.len()];
    let mut precision = vec![0.0; ks.len()];
    let mut map = vec![0.0; ks.len()];
    let mut scored = 0usize;
    for (q, rel) in relevant.iter().enumerate() {
        let r = index.count(q);
        if r == 0 {
            continue;
        }
        scored += 1;
        for (c, &k) in ks.iter().enumerate() {
            let (hits, sum) = prefix_scores(rel, k);
            recall[c] += if hits > 0 { 1.0 } else { 0.0 };
            precision[c] += hits as f64 / k as f64;
            map[c] += sum / r.min(k) as f64;
        }
    }
    if scored == 0 {
        return Err(task.no_scored_query());
    }
    let n = scored as f64;
    for c in 0..ks.len() {
        recall[c] /= n;
        precision[c] /= n;
        map[c] /= n;
    }
    Ok(RetrievalReport {
        ks: ks.to_vec(),
        recall,
        precision,
        map,
        scored_queries: scored,
        excluded_queries: relevant.len() - scored,
    })
}

/// recall@k: the fraction of queries (with at least one positive) that find a positive among
/// their k nearest neighbours (BTL §5, LAM §5).
///
/// Fast twin of [`exact::recall_at_k`](crate::metrics::exact::recall_at_k).
///
/// # Formula
///
/// recall@k = (1/|Q⁺|) Σ_{q ∈ Q⁺} [∃ i ≤ k: rel_i(q)], Q⁺ = queries with R ≥ 1.
///
/// # Errors
///
/// As [`evaluate_retrieval`].
///
/// # Examples
///
/// ```
/// use probdml::metrics::{recall_at_k, Distance, Embeddings, Retrieval};
/// let x = [0.0, 0.2, 1.0, 1.1, 5.0];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &[0, 1, 0, 1, 1], Distance::Euclidean)?;
/// assert_eq!(recall_at_k(&task, 1)?, 0.2);
/// assert_eq!(recall_at_k(&task, 4)?, 1.0);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn recall_at_k(task: &Retrieval<'_>, k: usize) -> Result<f64> {
    task.check_k("k", k)?;
    Ok(evaluate_retrieval(task, &[k])?.recall[0])
}

/// precision@k: the mean fraction of positives among the k nearest neighbours, over queries
/// with at least one positive.
///
/// Fast twin of [`exact::precision_at_k`](crate::metrics::exact::precision_at_k).
///
/// # Formula
///
/// precision@k = (1/|Q⁺|) Σ_{q ∈ Q⁺} (1/k) Σ_{i ≤ k} rel_i(q). (The denominator is k even when
/// R < k, as in pytorch-metric-learning's precision_at_1 and the usual definition.)
///
/// # Errors
///
/// As [`evaluate_retrieval`].
///
/// # Examples
///
/// ```
/// use probdml::metrics::{precision_at_k, Distance, Embeddings, Retrieval};
/// let x = [0.0, 0.2, 1.0, 1.1, 5.0];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &[0, 1, 0, 1, 1], Distance::Euclidean)?;
/// // Per query: 1/2, 0, 0, 1/2, 1/2 → mean 0.3.
/// assert!((precision_at_k(&task, 2)? - 0.3).abs() < 1e-15);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn precision_at_k(task: &Retrieval<'_>, k: usize) -> Result<f64> {
    task.check_k("k", k)?;
    Ok(evaluate_retrieval(task, &[k])?.precision[0])
}

/// mAP@k as LAM and BTL define it: the mean over queries of AP@k, normalised by min(R, k).
///
/// Fast twin of [`exact::map_at_k`](crate::metrics::exact::map_at_k).
///
/// # Formula
///
/// AP@k(q) = (1/min(R, k)) Σ_{i ≤ k} precision@i · rel_i, mAP@k = mean over queries with R ≥ 1
/// (LAM Tables 1–3, BTL eq. (14)'s mAP@k).
///
/// # Errors
///
/// As [`evaluate_retrieval`].
///
/// # Examples
///
/// ```
/// use probdml::metrics::{map_at_k, Distance, Embeddings, Retrieval};
/// let x = [0.0, 0.2, 1.0, 1.1, 5.0];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &[0, 1, 0, 1, 1], Distance::Euclidean)?;
/// // AP@2 per query: 0.5 (R = 1, hit at rank 2), 0, 0, 0.25 (R = 2, hit at rank 2) and
/// // 0.5 (R = 2, hit at rank 1 only): mean 1.25 / 5.
/// assert_eq!(map_at_k(&task, 2)?, 0.25);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn map_at_k(task: &Retrieval<'_>, k: usize) -> Result<f64> {
    task.check_k("k", k)?;
    Ok(evaluate_retrieval(task, &[k])?.map[0])
}

/// Per query: relevance flags of its first R results (R = its number of positives).
fn relevance_at_r(task: &Retrieval<'_>) -> Result<(Vec<Vec<bool>>, Vec<usize>)> {
    let index = PositiveIndex::new(task);
    let counts: Vec<usize> = (0..task.query_count()).map(|q| index.count(q)).collect();
    if counts.iter().all(|&r| r == 0) {
        return Err(task.no_scored_query());
    }
    let relevant = relevance_lists(task, &index, &|q| counts[q])?;
    Ok((relevant, counts))
}

/// mAP@R as pytorch-metric-learning's `AccuracyCalculator` defines it (Musgrave et al. 2020):
/// AP over the first R results, R = the query's number of positives.
///
/// Fast twin of [`exact::map_at_r`](crate::metrics::exact::map_at_r).
///
/// # Formula
///
/// MAP@R(q) = (1/R) Σ_{i ≤ R} precision@i · rel_i; the mean runs over queries with R ≥ 1
/// (pytorch-metric-learning likewise leaves out queries whose label has no other instance).
/// In a leave-one-out task the query itself is excluded by index, where the library drops the
/// first neighbour (the same unless the query has an exact duplicate).
///
/// # Errors
///
/// [`Error::Undefined`](crate::Error::Undefined) if no query has a positive.
///
/// # Examples
///
/// ```
/// use probdml::metrics::{map_at_r, Distance, Embeddings, Retrieval};
/// let x = [0.0, 0.2, 1.0, 1.1, 5.0];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &[0, 1, 0, 1, 1], Distance::Euclidean)?;
/// // R = 1, 2, 1, 2, 2; MAP@R = 0, 0, 0, 1/4, 1/2 → mean 0.15.
/// assert!((map_at_r(&task)? - 0.15).abs() < 1e-15);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn map_at_r(task: &Retrieval<'_>) -> Result<f64> {
    let (relevant, counts) = relevance_at_r(task)?;
    let (mut total, mut scored) = (0.0, 0usize);
    for (rel, &r) in relevant.iter().zip(&counts) {
        if r > 0 {
            total += prefix_scores(rel, r).1 / r as f64;
            scored += 1;
        }
    }
    Ok(total / scored as f64)
}

/// R-precision as pytorch-metric-learning defines it: the fraction of positives among the first
/// R results, R = the query's number of positives.
///
/// Fast twin of [`exact::r_precision`](crate::metrics::exact::r_precision).
///
/// # Formula
///
/// R-precision(q) = (1/R) Σ_{i ≤ R} rel_i, averaged over queries with R ≥ 1.
///
/// # Errors
///
/// [`Error::Undefined`](crate::Error::Undefined) if no query has a positive.
///
/// # Examples
///
/// ```
/// use probdml::metrics::{r_precision, Distance, Embeddings, Retrieval};
/// let x = [0.0, 0.2, 1.0, 1.1, 5.0];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &[0, 1, 0, 1, 1], Distance::Euclidean)?;
/// // R-precision per query: 0, 0, 0, 1/2, 1/2 → mean 0.2.
/// assert!((r_precision(&task)? - 0.2).abs() < 1e-15);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn r_precision(task: &Retrieval<'_>) -> Result<f64> {
    let (relevant, counts) = relevance_at_r(task)?;
    let (mut total, mut scored) = (0.0, 0usize);
    for (rel, &r) in relevant.iter().zip(&counts) {
        if r > 0 {
            total += prefix_scores(rel, r).0 as f64 / r as f64;
            scored += 1;
        }
    }
    Ok(total / scored as f64)
}
