//! # HIB's metrics (HIB §4.1, §4.3, Tables 1–2)
//!
//! On top of chapter 08's machinery:
//!
//! 1. **Verification AP**: fast (radix-sorted tie groups) = exact (recount at every threshold)
//!    within `METRIC`, and equal to chapter 08's `auprc` with the non-matching pairs as the
//!    "in-distribution" scores — the same definition (scikit-learn's `average_precision_score`).
//! 2. **K-NN identification (K = 5)**: fast (blocked top-k search) = exact (full sort), flag by
//!    flag, on coordinates on a dyadic grid where every distance ties identically in both.
//! 3. **Binned Kendall τ of η** (HIB §4.3, 20 bins, chapter 08's `binned_kendall_tau`): on a
//!    constructed set where the embeddings with the largest self-mismatch sit among the wrong
//!    class, the τ of η against per-query K-NN correctness is positive, for both twins.
// The positional `metrics::auroc`, `auprc` and `roc_curve` are deprecated for one release; these
// checks call them, and `tests/named_inputs.rs` holds `OodScores`'s methods to them bit for bit.
#![allow(deprecated)]

// derivation: metrics::verification_average_precision
// derivation: metrics::knn_identification

use crate::support;
use probdml::hib::{exact as hib_exact, HedgedEmbedding};
use probdml::metrics::{self, exact, Distance, Embeddings, Retrieval};
use proptest::prelude::*;
use support::{check, config, tolerance};

const AP: &str = "metrics::verification_average_precision";

proptest! {
    #![proptest_config(config(256, 0x4869_620b))]

    #[test]
    fn verification_ap_fast_equals_exact(
        pairs in prop::collection::vec((0u8..16, any::<bool>()), 2..200),
    ) {
        // Scores on a coarse grid: many ties.
        let scores: Vec<f64> = pairs.iter().map(|(s, _)| *s as f64 / 16.0).collect();
        let is_match: Vec<bool> = pairs.iter().map(|(_, m)| *m).collect();
        prop_assume!(is_match.iter().any(|&m| m) && is_match.iter().any(|&m| !m));
        let fast = metrics::verification_average_precision(&scores, &is_match).unwrap();
        let slow = exact::verification_average_precision(&scores, &is_match).unwrap();
        check(AP, fast, slow);
        let (neg, pos): (Vec<_>, Vec<_>) = pairs.iter().map(|(s, m)| (*s as f64 / 16.0, *m)).partition(|(_, m)| !m);
        let neg: Vec<f64> = neg.into_iter().map(|(s, _)| s).collect();
        let pos: Vec<f64> = pos.into_iter().map(|(s, _)| s).collect();
        let auprc = metrics::auprc(&neg, &pos).unwrap();
        prop_assert!((fast - auprc).abs() <= tolerance(AP), "{fast} vs auprc {auprc}");
    }

    #[test]
    fn knn_identification_fast_equals_exact(
        points in prop::collection::vec((-8i32..8, -8i32..8, 0usize..3), 7..80),
    ) {
        let x: Vec<f64> = points.iter().flat_map(|(a, b, _)| [*a as f64 / 4.0, *b as f64 / 4.0]).collect();
        let labels: Vec<usize> = points.iter().map(|p| p.2).collect();
        let task = Retrieval::leave_one_out(Embeddings::new(&x, 2).unwrap(), &labels, Distance::Euclidean).unwrap();
        let fast = metrics::knn_identification(&task, 5).unwrap();
        let slow = exact::knn_identification(&task, 5).unwrap();
        prop_assert_eq!(&fast, &slow);
        let share = fast.correct.iter().filter(|&&c| c).count() as f64 / fast.correct.len() as f64;
        prop_assert_eq!(fast.accuracy, share);
    }
}

#[test]
fn binned_kendall_tau_of_self_mismatch_is_positive_when_uncertain_inputs_fail() {
    // 40 embeddings in two clusters; the last 8 of each class are corrupted: placed in the
    // other cluster and given large variances (HIB Fig. 1's "17 or 47").
    let (a, b) = (2.0, 1.0);
    let mut means = Vec::new();
    let mut labels = Vec::new();
    let mut eta = Vec::new();
    for i in 0..40usize {
        let class = i % 2;
        let corrupted = i >= 24;
        let centre = if (class == 0) != corrupted { 0.0 } else { 3.0 };
        let jitter = (i as f64 * 0.37).sin() * 0.2;
        means.extend_from_slice(&[centre + jitter, jitter * 0.5]);
        labels.push(class);
        let var = if corrupted {
            0.5 + 0.01 * i as f64
        } else {
            0.01 + 0.001 * i as f64
        };
        let x = HedgedEmbedding::from_gaussian(probdml::Gaussian {
            mu: &[centre + jitter, jitter * 0.5],
            var: &[var, var],
        })
        .unwrap();
        eta.push(hib_exact::self_mismatch(&x, a, b).unwrap());
    }
    let task = Retrieval::leave_one_out(
        Embeddings::new(&means, 2).unwrap(),
        &labels,
        Distance::Euclidean,
    )
    .unwrap();
    let knn = metrics::knn_identification(&task, 5).unwrap();
    let performance: Vec<f64> = knn
        .correct
        .iter()
        .map(|&c| if c { 1.0 } else { 0.0 })
        .collect();
    let fast = metrics::binned_kendall_tau(&eta, &performance, 20).unwrap();
    let slow = exact::binned_kendall_tau(&eta, &performance, 20).unwrap();
    assert!(fast.tau > 0.0, "τ = {}", fast.tau);
    check("metrics::binned_kendall_tau", fast.tau, slow.tau);
}
