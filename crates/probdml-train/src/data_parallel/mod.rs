//! # Data-parallel training (feature "distributed")
//!
//! `torchrun --nproc-per-node N probdml train …` starts N copies of the program; each joins
//! the process group of [`crate::distributed`] once ([`join_from_env`]) and the training loop
//! asks this module what its share is. Without the feature, or launched without `torchrun`, the
//! world is one rank and every function here is the identity.
//!
//! The scheme (every rank runs the same code on the same seeds):
//!
//! * parameters are broadcast from rank 0 before the first step ([`gradients`]);
//! * one permutation per epoch, drawn from the epoch's seed, is the same on every rank; a
//!   global batch is `--batch-size` × N images, rank r owning rows `r·B .. (r+1)·B` of it
//!   ([`shard`]);
//! * the backbone runs on the rank's own rows only, and its features are then gathered, so
//!   that every rank mines pairs and triplets over the whole global batch exactly as one process
//!   with batch N·B would;
//! * the backbone runs over fixed row blocks of the global batch (one per rank unless
//!   `--row-blocks` says more), each block on its own, and its gradient is the blocks'
//!   gradients gathered and added in block order; the heads' gradients are rank 0's: a run's
//!   bits depend on the global batch and its blocks, not on the world size ([`row_blocks`],
//!   [`gradients`]);
//! * post-hoc LAM's curvature is a sum over fixed chunks of the training set, added in chunk
//!   order in f64 ([`chunked_sum`]): the same bits for any N;
//! * evaluation is shared out by whole evaluation batches, contiguous runs in rank order, its
//!   draws seeded per batch; the predictions are gathered in rank order, so every rank holds
//!   the bits one process computes and scores them alike ([`evaluation`]);
//! * rank 0 alone writes checkpoints, metrics and reports.

pub mod chunked_sum;
pub mod evaluation;
pub mod gradients;
pub mod row_blocks;
pub mod shard;

use crate::error::TrainResult;

#[cfg(feature = "distributed")]
mod group {
    use crate::distributed::{DistributedResult, ProcessGroup};
    use crate::error::TrainResult;
    use std::sync::{Mutex, OnceLock};

    // One group per process for its whole life, as torch.distributed's default group: the
    // training loop, the post-hoc pass and the program's exit all reach it here.
    static GROUP: OnceLock<Mutex<ProcessGroup>> = OnceLock::new();

    pub(super) fn install(pg: ProcessGroup) -> bool {
        GROUP.set(Mutex::new(pg)).is_ok()
    }

    pub(super) fn rank_world() -> (usize, usize) {
        match GROUP.get() {
            None => (0, 1),
            Some(g) => {
                let g = g.lock().unwrap_or_else(|e| e.into_inner());
                (g.rank(), g.world_size())
            }
        }
    }

    /// Runs `f` on the group; `Ok(None)` when this process is alone.
    pub(crate) fn with_group<T>(
        f: impl FnOnce(&ProcessGroup) -> DistributedResult<T>,
    ) -> TrainResult<Option<T>> {
        match GROUP.get() {
            None => Ok(None),
            Some(g) => {
                let g = g.lock().unwrap_or_else(|e| e.into_inner());
                Ok(Some(f(&g)?))
            }
        }
    }
}

#[cfg(feature = "distributed")]
pub(crate) use group::with_group;

/// Joins the group `torchrun` describes in the environment (the device picks Gloo or NCCL);
/// does nothing when the program was not launched by it. Returns the device this rank trains
/// on: `device`, or with CUDA and several ranks the GPU of its `LOCAL_RANK`.
///
/// # Errors
///
/// A malformed launcher variable, a rendezvous that fails within the timeout, or a build
/// without feature "distributed" launched with `WORLD_SIZE` > 1.
pub fn join_from_env(device: tch::Device) -> TrainResult<tch::Device> {
    #[cfg(feature = "distributed")]
    {
        let Some(rz) = crate::distributed::Rendezvous::from_env()? else {
            return Ok(device);
        };
        let device = match device {
            tch::Device::Cuda(_) if rz.world_size > 1 => tch::Device::Cuda(rz.local_rank),
            d => d,
        };
        let pg = crate::distributed::ProcessGroup::new(rz, device)?;
        tracing::info!(
            rank = pg.rank(),
            world_size = pg.world_size(),
            store = %pg.rendezvous().store(),
            nccl = crate::distributed::ProcessGroup::nccl_compiled(),
            ?device,
            "joined the process group"
        );
        group::install(pg);
        Ok(device)
    }
    #[cfg(not(feature = "distributed"))]
    {
        match std::env::var("WORLD_SIZE").ok().as_deref().map(str::trim) {
            None | Some("1") => Ok(device),
            Some(w) => Err(crate::error::TrainError::config(
                "WORLD_SIZE",
                w,
                "this probdml was built without feature \"distributed\"; rebuild with \
                 `bash scripts/cargo-tch.sh build --release --features distributed`",
            )),
        }
    }
}

/// This process's rank (0 when alone).
pub fn rank() -> usize {
    rank_world().0
}

/// How many ranks train together (1 when alone).
pub fn world_size() -> usize {
    rank_world().1
}

/// Whether this process writes checkpoints, metrics and reports: rank 0 only.
pub fn is_writer() -> bool {
    rank() == 0
}

fn rank_world() -> (usize, usize) {
    #[cfg(feature = "distributed")]
    {
        group::rank_world()
    }
    #[cfg(not(feature = "distributed"))]
    {
        (0, 1)
    }
}

/// Blocks until every rank gets here (nothing when alone): before the program exits, so that
/// rank 0, which may host the store, outlives every collective of the others.
///
/// # Errors
///
/// A lost rank, or the timeout.
pub fn barrier() -> TrainResult<()> {
    #[cfg(feature = "distributed")]
    {
        with_group(|pg| pg.barrier())?;
    }
    Ok(())
}
