//! # Data parallelism over libtorch's own distributed engine (feature "distributed")
//!
//! A thin binding to c10d, the engine under `torch.distributed`, which the libtorch that `tch`
//! links already ships: `TCPStore` for the rendezvous, `ProcessGroupGloo` for CPU tensors and
//! `ProcessGroupNCCL` for CUDA tensors. The C++ side (`crates/probdml-train/src/distributed/c10d/shim.cpp`, compiled
//! by build.rs with torch-sys's flags) turns every C++ exception into an error string.
//!
//! * [`Rendezvous`] — the variables `torchrun` sets (`MASTER_ADDR`, `MASTER_PORT`, `RANK`,
//!   `WORLD_SIZE`, `LOCAL_RANK`), checked once;
//! * [`ProcessGroup`] — all-reduce (sum, mean), broadcast, all-gather and barrier of
//!   `tch::Tensor`s, each bounded by the rendezvous timeout; a collective that fails because a
//!   peer died returns [`DistributedError::LostRank`] naming it (every rank bumps a heartbeat
//!   counter in the store; the ranks whose counter stands still are the lost ones).
//!
//! NCCL is compiled in only when build.rs finds a CUDA libtorch with `nccl.h` and
//! `cuda_runtime_api.h` beside it (the PyPI CUDA wheels install both under `nvidia/`); the
//! backend is then picked per call by the tensor's device. [`ProcessGroup::nccl_compiled`] says
//! which build this is.

pub mod error;
mod ffi;
pub mod group;
pub mod rendezvous;

pub use error::{DistributedError, DistributedResult};
pub use group::ProcessGroup;
pub use rendezvous::Rendezvous;
