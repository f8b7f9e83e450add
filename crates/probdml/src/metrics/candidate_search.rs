//! The fast neighbour search's first stage: blocked `f32` Gram matrices ([`crate::gemm`]), with
//! the candidate filter fused into the block loop.
//!
//! # Keys and their error
//!
//! Ranking by ‖q − x‖² is ranking by the key ‖x‖² − 2⟨q, x⟩. The rows are rounded once to
//! `f32` (after scaling every row by one power of two 2^−s that brings the largest norm M into
//! (1/2, 1], which is exact in `f64` and keeps `f32` far from overflow), the inner products of a
//! block of rows with a block of items come from one `f32` matrix product ([`crate::gemm`] in
//! [`Order::Any`](crate::gemm::Order): any summation order, with or without FMA), and key = fl(fl(‖x‖²) − 2·G). For cosine the rows
//! are first divided by their norms: the key is then ‖x̂‖² − 2⟨q̂, x̂⟩ ≈ 2·(1 − cos) − 1, an
//! increasing function of the cosine distance.
//!
//! With u = 2⁻²⁴ and γ_n = nu/(1 − nu), the classical bound on a computed inner product
//! (Higham, *Accuracy and Stability*, §3.1) gives |fl(⟨q̃, x̃⟩) − ⟨q, x⟩| ≤ γ_{D+2} ‖q‖‖x‖
//! including the two input roundings; adding the roundings of ‖x‖², of its conversion and of
//! the subtraction, and the error of the exact twin's own `f64` evaluation (γ_{D+4} in double
//! precision), every key differs from the exact twin's quantity (in key units) by at most
//!
//! err_q = c (‖q‖ + M)² + D·2⁻¹⁴⁰ (M + 1),   c = (D + 32)·2⁻²³,
//!
//! where the last term covers `f32` underflow (gradual underflow adds at most 2⁻¹⁵⁰ per
//! operation). c is about twice the sum of the terms, so the bound holds with room for the
//! roundings in computing it. [`Candidates`] keeps every item within 2·err_q of the k-th
//! smallest key, which contains the exact top k with all its ties; the caller re-ranks those
//! by the exact twin's arithmetic.
//!
//! # Blocks
//!
//! Rows and items go in blocks of [`BLOCK`]; a block's Gram matrix (`f32`, [`BLOCK`]² × 4
//! bytes = 256 KiB) stays in L2 while it is scanned. In a leave-one-out task only the blocks
//! (I, J) with I ≤ J are computed, each scanned twice: row by row for the queries of I, and,
//! still row by row (the comparisons vectorise over J), for the queries of J. The scans test
//! [`LANES`] keys against the thresholds at once and look at single keys only when one passes:
//! after the first blocks almost none does.
//!
//! Rows are visited in the order of a [`VisitOrder`]: grouped by label in a retrieval task, so
//! that a query's first block holds its classmates and its threshold falls at once. The order
//! changes which items are pushed on the way, never the guarantee above.
//!
//! The AVX2+FMA copy runs the scans of [`key_scan`](crate::metrics::key_scan), written with
//! intrinsics, which push the same keys in the same order as the portable loops here.
//!
//! # Integer blocks
//!
//! Where the copy has AVX2, the Gram blocks come from rows rounded to 16-bit integers times a
//! power of two, summed exactly in 32-bit integers ([`quantized_gram`](crate::metrics::quantized_gram)):
//! `vpmaddwd` does twice the multiply-adds of an `f32` FMA per instruction. Each query's
//! margin then adds the quantisation's bound to err_q, so the candidates still contain the
//! exact top k; there are a few more of them, and the re-ranking is unchanged.

use std::sync::Mutex;

use crate::gemm::{product_packed, Order, Packed, View};

use crate::instruction_set::{dispatch_on, InstructionSet};

use crate::metrics::candidates::{offer_column, offer_row, round_up, Candidates};
use crate::metrics::embeddings::{Coordinates, Distance, Embeddings};
#[cfg(target_arch = "x86_64")]
use crate::metrics::key_scan;
#[cfg(target_arch = "x86_64")]
use crate::metrics::quantized_gram::Kernel;
use crate::metrics::quantized_gram::{levels, QuantizedRows};
use crate::metrics::visit_order::VisitOrder;
use crate::threads;

/// Rows (and items) per block.
pub(crate) const BLOCK: usize = 256;
/// Keys compared at once.
const LANES: usize = 16;

/// Rows prepared for the `f32` Gram products: the (scaled, for cosine normalised) `f32` rows,
/// borrowed when the input is `f32` already and needs no change.
struct Prepared<'a> {
    rows: std::borrow::Cow<'a, [f32]>,
    /// fl32(‖row‖²) of the prepared rows, padded with +∞ to whole blocks.
    squared_norms: Vec<f32>,
    /// ‖row‖ of the prepared rows (in `f64`), not padded.
    norms: Vec<f64>,
    /// ‖row‖ of the given rows (in `f64`).
    given_norms: Vec<f64>,
}

/// The largest row norm of both sets, in `f64`.
fn max_norm(sets: &[&Embeddings<'_>]) -> f64 {
    sets.iter()
        .flat_map(|e| e.squared_norms())
        .fold(0.0f64, f64::max)
        .sqrt()
}

/// Prepares `e` for the Gram products, row `order[p]` at position p (`None`: the given
/// order): cosine rows divided by their norm, Euclidean rows multiplied by `scale` (a power of
/// two); rounded to `f32`.
fn prepare<'a>(
    e: &Embeddings<'a>,
    distance: Distance,
    scale: f64,
    order: Option<&[u32]>,
) -> Prepared<'a> {
    let dim = e.dim();
    let n = e.len();
    let row_at = |p: usize| order.map_or(p, |o| o[p] as usize);
    let all_norms = e.squared_norms();
    let given_norms: Vec<f64> = (0..n).map(|p| all_norms[row_at(p)].sqrt()).collect();
    let rows: std::borrow::Cow<'a, [f32]> = match (e.coordinates(), distance) {
        (Coordinates::F32(x), Distance::Euclidean) if scale == 1.0 && order.is_none() => {
            std::borrow::Cow::Borrowed(x)
        }
        (coordinates, _) => {
            let mut out = Vec::with_capacity(n * dim);
            for (p, &norm) in given_norms.iter().enumerate() {
                let i = row_at(p);
                let factor = match distance {
                    Distance::Euclidean => scale,
                    Distance::Cosine => 1.0 / norm,
                };
                match coordinates {
                    Coordinates::F64(x) => out.extend(
                        x[i * dim..(i + 1) * dim]
                            .iter()
                            .map(|&v| (v * factor) as f32),
                    ),
                    Coordinates::F32(x) => out.extend(
                        x[i * dim..(i + 1) * dim]
                            .iter()
                            .map(|&v| (f64::from(v) * factor) as f32),
                    ),
                }
            }
            std::borrow::Cow::Owned(out)
        }
    };
    let mut squared_norms = Vec::with_capacity(n.div_ceil(BLOCK) * BLOCK);
    let mut norms = Vec::with_capacity(n);
    for row in rows.chunks_exact(dim) {
        let mut s = 0.0f64;
        for &v in row {
            s += f64::from(v) * f64::from(v);
        }
        squared_norms.push(s as f32);
        norms.push(s.sqrt());
    }
    squared_norms.resize(n.div_ceil(BLOCK) * BLOCK, f32::INFINITY);
    Prepared {
        rows,
        squared_norms,
        norms,
        given_norms,
    }
}

/// The power of two 2^−s that brings `m` into (1/2, 1] (1 for m = 0).
fn scale_for(m: f64) -> f64 {
    if m == 0.0 {
        return 1.0;
    }
    let mut scale = 1.0f64;
    let mut scaled = m;
    while scaled > 1.0 {
        scaled *= 0.5;
        scale *= 0.5;
    }
    while scaled <= 0.5 {
        scaled *= 2.0;
        scale *= 2.0;
    }
    scale
}

/// The candidate margin 2·err_q (module docs) of a query with prepared norm `q_norm`, largest
/// prepared item norm `m`, dimension `dim`; `exact_underflow` bounds, in key units, what
/// gradual underflow can add to the exact twin's own `f64` evaluation.
/// `quantization` is what integer Gram blocks add to the margin ([`QuantizedRows::margin_term`]),
/// 0 for `f32` ones.
fn margin(q_norm: f64, m: f64, dim: usize, exact_underflow: f64, quantization: f64) -> f32 {
    let d = dim as f64;
    let c = (d + 32.0) * f64::powi(2.0, -23);
    let err = c * (q_norm + m) * (q_norm + m)
        + d * f64::powi(2.0, -140) * (q_norm.max(m) + 1.0)
        + exact_underflow;
    round_up((2.0 * err + quantization) * (1.0 + 1e-6))
}

/// Gradual underflow in the exact twin's `f64` sums adds at most 2⁻¹⁰⁷⁴ per operation: for
/// Euclidean keys 4D·2⁻¹⁰⁷⁴ in given units, times scale² in key units; for cosine, the
/// inner product's and the norms' underflow relative to ‖q‖‖x‖ (the smallest item norm
/// `min_item`), times 2 for key units. Negligible unless the data sit near 10⁻³⁰⁰.
fn exact_underflow(distance: Distance, dim: usize, scale: f64, q_given: f64, min_item: f64) -> f64 {
    // 2⁻¹⁰⁷⁴, the smallest subnormal (`powi(2.0, -1074)` would overflow 2¹⁰⁷⁴ first).
    let tiny = 8.0 * dim as f64 * f64::from_bits(1);
    match distance {
        Distance::Euclidean => tiny * scale * scale,
        Distance::Cosine => {
            2.0 * (tiny / (q_given * min_item)
                + tiny / (q_given * q_given)
                + tiny / (min_item * min_item))
        }
    }
}

/// Each block of [`BLOCK`] rows packed for the Gram products: as left factors (the queries of
/// a block pair) and, for the items, as right factors (the transpose: column j is row j).
fn pack_blocks(rows: &[f32], dim: usize, side: Side) -> Vec<Packed<f32>> {
    rows.chunks(BLOCK * dim)
        .map(|block| {
            let view = View::row_major(block, block.len() / dim, dim, dim);
            match side {
                Side::Queries => Packed::left(view),
                Side::Items => Packed::right(view.t()),
            }
        })
        .collect()
}

/// Which factor of the Gram products a set of rows is.
#[derive(Clone, Copy)]
enum Side {
    Queries,
    Items,
}

/// Offers a query the items `base + j` (below `end`) of one Gram row: key_j = sq[j] − 2 g[j].
/// `skip` is an item never offered (the query itself, leave-one-out).
#[inline(always)]
fn scan_row(
    g: &[f32],
    sq: &[f32],
    (base, end): (usize, usize),
    cand: &mut Candidates,
    skip: usize,
) {
    let mut thr = cand.threshold();
    for (c, (gc, sc)) in g
        .chunks_exact(LANES)
        .zip(sq.chunks_exact(LANES))
        .enumerate()
    {
        let mut keys = [0.0f32; LANES];
        // One bit per passing lane: a vector compare, then only the passing lanes.
        let mut hits = 0u32;
        for l in 0..LANES {
            keys[l] = sc[l] - 2.0 * gc[l];
            hits |= u32::from(keys[l] <= thr) << l;
        }
        offer_row(hits, &keys, base + c * LANES, (skip, end), cand, &mut thr);
    }
}

/// Offers one item (squared norm `sq_i`, row i of the Gram block) to the queries of the other
/// block: key = sq_i − 2 g[j], each against its own threshold.
#[inline(always)]
fn scan_column(g: &[f32], sq_i: f32, item: u32, cands: &mut [Candidates], thr: &mut [f32]) {
    for (c, gc) in g.chunks_exact(LANES).enumerate() {
        let tc: &[f32; LANES] = thr[c * LANES..(c + 1) * LANES]
            .try_into()
            .expect("LANES thresholds");
        let mut keys = [0.0f32; LANES];
        let mut hits = 0u32;
        for l in 0..LANES {
            keys[l] = sq_i - 2.0 * gc[l];
            hits |= u32::from(keys[l] <= tc[l]) << l;
        }
        offer_column(hits, &keys, c * LANES, item, cands, thr);
    }
}

/// An upper bound on the k-th smallest key among the items of one Gram row that the row's
/// query is offered (key_j = sq[j] − 2 g[j], computed as the scans compute it; item `skip`
/// excluded, items past the block's end have sq = +∞): the k-th smallest of the [`LANES`]
/// lane minima, each the key of a different item, so at least k offered items lie at or below
/// it. `None` when k > [`LANES`] or fewer than k lanes hold an item.
///
/// A query's first block sets its threshold this way before it is scanned: otherwise the
/// threshold is +∞ until the first prune, and every item of that block up to it is pushed.
#[inline(always)]
fn row_bound(g: &[f32], sq: &[f32], skip: Option<usize>, k: usize) -> Option<f32> {
    if k == 0 || k > LANES {
        return None;
    }
    let mut minima = [f32::INFINITY; LANES];
    for (c, (gc, sc)) in g
        .chunks_exact(LANES)
        .zip(sq.chunks_exact(LANES))
        .enumerate()
    {
        for l in 0..LANES {
            let key = sc[l] - 2.0 * gc[l];
            if skip != Some(c * LANES + l) {
                minima[l] = minima[l].min(key);
            }
        }
    }
    minima.sort_unstable_by(f32::total_cmp);
    let bound = minima[k - 1];
    bound.is_finite().then_some(bound)
}

/// [`scan_row`] in `isa`: the AVX2 copy written with intrinsics ([`key_scan`]), which pushes
/// the same keys in the same order.
#[inline(always)]
fn scan_row_on(
    isa: InstructionSet,
    g: &[f32],
    sq: &[f32],
    span: (usize, usize),
    cand: &mut Candidates,
    skip: usize,
) {
    #[cfg(target_arch = "x86_64")]
    if isa.has_avx2() {
        // SAFETY: `isa` is available on this CPU (`candidates` takes it from `active()`), and
        // it includes AVX2.
        unsafe { key_scan::scan_row(g, sq, span, cand, skip) };
        return;
    }
    let _ = isa;
    scan_row(g, sq, span, cand, skip);
}

/// [`scan_column`] in `isa` (as [`scan_row_on`]).
#[inline(always)]
fn scan_column_on(
    isa: InstructionSet,
    g: &[f32],
    sq_i: f32,
    item: u32,
    cands: &mut [Candidates],
    thr: &mut [f32],
) {
    #[cfg(target_arch = "x86_64")]
    if isa.has_avx2() {
        // SAFETY: as in `scan_row_on`.
        unsafe { key_scan::scan_column(g, sq_i, item, cands, thr) };
        return;
    }
    let _ = isa;
    scan_column(g, sq_i, item, cands, thr);
}

/// One block's queries: their candidate states and thresholds (padded to [`BLOCK`] with −∞,
/// which nothing passes).
struct BlockState {
    cands: Vec<Candidates>,
    thr: Vec<f32>,
}

/// Candidate indices of every query (`k_of(q)` nearest wanted, 1 ≤ k_of(q) ≤ items it sees):
/// a superset of its exact top k including ties, to be re-ranked exactly. `order` is the order
/// in which rows are visited, which changes the cost, not the guarantee ([`VisitOrder`]; in a
/// leave-one-out task its queries' order must be its items'). `threads`: `None` runs on the
/// current rayon pool, `Some(1)` on the calling thread alone.
pub(crate) fn candidates(
    queries: Option<&Embeddings<'_>>,
    database: &Embeddings<'_>,
    distance: Distance,
    k_of: &(dyn Fn(usize) -> usize + Sync),
    order: &VisitOrder,
    threads: Option<usize>,
) -> Vec<Vec<u32>> {
    candidates_with(queries, database, distance, k_of, order, threads, true)
}

/// [`candidates`], with `integers` false keeping the `f32` Gram blocks on every copy.
fn candidates_with(
    queries: Option<&Embeddings<'_>>,
    database: &Embeddings<'_>,
    distance: Distance,
    k_of: &(dyn Fn(usize) -> usize + Sync),
    order: &VisitOrder,
    threads: Option<usize>,
    integers: bool,
) -> Vec<Vec<u32>> {
    let dim = database.dim();
    // The worker threads run the scans in the caller's instruction set (`InstructionSet::run`
    // forces it on the calling thread only).
    let isa = InstructionSet::active();
    let scale = match distance {
        Distance::Euclidean => {
            let mut sets = vec![database];
            sets.extend(queries);
            scale_for(max_norm(&sets))
        }
        Distance::Cosine => 1.0,
    };
    // Positions are visiting order (`order`): everything below indexes rows by position, and
    // the candidates are mapped back to the given indices at the end.
    let db = prepare(database, distance, scale, order.items());
    let q_prepared = queries.map(|q| prepare(q, distance, scale, order.queries()));
    let query_at = |p: usize| order.queries().map_or(p, |o| o[p] as usize);
    let qs = q_prepared.as_ref().unwrap_or(&db);
    let m = db.norms.iter().fold(0.0f64, |a, &b| a.max(b));
    let min_item = db.given_norms.iter().fold(f64::INFINITY, |a, &b| a.min(b));
    let n_q = qs.norms.len();
    let n_db = db.norms.len();
    let leave_one_out = queries.is_none();
    // Integer Gram blocks where the copy has AVX2 (`quantized_gram`); the items' quantisation
    // serves as the queries' in a leave-one-out task.
    let quantized = levels(dim)
        .filter(|_| integers && cfg!(target_arch = "x86_64") && isa.has_avx2())
        .map(|levels| {
            let items = QuantizedRows::<BLOCK>::new(&db.rows, dim, levels, true);
            let queries = q_prepared
                .as_ref()
                .map(|q| QuantizedRows::<BLOCK>::new(&q.rows, dim, levels, false));
            (items, queries)
        });
    let quantized = quantized
        .as_ref()
        .map(|(items, queries)| (items, queries.as_ref().unwrap_or(items)));
    let items_residual = quantized.map_or(0.0, |(items, _)| items.largest_residual());
    #[cfg(target_arch = "x86_64")]
    let kernel = Kernel::for_copy(isa);

    let q_blocks = n_q.div_ceil(BLOCK);
    let db_blocks = n_db.div_ceil(BLOCK);
    let states: Vec<Mutex<BlockState>> = (0..q_blocks)
        .map(|b| {
            let (start, end) = (b * BLOCK, n_q.min((b + 1) * BLOCK));
            let cands: Vec<Candidates> = (start..end)
                .map(|q| {
                    let floor = exact_underflow(distance, dim, scale, qs.given_norms[q], min_item);
                    let quantization = quantized.map_or(0.0, |(_, rows)| {
                        rows.margin_term(q, qs.norms[q], m, items_residual)
                    });
                    Candidates::new(
                        k_of(query_at(q)),
                        margin(qs.norms[q], m, dim, floor, quantization),
                    )
                })
                .collect();
            let mut thr: Vec<f32> = cands.iter().map(Candidates::threshold).collect();
            thr.resize(BLOCK, f32::NEG_INFINITY);
            Mutex::new(BlockState { cands, thr })
        })
        .collect();
    // Leave-one-out pairs go diagonal by diagonal ((0,0), (1,1), …, (0,1), (1,2), …): pairs
    // that run at the same time then rarely lock the same block's states. The order does not
    // change the result: the candidate sets always contain the exact top k.
    let pairs: Vec<(usize, usize)> = if leave_one_out {
        (0..q_blocks)
            .flat_map(|offset| (0..q_blocks - offset).map(move |a| (a, a + offset)))
            .collect()
    } else {
        // Each query block first meets the items that share its labels.
        (0..q_blocks)
            .flat_map(|a| {
                let first = order.first_item_block(a, BLOCK, db_blocks);
                (0..db_blocks).map(move |t| (a, (first + t) % db_blocks))
            })
            .collect()
    };
    // Packed once for the caller's instruction set, each block used in many products.
    let (db_packed, q_packed) = if quantized.is_some() {
        (Vec::new(), Vec::new())
    } else {
        (
            pack_blocks(&db.rows, dim, Side::Items),
            pack_blocks(&qs.rows, dim, Side::Queries),
        )
    };
    let span = |b: usize, n: usize| (b * BLOCK, n.min((b + 1) * BLOCK));
    let work = |g: &mut Vec<f32>, (a, b): (usize, usize)| {
        dispatch_on(
            isa,
            #[inline(always)]
            || {
                let (a0, a1) = span(a, n_q);
                let (b0, b1) = span(b, n_db);
                // No clearing: entries outside the n_a × n_b product are never read as keys (their
                // rows are not scanned; their columns have item norm +∞ or threshold −∞), and stale
                // ones left by an earlier block are finite.
                match quantized {
                    #[cfg(target_arch = "x86_64")]
                    // SAFETY: `quantized` is only built when `isa` has AVX2, and `isa` is
                    // available on this CPU (`active()`); `kernel` is `for_copy(isa)`, which
                    // checks VNNI; `g` holds BLOCK² values; a and b are blocks of the queries
                    // and the items.
                    Some((items, rows)) => unsafe { rows.gram_block(kernel, a, items, b, g) },
                    _ => product_packed(g, BLOCK, 1.0, &q_packed[a], &db_packed[b], Order::Any),
                }
                let sq_b = &db.squared_norms[b0..b0 + BLOCK];
                {
                    let mut state = states[a].lock().expect("no thread panics holding a block");
                    let BlockState { cands, thr } = &mut *state;
                    for i in 0..a1 - a0 {
                        let skip = if leave_one_out { a0 + i } else { usize::MAX };
                        let row = &g[i * BLOCK..(i + 1) * BLOCK];
                        if thr[i] == f32::INFINITY {
                            // The query's first block: a threshold before the scan.
                            let local = skip.checked_sub(b0).filter(|&s| s < BLOCK);
                            if let Some(bound) = row_bound(row, sq_b, local, cands[i].k()) {
                                cands[i].lower_to(bound);
                            }
                        }
                        scan_row_on(isa, row, sq_b, (b0, b1), &mut cands[i], skip);
                        thr[i] = cands[i].threshold();
                    }
                }
                if leave_one_out && a != b {
                    // The same products serve block b's queries, with block a's rows as items.
                    let mut state = states[b].lock().expect("no thread panics holding a block");
                    let BlockState { cands, thr } = &mut *state;
                    for i in 0..a1 - a0 {
                        scan_column_on(
                            isa,
                            &g[i * BLOCK..(i + 1) * BLOCK],
                            db.squared_norms[a0 + i],
                            (a0 + i) as u32,
                            cands,
                            thr,
                        );
                    }
                }
            },
        )
    };
    threads::for_each_with_scratch(
        &pairs,
        threads != Some(1),
        || vec![0.0f32; BLOCK * BLOCK],
        |g, &pair| work(g, pair),
    );
    let item_at = |j: u32| order.items().map_or(j, |o| o[j as usize]);
    let mut out = vec![Vec::new(); n_q];
    let visited = states.into_iter().flat_map(|s| {
        s.into_inner()
            .expect("no thread panicked")
            .cands
            .into_iter()
            .map(Candidates::into_indices)
    });
    for (p, positions) in visited.enumerate() {
        out[query_at(p)] = positions.into_iter().map(item_at).collect();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gram_block_of_packed_blocks_is_row_major_with_stride_block() {
        // Rows (1, 2), (3, 4) against (1, 0), (0, 1), (1, 1).
        let mut g = vec![0.0f32; BLOCK * BLOCK];
        let queries = pack_blocks(&[1.0, 2.0, 3.0, 4.0], 2, Side::Queries);
        let items = pack_blocks(&[1.0, 0.0, 0.0, 1.0, 1.0, 1.0], 2, Side::Items);
        product_packed(&mut g, BLOCK, 1.0, &queries[0], &items[0], Order::Any);
        assert_eq!(&g[..3], &[1.0, 2.0, 3.0]);
        assert_eq!(&g[BLOCK..BLOCK + 3], &[3.0, 4.0, 7.0]);
    }

    /// The AVX2 scans (`key_scan`) hold the portable scans' candidates, in the same order:
    /// coordinates on a coarse grid (many exact ties at the thresholds), several blocks with a
    /// partial last one (row and column scans), both distances, leave-one-out and a separate
    /// query set.
    #[test]
    fn avx2_scans_keep_the_portable_candidates() {
        use crate::instruction_set::InstructionSet;
        use rand::{RngExt, SeedableRng};
        if !InstructionSet::Avx2Fma.is_available() {
            return;
        }
        let (n, n_q, d) = (3 * BLOCK + 37, BLOCK + 5, 19);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut grid = |len: usize| -> Vec<f32> {
            (0..len)
                .map(|_| rng.random_range(-3i32..=3) as f32 / 2.0)
                .collect()
        };
        let (data, query_data) = (grid(n * d), grid(n_q * d));
        let database = Embeddings::from_f32(&data, d).expect("finite");
        let queries = Embeddings::from_f32(&query_data, d).expect("finite");
        for distance in [Distance::Euclidean, Distance::Cosine] {
            for q in [None, Some(&queries)] {
                let k_of = |i: usize| 1 + i % 12;
                // The `f32` Gram blocks on every copy: the integer ones carry their own margin.
                let run = |isa: InstructionSet| {
                    isa.run(|| {
                        candidates_with(
                            q,
                            &database,
                            distance,
                            &k_of,
                            &VisitOrder::given(),
                            Some(1),
                            false,
                        )
                    })
                    .expect("available")
                };
                // The Gram products are `Order::Any`: fused in the AVX copies, not in the
                // portable one. On the grid every Euclidean product and sum is exact, so all
                // copies scan the same keys; cosine rows are divided by their norms and round,
                // so there the AVX2 scans are held to the AVX-512 copy's (the same fused
                // products). The neighbours after the exact re-ranking are the same in every
                // copy either way (proofs/dispatch_bit_identity.rs).
                let reference = match distance {
                    Distance::Euclidean => run(InstructionSet::Portable),
                    Distance::Cosine if InstructionSet::Avx512.is_available() => {
                        run(InstructionSet::Avx512)
                    }
                    Distance::Cosine => continue,
                };
                assert!(reference.iter().all(|c| !c.is_empty()));
                for isa in [InstructionSet::Avx2Fma, InstructionSet::Avx512] {
                    if !isa.is_available() {
                        continue;
                    }
                    assert_eq!(
                        reference,
                        run(isa),
                        "{distance:?}, separate queries: {}, {}",
                        q.is_some(),
                        isa.name()
                    );
                }
            }
        }
    }

    /// Keys 0, 1, …: item j has key j except where stated; lane l's minimum is then its
    /// first item's, l.
    #[test]
    fn row_bound_is_the_kth_lane_minimum_without_the_query_itself() {
        let n = 3 * LANES;
        let sq: Vec<f32> = (0..n).map(|j| j as f32).collect();
        let g = vec![0.0f32; n];
        assert_eq!(row_bound(&g, &sq, None, 3), Some(2.0));
        // The query is item 1: lane 1's minimum becomes its next item's key, 1 + LANES.
        assert_eq!(row_bound(&g, &sq, Some(1), 2), Some(2.0));
        assert_eq!(row_bound(&g, &sq, Some(1), LANES), Some((1 + LANES) as f32));
        // Keys sq − 2g, as the scans compute them.
        let g_half: Vec<f32> = (0..n).map(|j| j as f32 / 4.0).collect();
        assert_eq!(row_bound(&g_half, &sq, None, 4), Some(1.5));
        // More than LANES wanted, or fewer than k lanes holding an item (+∞ past the end).
        assert_eq!(row_bound(&g, &sq, None, LANES + 1), None);
        let mut short = vec![f32::INFINITY; n];
        short[..3].copy_from_slice(&[5.0, 6.0, 7.0]);
        assert_eq!(row_bound(&g, &short, None, 3), Some(7.0));
        assert_eq!(row_bound(&g, &short, None, 4), None);
        assert_eq!(row_bound(&g, &short, Some(0), 3), None);
    }

    #[test]
    fn margin_never_rounds_down_and_scales_with_the_norms() {
        let m = margin(1.0, 1.0, 128, 0.0, 0.0);
        let c = (128.0 + 32.0) * f64::powi(2.0, -23);
        assert!(f64::from(m) >= 2.0 * c * 4.0);
        assert!(margin(2.0, 1.0, 128, 0.0, 0.0) > m);
        assert!(f64::from(margin(1.0, 1.0, 128, 0.0, 1e-3)) >= f64::from(m) + 1e-3);
        assert_eq!(scale_for(3.0), 0.25);
        assert_eq!(scale_for(0.1), 8.0);
        assert_eq!(scale_for(1.0), 1.0);
    }
}
