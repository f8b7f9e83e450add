//! The rules of a run's configuration: each group's options against their limits, then the
//! method's own rules (in the method's file, [`MethodOptions::validate`]).
//!
//! [`MethodOptions::validate`]: crate::method::options::MethodOptions::validate

use super::limits::{self, MAX_BATCH, MAX_LATENT_DIM, MAX_REPEATS};
use super::TrainConfig;
use crate::error::{TrainError, TrainResult};

impl TrainConfig {
    /// Checks every field against its rule.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] naming the field and the rule.
    pub fn validate(&self) -> TrainResult<()> {
        if !(2..=MAX_LATENT_DIM).contains(&self.model.latent_dim) {
            return Err(TrainError::config(
                "latent-dim",
                self.model.latent_dim,
                format!(
                    "an embedding on the sphere S^{{D-1}} needs D >= 2 (and D <= {MAX_LATENT_DIM})"
                ),
            ));
        }
        limits::repeats("epochs", self.optimiser.epochs, 1)?;
        if !(2..=MAX_BATCH).contains(&self.optimiser.batch_size) {
            return Err(TrainError::config(
                "batch",
                self.optimiser.batch_size,
                format!(
                    "pairs need at least 2 images per batch, and the batch's B × B pair \
                     matrices limit it to {MAX_BATCH}"
                ),
            ));
        }
        limits::positive("lr", self.optimiser.learning_rate)?;
        limits::factor("lr-decay", self.optimiser.lr_decay)?;
        if !(self.pairs.margin > 0.0
            && self.pairs.margin <= 2.0
            && limits::f32_normal(self.pairs.margin))
        {
            return Err(TrainError::config(
                "margin",
                self.pairs.margin,
                "unit vectors are at distance <= 2: the margin must lie in (0, 2]",
            ));
        }
        limits::count("max-pairs", self.pairs.max_pairs, 1)?;
        if !(2..=MAX_REPEATS).contains(&self.evaluation.eval_samples) {
            return Err(TrainError::config(
                "eval-samples",
                self.evaluation.eval_samples,
                "a vMF fit needs >= 2 samples (16 or more for reported numbers)",
            ));
        }
        limits::positive("prior-precision", self.laplace.prior_precision)?;
        limits::positive("tempering", self.laplace.tempering)?;
        if let Some(k) = self.data.train_limit {
            limits::count("train-limit", k, 2)?;
        }
        if let Some(k) = self.data.test_limit {
            // The retrieval metrics rank 10 neighbours besides the query.
            limits::count("test-limit", k, 11)?;
        }
        if !self.data.n_digit_gap.is_instance() && self.data.dataset.digits().is_none() {
            return Err(TrainError::config(
                "n-digit-gap",
                self.data.n_digit_gap.name(),
                format!(
                    "N-digit MNIST only (n-digit-mnist-2, n-digit-mnist-3), not {}",
                    self.data.dataset.name()
                ),
            ));
        }
        if let Some(digits) = self.data.dataset.digits() {
            // N-digit MNIST holds as many images of every number (HIB Appendix A): the limits
            // are the generator's counts.
            let classes = self.data.dataset.classes();
            for (arg, limit) in [
                ("train-limit", self.data.train_limit),
                ("test-limit", self.data.test_limit),
            ] {
                if let Some(k) = limit.filter(|k| k % classes != 0) {
                    return Err(TrainError::config(
                        arg,
                        k,
                        format!(
                            "{digits}-digit MNIST holds the same number of images of each of its \
                             {classes} numbers: a multiple of {classes}"
                        ),
                    ));
                }
            }
            if let Some(k) = self.data.test_limit.filter(|&k| k < 2 * classes) {
                return Err(TrainError::config(
                    "test-limit",
                    k,
                    format!(
                        "the retrieval of a test image needs another image of its number: at \
                         least 2 of each of the {classes} numbers, {}",
                        2 * classes
                    ),
                ));
            }
        }
        self.method.validate()
    }
}
