//! Which update rule the optimiser applies ([`crate::optimiser`], feature "tch").
//!
//! * `rmsprop` — the LAM reference code's and every chapter's default (chapter 09):
//!   v ← α v + (1 − α) g², θ ← θ − lr · g / (√v + ε), α = 0.99, ε = 10⁻⁸.
//! * `adam` — Kingma & Ba (ICLR 2015, Algorithm 1) as PyTorch writes it: m ← β₁ m + (1 − β₁) g,
//!   v ← β₂ v + (1 − β₂) g², θ ← θ − lr/(1 − β₁ᵗ) · m / (√v / √(1 − β₂ᵗ) + ε), β₁ = 0.9,
//!   β₂ = 0.999, ε = 10⁻⁸. The hedged instance embedding paper (Oh et al., ICLR 2019) trains
//!   with TensorFlow and names no optimiser; Adam at 10⁻³ is TensorFlow's most common choice
//!   of its time, and this is where chapter 10 tests it.

use serde::{Deserialize, Serialize};

/// The optimiser's update rule (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum OptimiserAlgorithm {
    /// RMSprop without momentum (libtorch's defaults).
    #[default]
    #[cfg_attr(feature = "tch", value(name = "rmsprop"))]
    #[serde(rename = "rmsprop")]
    RmsProp,
    /// Adam with bias correction, without AMSGrad (libtorch's defaults).
    Adam,
}

impl OptimiserAlgorithm {
    /// Whether this is the default (`config.json` leaves it out, so that runs of the default
    /// write the file older versions wrote).
    pub fn is_rmsprop(&self) -> bool {
        *self == OptimiserAlgorithm::RmsProp
    }

    /// The name a table gives it: "RMSprop", "Adam".
    pub fn display_name(self) -> &'static str {
        match self {
            OptimiserAlgorithm::RmsProp => "RMSprop",
            OptimiserAlgorithm::Adam => "Adam",
        }
    }

    /// The name of the flag's value and of `config.json`'s.
    pub fn name(self) -> &'static str {
        match self {
            OptimiserAlgorithm::RmsProp => "rmsprop",
            OptimiserAlgorithm::Adam => "adam",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON spelling is the flag's, and the default is RMSprop.
    #[test]
    fn spelled_as_the_flag() {
        for a in [OptimiserAlgorithm::RmsProp, OptimiserAlgorithm::Adam] {
            let json = serde_json::to_string(&a).unwrap();
            assert_eq!(json, format!("\"{}\"", a.name()));
            assert_eq!(
                serde_json::from_str::<OptimiserAlgorithm>(&json).unwrap(),
                a
            );
        }
        assert!(OptimiserAlgorithm::default().is_rmsprop());
    }
}
