//! Which images a run trains and evaluates on, and how the tables name them.

use crate::error::{TrainError, TrainResult};
use serde::{Deserialize, Serialize};

/// Which images to train and evaluate on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum DatasetChoice {
    /// Fashion-MNIST (ID) against the official MNIST test split (OOD), as in LAM Table 2.
    FashionMnist,
    /// A seeded synthetic set of 28 × 28 images (tests, smoke runs).
    Synthetic,
}

impl DatasetChoice {
    /// The command-line spelling.
    pub fn name(self) -> &'static str {
        match self {
            DatasetChoice::FashionMnist => "fashion-mnist",
            DatasetChoice::Synthetic => "synthetic",
        }
    }

    /// Parses the command-line spelling.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] listing the choices.
    pub fn parse(s: &str) -> TrainResult<Self> {
        match s {
            "fashion-mnist" => Ok(DatasetChoice::FashionMnist),
            "synthetic" => Ok(DatasetChoice::Synthetic),
            _ => Err(TrainError::config(
                "dataset",
                s,
                "one of fashion-mnist, synthetic",
            )),
        }
    }

    /// "ID vs OOD" as the tables title it, e.g. "Fashion-MNIST (ID) vs MNIST (OOD)".
    pub fn title(self) -> &'static str {
        match self {
            DatasetChoice::FashionMnist => "Fashion-MNIST (ID) vs MNIST (OOD)",
            DatasetChoice::Synthetic => "synthetic (ID) vs synthetic OOD images",
        }
    }

    /// Number of classes of the training set (the proxies of ProxyNCA++): 10 for both.
    pub fn classes(self) -> usize {
        match self {
            DatasetChoice::FashionMnist | DatasetChoice::Synthetic => 10,
        }
    }

    /// Whether LAM Table 2 has rows for this data (only Fashion-MNIST vs MNIST is compared).
    pub fn has_paper_rows(self) -> bool {
        self == DatasetChoice::FashionMnist
    }
}
