//! Exact twins of the chapter-08 metrics: the definitions followed literally.
//!
//! Brute force throughout — every distance in f64 by its formula (Σ(q − x)² or
//! 1 − ⟨q, x⟩/(‖q‖‖x‖)), a full sort of the database per query, precision@i recounted at every
//! rank, AUROC as the O(n_ID · n_OOD) Mann–Whitney pair count, AUPRC as the step sum over every
//! distinct threshold with TP and FP recounted, Kendall's τ-b from all n(n−1)/2 pairs, and the
//! sparsification curve re-sorted and re-summed at every point, the K-NN vote recounted per
//! label. Nothing here calls the fast twins (`tests/registry_coverage.rs` enforces it): the two
//! share only the input and result types, their validation and the error values, so they fail
//! alike and compute apart.
//!
//! Signatures are those of the fast functions in [`crate::metrics`]; the proofs
//! (`proofs/metrics_*.rs`) check fast = exact within the registry's budgets, exactly where the
//! result is a ratio of integers.

mod binned_correlation;
mod calibration;
mod identification;
mod kendall;
mod neighbours;
mod ood;
mod retrieval;
mod sparsification;
mod verification;

pub use binned_correlation::{binned_kendall_tau, binned_kendall_tau_verification};
pub use calibration::{closed_set_ece, closed_set_votes, ece_at_k, expected_calibration_error};
pub use identification::knn_identification;
pub use kendall::kendall_tau_b;
pub use neighbours::nearest_neighbours;
pub use ood::{auprc, auroc, roc_curve};
pub use retrieval::{
    evaluate_retrieval, map_at_k, map_at_r, per_query_at_k, precision_at_k, r_precision,
    recall_at_k,
};
pub use sparsification::{query_neighbour_uncertainty, sparsification_curve};
pub use verification::verification_average_precision;
