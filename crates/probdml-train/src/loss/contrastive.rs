//! The contrastive loss of chapter 03 in form L, the form the LAM reference code optimises
//! (deterministic training, MC dropout, and online LAM's mean step).

use crate::mining::MinedPairs;
use tch::Tensor;

/// The contrastive loss of form L (chapter 03; what the reference code optimises):
/// mean over positive pairs of d_ij plus mean over negatives inside the margin of (m − d_ij),
/// each mean over its own pairs (pytorch-metric-learning's non-zero averaging). An empty set
/// contributes 0.
///
/// d = √(max(d², ε)) with ε = 1e-12: at d = 0 (duplicates, or a collapsed class) √ has an
/// infinite derivative, and the floor keeps the gradient finite.
pub fn contrastive_loss_form_l(z: &Tensor, pairs: &MinedPairs, margin: f64) -> Tensor {
    let dist = |(i, j): &(Tensor, Tensor)| {
        let diff = z.index_select(0, i) - z.index_select(0, j);
        diff.square()
            .sum_dim_intlist(1i64, false, z.kind())
            .clamp_min(1e-12)
            .sqrt()
    };
    let zero = Tensor::zeros([], (z.kind(), z.device()));
    let (kp, kn) = pairs.kept();
    let pos = if kp > 0 {
        dist(&pairs.positive).mean(z.kind())
    } else {
        zero.shallow_clone()
    };
    let neg = if kn > 0 {
        (margin - dist(&pairs.negative)).relu().mean(z.kind())
    } else {
        zero
    };
    pos + neg
}
