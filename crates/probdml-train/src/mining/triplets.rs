//! Triplets mined within a batch, for the Bayesian triplet loss (chapter 05).
//!
//! The BTL paper trains on tuples of one anchor, one positive and five negatives, the negatives
//! the anchor's hardest (closest) ones, found in a cache of 5000 images refreshed every 1000
//! iterations (BTL §4 and §6, after Arandjelović et al.), on an ImageNet-pretrained backbone.
//! Here the batch is the cache: every image of the batch that has a positive in it is an
//! anchor, with one positive drawn uniformly from its class and [`NEGATIVES_PER_ANCHOR`]
//! negatives, either its nearest ones by the detached mean directions ([`Negatives::Hardest`],
//! the paper's rule) or drawn uniformly ([`Negatives::Random`]). A batch of B images gives at
//! most 5B triplets (1280 at B = 256), a capped random subset rather than all O(B³) valid
//! triplets; satisfied triplets are kept (the CLT likelihood of a well-satisfied triplet has a
//! vanishing gradient by itself). Draws use libtorch's generator, seeded by the trainer.
//!
//! The BTL methods use [`Negatives::Random`] by default and the paper's [`Negatives::Hardest`]
//! with `--btl-negatives hardest`. Neither gives both good retrieval and
//! a useful σ² when training from scratch at D = 3, and the reason is in the likelihood:
//! E τ = ‖μ_a − μ_p‖² − ‖μ_a − μ_n‖² + D(σ_p² − σ_n²) and Var τ grows with σ⁴, so
//! z = −E τ/√Var τ → 0 as every σ² grows; the NLL of a violated triplet (z < 0) then *falls*
//! towards ln 2. With the hardest negatives most triplets stay violated, so the loss is
//! lowered by inflating σ², not by moving μ: from σ² = 10⁻² at the start, the mean σ² of a
//! batch was 19 after 15 steps and stayed at 7–19 (the NLL at 0.65–0.72, coin flips), and the
//! means learned slowly. With uniform negatives most triplets are soon satisfied, σ² shrinks
//! for every training image (mean 1.1–1.6·10⁻³) and retrieval learns, but nothing ties σ² to
//! novelty: the OOD images come out *more* certain than the ID ones.
//!
//! The measurements behind the default (both rules, both starts of σ², both priors, the
//! variants the paper and its listing suggest) are in the book's chapter 10, "Bayesian triplet
//! loss: the negatives and the start of σ²".

use tch::{Kind, Tensor};

/// Negatives per anchor (the BTL tuples: one anchor, one positive, five negatives).
pub const NEGATIVES_PER_ANCHOR: i64 = 5;

pub use super::negatives::Negatives;

/// Index tensors (int64, T each) of the triplets of one batch.
#[derive(Debug)]
pub struct MinedTriplets {
    /// Anchor rows.
    pub anchor: Tensor,
    /// Positive rows (same label as the anchor, another image).
    pub positive: Tensor,
    /// Negative rows (another label).
    pub negative: Tensor,
}

impl MinedTriplets {
    /// Mines the triplets of the embeddings `z` (B × D, no gradient needed) with `labels`
    /// (int64, B): each anchor with a positive in the batch gets one random positive and
    /// `negatives` negatives chosen by `choice` (fewer when every anchor has fewer negatives:
    /// the smallest count over the batch).
    pub fn mine(z: &Tensor, labels: &Tensor, negatives: i64, choice: Negatives) -> Self {
        tch::no_grad(|| {
            let b = z.size()[0];
            let device = z.device();
            let d2 =
                (z.unsqueeze(1) - z.unsqueeze(0))
                    .square()
                    .sum_dim_intlist(2i64, false, z.kind());
            let same = labels.unsqueeze(1).eq_tensor(&labels.unsqueeze(0));
            let eye = Tensor::eye(b, (Kind::Bool, device));
            let pos = same.logical_and(&eye.logical_not());
            let neg = same.logical_not();
            let fewest_negatives = neg
                .sum_dim_intlist(1i64, false, Kind::Int64)
                .min()
                .int64_value(&[]);
            let k = negatives.min(fewest_negatives);
            let has_pos = pos.any_dim(1, false);
            let empty = || Tensor::zeros([0], (Kind::Int64, device));
            if k <= 0 || !bool::try_from(has_pos.any()).unwrap_or(false) {
                return Self {
                    anchor: empty(),
                    positive: empty(),
                    negative: empty(),
                };
            }
            // One positive per anchor, uniformly: the largest of i.i.d. uniforms over its mask.
            let draws = Tensor::rand([b, b], (z.kind(), device)) + 1.0;
            let positive = (draws * pos.to_kind(z.kind())).argmax(1, false);
            // The k smallest keys among the negatives (positives and the anchor itself pushed to
            // +∞): squared distances for the hardest, i.i.d. uniforms for a uniform draw.
            let keys = match choice {
                Negatives::Hardest => d2,
                Negatives::Random => Tensor::rand([b, b], (z.kind(), device)),
            };
            let masked = keys.masked_fill(&neg.logical_not(), f64::INFINITY);
            let (_, nearest) = masked.topk(k, 1, false, true);
            let anchors = has_pos.nonzero().squeeze_dim(1);
            let anchor = anchors.unsqueeze(1).expand([-1, k], false).reshape([-1]);
            let positive = positive
                .index_select(0, &anchors)
                .unsqueeze(1)
                .expand([-1, k], false)
                .reshape([-1]);
            let negative = nearest.index_select(0, &anchors).reshape([-1]);
            Self {
                anchor,
                positive,
                negative,
            }
        })
    }

    /// Number of triplets.
    pub fn len(&self) -> i64 {
        self.anchor.size()[0]
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
