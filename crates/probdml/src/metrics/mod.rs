//! Retrieval and uncertainty metrics (book chapter 08): the numbers every table of LAM, BTL and
//! HIB reports.
//!
//! # Retrieval
//!
//! A [`Retrieval`] task names the queries (the database itself, each query excluded from its
//! own results, or a separate set), the database, the relevance rule (class labels, or explicit
//! positive sets for place recognition) and the [`Distance`] (Euclidean, or cosine — the same
//! ranking on unit vectors). Ties in distance are broken by database index.
//!
//! * [`recall_at_k`]: share of queries with a positive among the k nearest (BTL §5);
//! * [`precision_at_k`] and [`map_at_k`]: AP@k = (1/min(R, k)) Σ_{i≤k} precision@i · rel_i,
//!   the LAM/BTL mAP@k;
//! * [`map_at_r`] and [`r_precision`]: pytorch-metric-learning's definitions, R the number of
//!   positives;
//! * [`evaluate_retrieval`] computes recall, precision and mAP at several k from one search;
//!   [`per_query_at_k`] returns the per-query scores the uncertainty metrics consume.
//!
//! A query without any positive is excluded from every mean and counted
//! ([`RetrievalReport::excluded_queries`]); LAM's reference `apk` scores it 1 instead.
//!
//! # Uncertainty
//!
//! * [`auroc`], [`auprc`] (and [`roc_curve`]): out-of-distribution detection with the
//!   uncertainty as score and OOD as the positive class, ties counted as scikit-learn does;
//! * [`sparsification_curve`]: LAM's curve, its oracle and AUSC;
//! * [`closed_set_ece`] (from [`closed_set_votes`]): LAM's ECE from S sampled embeddings;
//!   [`ece_at_k`]: BTL's ECE@k; [`expected_calibration_error`] underneath both;
//! * [`kendall_tau_b`] and [`binned_kendall_tau`]: HIB's correlation of uncertainty with
//!   performance.
//!
//! Scores, uncertainties and confidences are [`Score`]s: `f32` or `f64` slices, read in place
//! (an `f32` slice is never copied to `f64`), with bitwise the result of the same values widened
//! to `f64`. Per-query performances (AP@k, accuracy) are `f64`, as the retrieval metrics give them.
//!
//! # Fast and exact
//!
//! The functions here are the fast twins: blocked `f32` Gram matrices ([`crate::gemm`]) with a
//! candidate filter fused into the block loop and an exact `f64` re-ranking of the candidates,
//! so that neighbours are bitwise the exact twin's (in a leave-one-out task only the upper
//! triangle of blocks, each product serving both of its rows; threads chosen per task with
//! [`Retrieval::with_threads`]; `f32` embeddings borrowed with [`Embeddings::from_f32`]), a
//! hash-table count of the tie groups for AUROC and AUPRC when scores take few distinct values,
//! else a partitioned sort (a radix partition on the top key bits, then each bucket in cache)
//! and one pass over tie groups, Knight's O(n log n) τ-b. [`exact`] holds the
//! definitions written out (full sorts, the O(n²) Mann–Whitney count, brute-force neighbours) with the same
//! signatures; `proofs/metrics_*.rs` checks that they agree — exactly where a metric is a ratio
//! of integers — and compares both with scikit-learn and SciPy on a committed reference set.
//!
//! ```
//! use probdml::metrics::{self, Distance, Embeddings, Retrieval};
//! // Six 2-D embeddings of three classes; each queries the other five.
//! let points = [0.0, 0.0, 0.1, 0.0, 1.0, 1.0, 1.0, 0.9, 3.0, 0.0, 0.0, 0.2];
//! let labels = [0, 0, 1, 1, 2, 0];
//! let task = Retrieval::leave_one_out(Embeddings::new(&points, 2)?, &labels, Distance::Euclidean)?;
//! let report = metrics::evaluate_retrieval(&task, &[1, 2])?;
//! assert_eq!(report.excluded_queries, 1); // class 2 has a single member
//! assert_eq!(report.recall[0], 1.0);
//! assert_eq!(report, metrics::exact::evaluate_retrieval(&task, &[1, 2])?);
//! // OOD detection: the uncertainty of in- and out-of-distribution inputs.
//! assert_eq!(metrics::auroc(&[0.1, 0.2, 0.3], &[0.25, 0.9])?, 5.0 / 6.0);
//! # Ok::<(), probdml::Error>(())
//! ```
#![cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]

mod binned_correlation;
mod calibration;
pub(crate) mod candidate_search;
mod candidates;
#[cfg(feature = "reference")]
pub use probdml_reference::metrics::exact;
mod identification;
use probdml_core::metrics::input;
mod kendall;
mod key_scan;
mod neighbours;
mod ood;
mod quantized_gram;
mod retrieval;
mod score_counts;
mod score_sort;
mod sparsification;
mod verification;
mod visit_order;

pub use binned_correlation::{binned_kendall_tau, binned_kendall_tau_verification};
pub use calibration::{closed_set_ece, closed_set_votes, ece_at_k, expected_calibration_error};
pub use identification::knn_identification;
pub use input::binned_correlation::BinnedKendall;
pub use input::calibration::{Calibration, CalibrationBin, MAX_BINS};
pub use input::embeddings::{Coordinates, Distance, Embeddings};
pub use input::identification::KnnIdentification;
pub use input::labels::{IntoLabels, Labels};
pub use input::neighbours::Neighbours;
pub use input::ood::RocCurve;
pub use input::retrieval::{QueryAtK, RetrievalReport};
pub use input::retrieval_task::{Relevance, Retrieval};
pub use input::score::Score;
pub use input::sparsification::{Sparsification, SPARSIFICATION_STEPS};
pub(crate) use input::{checks, embeddings, retrieval_task, score};
pub use kendall::kendall_tau_b;
pub use neighbours::nearest_neighbours;
// The positional forms, deprecated for one release: re-exported, not called.
pub use ood::OodScores;
#[allow(deprecated)]
pub use ood::{auprc, auroc, roc_curve};
pub use retrieval::{
    evaluate_retrieval, map_at_k, map_at_r, per_query_at_k, precision_at_k, r_precision,
    recall_at_k,
};
pub use sparsification::{query_neighbour_uncertainty, sparsification_curve};
pub use verification::verification_average_precision;
