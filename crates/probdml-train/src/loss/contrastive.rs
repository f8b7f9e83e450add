//! The contrastive loss of chapter 03 in form L, the form the LAM reference code optimises
//! (deterministic training, MC dropout, and online LAM's mean step).

use crate::mining::MinedPairs;
use tch::Tensor;

/// The contrastive loss of form L (chapter 03; what the reference code optimises):
/// mean over positive pairs of d_ij plus mean over negatives inside the margin of (m − d_ij),
/// each mean over its own pairs (pytorch-metric-learning's non-zero averaging). Pairs that carry
/// counts ([`MinedPairs::from_triplets`]) enter each mean as often as they count:
/// Σ c·ℓ / Σ c. An empty set contributes 0.
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
    // Pairs counted once keep the plain mean, so that the runs of the default reproduce the
    // bits they were recorded with (Σ ℓ / n is not always `mean`'s reduction order).
    let average = |losses: Tensor, count: Option<&Tensor>| match count {
        None => losses.mean(z.kind()),
        Some(c) => {
            let c = c.to_kind(z.kind());
            (losses * &c).sum(z.kind()) / c.sum(z.kind())
        }
    };
    let zero = Tensor::zeros([], (z.kind(), z.device()));
    let (kp, kn) = pairs.kept();
    let counts = pairs.counts.as_ref();
    let pos = if kp > 0 {
        average(dist(&pairs.positive), counts.map(|c| &c.0))
    } else {
        zero.shallow_clone()
    };
    let neg = if kn > 0 {
        average(
            (margin - dist(&pairs.negative)).relu(),
            counts.map(|c| &c.1),
        )
    } else {
        zero
    };
    pos + neg
}
