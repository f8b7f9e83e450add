//! A process group over libtorch's c10d: the TCP store, Gloo for CPU tensors, NCCL for CUDA
//! tensors when probdml was built against a CUDA libtorch with its headers (build.rs); the
//! backend is chosen per call by the tensor's device.

use std::ffi::CString;
use std::ptr::NonNull;
use std::time::Duration;

use tch::{Device, Kind, Tensor};

use super::error::{DistributedError, DistributedResult};
use super::ffi;
use super::rendezvous::Rendezvous;

/// One rank's handle on the group. Every rank must issue the same collectives in the same
/// order (as in torch.distributed). Collectives block until done, fail, or the timeout.
#[derive(Debug)]
pub struct ProcessGroup {
    raw: NonNull<ffi::Group>,
    rendezvous: Rendezvous,
}

// SAFETY: the shim's group may be used from any one thread at a time; `&mut`-free methods take
// `&self` but the Rust side never shares it across threads (no `Sync`).
unsafe impl Send for ProcessGroup {}

impl ProcessGroup {
    /// Whether this build can reduce CUDA tensors (NCCL compiled in).
    pub fn nccl_compiled() -> bool {
        // SAFETY: no arguments, no state.
        unsafe { ffi::probdml_dist_has_nccl() != 0 }
    }

    /// Joins the group `rendezvous` describes; with `device` CUDA also creates the NCCL
    /// backend (an error when this build has none). Blocks until every rank has joined.
    pub fn new(rendezvous: Rendezvous, device: Device) -> DistributedResult<Self> {
        let want_nccl = matches!(device, Device::Cuda(_));
        if want_nccl && !Self::nccl_compiled() {
            return Err(rendezvous_error(
                &rendezvous,
                "training on CUDA needs NCCL, and this probdml was built without it (build.rs \
                 found no nccl.h / cuda_runtime_api.h beside a CUDA libtorch)"
                    .into(),
            ));
        }
        let host = CString::new(rendezvous.master_addr.clone()).map_err(|_| {
            DistributedError::Environment {
                var: "MASTER_ADDR",
                value: rendezvous.master_addr.clone(),
                rule: "must not contain NUL",
            }
        })?;
        let timeout_ms = i64::try_from(rendezvous.timeout.as_millis()).unwrap_or(i64::MAX);
        let mut raw = std::ptr::null_mut();
        // SAFETY: `host` outlives the call; `raw` is written by the shim (NULL on failure).
        let err = unsafe {
            ffi::probdml_dist_init(
                host.as_ptr(),
                rendezvous.master_port,
                rendezvous.rank as i32,
                rendezvous.world_size as i32,
                timeout_ms,
                i32::from(rendezvous.agent_store),
                i32::from(want_nccl),
                &mut raw,
            )
        };
        if let Some(reason) = ffi::take_message(err) {
            return Err(rendezvous_error(&rendezvous, reason));
        }
        let raw = NonNull::new(raw)
            .ok_or_else(|| rendezvous_error(&rendezvous, "the shim returned no group".into()))?;
        Ok(Self { raw, rendezvous })
    }

    /// Joins the group `torchrun` described in the environment; `Ok(None)` when not launched
    /// by it (no `WORLD_SIZE`).
    pub fn from_env(device: Device) -> DistributedResult<Option<Self>> {
        match Rendezvous::from_env()? {
            Some(rz) => Self::new(rz, device).map(Some),
            None => Ok(None),
        }
    }

    /// This process's rank.
    pub fn rank(&self) -> usize {
        self.rendezvous.rank
    }

    /// How many ranks train together.
    pub fn world_size(&self) -> usize {
        self.rendezvous.world_size
    }

    /// This process among those on its machine.
    pub fn local_rank(&self) -> usize {
        self.rendezvous.local_rank
    }

    /// The timeout every collective runs under.
    pub fn timeout(&self) -> Duration {
        self.rendezvous.timeout
    }

    /// What the group was built from.
    pub fn rendezvous(&self) -> &Rendezvous {
        &self.rendezvous
    }

    /// In place: `t` ← Σ over ranks of `t`. The sum's association is the backend's (Gloo's ring
    /// or halving-doubling), so it is not bitwise stable across world sizes: for results that
    /// must be, gather with [`ProcessGroup::all_gather`] and add in a fixed order.
    pub fn all_reduce_sum(&self, t: &mut Tensor) -> DistributedResult<()> {
        check_dense("all_reduce", t)?;
        // SAFETY: `t` is a live tensor; the shim reads and writes its storage in place.
        let err = unsafe { ffi::probdml_dist_all_reduce_sum(self.raw.as_ptr(), t.as_mut_ptr()) };
        self.outcome("all_reduce", err)
    }

    /// In place: `t` ← the mean over ranks of `t` (the sum, then divided by the world size: Gloo
    /// has no average).
    pub fn all_reduce_mean(&self, t: &mut Tensor) -> DistributedResult<()> {
        self.all_reduce_sum(t)?;
        if self.world_size() > 1 {
            let _ = t.f_div_scalar_(self.world_size() as f64).map_err(|e| {
                DistributedError::InvalidTensor {
                    op: "all_reduce_mean",
                    arg: "t",
                    rule: format!("cannot be divided by the world size: {e}"),
                }
            })?;
        }
        Ok(())
    }

    /// In place: every rank's `t` ← rank `root`'s `t`.
    pub fn broadcast(&self, t: &mut Tensor, root: usize) -> DistributedResult<()> {
        check_dense("broadcast", t)?;
        if root >= self.world_size() {
            return Err(DistributedError::InvalidTensor {
                op: "broadcast",
                arg: "root",
                rule: format!(
                    "= {root} must be below the world size {}",
                    self.world_size()
                ),
            });
        }
        // SAFETY: as in all_reduce_sum.
        let err =
            unsafe { ffi::probdml_dist_broadcast(self.raw.as_ptr(), t.as_mut_ptr(), root as i32) };
        self.outcome("broadcast", err)
    }

    /// Every rank's `t`, stacked: shape `[world_size, ...t.size()]`, row r from rank r. Every
    /// rank must pass the same shape and kind.
    pub fn all_gather(&self, t: &Tensor) -> DistributedResult<Tensor> {
        check_dense("all_gather", t)?;
        let mut out = std::ptr::null_mut();
        // SAFETY: the shim only reads `t` (the pointer is `*mut` by the C signature) and writes
        // `out` with a new at::Tensor that we own below.
        let err = unsafe {
            ffi::probdml_dist_all_gather(self.raw.as_ptr(), t.as_ptr() as *mut _, &mut out)
        };
        self.outcome("all_gather", err)?;
        if out.is_null() {
            return Err(DistributedError::Collective {
                op: "all_gather",
                rank: self.rank(),
                reason: "the shim returned no tensor".into(),
            });
        }
        // SAFETY: `out` is a heap at::Tensor the shim allocated with `new`, as tch's own.
        Ok(unsafe { Tensor::from_ptr(out) })
    }

    /// Blocks until every rank has reached it.
    pub fn barrier(&self) -> DistributedResult<()> {
        // SAFETY: no tensors involved.
        let err = unsafe { ffi::probdml_dist_barrier(self.raw.as_ptr()) };
        self.outcome("barrier", err)
    }

    /// All-gathers a list of `f64` values (one per rank each, the same length on every rank),
    /// returned as `[rank][i]`.
    pub fn all_gather_f64(&self, values: &[f64]) -> DistributedResult<Vec<Vec<f64>>> {
        let t = Tensor::from_slice(values).to_kind(Kind::Double);
        let all = self.all_gather(&t)?;
        let n = values.len();
        let flat: Vec<f64> =
            Vec::<f64>::try_from(all.reshape([-1])).map_err(|e| DistributedError::Collective {
                op: "all_gather",
                rank: self.rank(),
                reason: e.to_string(),
            })?;
        Ok(flat.chunks(n.max(1)).map(<[f64]>::to_vec).collect())
    }

    fn outcome(&self, op: &'static str, err: *mut std::os::raw::c_char) -> DistributedResult<()> {
        let Some(reason) = ffi::take_message(err) else {
            return Ok(());
        };
        Err(self.diagnose(op, reason))
    }

    /// Names the lost ranks after a failed collective: those whose heartbeat (a counter each
    /// rank's shim bumps in the store every 250 ms) stood still for 2 s; when the store itself
    /// cannot be reached, its host is gone.
    fn diagnose(&self, op: &'static str, reason: String) -> DistributedError {
        let cap = self.world_size();
        let mut lost = vec![0i32; cap];
        // SAFETY: `lost` holds `cap` slots.
        let n = unsafe {
            ffi::probdml_dist_lost_ranks(self.raw.as_ptr(), lost.as_mut_ptr(), cap as i32)
        };
        let store = self.rendezvous.store();
        if n < 0 {
            let (lost, ranks) = if self.rendezvous.agent_store {
                (
                    format!("the launcher's store at {store} (its agent is gone)"),
                    Vec::new(),
                )
            } else {
                (
                    format!("rank 0 (it hosts the store at {store}, which no longer answers)"),
                    vec![0],
                )
            };
            return DistributedError::LostRank {
                op,
                rank: self.rank(),
                lost,
                ranks,
                reason,
            };
        }
        if n == 0 {
            return DistributedError::Collective {
                op,
                rank: self.rank(),
                reason,
            };
        }
        let ranks: Vec<usize> = lost[..n as usize].iter().map(|&r| r as usize).collect();
        let names: Vec<String> = ranks.iter().map(usize::to_string).collect();
        let lost = if ranks.len() == 1 {
            format!("rank {}", names[0])
        } else {
            format!("ranks {}", names.join(", "))
        };
        DistributedError::LostRank {
            op,
            rank: self.rank(),
            lost,
            ranks,
            reason,
        }
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        // SAFETY: created by probdml_dist_init, freed once.
        unsafe { ffi::probdml_dist_free(self.raw.as_ptr()) };
    }
}

fn rendezvous_error(rz: &Rendezvous, reason: String) -> DistributedError {
    DistributedError::Rendezvous {
        store: rz.store(),
        rank: rz.rank,
        world: rz.world_size,
        timeout: rz.timeout,
        reason,
    }
}

fn check_dense(op: &'static str, t: &Tensor) -> DistributedResult<()> {
    if !t.defined() {
        return Err(DistributedError::InvalidTensor {
            op,
            arg: "t",
            rule: "is undefined".into(),
        });
    }
    if !t.is_contiguous() {
        return Err(DistributedError::InvalidTensor {
            op,
            arg: "t",
            rule: "must be contiguous (call .contiguous() first)".into(),
        });
    }
    Ok(())
}
