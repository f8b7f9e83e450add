//! Pairs mined within a batch, and their targets for the Hessian (chapters 03 and 04).
//!
//! Every unordered pair i < j of the batch is a candidate: positives (same label) always,
//! negatives only inside the margin (d_ij < m), because a negative outside the margin has zero
//! loss, gradient and Hessian (LAM §4, "hard negative mining"). When more than `max_pairs`
//! remain, p positives and q negatives are drawn uniformly without replacement in the batch's
//! proportion, and the Hessian targets are rescaled to t = +P/p and −N/q: chapter 03's
//! rescaling, so that the subsampled Hessian is an unbiased estimate of the whole batch's
//! Σ_pairs ±(½d²)'' (proved for the estimator in `proofs/contrastive_rescaling.rs`).
//!
//! The LAM reference code forms its training loss over other pairs: those of the "all"
//! triplet miner's triplets, each counted once per triplet it is in ([`MinedPairs::from_triplets`],
//! `--loss-mining triplets`); its Hessian takes the triplets themselves ([`HessianTriplets`]).
//! Both read one mask of margin-violating triplets ([`violating_triplets`]).

use super::LossMining;
use crate::config::PairOptions;
use crate::laplace::ggn::PairTensors;
use crate::protocol::HessianMining;
use tch::{Device, Kind, Tensor};

/// The mined pairs of one batch.
#[derive(Debug)]
pub struct MinedPairs {
    /// Positive pairs (i < j, same label).
    pub positive: (Tensor, Tensor),
    /// Negative pairs inside the margin (i < j, different labels, d < m).
    pub negative: (Tensor, Tensor),
    /// Positives and negatives in the whole batch before subsampling.
    pub batch_counts: (i64, i64),
    /// How many times each positive and each negative pair counts (float, one per pair), or
    /// None for once each: the triplet multiplicities of [`MinedPairs::from_triplets`].
    pub counts: Option<(Tensor, Tensor)>,
}

impl MinedPairs {
    /// Mines the pairs of unit embeddings `z` (B × D, no gradient needed) with `labels`
    /// (int64, B); libtorch's generator (seeded by `tch::manual_seed`) drives the subsampling
    /// when more than `max_pairs` qualify.
    pub fn mine(z: &Tensor, labels: &Tensor, margin: f64, max_pairs: i64) -> Self {
        tch::no_grad(|| {
            let b = z.size()[0];
            let device = z.device();
            let d2 = (z.matmul(&z.tr()) * -2.0 + 2.0).clamp_min(0.0);
            let upper = Tensor::ones([b, b], (Kind::Bool, device)).triu(1);
            let same = labels.unsqueeze(1).eq_tensor(&labels.unsqueeze(0));
            let pos = same.logical_and(&upper);
            let neg = same
                .logical_not()
                .logical_and(&upper)
                .logical_and(&d2.lt(margin * margin));
            let to_pairs = |mask: &Tensor| {
                let nz = mask.nonzero();
                (nz.select(1, 0), nz.select(1, 1))
            };
            let (mut p, mut n) = (to_pairs(&pos), to_pairs(&neg));
            let counts = (p.0.size()[0], n.0.size()[0]);
            let total = counts.0 + counts.1;
            if total > max_pairs {
                let keep_p = ((max_pairs as f64) * counts.0 as f64 / total as f64).round() as i64;
                let keep_p = keep_p.clamp(i64::from(counts.0 > 0), counts.0);
                let keep_n = (max_pairs - keep_p).min(counts.1);
                p = subsample(p, keep_p, device);
                n = subsample(n, keep_n, device);
            }
            MinedPairs {
                positive: p,
                negative: n,
                batch_counts: counts,
                counts: None,
            }
        })
    }

    /// The pairs of the LAM reference code's training loss for unit embeddings `z` (B × D, no
    /// gradient needed) with `labels` (int64, B): the (a, p) and (a, n) of every triplet of
    /// [`violating_triplets`], uncapped, gathered into unordered pairs i < j with their counts.
    ///
    /// A positive pair {i, j} counts T(i, j) + T(j, i) times, T(a, p) = #{n : (a, p, n)
    /// violates}, and is kept when that is positive; a negative pair {i, j} counts U(i, j) +
    /// U(j, i), U(a, n) = #{p : (a, p, n) violates}, and is kept only inside the margin, since
    /// one outside has the loss (m − d)₊ = 0 and the reference's non-zero averaging leaves it
    /// out of numerator and denominator alike. Nothing is subsampled: `batch_counts` are the
    /// kept counts.
    pub fn from_triplets(z: &Tensor, labels: &Tensor, margin: f64) -> Self {
        tch::no_grad(|| {
            let b = z.size()[0];
            let device = z.device();
            let d = (z.matmul(&z.tr()) * -2.0 + 2.0).clamp_min(0.0).sqrt();
            let violating = violating_triplets(&d, labels, margin).to_kind(z.kind());
            // [a, p, n] summed over n: T(a, p); over p: U(a, n).
            let t = violating.sum_dim_intlist(2i64, false, z.kind());
            let u = violating.sum_dim_intlist(1i64, false, z.kind());
            let (t, u) = (&t + t.tr(), &u + u.tr());
            let upper = Tensor::ones([b, b], (Kind::Bool, device)).triu(1);
            let same = labels.unsqueeze(1).eq_tensor(&labels.unsqueeze(0));
            let pos = same.logical_and(&upper).logical_and(&t.gt(0.0));
            let neg = same
                .logical_not()
                .logical_and(&upper)
                .logical_and(&d.lt(margin))
                .logical_and(&u.gt(0.0));
            let gather = |mask: &Tensor, count: &Tensor| {
                let nz = mask.nonzero();
                let (i, j) = (nz.select(1, 0), nz.select(1, 1));
                let c = count.view([-1]).index_select(0, &(&i * b + &j));
                ((i, j), c)
            };
            let (positive, cp) = gather(&pos, &t);
            let (negative, cn) = gather(&neg, &u);
            let kept = (positive.0.size()[0], negative.0.size()[0]);
            MinedPairs {
                positive,
                negative,
                batch_counts: kept,
                counts: Some((cp, cn)),
            }
        })
    }

    /// The pairs of form L for `options.loss_mining`: [`MinedPairs::mine`] with the cap
    /// `max_pairs`, or [`MinedPairs::from_triplets`] (uncapped).
    pub fn for_loss(z: &Tensor, labels: &Tensor, options: &PairOptions, max_pairs: i64) -> Self {
        match options.loss_mining {
            LossMining::Pairs => Self::mine(z, labels, options.margin, max_pairs),
            LossMining::Triplets => Self::from_triplets(z, labels, options.margin),
        }
    }

    /// Kept positive and negative pair counts.
    pub fn kept(&self) -> (i64, i64) {
        (self.positive.0.size()[0], self.negative.0.size()[0])
    }

    /// The pairs with their Hessian targets +P/p (positives) and −N/q (negatives), in `kind`,
    /// each times its count when the pairs carry counts.
    pub fn hessian_pairs(&self, kind: Kind) -> PairTensors {
        let (kp, kn) = self.kept();
        let (bp, bn) = self.batch_counts;
        let device = self.positive.0.device();
        let scale = |batch: i64, kept: i64| {
            if kept > 0 {
                batch as f64 / kept as f64
            } else {
                0.0
            }
        };
        let target = Tensor::cat(
            &[
                Tensor::full([kp], scale(bp, kp), (kind, device)),
                Tensor::full([kn], -scale(bn, kn), (kind, device)),
            ],
            0,
        );
        let target = match &self.counts {
            Some((cp, cn)) => target * Tensor::cat(&[cp, cn], 0).to_kind(kind),
            None => target,
        };
        PairTensors {
            i: Tensor::cat(&[&self.positive.0, &self.negative.0], 0),
            j: Tensor::cat(&[&self.positive.1, &self.negative.1], 0),
            target,
        }
    }
}

/// The triplets of one batch as the LAM reference code mines them for its Hessian: the "all"
/// triplet miner (`src/miners/triplet_miners.py`, with pytorch-metric-learning's
/// `get_all_triplets_indices`): every (a, p, n) with a ≠ p of one label, n of another, and
/// d(a, n) − d(a, p) ≤ margin (Euclidean distances of the unit embeddings); at most `max`
/// of them kept uniformly at random (`torch.randperm(n)[:max]`), without any rescaling.
#[derive(Debug)]
pub struct HessianTriplets {
    /// Anchors, positives, negatives (int64, one entry per kept triplet).
    pub triplets: (Tensor, Tensor, Tensor),
    /// Triplets in the whole batch before the cap.
    pub batch_count: i64,
}

impl HessianTriplets {
    /// Mines the triplets of unit embeddings `z` (B × D) with `labels` (int64, B); libtorch's
    /// generator (seeded by `tch::manual_seed`) drives the subsampling.
    pub fn mine(z: &Tensor, labels: &Tensor, margin: f64, max_triplets: i64) -> Self {
        tch::no_grad(|| {
            let device = z.device();
            let d = (z.matmul(&z.tr()) * -2.0 + 2.0).clamp_min(0.0).sqrt();
            let nz = violating_triplets(&d, labels, margin).nonzero();
            let count = nz.size()[0];
            let nz = if count > max_triplets {
                let perm =
                    Tensor::randperm(count, (Kind::Int64, device)).narrow(0, 0, max_triplets);
                nz.index_select(0, &perm)
            } else {
                nz
            };
            HessianTriplets {
                triplets: (nz.select(1, 0), nz.select(1, 1), nz.select(1, 2)),
                batch_count: count,
            }
        })
    }

    /// Kept triplets.
    pub fn kept(&self) -> i64 {
        self.triplets.0.size()[0]
    }

    /// The triplets' pairs for the Hessian: (a, p) with target +1 and (a, n) with target −1
    /// per kept triplet (the reference's Σ_triplets [H(a, p) − H(a, n)], in `kind`).
    pub fn hessian_pairs(&self, kind: Kind) -> PairTensors {
        let k = self.kept();
        let device = self.triplets.0.device();
        let (a, p, n) = &self.triplets;
        PairTensors {
            i: Tensor::cat(&[a, a], 0),
            j: Tensor::cat(&[p, n], 0),
            target: Tensor::cat(
                &[
                    Tensor::full([k], 1.0, (kind, device)),
                    Tensor::full([k], -1.0, (kind, device)),
                ],
                0,
            ),
        }
    }
}

/// The Hessian's tuples of one batch as `mining` asks, with the number of tuples used (pairs
/// kept for [`HessianMining::Pairs`], triplets kept for [`HessianMining::Triplets`]).
pub fn hessian_tuples(
    z: &Tensor,
    labels: &Tensor,
    margin: f64,
    max_tuples: i64,
    mining: HessianMining,
    kind: Kind,
) -> (PairTensors, i64) {
    match mining {
        HessianMining::Pairs => {
            let mined = MinedPairs::mine(z, labels, margin, max_tuples);
            let (p, n) = mined.kept();
            (mined.hessian_pairs(kind), p + n)
        }
        HessianMining::Triplets => {
            let mined = HessianTriplets::mine(z, labels, margin, max_tuples);
            (mined.hessian_pairs(kind), mined.kept())
        }
    }
}

/// The "all" triplet miner's mask (B × B × B, bool) over [a, p, n]: a ≠ p of one label, n of
/// another, and d(a, n) − d(a, p) ≤ `margin` for the distances `d` (B × B). The reference's
/// `TripletMarginMiner` tests d(a, p) − d(a, n) > −margin; the two differ only on the boundary.
pub fn violating_triplets(d: &Tensor, labels: &Tensor, margin: f64) -> Tensor {
    let b = d.size()[0];
    let same = labels.unsqueeze(1).eq_tensor(&labels.unsqueeze(0));
    let not_self = Tensor::eye(b, (Kind::Bool, d.device())).logical_not();
    // [a, p, n]: a–p a positive pair (a ≠ p), a–n a negative pair, inside the margin.
    let ap = same.logical_and(&not_self).unsqueeze(2);
    let an = same.logical_not().unsqueeze(1);
    let violates = (d.unsqueeze(1) - d.unsqueeze(2)).le(margin);
    ap.logical_and(&an).logical_and(&violates)
}

/// `keep` of the pairs, uniformly without replacement (libtorch's generator, seeded by
/// `tch::manual_seed`).
fn subsample(pairs: (Tensor, Tensor), keep: i64, device: Device) -> (Tensor, Tensor) {
    let n = pairs.0.size()[0];
    let perm = Tensor::randperm(n, (Kind::Int64, device)).narrow(0, 0, keep);
    (
        pairs.0.index_select(0, &perm),
        pairs.1.index_select(0, &perm),
    )
}
