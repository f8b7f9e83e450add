//! The guards of a training run: a NaN or an infinity anywhere, or a model that collapsed
//! without one, stops the run at once with an error naming the tensor and the step — before the
//! checkpoint of that epoch is written, so that a resume never continues from broken weights.
//! The methods call them on their own tensors, the epoch loop on the loss, the weights and the
//! last batch's outputs.

use crate::error::{TrainError, TrainResult};
use tch::Tensor;

/// Where a step is, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// Epoch, from 1.
    pub epoch: usize,
    /// Step within the epoch, from 1.
    pub step: usize,
    /// Step since the start of training, from 1.
    pub global_step: usize,
}

/// Steps with a bit-for-bit identical loss after which training counts as collapsed: random
/// batches of a healthy model never repeat a loss exactly.
pub const CONSTANT_LOSS_STEPS: usize = 50;

/// Fails with [`TrainError::NonFinite`] unless every entry of `t` is finite.
///
/// # Errors
///
/// [`TrainError::NonFinite`] naming `name` and the position.
pub fn check_finite(t: &Tensor, name: &str, at: Position) -> TrainResult<()> {
    if bool::try_from(t.isfinite().all())? {
        Ok(())
    } else {
        Err(TrainError::NonFinite {
            tensor: name.to_owned(),
            epoch: at.epoch,
            step: at.step,
            global_step: at.global_step,
        })
    }
}

/// A raw network output `y = Wx + b` with `‖y‖` below 10⁻⁶ has collapsed (a healthy model's
/// ‖y‖ is O(1), `f32` resolves 10⁻³⁸): its direction `y/‖y‖` is noise and the GGN of the
/// normalisation is undefined, so training stops there.
pub const COLLAPSED_OUTPUT_NORM: f64 = 1e-6;

/// Fails with [`TrainError::Collapse`] when a raw output row `y` (B × D) cannot be normalised
/// in `f32`: a norm below [`COLLAPSED_OUTPUT_NORM`] (the embeddings
/// collapsed to zero: the direction is undefined and the GGN refuses it) or a norm that
/// overflows `f32` although every entry is finite (weights blown up by a far too large
/// learning rate: y/‖y‖ is then 0, a "unit" embedding of norm 0).
///
/// # Errors
///
/// [`TrainError::Collapse`] naming the tensor and the position.
pub fn check_collapse(y: &Tensor, at: Position) -> TrainResult<()> {
    let (smallest, largest) = tch::no_grad(|| {
        let norms = y.detach().norm_scalaropt_dim(2.0, [1i64], false);
        (norms.min().double_value(&[]), norms.max().double_value(&[]))
    });
    let floor = COLLAPSED_OUTPUT_NORM;
    let detail = if smallest.is_nan() || largest.is_nan() {
        None
    } else if smallest < floor {
        Some(format!(
            "has a row of norm {smallest:e} < {floor:e} (the embeddings collapsed to zero)"
        ))
    } else if !largest.is_finite() {
        Some(
            "has a row whose norm overflows f32 (the weights blew up; its embedding y/‖y‖ is 0)"
                .to_string(),
        )
    } else {
        None
    };
    match detail {
        None => Ok(()),
        Some(detail) => Err(TrainError::Collapse {
            tensor: "head output y = Wx + b".into(),
            detail,
            epoch: at.epoch,
            step: at.step,
            global_step: at.global_step,
        }),
    }
}
