//! Starting from a trained deterministic model (`--init-checkpoint`): whether a method does,
//! and the option of those that do. The weights are copied by
//! `crate::network::warm_start` (feature "tch").

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Whether a method starts from a deterministic checkpoint (`--init-checkpoint`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarmStart {
    /// It trains from its own initialisation only.
    Never,
    /// It may start its backbone and μ head from one (the BTL paper starts from pretrained
    /// weights).
    Optional,
    /// It freezes one: without `--init-checkpoint` the pipeline trains that deterministic model
    /// first, into `<out>/deterministic`.
    Required,
}

/// The deterministic checkpoint a method starts from: part of the options of every method
/// whose row says it may ([`WarmStart`]), flattened into them (`config.json` writes
/// `init_checkpoint` beside the method's other options). Its flag is one, however many methods
/// read it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct WarmStartOptions {
    /// The deterministic checkpoint folder.
    #[cfg_attr(
        feature = "tch",
        arg(
            long,
            help = "PFE: the deterministic checkpoint to freeze (default: train one into <out>/deterministic); BTL: an optional deterministic checkpoint to start the backbone and μ head from (the paper starts from pretrained weights)"
        )
    )]
    pub init_checkpoint: Option<PathBuf>,
}

impl WarmStartOptions {
    /// No checkpoint: a fresh start, or (for a method that requires one) the deterministic run
    /// the pipeline trains first.
    pub const DEFAULT: WarmStartOptions = WarmStartOptions {
        init_checkpoint: None,
    };
}
