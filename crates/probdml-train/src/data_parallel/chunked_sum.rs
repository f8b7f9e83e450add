//! A sum over the training set whose bits do not depend on the number of ranks.
//!
//! Summing per-rank partial sums changes the floating-point association with the world size
//! (`(a + b) + (c + d)` is not `((a + b) + c) + d`). Instead the set is cut into fixed chunks
//! (post-hoc LAM's batches, independent of the world size), each chunk's sum is computed by
//! one rank — the same code on the same rows, so the same bits whichever rank it is — and the
//! chunk sums are added in chunk order, in f64, on every rank. One process runs the very same
//! additions.

use crate::error::TrainResult;
use tch::{Kind, Tensor};

/// `Σ_{k < chunks} chunk(k)`, term by term, for tensors shaped like `zeros`: in rounds of N
/// chunks, rank r computes chunk `round·N + r`, the round's chunk sums are all-gathered and
/// added in chunk order in f64. Returns f64 tensors shaped like `zeros`.
///
/// # Errors
///
/// Those of `chunk`, a lost rank, a failed all-gather.
pub fn sum_chunks(
    chunks: i64,
    zeros: &[Tensor],
    mut chunk: impl FnMut(i64) -> TrainResult<Vec<Tensor>>,
) -> TrainResult<Vec<Tensor>> {
    let mut acc: Vec<Tensor> = zeros
        .iter()
        .map(|z| z.to_kind(Kind::Double).zeros_like())
        .collect();
    let world = super::world_size() as i64;
    if world == 1 {
        for k in 0..chunks {
            for (a, t) in acc.iter_mut().zip(chunk(k)?) {
                *a += t.to_kind(Kind::Double);
            }
        }
        return Ok(acc);
    }
    #[cfg(feature = "distributed")]
    {
        let rank = super::rank() as i64;
        let sizes: Vec<i64> = zeros.iter().map(Tensor::numel).map(|n| n as i64).collect();
        let mut round = 0;
        while round * world < chunks {
            let k = round * world + rank;
            let parts = if k < chunks {
                chunk(k)?
            } else {
                zeros.iter().map(Tensor::zeros_like).collect()
            };
            let flat: Vec<Tensor> = parts
                .iter()
                .map(|t| t.to_kind(Kind::Double).reshape([-1]))
                .collect();
            let mine = Tensor::f_cat(&flat, 0)?.to_device(tch::Device::Cpu);
            let Some(all) = super::with_group(|pg| pg.all_gather(&mine))? else {
                break;
            };
            for r in 0..world {
                if round * world + r >= chunks {
                    break;
                }
                let row = all.get(r);
                let mut offset = 0;
                for (a, &n) in acc.iter_mut().zip(&sizes) {
                    let piece = row.narrow(0, offset, n).view_as(a).to_device(a.device());
                    *a += piece;
                    offset += n;
                }
            }
            round += 1;
        }
    }
    Ok(acc)
}
