//! The optimiser, RMSprop or Adam ([`OptimiserAlgorithm`]), with its state in the open, so
//! that a checkpoint holds it and `--resume` continues a run bit for bit.
//!
//! libtorch's own optimisers (what `tch::nn::RmsProp` and `tch::nn::Adam` wrap) keep their
//! running averages inside C++ where `tch` cannot read them: a resumed run restarted them at
//! zero and never equalled an uninterrupted one. These are the same algorithms with the same
//! defaults (PyTorch `torch/csrc/api/src/optim/rmsprop.cpp` and `adam.cpp`).
//!
//! RMSprop (α = 0.99, ε = 1e-8, no momentum, not centred; weight decay 0 unless
//! [`Optimiser::weight_decay`] is set):
//!
//! v ← α v + (1 − α) g ⊙ g,   θ ← θ − lr · g ⊘ (√v + ε),
//!
//! written with the same tensor operations in the same order, through the same
//! `addcmul_`/`addcdiv_` kernels with the scalar folded into the first tensor (which those
//! kernels multiply first), so that every step rounds as libtorch's:
//! `crates/probdml-train/tests/train_faults.rs` checks the weights bit for bit against
//! `tch::nn::RmsProp`.
//!
//! Adam (β₁ = 0.9, β₂ = 0.999, ε = 1e-8, no AMSGrad; t counts each variable's steps):
//!
//! m ← β₁ m + (1 − β₁) g,   v ← β₂ v + (1 − β₂) g ⊙ g,
//! θ ← θ − lr/(1 − β₁ᵗ) · m ⊘ (√v / √(1 − β₂ᵗ) + ε).
//!
//! libtorch adds (1 − β₁) g to β₁ m in one fused multiply-add (`add_` with `alpha`), which
//! `tch` does not expose; here the product is rounded first, so the weights agree with
//! `tch::nn::Adam` to f32 rounding, not bit for bit (the same test file checks how closely).

use super::error::TrainResult;
use crate::optimiser_algorithm::OptimiserAlgorithm;
use std::path::Path;
use tch::{nn, Kind, Tensor};

/// RMSprop's smoothing constant α (libtorch's default).
pub const ALPHA: f64 = 0.99;
/// Adam's decay of the first moment β₁ (libtorch's default).
pub const BETA1: f64 = 0.9;
/// Adam's decay of the second moment β₂ (libtorch's default).
pub const BETA2: f64 = 0.999;
/// The ε of both rules (libtorch's default).
pub const EPS: f64 = 1e-8;

/// One trainable variable and its state.
#[derive(Debug)]
struct Slot {
    /// The variable's name in its [`nn::VarStore`].
    name: String,
    /// The variable.
    param: Tensor,
    /// The running average of g ⊙ g: RMSprop's `square_avg`, Adam's `exp_avg_sq`.
    second: Tensor,
    /// Adam's running average of g (`exp_avg`); None for RMSprop.
    first: Option<Tensor>,
    /// Adam's t: the steps this variable has taken (one with a gradient each).
    steps: i64,
}

/// RMSprop or Adam over the variables of one [`nn::VarStore`], with its state per variable
/// name.
#[derive(Debug)]
pub struct Optimiser {
    algorithm: OptimiserAlgorithm,
    /// Sorted by name.
    slots: Vec<Slot>,
    /// Learning rate of the next steps.
    pub lr: f64,
    /// L2 weight decay λ, added to the gradient as g ← g + λθ before the update (PyTorch's
    /// `weight_decay`; 0 = none, chapter 09; 1e−5 in the reference protocol).
    pub weight_decay: f64,
}

/// Prefix of RMSprop's running averages in a checkpoint.
const RMSPROP_SQUARE_AVG: &str = "rmsprop.square_avg.";
/// Prefixes of Adam's state in a checkpoint: m, v and t (one-element i64 tensors).
const ADAM_EXP_AVG: &str = "adam.exp_avg.";
const ADAM_EXP_AVG_SQ: &str = "adam.exp_avg_sq.";
const ADAM_STEP: &str = "adam.step.";

impl Optimiser {
    /// `algorithm` with zero state for every trainable variable of `vs`.
    pub fn new(vs: &nn::VarStore, algorithm: OptimiserAlgorithm, lr: f64) -> Self {
        let mut slots: Vec<Slot> = vs
            .variables()
            .into_iter()
            .filter(|(_, t)| t.requires_grad())
            .map(|(name, param)| {
                let zeros = || tch::no_grad(|| param.zeros_like());
                Slot {
                    name,
                    second: zeros(),
                    first: (algorithm == OptimiserAlgorithm::Adam).then(zeros),
                    param,
                    steps: 0,
                }
            })
            .collect();
        slots.sort_by(|a, b| a.name.cmp(&b.name));
        Self {
            algorithm,
            slots,
            lr,
            weight_decay: 0.0,
        }
    }

    /// RMSprop at `lr` (chapter 09's optimiser).
    pub fn rmsprop(vs: &nn::VarStore, lr: f64) -> Self {
        Self::new(vs, OptimiserAlgorithm::RmsProp, lr)
    }

    /// The update rule.
    pub fn algorithm(&self) -> OptimiserAlgorithm {
        self.algorithm
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
            for slot in &mut self.slots {
                let g = slot.param.grad();
                if !g.defined() {
                    continue;
                }
                // libtorch: grad = grad.add(p, weight_decay) when weight_decay != 0 (without it
                // the gradient is used as it is, which keeps chapter 09's steps bit for bit).
                let g = if weight_decay != 0.0 {
                    g.f_add(&slot.param.f_mul_scalar(weight_decay)?)?
                } else {
                    g
                };
                slot.steps += 1;
                match &mut slot.first {
                    None => rmsprop_step(&mut slot.param, &mut slot.second, &g, lr)?,
                    Some(m) => adam_step(&mut slot.param, m, &mut slot.second, &g, lr, slot.steps)?,
                }
            }
            Ok(())
        })
    }

    /// Zeroes the gradients of the variables.
    pub fn zero_grad(&mut self) {
        for slot in &mut self.slots {
            slot.param.zero_grad();
        }
    }

    /// The state as named tensors for a checkpoint: RMSprop's running averages, or Adam's
    /// moments and step counts.
    pub fn state(&self) -> Vec<(String, Tensor)> {
        let mut out = Vec::new();
        for slot in &self.slots {
            match &slot.first {
                None => out.push((
                    format!("{RMSPROP_SQUARE_AVG}{}", slot.name),
                    slot.second.shallow_clone(),
                )),
                Some(m) => {
                    out.push((format!("{ADAM_EXP_AVG}{}", slot.name), m.shallow_clone()));
                    out.push((
                        format!("{ADAM_EXP_AVG_SQ}{}", slot.name),
                        slot.second.shallow_clone(),
                    ));
                    out.push((
                        format!("{ADAM_STEP}{}", slot.name),
                        Tensor::from_slice(&[slot.steps]),
                    ));
                }
            }
        }
        out
    }

    /// Restores the state from `tensors` (written by [`Optimiser::state`] of the same rule),
    /// read from the checkpoint file `source`.
    ///
    /// # Errors
    ///
    /// [`TrainError::Checkpoint`](crate::error::TrainError::Checkpoint) naming `source` for a
    /// missing tensor (a checkpoint of the other rule) or a shape mismatch.
    pub fn load_state(&mut self, tensors: &[(String, Tensor)], source: &Path) -> TrainResult<()> {
        let find = |prefix: &str, name: &str, shape: &[i64]| {
            super::checkpoint::find_tensor(tensors, &format!("{prefix}{name}"), shape, source)
        };
        for slot in &mut self.slots {
            let shape = slot.second.size();
            match &mut slot.first {
                None => {
                    let v = find(RMSPROP_SQUARE_AVG, &slot.name, &shape)?;
                    tch::no_grad(|| slot.second.f_copy_(&v))?;
                }
                Some(m) => {
                    let (m_saved, v_saved) = (
                        find(ADAM_EXP_AVG, &slot.name, &shape)?,
                        find(ADAM_EXP_AVG_SQ, &slot.name, &shape)?,
                    );
                    tch::no_grad(|| -> TrainResult<()> {
                        m.f_copy_(&m_saved)?;
                        slot.second.f_copy_(&v_saved)?;
                        Ok(())
                    })?;
                    slot.steps = find(ADAM_STEP, &slot.name, &[1])?
                        .f_to_kind(Kind::Int64)?
                        .f_int64_value(&[0])?;
                }
            }
        }
        Ok(())
    }
}

/// RMSprop's update of one variable.
fn rmsprop_step(p: &mut Tensor, v: &mut Tensor, g: &Tensor, lr: f64) -> TrainResult<()> {
    // libtorch: square_avg.mul_(α).addcmul_(g, g, 1 − α). Its kernel computes
    // self + (value·t1)·t2 (the compiler may fuse the last multiply-add): with value
    // folded into t1 beforehand, addcmul_ with value 1 rounds identically.
    let _ = v.f_mul_scalar_(ALPHA)?;
    let _ = v.f_addcmul_(&g.f_mul_scalar(1.0 - ALPHA)?, g)?;
    let avg = v.f_sqrt()?.f_add_scalar_(EPS)?;
    // libtorch: p.addcdiv_(g, avg, −lr), i.e. self + (value·t1)/t2.
    let _ = p.f_addcdiv_(&g.f_mul_scalar(-lr)?, &avg)?;
    Ok(())
}

/// Adam's update of one variable at its step `t` (from 1).
fn adam_step(
    p: &mut Tensor,
    m: &mut Tensor,
    v: &mut Tensor,
    g: &Tensor,
    lr: f64,
    t: i64,
) -> TrainResult<()> {
    // libtorch: bias_correction_k = 1 − β_k^t in f64.
    let t = i32::try_from(t).unwrap_or(i32::MAX);
    let correction1 = 1.0 - BETA1.powi(t);
    let correction2 = 1.0 - BETA2.powi(t);
    // libtorch: exp_avg.mul_(β₁).add_(g, 1 − β₁) (module docs: one rounding more here).
    let _ = m.f_mul_scalar_(BETA1)?;
    let _ = m.f_add_(&g.f_mul_scalar(1.0 - BETA1)?)?;
    // libtorch: exp_avg_sq.mul_(β₂).addcmul_(g, g, 1 − β₂), as RMSprop's.
    let _ = v.f_mul_scalar_(BETA2)?;
    let _ = v.f_addcmul_(&g.f_mul_scalar(1.0 - BETA2)?, g)?;
    // libtorch: denom = (exp_avg_sq.sqrt() / √bias_correction2).add_(ε);
    // p.addcdiv_(exp_avg, denom, −lr / bias_correction1).
    let denom = v
        .f_sqrt()?
        .f_div_scalar_(correction2.sqrt())?
        .f_add_scalar_(EPS)?;
    let _ = p.f_addcdiv_(&m.f_mul_scalar(-lr / correction1)?, &denom)?;
    Ok(())
}
