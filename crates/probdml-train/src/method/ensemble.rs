//! Deep ensembles around any method: their options ([`EnsembleOptions`]: the size and the
//! member method), and [`Model`] (feature "tch"): what a run trained — one method, or an
//! ensemble of independently seeded members of one method.
//!
//! An ensemble's predictive is the union of its members' samples: M members each giving S_m
//! embeddings per image give Σ S_m (M for deterministic members, as in the paper), which the
//! evaluation summarises by one vMF fit per image like any other sample set.

use super::deterministic::DeterministicOptions;
use super::options::MethodOptions;
use crate::config::limits::{self, MAX_REPEATS};
use crate::config::{RunOptions, WarmStartOptions};
use crate::error::{TrainError, TrainResult};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt::Debug;

/// A deep ensemble's options (`config.json`: `"ensemble_size"` and the `"member"` method with
/// its options beside `"method": "ensemble"`): its size, and the method every member trains.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnsembleOptions<M> {
    /// Members of an ensemble.
    #[serde(rename = "ensemble_size")]
    pub size: usize,
    /// The method of every member, with its options.
    pub member: Box<M>,
}

/// What an ensemble needs of its member: any method with its options, which only the method
/// table knows ([`crate::catalogue::MethodConfig`] implements it). The ensemble itself is one
/// of those methods, so it names them through this trait rather than through the table.
pub trait Member:
    Sized
    + Clone
    + Debug
    + PartialEq
    + Serialize
    + DeserializeOwned
    + From<DeterministicOptions>
    + From<EnsembleOptions<Self>>
{
    /// The method's kind, the values of `--member-method` (feature "tch").
    #[cfg(feature = "tch")]
    type Kind: clap::ValueEnum + Clone + Send + Sync + 'static;

    /// The method's spelling.
    fn name(&self) -> &'static str;

    /// Whether it is an ensemble itself.
    fn is_ensemble(&self) -> bool;

    /// Its own rules ([`MethodOptions::validate`]).
    ///
    /// # Errors
    ///
    /// Those of its options.
    fn validate(&self) -> TrainResult<()>;

    /// Its warm start ([`MethodOptions::warm_start`]).
    fn warm_start(&self) -> Option<&WarmStartOptions>;

    /// The same, to set.
    fn warm_start_mut(&mut self) -> Option<&mut WarmStartOptions>;

    /// The method named `name` with its options read from the flat fields of a version-1 or -2
    /// `config.json` ([`MethodOptions::from_flat`]).
    ///
    /// # Errors
    ///
    /// An unknown name or an option of the wrong type.
    fn from_flat(name: &str, flat: &Map<String, Value>) -> serde_json::Result<Self>;

    /// Its options as flat fields ([`MethodOptions::to_flat`]).
    fn to_flat(&self) -> Map<String, Value>;

    /// The method of kind `kind` with its options from `probdml train`'s flags.
    ///
    /// # Errors
    ///
    /// Those of the flags.
    #[cfg(feature = "tch")]
    fn from_flags(kind: &Self::Kind, matches: &clap::ArgMatches) -> Result<Self, clap::Error>;

    /// The method, freshly initialised ([`MethodOptions::build`]).
    ///
    /// # Errors
    ///
    /// Options it refuses.
    #[cfg(feature = "tch")]
    fn build(
        &self,
        run: &RunOptions,
        device: tch::Device,
        seed: u64,
    ) -> TrainResult<Box<dyn super::Method>>;
}

impl<M: Member> EnsembleOptions<M> {
    /// Five deterministic members, as LAM Table 2's deep ensemble.
    pub const DEFAULT_SIZE: usize = 5;

    /// An ensemble whose member method is itself an ensemble, named so by a flag or a flat
    /// file: its member stops the recursion (with deterministic members), and validation
    /// refuses it, naming `member-method`.
    fn of_ensembles(size: usize) -> M {
        M::from(EnsembleOptions {
            size,
            member: Box::new(M::from(DeterministicOptions::DEFAULT)),
        })
    }
}

impl<M: Member> MethodOptions for EnsembleOptions<M> {
    const NAME: &'static str = "ensemble";

    fn defaults() -> Self {
        EnsembleOptions {
            size: Self::DEFAULT_SIZE,
            member: Box::new(M::from(DeterministicOptions::DEFAULT)),
        }
    }

    fn validate(&self) -> TrainResult<()> {
        limits::repeats("ensemble-size", self.size, 2).map_err(|_| {
            TrainError::config(
                "ensemble-size",
                self.size,
                format!("an ensemble needs >= 2 members (and <= {MAX_REPEATS})"),
            )
        })?;
        if self.member.is_ensemble() {
            return Err(TrainError::config(
                "member-method",
                self.member.name(),
                "an ensemble's members are single models, not ensembles",
            ));
        }
        self.member.validate()
    }

    fn label(&self, _run: &RunOptions) -> String {
        format!("ensemble of {} {}", self.size, self.member.name())
    }

    fn warm_start(&self) -> Option<&WarmStartOptions> {
        self.member.warm_start()
    }

    fn warm_start_mut(&mut self) -> Option<&mut WarmStartOptions> {
        self.member.warm_start_mut()
    }

    /// A flat file names the member method `member_method` (deterministic before the option
    /// existed) and holds its options flat beside the ensemble's own.
    fn from_flat(flat: &Map<String, Value>) -> serde_json::Result<Self> {
        let size = match flat.get("ensemble_size") {
            Some(v) => usize::deserialize(v)?,
            None => Self::DEFAULT_SIZE,
        };
        let member = match flat.get("member_method") {
            Some(v) => String::deserialize(v)?,
            None => DeterministicOptions::NAME.to_string(),
        };
        let member = if member == Self::NAME {
            Self::of_ensembles(size)
        } else {
            M::from_flat(&member, flat)?
        };
        Ok(EnsembleOptions {
            size,
            member: Box::new(member),
        })
    }

    fn to_flat(&self) -> Map<String, Value> {
        let mut flat = self.member.to_flat();
        flat.insert("ensemble_size".into(), self.size.into());
        flat.insert("member_method".into(), self.member.name().into());
        flat
    }

    /// One member: the trainer builds each from the member's configuration, seeded apart.
    #[cfg(feature = "tch")]
    fn build(
        &self,
        run: &RunOptions,
        device: tch::Device,
        seed: u64,
    ) -> TrainResult<Box<dyn super::Method>> {
        self.member.build(run, device, seed)
    }
}

/// `--member-method` and `--ensemble-size`; the member's own options are its method's flags.
#[cfg(feature = "tch")]
impl<M: Member> clap::Args for EnsembleOptions<M> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        use clap::builder::EnumValueParser;
        use clap::{value_parser, Arg, ArgAction};
        // A default is text that lives as long as the command, as clap's derive keeps it.
        static DEFAULT_SIZE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let default_size = DEFAULT_SIZE.get_or_init(|| Self::DEFAULT_SIZE.to_string());
        cmd.arg(
            Arg::new("member_method")
                .long("member-method")
                .value_name("MEMBER_METHOD")
                .value_parser(EnumValueParser::<M::Kind>::new())
                .default_value(DeterministicOptions::NAME)
                .action(ArgAction::Set)
                .help(
                    "The method of every member (--method ensemble only; an ensemble wraps any \
                     other method)",
                ),
        )
        .arg(
            Arg::new("ensemble_size")
                .long("ensemble-size")
                .value_name("ENSEMBLE_SIZE")
                .value_parser(value_parser!(usize))
                .default_value(default_size.as_str())
                .action(ArgAction::Set)
                .help("Members of an ensemble"),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

#[cfg(feature = "tch")]
impl<M: Member> clap::FromArgMatches for EnsembleOptions<M> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let missing = |id: &str| {
            clap::Error::raw(
                clap::error::ErrorKind::MissingRequiredArgument,
                format!("the following required argument was not provided: {id}"),
            )
        };
        let size = *matches
            .get_one::<usize>("ensemble_size")
            .ok_or_else(|| missing("ensemble_size"))?;
        let kind = matches
            .get_one::<M::Kind>("member_method")
            .ok_or_else(|| missing("member_method"))?;
        let named =
            clap::ValueEnum::to_possible_value(kind).is_some_and(|v| v.get_name() == Self::NAME);
        let member = if named {
            Self::of_ensembles(size)
        } else {
            M::from_flags(kind, matches)?
        };
        Ok(EnsembleOptions {
            size,
            member: Box::new(member),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

#[cfg(feature = "tch")]
pub use libtorch::*;

/// What a run trained, on libtorch.
#[cfg(feature = "tch")]
mod libtorch {
    use crate::error::{TrainError, TrainResult};
    use crate::method::Method;
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
        pub fn predict(
            &self,
            images: &Tensor,
            request: &PredictRequest,
        ) -> TrainResult<Prediction> {
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
}
