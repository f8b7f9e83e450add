//! The same parameters on every rank: broadcast from rank 0 before the first step, then the
//! same update everywhere from gradients summed over ranks.
//!
//! With the backbone's features gathered ([`super::shard`]), a rank's backbone gradient covers
//! its own row blocks only — the sum over all blocks is the whole batch's, added in block order
//! whatever the world size ([`super::row_blocks`]) — while every parameter after the gather (the
//! heads, ProxyNCA++'s proxies, the variance heads) already holds the whole batch's gradient,
//! the same on every rank: rank 0's is broadcast.

use crate::error::TrainResult;
use tch::nn::VarStore;
use tch::Tensor;

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

/// After `backward`, before the optimiser's step, the same gradients on every rank and for
/// every world size (in name order):
///
/// * a backbone variable's gradient is the sum of its row blocks' gradients
///   ([`super::row_blocks`]) — this rank's blocks from their leaf copies (or from the variable
///   itself, with one block per rank), the other ranks' all-gathered — added in block order
///   from +0 (so that a −0 reads as the +0 a zeroed gradient plus −0 gives);
/// * every variable after the gather already holds the whole batch's gradient, the same bits
///   on every rank: rank 0's is broadcast, so that the replicas cannot drift even if a kernel
///   were not bit-reproducible.
///
/// Nothing to do for one process with one block.
///
/// # Errors
///
/// A lost rank or a failed collective.
pub fn reduce_gradients(vs: &VarStore) -> TrainResult<()> {
    let (world, blocks) = (super::world_size(), super::row_blocks::per_rank());
    if world == 1 && blocks == 1 {
        return Ok(());
    }
    let mut vars: Vec<_> = vs.variables().into_iter().collect();
    vars.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, var) in vars {
        if name.starts_with(BEFORE_THE_GATHER) {
            let own = if blocks == 1 {
                vec![var.grad()]
            } else {
                super::row_blocks::block_gradients(&var)
            };
            if own.is_empty() || own.iter().any(|g| !g.defined()) {
                continue;
            }
            let all = gather_blocks(own)?;
            let sum = tch::no_grad(|| -> TrainResult<Tensor> {
                let mut acc = all[0].f_zeros_like()?;
                for g in &all {
                    let _ = acc.f_add_(g)?;
                }
                Ok(acc)
            })?;
            write_gradient(&var, &sum)?;
        } else if world > 1 {
            #[cfg(feature = "distributed")]
            {
                let mut g = var.grad();
                if g.defined() {
                    super::with_group(|pg| pg.broadcast(&mut g, 0))?;
                }
            }
        }
    }
    Ok(())
}

/// Every rank's block gradients, in global block order (rank 0's blocks first); `own` itself
/// when alone.
fn gather_blocks(own: Vec<Tensor>) -> TrainResult<Vec<Tensor>> {
    if super::world_size() == 1 {
        return Ok(own);
    }
    #[cfg(feature = "distributed")]
    {
        let stacked = Tensor::f_stack(&own, 0)?.f_contiguous()?;
        if let Some(all) = super::with_group(|pg| pg.all_gather(&stacked))? {
            let (world, per_rank) = (all.size()[0], own.len() as i64);
            return Ok((0..world)
                .flat_map(|r| (0..per_rank).map(move |b| (r, b)))
                .map(|(r, b)| all.get(r).get(b))
                .collect());
        }
    }
    Ok(own)
}

/// Makes `sum` the gradient of `var`. tch has no setter for `.grad`: a defined gradient is
/// overwritten in place; an undefined one (a variable the step reached only through its block
/// copies, in the first step) is created by back-propagating ⟨var, sum⟩, whose backward is
/// 1 · sum — exactly `sum`.
fn write_gradient(var: &Tensor, sum: &Tensor) -> TrainResult<()> {
    let mut g = var.grad();
    if g.defined() {
        tch::no_grad(|| g.f_copy_(sum))?;
    } else {
        (var * sum.detach()).f_sum(var.kind())?.f_backward()?;
    }
    Ok(())
}
