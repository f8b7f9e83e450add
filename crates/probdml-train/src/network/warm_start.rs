//! Starting a method from a trained deterministic model (`--init-checkpoint`): the backbone and
//! μ head (`backbone.*`, `head.*`) are copied from the checkpoint's weights, everything else
//! (variance heads, scales) keeps its fresh initialisation.
//!
//! PFE needs it (the paper freezes a deterministic model and trains only σ²); the Bayesian
//! triplet loss may use it the way its paper starts from pretrained backbones (BTL §4: ImageNet
//! weights), where the deterministic model plays the pretrained network's part.
//!
//! Measured (full Fashion-MNIST, D = 3, seed 0, one CPU thread): BTL (Gaussian) started from
//! the 10-epoch deterministic model (mAP@1 0.856) and trained 3 epochs ends at mAP@1 0.612 and
//! AUROC 0.315 (`probdml train --method btl-gaussian --init-checkpoint <det> --epochs 3`), where
//! the fresh start reaches 0.407 / 0.360 after 10: the start is not what holds BTL back on this
//! benchmark; its loss with the paper's hardest negatives moves good embeddings away.

use crate::checkpoint::{self, find_tensor, read_tensors};
use crate::config::json_version::read_model;
use crate::error::{TrainError, TrainResult};
use crate::method::deterministic::DeterministicOptions;
use crate::method::MethodOptions;
use std::path::Path;
use tch::nn::VarStore;

/// Whether a variable is part of the deterministic model (`backbone.*`, `head.*`).
pub fn deterministic_part(name: &str) -> bool {
    name.starts_with("backbone.") || name.starts_with("head.")
}

/// Copies the deterministic part of the checkpoint in `dir` into `vs`, for the method named
/// `method` of latent dimension `latent_dim`.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] (argument `init-checkpoint`) when the checkpoint is not a
/// deterministic model of the same latent dimension; [`TrainError::Checkpoint`] naming the
/// file when a weight is missing, of another shape, or not finite.
pub fn load_deterministic(
    vs: &VarStore,
    dir: &Path,
    method: &str,
    latent_dim: usize,
) -> TrainResult<()> {
    // The source's method and latent dimension, read without the method table: this file is
    // part of methods the table names.
    let (source, run) = checkpoint::layout::read_checkpoint_config(dir, read_model)?;
    if source != DeterministicOptions::NAME || run.model.latent_dim != latent_dim {
        return Err(TrainError::config(
            "init-checkpoint",
            dir.display(),
            format!(
                "{method} starts from a deterministic checkpoint of latent dimension {latent_dim}, this one is {source} with D = {}",
                run.model.latent_dim
            ),
        ));
    }
    let path = dir.join(checkpoint::MODEL);
    let tensors = read_tensors(&path)?;
    for (name, var) in vs.variables() {
        if !deterministic_part(&name) {
            continue;
        }
        let t = find_tensor(&tensors, &name, &var.size(), &path)?.f_to_kind(var.kind())?;
        if !bool::try_from(t.isfinite().all())? {
            return Err(TrainError::Checkpoint {
                path: path.clone(),
                reason: format!("`{name}` holds NaN or infinite weights"),
            });
        }
        let mut var = var;
        tch::no_grad(|| var.f_copy_(&t))?;
    }
    Ok(())
}
