//! The same parameters on every rank: broadcast from rank 0 before the first step, then the
//! same update everywhere from gradients summed over ranks.
//!
//! With the backbone's features gathered ([`super::shard`]), a rank's backbone gradient covers
//! its own rows only — the sum over ranks is the whole batch's — while every parameter after the
//! gather (the heads, ProxyNCA++'s proxies, the variance heads) already holds the whole batch's
//! gradient, the same on every rank: it is summed too, so that the replicas cannot drift even if
//! a kernel were not bit-reproducible, and divided by N (exact for N a power of two).

use crate::train::error::TrainResult;
use tch::nn::VarStore;

/// Variables whose gradient flows through the gathered features only from the own rows.
pub const BEFORE_THE_GATHER: &str = "backbone.";

/// Rank 0's values of every variable of `vs`, on every rank (in name order).
///
/// # Errors
///
/// A lost rank or a failed broadcast.
pub fn broadcast_parameters(vs: &VarStore) -> TrainResult<()> {
    if super::world_size() == 1 {
        return Ok(());
    }
    #[cfg(feature = "distributed")]
    {
        let mut vars: Vec<_> = vs.variables().into_iter().collect();
        vars.sort_by(|a, b| a.0.cmp(&b.0));
        for (_, var) in vars {
            let mut data = var.detach();
            super::with_group(|pg| pg.broadcast(&mut data, 0))?;
        }
    }
    #[cfg(not(feature = "distributed"))]
    let _ = vs;
    Ok(())
}

/// After `backward`, before the optimiser's step: each variable's gradient summed over ranks
/// (those before the gather), or averaged (those after it), in name order.
///
/// # Errors
///
/// A lost rank or a failed all-reduce.
pub fn reduce_gradients(vs: &VarStore) -> TrainResult<()> {
    let world = super::world_size();
    if world == 1 {
        return Ok(());
    }
    #[cfg(feature = "distributed")]
    {
        let mut vars: Vec<_> = vs.variables().into_iter().collect();
        vars.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, var) in vars {
            let mut g = var.grad();
            if !g.defined() {
                continue;
            }
            super::with_group(|pg| pg.all_reduce_sum(&mut g))?;
            if !name.starts_with(BEFORE_THE_GATHER) {
                let _ = tch::no_grad(|| g.f_div_scalar_(world as f64))?;
            }
        }
    }
    #[cfg(not(feature = "distributed"))]
    let _ = vs;
    Ok(())
}
