//! The closed-form diagonal of the last-layer GGN, y = Wx, for the six split × approximation
//! combinations (book chapter 04).
//!
//! # Derivation
//!
//! θ = vec(W); ∂y_i/∂W_kl = e_k x_il. Let a_i = e_k in the Arccos split and a_i = P_ie_k/r_i in
//! the Euclidean split (the normalisation Jacobian folded in). A pair (i, j) with output Hessian
//! blocks H adds x_il² a_iᵀH_iia_i + x_jl² a_jᵀH_jja_j + 2x_ilx_jl a_iᵀH_ija_j to the diagonal
//! entry of W_kl. With ŷ = y/r, c = ŷ_iᵀŷ_j:
//!
//! * Euclidean diagonal block: t(1 − ŷ_ik²)/r_i²;
//! * Arccos diagonal block: t(c + 2ŷ_ikŷ_jk − 3cŷ_ik²)/r_i²;
//! * cross term, the *same* in both splits: −t(P_iP_j)_kk/(r_ir_j) with
//!   (P_iP_j)_kk = 1 − ŷ_ik² − ŷ_jk² + c ŷ_ikŷ_jk.
//!
//! The diagonal blocks reduce to per-point coefficients D_ik, so "fixed" is Σ_i D_ik x_il²:
//! O(|pairs|·M + B·M·F). The cross terms need Σ_{(i,j)} C_ijk x_il x_jl, a sparse-times-dense
//! product of the B×B pair matrix with X per k: O(|pairs|·M·F) ≤ O(M·B²·F). When the pairs
//! are dense (at least B²/8 selected), the cross sum per k is the quadratic-form diagonal
//! diag(Xᵀ C_k X)_l = Σ_i x_il (C_k X)_il with one GEMM C_k·X ([`crate::gemm`], in the fixed order) per block
//! of features; sparse pair sets keep the CSR multiply-add loop. Pairs with t = 0 (negatives
//! outside the margin) are never listed and cost nothing.

use super::{zero_output, Approximation, Split};
use crate::contrastive::PairTarget;
use crate::error::Result;
use crate::gemm::{product_packed, Order, Packed, View};

/// The six diagonals of one batch, each of length M·F in the row-major order of W.
#[derive(Debug, Clone, PartialEq)]
pub struct GgnDiagonals {
    /// Output dimension M (W is `dim × n_features`).
    pub dim: usize,
    /// Input features F.
    pub n_features: usize,
    /// `[split][approximation]`, splits in [`Split::ALL`] order, approximations in
    /// [`Approximation::ALL`] order.
    pub diagonals: [[Vec<f64>; 3]; 2],
}

impl GgnDiagonals {
    /// The diagonal of one combination.
    pub fn get(&self, split: Split, approximation: Approximation) -> &[f64] {
        let s = Split::ALL.iter().position(|&x| x == split).unwrap_or(0);
        let a = Approximation::ALL
            .iter()
            .position(|&x| x == approximation)
            .unwrap_or(0);
        &self.diagonals[s][a]
    }
}

/// The diagonal of the last-layer GGN Σ_pairs J_pairᵀ H̃_pair J_pair for y = Wx, where H̃ is the
/// pair's output Hessian in `split` after `approximation` ("full" then clamps the summed
/// diagonal at 0).
///
/// `weights` is W, M×F row-major; `features` is X, B×F row-major (x_i, the last layer's input);
/// `pairs` are the ordered pairs with targets (e.g. [`crate::contrastive::pair_targets`]).
/// Returns M·F entries, entry k·F + l for W_kl.
///
/// # Formula
///
/// $$ \operatorname{diag}(H_\theta)\_{kl} = \sum_i D_{ik}\\,x_{il}^2 +
///    2\sum_{(i,j)} C_{ijk}\\,x_{il}x_{jl} $$
///
/// with the coefficients of the module docs; the cross sum is absent for "fixed" and restricted
/// to t > 0 for "positive". Cost O(B·M·F) for "fixed"; otherwise O(|pairs|·M·F) for sparse
/// pair sets and one GEMM-shaped O(M·B²·F) product for dense ones (at least B²/8 pairs).
///
/// # Errors
///
/// Ragged `weights`/`features`, non-finite entries, a pair index outside the batch, a non-finite
/// target, or a zero raw output W x_i (the normalisation is undefined).
///
/// # Examples
///
/// ```
/// use probdml::contrastive::PairTarget;
/// use probdml::ggn::{last_layer_ggn_diagonal, Approximation, Split};
/// // M = 2, F = 1: W = (1, 1)ᵀ, x_0 = 1, x_1 = −2 → ŷ_0 = −ŷ_1; one positive pair (0, 1).
/// let pairs = [PairTarget { i: 0, j: 1, target: 1.0 }];
/// let d = last_layer_ggn_diagonal(&[1.0, 1.0], &[1.0, -2.0], 1, &pairs, Split::Euclidean,
///                                 Approximation::Fixed).unwrap();
/// // Σ_i t(1 − ŷ_ik²)/r_i² x_i² = ½·1/2·1 + ½·1/8·4 = 0.5
/// assert!((d[0] - 0.5).abs() < 1e-15 && (d[1] - 0.5).abs() < 1e-15);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn last_layer_ggn_diagonal(
    weights: &[f64],
    features: &[f64],
    n_features: usize,
    pairs: &[PairTarget],
    split: Split,
    approximation: Approximation,
) -> Result<Vec<f64>> {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || diagonal_kernel(weights, features, n_features, pairs, split, approximation),
    )
}

/// [`last_layer_ggn_diagonal`] in the caller's instruction set: its axpy loops run as wide as
/// the CPU allows (the GEMM of the dense route chooses its own).
#[inline(always)]
fn diagonal_kernel(
    weights: &[f64],
    features: &[f64],
    n_features: usize,
    pairs: &[PairTarget],
    split: Split,
    approximation: Approximation,
) -> Result<Vec<f64>> {
    let pre = Precomputed::checked(weights, features, n_features, pairs)?;
    let (f, m) = (n_features, pre.m);
    let mut out = vec![0.0; m * f];
    // The diagonal blocks: "positive" keeps t > 0 only.
    let keep_negative = approximation != Approximation::Positive;
    let coeffs = pre.diagonal_coefficients(pairs, split, keep_negative);
    add_weighted_squares(&mut out, features, f, m, &coeffs);
    match approximation {
        Approximation::Fixed => {}
        Approximation::Positive => {
            pre.add_cross_terms(&mut out, None, features, pairs, |t| t > 0.0);
        }
        Approximation::Full => {
            pre.add_cross_terms(&mut out, None, features, pairs, |t| t != 0.0);
            out.iter_mut().for_each(|v| *v = v.max(0.0));
        }
    }
    Ok(out)
}

/// All six diagonals of [`last_layer_ggn_diagonal`] in one pass over the pairs: the cross
/// products are formed once (split-independent, positive and negative pairs apart) and the
/// per-point coefficients of both splits in the same loop.
///
/// # Errors
///
/// As [`last_layer_ggn_diagonal`].
pub fn last_layer_ggn_diagonals(
    weights: &[f64],
    features: &[f64],
    n_features: usize,
    pairs: &[PairTarget],
) -> Result<GgnDiagonals> {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || diagonals_kernel(weights, features, n_features, pairs),
    )
}

/// [`last_layer_ggn_diagonals`] in the caller's instruction set.
#[inline(always)]
fn diagonals_kernel(
    weights: &[f64],
    features: &[f64],
    n_features: usize,
    pairs: &[PairTarget],
) -> Result<GgnDiagonals> {
    let pre = Precomputed::checked(weights, features, n_features, pairs)?;
    let (f, m) = (n_features, pre.m);
    let mut cross_pos = vec![0.0; m * f];
    let mut cross_neg = vec![0.0; m * f];
    pre.add_cross_terms(&mut cross_pos, Some(&mut cross_neg), features, pairs, |t| {
        t != 0.0
    });
    let mut diagonals: [[Vec<f64>; 3]; 2] = Default::default();
    for (s, &split) in Split::ALL.iter().enumerate() {
        let mut pos = vec![0.0; m * f];
        add_weighted_squares(
            &mut pos,
            features,
            f,
            m,
            &pre.diagonal_coefficients(pairs, split, false),
        );
        let mut all = vec![0.0; m * f];
        add_weighted_squares(
            &mut all,
            features,
            f,
            m,
            &pre.diagonal_coefficients(pairs, split, true),
        );
        let positive: Vec<f64> = pos.iter().zip(&cross_pos).map(|(a, c)| a + c).collect();
        let full: Vec<f64> = all
            .iter()
            .zip(&cross_pos)
            .zip(&cross_neg)
            .map(|((a, p), n)| (a + p + n).max(0.0))
            .collect();
        diagonals[s] = [positive, all, full];
    }
    Ok(GgnDiagonals {
        dim: m,
        n_features: f,
        diagonals,
    })
}

/// ŷ_i and 1/r_i for the batch.
struct Precomputed {
    m: usize,
    b: usize,
    unit: Vec<f64>,
    inv_norm: Vec<f64>,
}

impl Precomputed {
    /// Validates the problem exactly as `super::check_last_layer` does (same checks, same
    /// order, same errors) while computing y = Wx once, then normalises.
    #[inline(always)]
    fn checked(
        weights: &[f64],
        features: &[f64],
        n_features: usize,
        pairs: &[PairTarget],
    ) -> Result<Self> {
        let f = n_features;
        let (m, b) = super::check_last_layer_shapes(weights, features, n_features, pairs)?;
        let mut unit = vec![0.0; b * m];
        let mut inv_norm = vec![0.0; b];
        for i in 0..b {
            let x = &features[i * f..(i + 1) * f];
            let y = &mut unit[i * m..(i + 1) * m];
            for (k, yk) in y.iter_mut().enumerate() {
                *yk = dot(&weights[k * f..(k + 1) * f], x);
            }
            let norm_sq: f64 = y.iter().map(|v| v * v).sum();
            if norm_sq.is_nan() || norm_sq <= 0.0 {
                return Err(zero_output());
            }
            let r = norm_sq.sqrt();
            y.iter_mut().for_each(|v| *v /= r);
            inv_norm[i] = 1.0 / r;
        }
        Ok(Self {
            m,
            b,
            unit,
            inv_norm,
        })
    }

    #[inline(always)]
    fn cosine(&self, i: usize, j: usize) -> f64 {
        let m = self.m;
        self.unit[i * m..(i + 1) * m]
            .iter()
            .zip(&self.unit[j * m..(j + 1) * m])
            .map(|(a, b)| a * b)
            .sum()
    }

    /// D_ik (B×M): the per-point coefficient of x_il² from the diagonal blocks of every pair.
    #[inline(always)]
    fn diagonal_coefficients(
        &self,
        pairs: &[PairTarget],
        split: Split,
        keep_negative: bool,
    ) -> Vec<f64> {
        let m = self.m;
        let mut d = vec![0.0; self.b * m];
        for p in pairs {
            let t = p.target;
            if t == 0.0 || (t < 0.0 && !keep_negative) {
                continue;
            }
            let (si, sj) = (
                t * self.inv_norm[p.i].powi(2),
                t * self.inv_norm[p.j].powi(2),
            );
            let (ui, uj) = (
                &self.unit[p.i * m..(p.i + 1) * m],
                &self.unit[p.j * m..(p.j + 1) * m],
            );
            match split {
                Split::Euclidean => {
                    for k in 0..m {
                        d[p.i * m + k] += si * (1.0 - ui[k] * ui[k]);
                        d[p.j * m + k] += sj * (1.0 - uj[k] * uj[k]);
                    }
                }
                Split::Arccos => {
                    let c = self.cosine(p.i, p.j);
                    for k in 0..m {
                        let cross = 2.0 * ui[k] * uj[k];
                        d[p.i * m + k] += si * (c + cross - 3.0 * c * ui[k] * ui[k]);
                        d[p.j * m + k] += sj * (c + cross - 3.0 * c * uj[k] * uj[k]);
                    }
                }
            }
        }
        d
    }

    /// Adds 2 Σ_{(i,j) selected} C_ijk x_il x_jl to `out` (positive pairs) and to `negative`
    /// when given (negative pairs; otherwise they go to `out` too). Pairs are grouped by i and
    /// the features walked in cache-sized chunks, so the inner loop is a vectorised axpy.
    #[inline(always)]
    fn add_cross_terms(
        &self,
        out: &mut [f64],
        mut negative: Option<&mut [f64]>,
        features: &[f64],
        pairs: &[PairTarget],
        select: impl Fn(f64) -> bool,
    ) {
        let (m, b) = (self.m, self.b);
        let f = out.len() / m;
        // CSR by first index: (j, sign, C_ij·) with the M coefficients contiguous.
        let mut start = vec![0usize; b + 1];
        for p in pairs.iter().filter(|p| select(p.target)) {
            start[p.i + 1] += 1;
        }
        for i in 0..b {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let total = start[b];
        let mut cols = vec![0usize; total];
        let mut is_neg = vec![false; total];
        let mut coef = vec![0.0; total * m];
        for p in pairs.iter().filter(|p| select(p.target)) {
            let slot = fill[p.i];
            fill[p.i] += 1;
            cols[slot] = p.j;
            is_neg[slot] = p.target < 0.0;
            let (ui, uj) = (
                &self.unit[p.i * m..(p.i + 1) * m],
                &self.unit[p.j * m..(p.j + 1) * m],
            );
            let c = self.cosine(p.i, p.j);
            let s = -2.0 * p.target * self.inv_norm[p.i] * self.inv_norm[p.j];
            for k in 0..m {
                coef[slot * m + k] = s * (1.0 - ui[k] * ui[k] - uj[k] * uj[k] + c * ui[k] * uj[k]);
            }
        }
        let split_signs = negative.is_some();
        if total > 0 && total * DENSE_PAIR_FRACTION >= b * b {
            let blocks = if split_signs { 2 } else { 1 };
            // C_k, (blocks·B)×B row-major: positive pairs in the first B rows, negative after.
            let mut c = vec![0.0; blocks * b * b];
            let mut z = Vec::new();
            for k in 0..m {
                c.iter_mut().for_each(|v| *v = 0.0);
                for i in 0..b {
                    for slot in start[i]..start[i + 1] {
                        let row = if split_signs && is_neg[slot] {
                            b + i
                        } else {
                            i
                        };
                        c[row * b + cols[slot]] += coef[slot * m + k];
                    }
                }
                let out_k = &mut out[k * f..(k + 1) * f];
                let neg_k = negative.as_deref_mut().map(|n| &mut n[k * f..(k + 1) * f]);
                add_quadratic_form_diagonal(out_k, neg_k, &c, features, b, f, &mut z);
            }
            return;
        }
        let chunk = ((4096 / m).max(64) / 8 * 8).min(f.max(1));
        let mut acc_pos = vec![0.0; m * chunk];
        let mut acc_neg = vec![0.0; if split_signs { m * chunk } else { 0 }];
        let mut l0 = 0;
        while l0 < f {
            let len = chunk.min(f - l0);
            for i in 0..b {
                if start[i] == start[i + 1] {
                    continue;
                }
                acc_pos[..m * len].iter_mut().for_each(|v| *v = 0.0);
                if split_signs {
                    acc_neg[..m * len].iter_mut().for_each(|v| *v = 0.0);
                }
                for slot in start[i]..start[i + 1] {
                    let j = cols[slot];
                    let xj = &features[j * f + l0..j * f + l0 + len];
                    let acc = if split_signs && is_neg[slot] {
                        &mut acc_neg
                    } else {
                        &mut acc_pos
                    };
                    for k in 0..m {
                        let a = coef[slot * m + k];
                        let row = &mut acc[k * len..(k + 1) * len];
                        for (r, x) in row.iter_mut().zip(xj) {
                            *r += a * x;
                        }
                    }
                }
                let xi = &features[i * f + l0..i * f + l0 + len];
                for k in 0..m {
                    let dst = &mut out[k * f + l0..k * f + l0 + len];
                    for ((d, a), x) in dst.iter_mut().zip(&acc_pos[k * len..(k + 1) * len]).zip(xi)
                    {
                        *d += a * x;
                    }
                }
                if let Some(neg) = negative.as_deref_mut() {
                    for k in 0..m {
                        let dst = &mut neg[k * f + l0..k * f + l0 + len];
                        for ((d, a), x) in
                            dst.iter_mut().zip(&acc_neg[k * len..(k + 1) * len]).zip(xi)
                        {
                            *d += a * x;
                        }
                    }
                }
            }
            l0 += len;
        }
    }
}

/// The dense route of the cross terms is taken when at least B²/`DENSE_PAIR_FRACTION` pairs are
/// selected: the GEMM then does more (structurally zero) work than the sparse loop but at a much
/// higher rate. The decision depends on the selected (t ≠ 0) pairs only, so listing t = 0 pairs
/// never changes the route, nor the result.
const DENSE_PAIR_FRACTION: usize = 8;

/// Entries of one block of C·X kept in cache at a time.
const GEMM_BLOCK_ENTRIES: usize = 32 * 1024;

/// out_l += Σ_i x_il (C X)_il for the first B rows of `c` ((blocks·B)×B row-major, blocks 1 or 2)
/// and, with two blocks, negative_l += the same for the last B rows; X is B×F row-major. The
/// features are walked in blocks of columns so that C·X[:, block] ([`crate::gemm`]) stays in
/// cache; `z` is scratch.
#[inline(always)]
fn add_quadratic_form_diagonal(
    out: &mut [f64],
    mut negative: Option<&mut [f64]>,
    c: &[f64],
    features: &[f64],
    b: usize,
    f: usize,
    z: &mut Vec<f64>,
) {
    let rows = c.len() / b;
    let width = (GEMM_BLOCK_ENTRIES / rows).max(64).min(f);
    z.resize(rows * width, 0.0);
    // C is the left factor of every block of columns: packed once.
    let lhs = Packed::left(View::row_major(c, rows, b, b));
    let mut l0 = 0;
    while l0 < f {
        let len = width.min(f - l0);
        let rhs = Packed::right(View::row_major(&features[l0..], b, len, f));
        product_packed(&mut z[..rows * len], len, 1.0, &lhs, &rhs, Order::Fixed);
        for i in 0..b {
            let xi = &features[i * f + l0..i * f + l0 + len];
            let zi = &z[i * len..(i + 1) * len];
            for ((o, x), zv) in out[l0..l0 + len].iter_mut().zip(xi).zip(zi) {
                *o += x * zv;
            }
            if let Some(neg) = negative.as_deref_mut() {
                let zi = &z[(b + i) * len..(b + i + 1) * len];
                for ((o, x), zv) in neg[l0..l0 + len].iter_mut().zip(xi).zip(zi) {
                    *o += x * zv;
                }
            }
        }
        l0 += len;
    }
}

/// Σ_l a_l b_l with eight independent accumulators (vectorises; the summation order is fixed).
#[inline(always)]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f64 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for t in 0..8 {
            acc[t] += x[t] * y[t];
        }
    }
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail
}

/// out_kl += Σ_i D_ik x_il².
#[inline(always)]
fn add_weighted_squares(out: &mut [f64], features: &[f64], f: usize, m: usize, d: &[f64]) {
    let b = d.len() / m;
    for i in 0..b {
        let x = &features[i * f..(i + 1) * f];
        for k in 0..m {
            let dik = d[i * m + k];
            if dik == 0.0 {
                continue;
            }
            for (o, xl) in out[k * f..(k + 1) * f].iter_mut().zip(x) {
                *o += dik * xl * xl;
            }
        }
    }
}
