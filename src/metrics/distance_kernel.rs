//! The blocked distance "GEMM" of the fast nearest-neighbour search.
//!
//! Ranking by ‖q − x‖² is ranking by the key ‖x‖² − 2⟨q, x⟩ (‖q‖² is the same for every x), and
//! the cosine key is the cosine distance 1 − ⟨q, x⟩/(‖q‖ ‖x‖) itself: either way the work is the
//! inner products ⟨q, x⟩, a matrix product Q Xᵀ. The database is packed once into panels of
//! [`NR`] items stored dimension-major, so that a register tile of [`MR`] queries × [`NR`] items
//! accumulates ⟨q_i, x_j⟩ over d with one broadcast per query row and two vector loads per d;
//! database blocks of [`DB_BLOCK`] items stay in L2 while every query of a chunk passes over
//! them. Each inner product is still summed in index order d = 0, 1, … with separate multiply
//! and add (Rust never contracts them into FMAs), so it is bitwise the plain sequential sum: the
//! cosine keys equal the exact twin's, and on inputs where every product and partial sum is
//! exact (small integers) so do the Euclidean ones.

use crate::metrics::embeddings::Distance;

/// Queries per register tile.
pub(crate) const MR: usize = 4;
/// Database items per register tile (two 256-bit vectors of f64).
pub(crate) const NR: usize = 8;
/// Database items per cache block (a multiple of [`NR`]).
pub(crate) const DB_BLOCK: usize = 256;

/// The database packed into dimension-major panels of [`NR`] items, zero-padded at the end,
/// with ‖x‖² (Euclidean key offset) and ‖x‖ (cosine key scale) of every item, padded likewise.
pub(crate) struct PackedDatabase {
    pub(crate) panels: Vec<f64>,
    pub(crate) squared_norms: Vec<f64>,
    pub(crate) norms: Vec<f64>,
    pub(crate) len: usize,
    pub(crate) dim: usize,
}

/// ‖x‖² summed in index order from 0.0.
#[inline]
pub(crate) fn squared_norm(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for &v in x {
        s += v * v;
    }
    s
}

/// The ranking keys of the [`NR`] items of panel `p` for one query, from its inner products
/// with them (padding lanes give finite garbage): increasing in the distance.
#[inline(always)]
pub(crate) fn tile_keys(
    distance: Distance,
    dots: &[f64; NR],
    query_norm: f64,
    db: &PackedDatabase,
    p: usize,
) -> [f64; NR] {
    let mut keys = [0.0; NR];
    match distance {
        Distance::Euclidean => {
            let sq: &[f64; NR] = db.squared_norms[p * NR..(p + 1) * NR]
                .try_into()
                .expect("NR lanes");
            for j in 0..NR {
                keys[j] = sq[j] - 2.0 * dots[j];
            }
        }
        Distance::Cosine => {
            let norms: &[f64; NR] = db.norms[p * NR..(p + 1) * NR].try_into().expect("NR lanes");
            for j in 0..NR {
                // The exact twin's cosine distance, operation for operation:
                // 1 − ⟨q, x⟩ / (‖q‖ ‖x‖).
                keys[j] = 1.0 - dots[j] / (query_norm * norms[j]);
            }
        }
    }
    keys
}

impl PackedDatabase {
    /// Packs `rows` (row-major, `dim` wide).
    pub(crate) fn new(rows: &[f64], dim: usize) -> Self {
        let len = rows.len() / dim;
        let n_panels = len.div_ceil(NR);
        let mut panels = vec![0.0; n_panels * dim * NR];
        for (j, row) in rows.chunks_exact(dim).enumerate() {
            let (p, lane) = (j / NR, j % NR);
            let panel = &mut panels[p * dim * NR..(p + 1) * dim * NR];
            for (d, &x) in row.iter().enumerate() {
                panel[d * NR + lane] = x;
            }
        }
        // Padded to whole panels (‖x‖ = 1 there, so no lane divides by zero).
        let mut squared_norms: Vec<f64> = rows.chunks_exact(dim).map(squared_norm).collect();
        squared_norms.resize(n_panels * NR, 1.0);
        let norms = squared_norms.iter().map(|s| s.sqrt()).collect();
        Self {
            panels,
            squared_norms,
            norms,
            len,
            dim,
        }
    }

    /// Panel `p` (dimension-major, `dim × NR`).
    #[inline(always)]
    pub(crate) fn panel(&self, p: usize) -> &[f64] {
        &self.panels[p * self.dim * NR..(p + 1) * self.dim * NR]
    }
}

/// ⟨q_i, x_j⟩ for the [`MR`] query rows `q` (row-major, `dim` wide) and the [`NR`] items of one
/// panel, each summed over d in index order.
#[inline(always)]
pub(crate) fn tile_inner_products(q: &[f64], panel: &[f64], dim: usize) -> [[f64; NR]; MR] {
    let q0 = &q[..dim];
    let q1 = &q[dim..2 * dim];
    let q2 = &q[2 * dim..3 * dim];
    let q3 = &q[3 * dim..4 * dim];
    let mut acc = [[0.0f64; NR]; MR];
    for (d, x) in panel.chunks_exact(NR).enumerate().take(dim) {
        let x: &[f64; NR] = x.try_into().expect("panel rows are NR wide");
        let qs = [q0[d], q1[d], q2[d], q3[d]];
        for i in 0..MR {
            for j in 0..NR {
                acc[i][j] += qs[i] * x[j];
            }
        }
    }
    acc
}
