//! The schedules of `probdml reproduce`.

use serde::{Deserialize, Serialize};

/// The schedule of `probdml reproduce`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Schedule {
    /// The main command: LAM online under our protocol and the reference code's, 5 epochs, 1 seed.
    #[default]
    Short,
    /// LAM Table 2's protocol: its seven rows (deterministic, deep ensemble, PFE, HIB, MC dropout,
    /// LAM post-hoc and online), then BTL (both priors) and ProxyNCA++, 20 epochs, 5 seeds.
    Paper,
}
