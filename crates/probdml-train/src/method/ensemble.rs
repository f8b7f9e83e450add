//! Deep ensembles around any method, and [`Model`]: what a run trained — one method, or an
//! ensemble of independently seeded members of one method.
//!
//! An ensemble's predictive is the union of its members' samples: M members each giving S_m
//! embeddings per image give Σ S_m (M for deterministic members, as in the paper), which the
//! evaluation summarises by one vMF fit per image like any other sample set.

use super::Method;
use crate::error::{TrainError, TrainResult};
use crate::prediction::{PredictRequest, Prediction};
use tch::Tensor;

/// The trained model of a run.
#[derive(Debug)]
pub enum Model {
    /// One method.
    Single(Box<dyn Method>),
    /// Independently seeded members of one method.
    Ensemble(Vec<Box<dyn Method>>),
}

impl Model {
    /// The members (one for a single method).
    pub fn members(&self) -> &[Box<dyn Method>] {
        match self {
            Model::Single(m) => std::slice::from_ref(m),
            Model::Ensemble(ms) => ms,
        }
    }

    /// The members, mutably.
    pub fn members_mut(&mut self) -> &mut [Box<dyn Method>] {
        match self {
            Model::Single(m) => std::slice::from_mut(m),
            Model::Ensemble(ms) => ms,
        }
    }

    /// The predictive of `images`: the method's own, or the union of the members' samples
    /// (every member draws with the request's seed).
    ///
    /// # Errors
    ///
    /// A member whose closed-form predictive carries no samples (the union needs samples),
    /// and libtorch failures.
    pub fn predict(&self, images: &Tensor, request: &PredictRequest) -> TrainResult<Prediction> {
        match self {
            Model::Single(m) => m.predict(images, request),
            Model::Ensemble(members) => {
                let mut parts = Vec::with_capacity(members.len());
                for m in members {
                    match m.predict(images, request)? {
                        Prediction::Samples(s) | Prediction::Distribution { samples: Some(s), .. } => {
                            parts.push(s)
                        }
                        Prediction::Distribution { samples: None, .. } => {
                            return Err(TrainError::config(
                                "member-method",
                                "a closed-form predictive without samples",
                                "an ensemble combines its members' samples: the member method must return samples",
                            ))
                        }
                    }
                }
                Ok(Prediction::Samples(Tensor::f_cat(&parts, 1)?))
            }
        }
    }
}
