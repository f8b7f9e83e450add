//! The last-layer diagonal GGN of chapter 04 as tensor ops on the training device.
//!
//! Same closed form as [`probdml::ggn::last_layer_ggn_diagonal`] (whose module docs carry the
//! derivation), written for libtorch so that the online Laplace update never leaves the GPU:
//! with ŷ = y/r, c = ŷ_iᵀŷ_j and x̃ = (x, 1) (the bias is the weight of a constant feature),
//!
//! diag(H)_kl = Σ_i D_ik x̃_il² + 2 Σ_(i,j) C_ijk x̃_il x̃_jl,
//!
//! D from the diagonal blocks (Euclidean t(1 − ŷ_ik²)/r_i², Arccos t(c + 2ŷ_ikŷ_jk − 3cŷ_ik²)/r_i²),
//! C_ijk = −t(1 − ŷ_ik² − ŷ_jk² + cŷ_ikŷ_jk)/(r_ir_j) from the cross blocks. "fixed" keeps the
//! D term only (one D×B by B×F product), "positive" keeps t > 0 in both terms, "full" keeps all
//! and clamps the sum at 0. The cross term scatters the pair coefficients into a dense B×B
//! matrix per output k and forms diag(x̃ᵀ C_k x̃) with one batched product, k in chunks so that
//! the B×F intermediate stays bounded at large D.
//!
//! `crates/probdml-train/tests/train_ggn.rs` checks this against the fast f64 implementation of the math crate on the
//! same inputs (in double precision to 1e-10 of the term scale) and, on tiny sizes, against the
//! dense exact GGN.

use crate::error::{TrainError, TrainResult};
use probdml::ggn::{Approximation, Split};
use tch::{Kind, Tensor};

/// Pairs (i, j) of a batch with their targets t, as tensors on the device.
#[derive(Debug)]
pub struct PairTensors {
    /// First indices, int64, length P.
    pub i: Tensor,
    /// Second indices, int64, length P.
    pub j: Tensor,
    /// Targets t (e.g. +1 on positives, −1 on negatives inside the margin), length P.
    pub target: Tensor,
}

impl PairTensors {
    /// Number of pairs.
    pub fn len(&self) -> i64 {
        self.i.size()[0]
    }

    /// Whether there are no pairs.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Outputs per chunk of the cross term: bounds the D×B×F intermediate.
const CROSS_CHUNK: i64 = 16;

/// The diagonal of the last-layer GGN for y = W x + b over `pairs`, as (diag for W: D × F,
/// diag for b: D), in the dtype of `features`.
///
/// # Errors
///
/// Shape mismatches, pair indices outside the batch, and a zero raw output y_i of a point in a
/// pair (the normalisation is undefined there) are reported as [`TrainError::InvalidConfig`]
/// naming the argument; a non-finite result as [`TrainError::NonFinite`] is left to the caller,
/// which knows the step.
pub fn last_layer_ggn_diagonal_tensor(
    weight: &Tensor,
    bias: &Tensor,
    features: &Tensor,
    pairs: &PairTensors,
    split: Split,
    approximation: Approximation,
) -> TrainResult<(Tensor, Tensor)> {
    let (d, f) = match weight.size()[..] {
        [d, f] => (d, f),
        _ => {
            return Err(TrainError::config(
                "weight",
                format!("{:?}", weight.size()),
                "must be D × F",
            ))
        }
    };
    if bias.size() != [d] {
        return Err(TrainError::config(
            "bias",
            format!("{:?}", bias.size()),
            format!("must have shape [{d}]"),
        ));
    }
    let b = match features.size()[..] {
        [b, ff] if ff == f => b,
        _ => {
            return Err(TrainError::config(
                "features",
                format!("{:?}", features.size()),
                format!("must be B × {f}"),
            ))
        }
    };
    let kind = features.kind();
    let device = features.device();
    let x = Tensor::cat(
        &[
            features.shallow_clone(),
            Tensor::ones([b, 1], (kind, device)),
        ],
        1,
    );
    let theta = Tensor::cat(&[weight.to_kind(kind), bias.to_kind(kind).unsqueeze(1)], 1);
    let zero = || Tensor::zeros([d, f + 1], (kind, device));
    if pairs.is_empty() {
        let z = zero();
        return Ok((z.narrow(1, 0, f), z.narrow(1, f, 1).squeeze_dim(1)));
    }
    let (pi, pj) = (&pairs.i, &pairs.j);
    let max_index = i64::max(pi.max().int64_value(&[]), pj.max().int64_value(&[]));
    let min_index = i64::min(pi.min().int64_value(&[]), pj.min().int64_value(&[]));
    if min_index < 0 || max_index >= b {
        return Err(TrainError::config(
            "pairs",
            format!(
                "index {}",
                if min_index < 0 { min_index } else { max_index }
            ),
            format!("pair indices must lie in 0..{b} (the batch)"),
        ));
    }
    let y = x.matmul(&theta.tr());
    let r = y.norm_scalaropt_dim(2.0, [1i64], false);
    let used = Tensor::cat(&[pi.shallow_clone(), pj.shallow_clone()], 0);
    if r.index_select(0, &used).min().double_value(&[]) <= 0.0 {
        return Err(TrainError::config(
            "weight",
            "a zero raw output W x_i + b",
            "the normalisation y/|y| is undefined; the GGN needs y_i != 0 for every paired point",
        ));
    }
    let inv = r.reciprocal();
    let u = &y * inv.unsqueeze(1);
    let t = pairs.target.to_kind(kind);
    let (ui, uj) = (u.index_select(0, pi), u.index_select(0, pj));
    let (inv_i, inv_j) = (inv.index_select(0, pi), inv.index_select(0, pj));
    let c = (&ui * &uj).sum_dim_intlist(1i64, true, kind);
    let keep = match approximation {
        Approximation::Positive => t.gt(0.0).to_kind(kind),
        Approximation::Fixed | Approximation::Full => t.ones_like(),
    };
    let tk = (&t * &keep).unsqueeze(1);
    let (si, sj) = (
        &tk * inv_i.square().unsqueeze(1),
        &tk * inv_j.square().unsqueeze(1),
    );
    let (ci, cj) = match split {
        Split::Euclidean => (si * (1.0 - ui.square()), sj * (1.0 - uj.square())),
        Split::Arccos => {
            let cross = 2.0 * &ui * &uj;
            (
                si * (&c + &cross - 3.0 * &c * ui.square()),
                sj * (&c + &cross - 3.0 * &c * uj.square()),
            )
        }
    };
    let coeff = Tensor::zeros([b, d], (kind, device))
        .index_add(0, pi, &ci)
        .index_add(0, pj, &cj);
    // Σ_i D_ik x̃_il²: (D × B)(B × F+1).
    let mut diag = coeff.tr().matmul(&x.square());
    if approximation != Approximation::Fixed {
        // C_ijk per pair (P × D), the factor 2 of the symmetric cross blocks included.
        let cross: Tensor = &tk
            * (&inv_i * &inv_j).unsqueeze(1)
            * -2.0
            * (1.0 - ui.square() - uj.square() + &c * &ui * &uj);
        let flat_pair = pi * b + pj;
        let mut k0 = 0;
        while k0 < d {
            let len = CROSS_CHUNK.min(d - k0);
            let ks = Tensor::arange(len, (Kind::Int64, device));
            // Dense C_k for k in the chunk: (len × B·B), scattered with accumulation (pairs may
            // repeat).
            let index = (ks.unsqueeze(1) * (b * b) + flat_pair.unsqueeze(0)).flatten(0, -1);
            let values = cross.narrow(1, k0, len).tr().contiguous().flatten(0, -1);
            let ck = Tensor::zeros([len * b * b], (kind, device))
                .index_add(0, &index, &values)
                .view([len, b, b]);
            // diag(x̃ᵀ C_k x̃)_l = Σ_i x̃_il (C_k x̃)_il.
            // One (len·B × B)(B × F+1) GEMM: a broadcast batched matmul takes a slow path.
            let cx = ck.view([len * b, b]).mm(&x).view([len, b, f + 1]);
            let part = (cx * x.unsqueeze(0)).sum_dim_intlist(1i64, false, kind);
            let slice = diag.narrow(0, k0, len) + part;
            diag = diag.slice_scatter(&slice, 0, k0, k0 + len, 1);
            k0 += len;
        }
        if approximation == Approximation::Full {
            diag = diag.clamp_min(0.0);
        }
    }
    Ok((diag.narrow(1, 0, f), diag.narrow(1, f, 1).squeeze_dim(1)))
}
