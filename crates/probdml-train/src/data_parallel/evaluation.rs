//! Which evaluation batches are this rank's, and the gather that reassembles the whole set's
//! predictions in the order of one process.
//!
//! The evaluation sets are cut into batches of [`EVAL_BATCH`](crate::prediction::EVAL_BATCH)
//! images, counted over the whole set; rank r embeds a contiguous run of them (ranks in batch
//! order), and the predictions are then gathered rank by rank. Every draw at evaluation is
//! seeded by its batch's global index ([`crate::seeds::evaluation_batch`]) or shared by
//! every batch (a Laplace posterior's networks), never by the rank, so the gathered
//! predictions are the bits one process computes, and so are the metrics of every world size.

use crate::error::{TrainError, TrainResult};
use std::ops::Range;

/// The evaluation batches of `rank` among `world` ranks, out of `batches`: a contiguous run,
/// the first `batches mod world` ranks one batch more, so that rank order is batch order.
pub fn rank_batches(batches: usize, rank: usize, world: usize) -> Range<usize> {
    let world = world.max(1);
    let (each, extra) = (batches / world, batches % world);
    let start = rank * each + rank.min(extra);
    start..start + each + usize::from(rank < extra)
}

/// The rows (inputs) of every rank, in rank order, for a set of `n` inputs cut into batches
/// of `batch` inputs.
pub fn rank_rows(n: usize, batch: usize, world: usize) -> Vec<Range<usize>> {
    let batches = n.div_ceil(batch.max(1));
    (0..world.max(1))
        .map(|r| {
            let b = rank_batches(batches, r, world);
            (b.start * batch).min(n)..(b.end * batch).min(n)
        })
        .collect()
}

/// The rows of every rank, concatenated in rank order: `local` holds this rank's rows
/// `shares[rank]`, `width` values each. Every rank must call it with the same `width` and
/// `shares` (ranks whose share is empty too). Alone, `local` itself.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] when `local` does not hold this rank's share; a failed
/// all-gather (a lost rank, the timeout).
pub fn gather_rows<T>(local: &[T], width: usize, shares: &[Range<usize>]) -> TrainResult<Vec<T>>
where
    T: tch::kind::Element + Copy + Default,
{
    let rank = super::rank();
    let own = shares.get(rank).map_or(0, Range::len);
    if local.len() != own * width {
        return Err(TrainError::config(
            "local",
            format!("{} values", local.len()),
            format!("rank {rank} holds {own} rows of {width} values"),
        ));
    }
    let longest = shares.iter().map(Range::len).max().unwrap_or(0);
    if shares.len() <= 1 || longest == 0 || width == 0 {
        return Ok(local.to_vec());
    }
    #[cfg(feature = "distributed")]
    {
        // All-gather takes one shape from every rank: pad to the longest share, cut back after.
        let mut padded = local.to_vec();
        padded.resize(longest * width, T::default());
        let t = tch::Tensor::f_from_slice(&padded)?;
        if let Some(all) = super::with_group(|pg| pg.all_gather(&t))? {
            let all = Vec::<T>::try_from(&all.f_view([-1])?)?;
            let mut out = Vec::with_capacity(shares.iter().map(Range::len).sum::<usize>() * width);
            for (r, share) in shares.iter().enumerate() {
                let start = r * longest * width;
                out.extend_from_slice(&all[start..start + share.len() * width]);
            }
            return Ok(out);
        }
    }
    Ok(local.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_are_contiguous_disjoint_and_in_rank_order() {
        for batches in 0..12 {
            for world in 1..6 {
                let mut next = 0;
                for r in 0..world {
                    let b = rank_batches(batches, r, world);
                    assert_eq!(b.start, next, "{batches} batches, rank {r} of {world}");
                    next = b.end;
                }
                assert_eq!(next, batches);
            }
        }
        assert_eq!(rank_batches(5, 0, 2), 0..3);
        assert_eq!(rank_batches(5, 1, 2), 3..5);
    }

    #[test]
    fn rows_cover_the_set_and_end_on_batch_boundaries() {
        assert_eq!(rank_rows(500, 100, 2), vec![0..300, 300..500]);
        assert_eq!(rank_rows(250, 100, 2), vec![0..200, 200..250]);
        assert_eq!(rank_rows(60, 100, 2), vec![0..60, 60..60]);
        assert_eq!(rank_rows(60, 100, 1), vec![0..60]);
    }

    #[test]
    // One rank's rows: a list of one range, not the range's indices.
    #[allow(clippy::single_range_in_vec_init)]
    fn gather_is_the_identity_when_alone() {
        let v = [1.0f32, 2.0, 3.0, 4.0];
        assert_eq!(gather_rows(&v, 2, &[0..2]).unwrap(), v);
        assert!(gather_rows(&v, 2, &[0..3]).is_err());
    }
}
