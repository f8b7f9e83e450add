//! Which rows of a global batch are this rank's, and the gather that turns the backbone's
//! features of those rows back into the whole batch.
//!
//! Mining pairs or triplets, and every loss of chapter 09, couple the images of a batch, so a
//! rank cannot compute its share of the loss from its rows alone (DistributedDataParallel's
//! per-rank loss would mine only within each rank's rows, a different objective). Instead the
//! backbone — nearly all of the compute — runs on the rank's rows, its features are gathered
//! from every rank (the others' detached, the own rows keeping their graph), and the heads,
//! the mining and the loss run on the whole batch, identically on every rank. Back-propagation
//! then reaches the backbone through the own rows only: summing the backbone's gradients over
//! ranks gives the whole batch's gradient, while the heads' gradients are already whole on
//! every rank (see [`super::gradients`]).

use crate::error::TrainError;
use std::cell::{Cell, RefCell};
use tch::Tensor;

thread_local! {
    static GATHERING: Cell<bool> = const { Cell::new(false) };
    /// The own row blocks the backbone runs over inside a step ([`super::row_blocks`]); 1
    /// outside one.
    static OWN_BLOCKS: Cell<usize> = const { Cell::new(1) };
    static FAILURE: RefCell<Option<TrainError>> = const { RefCell::new(None) };
}

/// Rows `rank·b .. (rank+1)·b` of a global batch of `world·b` indices.
pub fn local_rows(global: &[i64], rank: usize, world: usize) -> &[i64] {
    let b = global.len() / world.max(1);
    &global[rank * b..(rank + 1) * b]
}

/// While alive (one training step), [`gather_rows`] gathers and the backbone runs over the
/// own row blocks ([`own_blocks`]); dropped, both are the identity again. Only the epoch loop
/// makes one, around `Method::step`; the step's block parameters live on until the next one
/// starts, for [`super::gradients::reduce_gradients`].
#[derive(Debug)]
pub struct GatherDuringStep {
    was: bool,
    blocks_were: usize,
}

impl GatherDuringStep {
    /// Starts gathering (a no-op guard when alone) and blocking (a no-op with one block per
    /// rank).
    pub fn start() -> Self {
        let on = super::world_size() > 1;
        super::row_blocks::clear();
        Self {
            was: GATHERING.with(|g| g.replace(on)),
            blocks_were: OWN_BLOCKS.with(|b| b.replace(super::row_blocks::per_rank())),
        }
    }
}

impl Drop for GatherDuringStep {
    fn drop(&mut self) {
        GATHERING.with(|g| g.set(self.was));
        OWN_BLOCKS.with(|b| b.set(self.blocks_were));
    }
}

/// How many row blocks the backbone runs over separately right now: this rank's share of
/// `--row-blocks` inside a training step, 1 elsewhere (evaluation, the post-hoc pass).
pub fn own_blocks() -> usize {
    OWN_BLOCKS.with(Cell::get)
}

/// Inside a training step of a group of N > 1: the rows of every rank, in rank order (the own
/// rows with their graph, the others' detached); otherwise `local` itself.
///
/// Infallible, because the backbone's `features` is: when the all-gather fails (a lost rank),
/// the other ranks' rows are zeros — the step's loss is then meaningless but well shaped — and
/// the error waits in [`take_failure`], which the epoch loop reads right after the step.
pub fn gather_rows(local: Tensor) -> Tensor {
    if !GATHERING.with(Cell::get) {
        return local;
    }
    #[cfg(feature = "distributed")]
    {
        let gathered = super::with_group(|pg| {
            let all = pg.all_gather(&local.detach().contiguous());
            Ok((pg.rank(), pg.world_size(), all))
        });
        if let Ok(Some((rank, world, all))) = gathered {
            let all = match all {
                Ok(all) => all,
                Err(e) => {
                    FAILURE.with(|f| *f.borrow_mut() = Some(e.into()));
                    let mut size = local.size();
                    size.insert(0, world as i64);
                    local
                        .detach()
                        .new_zeros(&size, (local.kind(), local.device()))
                }
            };
            let pieces: Vec<Tensor> = (0..world)
                .map(|r| {
                    if r == rank {
                        local.shallow_clone()
                    } else {
                        all.get(r as i64)
                    }
                })
                .collect();
            return Tensor::cat(&pieces, 0);
        }
    }
    local
}

/// Dropout of the own rows `local` (b × F) with probability `p` (in [0, 1)), active iff `train`.
///
/// Inside a training step of a group of N > 1, every rank draws the mask of the whole global
/// batch (N·b × F) from the generator they share, libtorch's own way (`bernoulli_(1 − p)`, then
/// `÷ (1 − p)`, then the product: ATen's `_dropout_impl` on the CPU), and applies its own rows
/// of it. libtorch's `dropout` on the own rows would draw one b × F mask per rank from the same
/// generator state, so row i of every rank would get the same mask: the masks of a global batch
/// would not be independent as they are in one process. Otherwise: `local.dropout(p, train)`.
pub fn dropout(local: &Tensor, p: f64, train: bool) -> Tensor {
    if !(train && GATHERING.with(Cell::get)) {
        return local.dropout(p, train);
    }
    let (rank, world) = (super::rank() as i64, super::world_size() as i64);
    let mut size = local.size();
    let own = size[0];
    size[0] *= world;
    let mut noise = Tensor::empty(&size, (local.kind(), local.device()));
    let _ = noise.bernoulli_float_(1.0 - p);
    let noise = noise / (1.0 - p);
    local * noise.narrow(0, rank * own, own)
}

/// The error of a failed gather during the last step, if any (taken: a second call is None).
pub fn take_failure() -> Option<TrainError> {
    FAILURE.with(|f| f.borrow_mut().take())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_disjoint_and_cover_the_global_batch() {
        let global: Vec<i64> = (10..22).collect();
        let mut seen = Vec::new();
        for r in 0..3 {
            seen.extend_from_slice(local_rows(&global, r, 3));
        }
        assert_eq!(seen, global);
        assert_eq!(local_rows(&global, 1, 3), &[14, 15, 16, 17]);
        assert_eq!(local_rows(&global, 0, 1), &global[..]);
    }

    #[test]
    fn gather_is_the_identity_when_alone() {
        let t = Tensor::from_slice(&[1.0f32, 2.0]);
        let _g = GatherDuringStep::start();
        let out = gather_rows(t.shallow_clone());
        assert!(take_failure().is_none());
        assert_eq!(out.size(), t.size());
    }
}
