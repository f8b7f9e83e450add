//! RMSprop with its state in the open, so that a checkpoint holds it and `--resume` continues a
//! run bit for bit.
//!
//! libtorch's own optimiser (what `tch::nn::RmsProp` wraps) keeps its running averages inside
//! C++ where `tch` cannot read them: a resumed run restarted them at zero and never equalled an
//! uninterrupted one. This is the same algorithm with the same defaults (α = 0.99, ε = 1e-8,
//! no momentum, weight decay 0 unless [`RmsProp::weight_decay`] is set, not centred; PyTorch
//! `torch/csrc/api/src/optim/rmsprop.cpp`), written with the same tensor operations in the
//! same order:
//!
//! v ← α v + (1 − α) g ⊙ g,   θ ← θ − lr · g ⊘ (√v + ε),
//!
//! through the same `addcmul_`/`addcdiv_` kernels with the scalar folded into the first tensor
//! (which those kernels multiply first), so that every step rounds as libtorch's:
//! `crates/probdml-train/tests/train_faults.rs` checks the weights bit for bit against `tch::nn::RmsProp`.

use super::error::TrainResult;
use std::path::Path;
use tch::{nn, Tensor};

/// RMSprop's smoothing constant α (libtorch's default).
pub const ALPHA: f64 = 0.99;
/// RMSprop's ε (libtorch's default).
pub const EPS: f64 = 1e-8;

/// RMSprop over the variables of one [`nn::VarStore`], with the running averages v per
/// variable name.
#[derive(Debug)]
pub struct RmsProp {
    /// (variable name, the variable, its running average v), sorted by name.
    slots: Vec<(String, Tensor, Tensor)>,
    /// Learning rate of the next steps.
    pub lr: f64,
    /// L2 weight decay λ, added to the gradient as g ← g + λθ before the update (PyTorch's
    /// `weight_decay`; 0 = none, chapter 09; 1e−5 in the reference protocol).
    pub weight_decay: f64,
}

/// Prefix of the optimiser's tensors in a checkpoint.
const PREFIX: &str = "rmsprop.square_avg.";

impl RmsProp {
    /// Zero running averages for every trainable variable of `vs`.
    pub fn new(vs: &nn::VarStore, lr: f64) -> Self {
        let mut slots: Vec<(String, Tensor, Tensor)> = vs
            .variables()
            .into_iter()
            .filter(|(_, t)| t.requires_grad())
            .map(|(name, t)| {
                let v = tch::no_grad(|| t.zeros_like());
                (name, t, v)
            })
            .collect();
        slots.sort_by(|a, b| a.0.cmp(&b.0));
        Self {
            slots,
            lr,
            weight_decay: 0.0,
        }
    }

    /// Back-propagates `loss` and takes one step; gradients are zeroed before and after.
    ///
    /// # Errors
    ///
    /// A loss without a graph (nothing to optimise) or a libtorch failure.
    pub fn backward_step(&mut self, loss: &Tensor) -> TrainResult<()> {
        self.zero_grad();
        loss.f_backward()?;
        self.step()?;
        self.zero_grad();
        Ok(())
    }

    /// One step from the gradients currently held by the variables (those without a gradient
    /// are left alone, as libtorch does).
    ///
    /// # Errors
    ///
    /// A libtorch failure.
    pub fn step(&mut self) -> TrainResult<()> {
        let (lr, weight_decay) = (self.lr, self.weight_decay);
        tch::no_grad(|| -> TrainResult<()> {
            for (_, p, v) in &mut self.slots {
                let g = p.grad();
                if !g.defined() {
                    continue;
                }
                // libtorch: grad = grad.add(p, weight_decay) when weight_decay != 0 (without it
                // the gradient is used as it is, which keeps chapter 09's steps bit for bit).
                let g = if weight_decay != 0.0 {
                    g.f_add(&p.f_mul_scalar(weight_decay)?)?
                } else {
                    g
                };
                // libtorch: square_avg.mul_(α).addcmul_(g, g, 1 − α). Its kernel computes
                // self + (value·t1)·t2 (the compiler may fuse the last multiply-add): with value
                // folded into t1 beforehand, addcmul_ with value 1 rounds identically.
                let _ = v.f_mul_scalar_(ALPHA)?;
                let _ = v.f_addcmul_(&g.f_mul_scalar(1.0 - ALPHA)?, &g)?;
                let avg = v.f_sqrt()?.f_add_scalar_(EPS)?;
                // libtorch: p.addcdiv_(g, avg, −lr), i.e. self + (value·t1)/t2.
                let _ = p.f_addcdiv_(&g.f_mul_scalar(-lr)?, &avg)?;
            }
            Ok(())
        })
    }

    /// Zeroes the gradients of the variables.
    pub fn zero_grad(&mut self) {
        for (_, p, _) in &mut self.slots {
            p.zero_grad();
        }
    }

    /// The running averages as named tensors for a checkpoint.
    pub fn state(&self) -> Vec<(String, Tensor)> {
        self.slots
            .iter()
            .map(|(name, _, v)| (format!("{PREFIX}{name}"), v.shallow_clone()))
            .collect()
    }

    /// Restores the running averages from `tensors` (written by [`RmsProp::state`]), read from
    /// the checkpoint file `source`.
    ///
    /// # Errors
    ///
    /// [`TrainError::Checkpoint`] naming `source` for a missing tensor or a shape mismatch.
    pub fn load_state(&mut self, tensors: &[(String, Tensor)], source: &Path) -> TrainResult<()> {
        for (name, _, v) in &mut self.slots {
            let key = format!("{PREFIX}{name}");
            let t = super::checkpoint::find_tensor(tensors, &key, &v.size(), source)?;
            tch::no_grad(|| v.f_copy_(&t))?;
        }
        Ok(())
    }
}
