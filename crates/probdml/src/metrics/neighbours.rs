//! Fast k-nearest-neighbour search with the exact twin's results: candidates from blocked `f32`
//! (or, on AVX2, 16-bit integer) Gram matrices (the candidate filter fused into the block loop, see
//! [`candidate_search`](crate::metrics::candidate_search)), then the candidates re-ranked by the
//! exact twin's own `f64` arithmetic. The filter provably keeps every item of the exact top k,
//! ties included, so the ranking — and every retrieval metric — is bitwise the exact twin's.

use crate::error::Result;
use crate::instruction_set::{dispatch_on, InstructionSet};
use crate::metrics::candidate_search;
use crate::metrics::embeddings::{Coordinates, Distance, Embeddings};
use crate::metrics::input::neighbours::Neighbours;
use crate::metrics::retrieval_task::Retrieval;
use crate::metrics::visit_order::VisitOrder;
use crate::threads;

/// The `k` nearest database items of every query.
///
/// Fast twin of [`exact::nearest_neighbours`](crate::metrics::exact::nearest_neighbours), with
/// bitwise its results: the same indices in the same order and the same distances, ties in
/// distance included.
///
/// # Formula
///
/// For query q the ranking orders database items x_j (j ≠ q in a leave-one-out task) by
/// (d(q, x_j), j) lexicographically, where d² = Σ_d (q_d − x_d)² or d = 1 − ⟨q, x⟩/(‖q‖‖x‖),
/// evaluated in `f64` as the exact twin does. The fast twin first keeps, per query, the items
/// whose `f32` key ‖x‖² − 2⟨q, x⟩ lies within 2·err_q of the k-th smallest key, where err_q
/// bounds the difference between the `f32` key and the exact one (Higham §3.1; module docs of
/// `candidate_search`); these contain the exact top k, which the exact re-ranking then selects.
///
/// # Errors
///
/// [`Error::CountOutOfRange`](crate::Error::CountOutOfRange) unless 1 ≤ k ≤
/// [`Retrieval::max_k`].
///
/// # Examples
///
/// ```
/// use probdml::metrics::{nearest_neighbours, Distance, Embeddings, Retrieval};
/// // Points on a line; 1.0 and 3.0 are both at distance 1 from 2.0: the smaller index wins.
/// let x = [0.0, 3.0, 2.0, 1.0];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &[0, 0, 1, 1], Distance::Euclidean)?;
/// let nn = nearest_neighbours(&task, 2)?;
/// assert_eq!(nn.indices(2), &[1, 3]);
/// assert_eq!(nn.distances(2), &[1.0, 1.0]);
/// assert_eq!(nn.indices(0), &[3, 2]);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn nearest_neighbours(task: &Retrieval<'_>, k: usize) -> Result<Neighbours> {
    let k = task.check_k("k", k)?;
    let lists = ranked_lists(task, &|_| k)?;
    let mut indices = Vec::with_capacity(lists.len() * k);
    let mut distances = Vec::with_capacity(lists.len() * k);
    for list in &lists {
        for &(key, j) in list {
            indices.push(j as usize);
            distances.push(match task.distance() {
                Distance::Euclidean => key.sqrt(),
                Distance::Cosine => key,
            });
        }
    }
    Ok(Neighbours::from_parts(k, indices, distances))
}

/// For every query q, its first `k_of(q)` database items under the tie rule, as sorted
/// `(ranking distance, index)` pairs — the exact twin's Σ(q − x)² or cosine distance, bitwise.
/// `k_of(q)` must lie in 1 ..= [`Retrieval::max_k`]. Runs on the task's thread count.
pub(crate) fn ranked_lists(
    task: &Retrieval<'_>,
    k_of: &(dyn Fn(usize) -> usize + Sync),
) -> Result<Vec<Vec<(f64, u32)>>> {
    task.run(|| {
        let database = task.database();
        // `Embeddings::new` rejects more than 2³² − 1 rows, so indices fit in u32.
        debug_assert!(database.len() <= u32::MAX as usize);
        let queries = (!task.is_leave_one_out()).then(|| task.queries());
        let order = VisitOrder::by_label(task);
        let mut candidates = candidate_search::candidates(
            queries.as_ref(),
            &database,
            task.distance(),
            k_of,
            &order,
            task.threads(),
        );
        // In the caller's instruction set on every worker (`InstructionSet::run` forces it on
        // the calling thread only): the lanes of `rerank` vectorise.
        let isa = InstructionSet::active();
        let all_queries = task.queries();
        let rerank = |(q, cands): (usize, Vec<u32>)| {
            dispatch_on(
                isa,
                #[inline(always)]
                || rerank(&all_queries, q, &database, task.distance(), cands, k_of(q)),
            )
        };
        // Re-ranked in the search's visiting order: queries of one label follow each other and
        // mostly share their candidates, whose rows then stay in cache.
        let jobs: Vec<(usize, Vec<u32>)> = match order.queries() {
            Some(visit) => visit
                .iter()
                .map(|&q| (q as usize, std::mem::take(&mut candidates[q as usize])))
                .collect(),
            None => candidates.into_iter().enumerate().collect(),
        };
        let ranked = threads::map_indexed(jobs, task.threads() != Some(1), |_, (q, cands)| {
            (q, rerank((q, cands)))
        });
        let mut lists = vec![Vec::new(); ranked.len()];
        for (q, list) in ranked {
            lists[q] = list;
        }
        Ok(lists)
    })
}

/// Candidates re-ranked at once: each lane sums its own candidate's terms in index order, so
/// its value is the sequential sum's, bit for bit; the lanes hide the latency of the chain of
/// additions, which bound the one-candidate-at-a-time loop (128 dependent additions per
/// candidate at D = 128).
const RERANK_LANES: usize = 8;

/// Σ_d a_d b_d in index order from 0.0: the exact twin's inner product, operation for operation.
fn sequential_dot(a: &[f64], b: &[f64]) -> f64 {
    let mut s = 0.0;
    for d in 0..a.len() {
        s += a[d] * b[d];
    }
    s
}

/// The first `k` candidates of query q by (exact ranking distance, index), with the exact
/// twin's arithmetic: Σ_d (q_d − x_d)² summed in index order, or 1 − ⟨q, x⟩/(√⟨q, q⟩ √⟨x, x⟩).
#[inline(always)]
fn rerank(
    queries: &Embeddings<'_>,
    q: usize,
    database: &Embeddings<'_>,
    distance: Distance,
    candidates: Vec<u32>,
    k: usize,
) -> Vec<(f64, u32)> {
    let query = queries.row(q);
    let dim = query.len();
    let query_norm = sequential_dot(&query, &query).sqrt();
    // The candidates' rows widened to f64, lane-major per coordinate: lanes[d·L + l].
    let mut lanes = vec![0.0f64; dim * RERANK_LANES];
    let mut scored: Vec<(f64, u32)> = Vec::with_capacity(candidates.len());
    for chunk in candidates.chunks(RERANK_LANES) {
        for (l, &j) in chunk.iter().enumerate() {
            let j = j as usize;
            match database.coordinates() {
                Coordinates::F64(x) => {
                    for (d, &v) in x[j * dim..(j + 1) * dim].iter().enumerate() {
                        lanes[d * RERANK_LANES + l] = v;
                    }
                }
                Coordinates::F32(x) => {
                    for (d, &v) in x[j * dim..(j + 1) * dim].iter().enumerate() {
                        lanes[d * RERANK_LANES + l] = f64::from(v);
                    }
                }
            }
        }
        let mut first = [0.0f64; RERANK_LANES];
        let mut second = [0.0f64; RERANK_LANES];
        match distance {
            Distance::Euclidean => {
                for (d, &qd) in query.iter().enumerate() {
                    let x = &lanes[d * RERANK_LANES..(d + 1) * RERANK_LANES];
                    for l in 0..RERANK_LANES {
                        let t = qd - x[l];
                        first[l] += t * t;
                    }
                }
            }
            Distance::Cosine => {
                for (d, &qd) in query.iter().enumerate() {
                    let x = &lanes[d * RERANK_LANES..(d + 1) * RERANK_LANES];
                    for l in 0..RERANK_LANES {
                        first[l] += qd * x[l];
                        second[l] += x[l] * x[l];
                    }
                }
            }
        }
        for (l, &j) in chunk.iter().enumerate() {
            let d = match distance {
                Distance::Euclidean => first[l],
                Distance::Cosine => 1.0 - first[l] / (query_norm * second[l].sqrt()),
            };
            scored.push((d, j));
        }
    }
    scored.sort_unstable_by(|a, b| {
        a.0.partial_cmp(&b.0)
            .expect("distances are finite")
            .then(a.1.cmp(&b.1))
    });
    scored.truncate(k);
    scored
}
