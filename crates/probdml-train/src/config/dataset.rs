//! Which images a run trains and evaluates on, and how the tables name them.

use crate::error::{TrainError, TrainResult};
use crate::input_geometry::InputGeometry;
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
    /// 2-digit MNIST (HIB, Oh et al. 2019, Appendix A; [`crate::data::n_digit_mnist`]): 28 × 56
    /// images of 100 numbers, the corrupt test twin as the second test set.
    #[cfg_attr(feature = "tch", value(name = "n-digit-mnist-2"))]
    #[serde(rename = "n-digit-mnist-2")]
    NDigitMnist2,
    /// 3-digit MNIST: 28 × 84 images of 1000 numbers, as [`DatasetChoice::NDigitMnist2`].
    #[cfg_attr(feature = "tch", value(name = "n-digit-mnist-3"))]
    #[serde(rename = "n-digit-mnist-3")]
    NDigitMnist3,
}

/// The seed of the N-digit MNIST images, the same for every run: the paper publishes one data
/// set and varies only the training, so runs of different seeds train and are tested on the same
/// images.
pub const N_DIGIT_DATA_SEED: u64 = 2019;
/// The paper's N-digit MNIST sizes (HIB Appendix A, Table 3): 100 000 training images and
/// 10 000 test images of each twin; `train-limit` / `test-limit` generate fewer.
pub const N_DIGIT_PAPER_IMAGES: (usize, usize) = (100_000, 10_000);
/// The share of training digits occluded (HIB §4.1: "we occlude 20% of the digits").
pub const N_DIGIT_OCCLUSION_RATE: f64 = 0.2;

impl DatasetChoice {
    /// The command-line spelling.
    pub fn name(self) -> &'static str {
        match self {
            DatasetChoice::FashionMnist => "fashion-mnist",
            DatasetChoice::Synthetic => "synthetic",
            DatasetChoice::NDigitMnist2 => "n-digit-mnist-2",
            DatasetChoice::NDigitMnist3 => "n-digit-mnist-3",
        }
    }

    /// Digits per image of the N-digit MNIST sets; None for the others.
    pub fn digits(self) -> Option<usize> {
        match self {
            DatasetChoice::FashionMnist | DatasetChoice::Synthetic => None,
            DatasetChoice::NDigitMnist2 => Some(2),
            DatasetChoice::NDigitMnist3 => Some(3),
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
            "n-digit-mnist-2" => Ok(DatasetChoice::NDigitMnist2),
            "n-digit-mnist-3" => Ok(DatasetChoice::NDigitMnist3),
            _ => Err(TrainError::config(
                "dataset",
                s,
                "one of fashion-mnist, synthetic, n-digit-mnist-2, n-digit-mnist-3",
            )),
        }
    }

    /// "ID vs OOD" as the tables title it, e.g. "Fashion-MNIST (ID) vs MNIST (OOD)".
    pub fn title(self) -> &'static str {
        match self {
            DatasetChoice::FashionMnist => "Fashion-MNIST (ID) vs MNIST (OOD)",
            DatasetChoice::Synthetic => "synthetic (ID) vs synthetic OOD images",
            DatasetChoice::NDigitMnist2 => "2-digit MNIST, clean test twin vs corrupt test twin",
            DatasetChoice::NDigitMnist3 => "3-digit MNIST, clean test twin vs corrupt test twin",
        }
    }

    /// Number of classes of the training set (the proxies of ProxyNCA++): 10 for the 28 × 28
    /// sets, 10ᴺ numbers for N-digit MNIST.
    pub fn classes(self) -> usize {
        match self.digits() {
            None => 10,
            Some(n) => 10usize.pow(n as u32),
        }
    }

    /// The size of the images, which the backbone is built for: 28 × 28, or 28 × 28N for
    /// N-digit MNIST (HIB §4.1).
    pub fn geometry(self) -> InputGeometry {
        match self {
            DatasetChoice::FashionMnist | DatasetChoice::Synthetic => InputGeometry::MNIST,
            DatasetChoice::NDigitMnist2 => InputGeometry::TWO_DIGITS,
            DatasetChoice::NDigitMnist3 => InputGeometry::THREE_DIGITS,
        }
    }

    /// Whether LAM Table 2 has rows for this data (only Fashion-MNIST vs MNIST is compared).
    pub fn has_paper_rows(self) -> bool {
        self == DatasetChoice::FashionMnist
    }
}
