//! Fast k-nearest-neighbour search: one blocked inner-product pass with streaming top-k
//! selection per query, parallel over chunks of queries (rayon); in a leave-one-out task, over
//! the blocks of the upper triangle of the symmetric Gram matrix.

use std::sync::Mutex;

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
    // `Embeddings::new` rejects more than 2³² − 1 rows, so indices fit in u32.
    debug_assert!(database.len() <= u32::MAX as usize);
    let packed = PackedDatabase::new(database.as_slice(), dim);
    if task.is_leave_one_out() {
        return ranked_lists_leave_one_out(database.as_slice(), &packed, task.distance(), k_of);
    }
    let query_rows = queries.as_slice();
    let n_queries = queries.len();
    let leave_one_out = false;
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

/// Items per block of the leave-one-out search (a multiple of [`NR`] and [`MR`]).
const SYMMETRIC_BLOCK: usize = 128;

/// The key of item `j` for query `q`, from their inner product, in the arithmetic of
/// [`tile_keys`]: ‖x_j‖² − 2⟨q, x_j⟩, or 1 − ⟨q, x_j⟩/(‖q‖ ‖x_j‖).
#[inline(always)]
fn pair_key(distance: Distance, dot: f64, packed: &PackedDatabase, q: usize, j: usize) -> f64 {
    match distance {
        Distance::Euclidean => packed.squared_norms[j] - 2.0 * dot,
        Distance::Cosine => 1.0 - dot / (packed.norms[q] * packed.norms[j]),
    }
}

/// Leave-one-out search: queries are the database rows, so ⟨x_a, x_b⟩ serves query a (item b)
/// and query b (item a). Only the blocks (I, J) with I ≤ J are computed — half the
/// multiply–adds — and each feeds both blocks' top-k states. The inner product is the same
/// sequential sum whichever row is the query (products commute, the order over d is fixed),
/// so every key is bitwise the one [`search_chunk`] would compute. Blocks run in parallel; a
/// block's states are locked only while its candidates are offered, and the selection does not
/// depend on the order in which candidates arrive.
fn ranked_lists_leave_one_out(
    rows: &[f64],
    packed: &PackedDatabase,
    distance: Distance,
    k_of: &(dyn Fn(usize) -> usize + Sync),
) -> Vec<Vec<(f64, u32)>> {
    let dim = packed.dim;
    let n = packed.len;
    let n_blocks = n.div_ceil(SYMMETRIC_BLOCK);
    let span = |b: usize| (b * SYMMETRIC_BLOCK, n.min((b + 1) * SYMMETRIC_BLOCK));
    let states: Vec<Mutex<Vec<TopK>>> = (0..n_blocks)
        .map(|b| {
            let (start, end) = span(b);
            Mutex::new((start..end).map(|q| TopK::new(k_of(q))).collect())
        })
        .collect();
    let pairs: Vec<(usize, usize)> = (0..n_blocks)
        .flat_map(|a| (a..n_blocks).map(move |b| (a, b)))
        .collect();
    pairs.into_par_iter().for_each(|(a, b)| {
        let (a0, a1) = span(a);
        let (b0, b1) = span(b);
        let (rows_a, cols_b) = (a1 - a0, b1 - b0);
        // ⟨x_i, x_j⟩ for i in block a, j in block b, row-major.
        let mut dots = vec![0.0; rows_a * cols_b];
        let padded = rows_a.div_ceil(MR) * MR;
        let tile_rows: std::borrow::Cow<'_, [f64]> = if padded == rows_a {
            std::borrow::Cow::Borrowed(&rows[a0 * dim..a1 * dim])
        } else {
            let mut v = vec![0.0; padded * dim];
            v[..rows_a * dim].copy_from_slice(&rows[a0 * dim..a1 * dim]);
            std::borrow::Cow::Owned(v)
        };
        for m in (0..padded).step_by(MR) {
            let live = MR.min(rows_a - m);
            for p in b0 / NR..b1.div_ceil(NR) {
                let acc =
                    tile_inner_products(&tile_rows[m * dim..(m + MR) * dim], packed.panel(p), dim);
                let base = p * NR - b0;
                let lanes = NR.min(cols_b - base);
                for (i, acc_row) in acc.iter().enumerate().take(live) {
                    dots[(m + i) * cols_b + base..(m + i) * cols_b + base + lanes]
                        .copy_from_slice(&acc_row[..lanes]);
                }
            }
        }
        {
            let mut tops = states[a]
                .lock()
                .expect("no thread panics while holding a block");
            for (i, top) in tops.iter_mut().enumerate() {
                let q = a0 + i;
                for (jj, &dot) in dots[i * cols_b..(i + 1) * cols_b].iter().enumerate() {
                    let j = b0 + jj;
                    let key = pair_key(distance, dot, packed, q, j);
                    if key <= top.threshold_key() && j != q {
                        top.push(key, j as u32);
                    }
                }
            }
        }
        if a != b {
            let mut tops = states[b]
                .lock()
                .expect("no thread panics while holding a block");
            for (jj, top) in tops.iter_mut().enumerate() {
                let q = b0 + jj;
                for i in 0..rows_a {
                    let j = a0 + i;
                    let key = pair_key(distance, dots[i * cols_b + jj], packed, q, j);
                    if key <= top.threshold_key() {
                        top.push(key, j as u32);
                    }
                }
            }
        }
    });
    states
        .into_iter()
        .flat_map(|m| {
            m.into_inner()
                .expect("no thread panicked")
                .into_iter()
                .map(TopK::into_sorted)
        })
        .collect()
}
