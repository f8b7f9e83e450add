//! Brute-force nearest neighbours: every distance by its formula, one full sort per query.

use crate::error::Result;
use crate::metrics::input::embeddings::Distance;
use crate::metrics::input::neighbours::Neighbours;
use crate::metrics::input::retrieval_task::Retrieval;

/// Σ_d a_d b_d, summed in index order from 0.0.
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut s = 0.0;
    for d in 0..a.len() {
        s += a[d] * b[d];
    }
    s
}

/// The ranking quantity of the definition: the squared Euclidean distance Σ(q − x)² (its square
/// root is monotone, but distinct squares may share a rounded root), or the cosine distance
/// 1 − ⟨q, x⟩/(‖q‖‖x‖).
#[doc(hidden)]
pub fn ranking_distance(distance: Distance, q: &[f64], x: &[f64]) -> f64 {
    match distance {
        Distance::Euclidean => {
            let mut s = 0.0;
            for d in 0..q.len() {
                let t = q[d] - x[d];
                s += t * t;
            }
            s
        }
        Distance::Cosine => 1.0 - dot(q, x) / (dot(q, q).sqrt() * dot(x, x).sqrt()),
    }
}

/// Every database item query `q` may retrieve, as (ranking distance, index), sorted by the tie
/// rule: increasing distance, then increasing index.
#[doc(hidden)]
pub fn full_ranking(task: &Retrieval<'_>, q: usize) -> Vec<(f64, usize)> {
    let query = task.queries().row(q);
    let database = task.database();
    let mut all: Vec<(f64, usize)> = (0..database.len())
        .filter(|&j| !(task.is_leave_one_out() && j == q))
        .map(|j| {
            (
                ranking_distance(task.distance(), &query, &database.row(j)),
                j,
            )
        })
        .collect();
    // A stable sort by distance alone keeps equal distances in index order: the tie rule.
    all.sort_by(|a, b| a.0.partial_cmp(&b.0).expect("distances are finite"));
    all
}

/// Exact twin of `metrics::nearest_neighbours`: all
/// distances, a full stable sort per query, the first k.
///
/// # Formula
///
/// Rank j ≠ q (leave-one-out) by (d(q, x_j), j); d² = Σ_d (q_d − x_d)² or
/// d = 1 − ⟨q, x⟩/(‖q‖‖x‖).
///
/// # Errors
///
/// [`Error::CountOutOfRange`](crate::Error::CountOutOfRange) unless 1 ≤ k ≤
/// [`Retrieval::max_k`].
///
/// # Examples
///
/// ```
/// use probdml::metrics::{exact, Distance, Embeddings, Retrieval};
/// let x = [0.0, 3.0, 2.0, 1.0];
/// let task = Retrieval::leave_one_out(Embeddings::new(&x, 1)?, &[0, 0, 1, 1], Distance::Euclidean)?;
/// assert_eq!(exact::nearest_neighbours(&task, 2)?.indices(2), &[1, 3]);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn nearest_neighbours(task: &Retrieval<'_>, k: usize) -> Result<Neighbours> {
    let k = task.check_k("k", k)?;
    let mut indices = Vec::with_capacity(task.query_count() * k);
    let mut distances = Vec::with_capacity(task.query_count() * k);
    for q in 0..task.query_count() {
        for &(d, j) in full_ranking(task, q).iter().take(k) {
            indices.push(j);
            distances.push(match task.distance() {
                Distance::Euclidean => d.sqrt(),
                Distance::Cosine => d,
            });
        }
    }
    Ok(Neighbours::from_parts(k, indices, distances))
}
