//! Fast k-nearest-neighbour search: one blocked inner-product pass with streaming top-k
//! selection per query, parallel over chunks of queries (rayon).

use rayon::prelude::*;

use crate::error::Result;
use crate::metrics::distance_kernel::{
    squared_norm, tile_inner_products, tile_keys, PackedDatabase, DB_BLOCK, MR, NR,
};
use crate::metrics::embeddings::Distance;
use crate::metrics::retrieval_task::Retrieval;
use crate::metrics::top_k::TopK;

/// Queries per parallel work item: enough to reuse each L2-resident database block many times,
/// few enough to balance two or more threads on 10⁴ queries.
const QUERY_CHUNK: usize = 64;

/// The k nearest database items of every query, ranked by distance with ties broken by
/// database index (see [`Retrieval`]).
///
/// Produced by [`nearest_neighbours`] and by
/// [`exact::nearest_neighbours`](crate::metrics::exact::nearest_neighbours).
#[derive(Debug, Clone, PartialEq)]
pub struct Neighbours {
    k: usize,
    indices: Vec<usize>,
    distances: Vec<f64>,
}

impl Neighbours {
    /// Builds from flat row-major `indices` and `distances`, `k` per query.
    pub(crate) fn from_parts(k: usize, indices: Vec<usize>, distances: Vec<f64>) -> Self {
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

/// The `k` nearest database items of every query.
///
/// Fast twin of [`exact::nearest_neighbours`](crate::metrics::exact::nearest_neighbours): the
/// same ranking wherever distances tie exactly or differ by more than rounding.
///
/// # Formula
///
/// For query q the ranking orders database items x_j (j ≠ q in a leave-one-out task) by
/// (d(q, x_j), j) lexicographically, where d is ‖q − x‖₂ or 1 − ⟨q, x⟩/(‖q‖‖x‖); the fast twin
/// ranks by the key ‖x_j‖² − 2⟨q, x_j⟩ (Euclidean; an increasing function of d) or by d itself
/// (cosine), from one blocked matrix product of inner products. Cosine rankings are bitwise
/// those of the exact twin; Euclidean ones wherever the two formulas round alike.
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
    let lists = ranked_lists(task, &|_| k);
    let query_squared_norms: Vec<f64> = task
        .queries()
        .as_slice()
        .chunks_exact(task.queries().dim())
        .map(squared_norm)
        .collect();
    let mut indices = Vec::with_capacity(lists.len() * k);
    let mut distances = Vec::with_capacity(lists.len() * k);
    for (q, list) in lists.iter().enumerate() {
        for &(key, j) in list {
            indices.push(j as usize);
            distances.push(match task.distance() {
                Distance::Euclidean => (key + query_squared_norms[q]).max(0.0).sqrt(),
                Distance::Cosine => key,
            });
        }
    }
    Ok(Neighbours::from_parts(k, indices, distances))
}

/// For every query q, its first `k_of(q)` database items under the tie rule, as sorted
/// `(key, index)` pairs. `k_of(q)` must not exceed [`Retrieval::max_k`].
pub(crate) fn ranked_lists(
    task: &Retrieval<'_>,
    k_of: &(dyn Fn(usize) -> usize + Sync),
) -> Vec<Vec<(f64, u32)>> {
    let queries = task.queries();
    let database = task.database();
    let dim = database.dim();
    assert!(
        database.len() <= u32::MAX as usize,
        "databases beyond 2^32 - 1 items are not supported"
    );
    let packed = PackedDatabase::new(database.as_slice(), dim);
    let query_rows = queries.as_slice();
    let n_queries = queries.len();
    let leave_one_out = task.is_leave_one_out();
    let chunks: Vec<Vec<Vec<(f64, u32)>>> = (0..n_queries.div_ceil(QUERY_CHUNK))
        .into_par_iter()
        .map(|c| {
            let start = c * QUERY_CHUNK;
            let end = n_queries.min(start + QUERY_CHUNK);
            search_chunk(
                &query_rows[start * dim..end * dim],
                start,
                &packed,
                task.distance(),
                leave_one_out,
                k_of,
            )
        })
        .collect();
    chunks.into_iter().flatten().collect()
}

/// The ranked lists of the queries `first .. first + rows.len() / dim`.
fn search_chunk(
    rows: &[f64],
    first: usize,
    packed: &PackedDatabase,
    distance: Distance,
    leave_one_out: bool,
    k_of: &(dyn Fn(usize) -> usize + Sync),
) -> Vec<Vec<(f64, u32)>> {
    let dim = packed.dim;
    let n_rows = rows.len() / dim;
    let query_norms: Vec<f64> = rows
        .chunks_exact(dim)
        .map(|r| squared_norm(r).sqrt())
        .collect();
    let mut tops: Vec<TopK> = (first..first + n_rows)
        .map(|q| TopK::new(k_of(q)))
        .collect();
    // Pad to whole register tiles; the padding rows' results are discarded.
    let padded = n_rows.div_ceil(MR) * MR;
    let mut tile_rows = vec![0.0; padded * dim];
    tile_rows[..rows.len()].copy_from_slice(rows);
    let n_panels = packed.len.div_ceil(NR);
    let panels_per_block = DB_BLOCK / NR;
    for block in (0..n_panels).step_by(panels_per_block) {
        let block_end = n_panels.min(block + panels_per_block);
        for m in (0..padded).step_by(MR) {
            let q_tile = &tile_rows[m * dim..(m + MR) * dim];
            let live = MR.min(n_rows - m);
            for p in block..block_end {
                let acc = tile_inner_products(q_tile, packed.panel(p), dim);
                let base = p * NR;
                let lanes = NR.min(packed.len - base);
                for (i, acc_row) in acc.iter().enumerate().take(live) {
                    let q = first + m + i;
                    let keys = tile_keys(distance, acc_row, query_norms[m + i], packed, p);
                    let top = &mut tops[m + i];
                    // Most candidates lose to the current k-th best: one comparison each.
                    let bound = top.threshold_key();
                    for (lane, &key) in keys.iter().enumerate().take(lanes) {
                        let j = base + lane;
                        if key <= bound && !(leave_one_out && j == q) {
                            top.push(key, j as u32);
                        }
                    }
                }
            }
        }
    }
    tops.into_iter().map(TopK::into_sorted).collect()
}
