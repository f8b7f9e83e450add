//! # Sparsification, AUSC and calibration (LAM App. G.3, eq. (121); BTL eq. (14))
//!
//! Sparsification (LAM): sort queries by decreasing uncertainty, drop the first ⌊f n⌋ for
//! f = 0, 1/100, …, 99/100 and average the remaining performance; AUSC is the trapezoid area
//! with spacing 1/100; the oracle drops the worst performers first. Closed-set ECE (LAM): the
//! mode of S one-nearest-neighbour votes is the prediction, its share the confidence, and
//! ECE = Σ_b (n_b/n)|acc_b − conf_b| over 10 equal-width bins, confidence 1.0 in the last.
//! ECE@k (BTL): 10 equal-count bins by uncertainty, each bin's mAP@k against its percentile
//! confidence.
//!
//! Claims:
//!
//! 1. **Fast = exact.** The suffix-sum sparsification curve is within `METRIC` of the curve
//!    re-sorted and re-summed at every point, and AUSC likewise; ECE (equal-width bins found by
//!    rounding then edge-checking, against bins found by scanning the edges), the closed-set ECE
//!    and its 1-NN votes are bitwise equal to the exact twins; ECE@k with closed-form bin
//!    confidences is within `METRIC`.
//! 2. **The oracle bounds the curve.** For every f the oracle's remaining mean is at least the
//!    curve's (dropping the ⌊f n⌋ worst maximises the mean of the rest), so the area between
//!    is ≥ 0; an uncertainty that orders errors perfectly gives curve = oracle; c_0 is the mean.
//! 3. **Calibration.** ECE ∈ [0, 1]; confidence 1.0 lands in the last bin (the reference that
//!    drops it would leave such items out); predictions that are always right with confidence
//!    1 have ECE 0.
//! 4. **Reference.** The plain-Python definitions of `gen_metrics_reference.py` (numpy's
//!    `trapezoid` for AUSC) on the committed cases, within `METRIC_REFERENCE`.

// derivation: metrics::sparsification_curve
// derivation: metrics::expected_calibration_error
// derivation: metrics::closed_set_ece
// derivation: metrics::ece_at_k

use crate::metrics_reference_data as reference;
use crate::support;
use probdml::metrics::{self, exact, Distance, Embeddings};
use probdml_proofs::registry::budget::METRIC_REFERENCE;
use proptest::prelude::*;
use support::{check, check_at, config, tolerance};

const CURVE: &str = "metrics::sparsification_curve";
const ECE_K: &str = "metrics::ece_at_k";

/// Uncertainties with ties (a 5-value grid) or continuous, and per-query performance that is
/// 0/1 (1-NN accuracy) or in [0, 1] (AP@k).
fn uncertainty_and_performance() -> impl Strategy<Value = (Vec<f64>, Vec<f64>)> {
    (1usize..300).prop_flat_map(|n| {
        (
            prop_oneof![
                prop::collection::vec((0i32..5).prop_map(|v| f64::from(v) / 4.0), n),
                prop::collection::vec(0.0..1.0f64, n),
            ],
            prop_oneof![
                prop::collection::vec(prop::bool::ANY.prop_map(|b| if b { 1.0 } else { 0.0 }), n),
                prop::collection::vec((0i32..=8).prop_map(|v| f64::from(v) / 8.0), n),
                prop::collection::vec(0.0..=1.0f64, n),
            ],
        )
    })
}

/// Confidences on and between the bin edges (c/10, c/S for small S), and correctness.
fn confidences() -> impl Strategy<Value = (Vec<f64>, Vec<bool>)> {
    (1usize..200).prop_flat_map(|n| {
        (
            prop_oneof![
                prop::collection::vec((0i32..=10).prop_map(|c| f64::from(c) / 10.0), n),
                prop::collection::vec(
                    (1u32..=7, 1u32..=7)
                        .prop_map(|(a, b)| f64::from(a.min(b)) / f64::from(a.max(b))),
                    n
                ),
                prop::collection::vec(0.0..=1.0f64, n),
            ],
            prop::collection::vec(any::<bool>(), n),
        )
    })
}

proptest! {
    #![proptest_config(config(1024, 0x08_a05c))]

    /// Claim 1 (sparsification) and claim 2.
    #[test]
    fn sparsification_fast_exact_and_oracle((u, perf) in uncertainty_and_performance()) {
        let fast = metrics::sparsification_curve(&u, &perf).unwrap();
        let slow = exact::sparsification_curve(&u, &perf).unwrap();
        for i in 0..100 {
            check_at(CURVE, format!("curve[{i}]"), fast.curve[i], slow.curve[i]);
            check_at(CURVE, format!("oracle[{i}]"), fast.oracle[i], slow.oracle[i]);
            prop_assert!(fast.oracle[i] >= fast.curve[i] - tolerance(CURVE), "oracle below curve at {}", i);
        }
        check_at(CURVE, "AUSC", fast.ausc, slow.ausc);
        check_at(CURVE, "oracle AUSC", fast.oracle_ausc, slow.oracle_ausc);
        prop_assert!(fast.area_between >= -tolerance(CURVE));
        let mean = perf.iter().sum::<f64>() / perf.len() as f64;
        prop_assert!((fast.curve[0] - mean).abs() <= tolerance(CURVE));
        // An uncertainty that is the error itself orders queries as the oracle does.
        let perfect: Vec<f64> = perf.iter().map(|p| -p).collect();
        let s = metrics::sparsification_curve(&perfect, &perf).unwrap();
        prop_assert_eq!(&s.curve, &s.oracle);
    }

    /// Claim 1 (ECE) and claim 3.
    #[test]
    fn ece_fast_equals_exact((conf, correct) in confidences(), bins in 1usize..16) {
        let fast = metrics::expected_calibration_error(&conf, &correct, bins).unwrap();
        let slow = exact::expected_calibration_error(&conf, &correct, bins).unwrap();
        prop_assert_eq!(&fast, &slow);
        prop_assert!((0.0..=1.0).contains(&fast.ece));
        prop_assert_eq!(fast.bins.iter().map(|b| b.count).sum::<usize>(), conf.len());
        let ones = conf.iter().filter(|&&c| c == 1.0).count();
        prop_assert!(fast.bins[bins - 1].count >= ones);
    }

    /// Claim 1 (closed-set ECE from votes).
    #[test]
    fn closed_set_fast_equals_exact(
        // Few distinct labels (the tally) and many (past 16 distinct: the sorting fallback).
        votes in prop::collection::vec(
            prop_oneof![
                prop::collection::vec(0usize..4, 1..12),
                prop::collection::vec(0usize..40, 1..60),
            ],
            1..80,
        ),
        labels_seed in prop::collection::vec(0usize..4, 80),
        bins in 1usize..12,
    ) {
        let labels = &labels_seed[..votes.len()];
        prop_assert_eq!(
            metrics::closed_set_ece(&votes, labels, bins).unwrap(),
            exact::closed_set_ece(&votes, labels, bins).unwrap()
        );
    }

    /// Claim 1 (the 1-NN votes of LAM's pipeline, on grid samples with ties).
    #[test]
    fn closed_set_votes_fast_equal_exact(
        (samples, labels, dim) in (2usize..30, 1usize..4, 1usize..5).prop_flat_map(|(n, dim, s)| (
            prop::collection::vec(prop::collection::vec((-2i32..=2).prop_map(f64::from), n * dim), s),
            prop::collection::vec(0usize..3, n),
            Just(dim),
        )),
    ) {
        let sets: Vec<Embeddings<'_>> = samples.iter().map(|s| Embeddings::new(s, dim).unwrap()).collect();
        let fast = metrics::closed_set_votes(&sets, &labels, Distance::Euclidean).unwrap();
        prop_assert_eq!(&fast, &exact::closed_set_votes(&sets, &labels, Distance::Euclidean).unwrap());
        prop_assert_eq!(
            metrics::closed_set_ece(&fast, &labels, 10).unwrap(),
            exact::closed_set_ece(&fast, &labels, 10).unwrap()
        );
    }

    /// Claim 1 (ECE@k).
    #[test]
    fn ece_at_k_fast_equals_exact((u, ap) in uncertainty_and_performance(), bins in 1usize..12) {
        let bins = bins.min(u.len());
        let fast = metrics::ece_at_k(&u, &ap, bins).unwrap();
        let slow = exact::ece_at_k(&u, &ap, bins).unwrap();
        check(ECE_K, fast.ece, slow.ece);
        for (a, b) in fast.bins.iter().zip(&slow.bins) {
            prop_assert_eq!(a.count, b.count);
            prop_assert_eq!(a.accuracy, b.accuracy);
            check_at(ECE_K, "bin confidence", a.confidence, b.confidence);
        }
    }
}

/// Claim 3: always right at confidence 1 — ECE 0, everything in the last bin.
#[test]
fn confident_and_right_is_calibrated() {
    let c = metrics::expected_calibration_error(&[1.0; 7], &[true; 7], 10).unwrap();
    assert_eq!(c.ece, 0.0);
    assert_eq!(c.bins[9].count, 7);
    let votes = vec![vec![2, 2, 2]; 5];
    assert_eq!(
        metrics::closed_set_ece(&votes, &[2; 5], 10).unwrap().ece,
        0.0
    );
}

/// Claim 4.
#[test]
fn agrees_with_the_reference_definitions() {
    for case in reference::cases("sparsification") {
        let (u, perf) = (case.floats("uncertainty"), case.floats("performance"));
        let what = |m: &str| format!("sparsification/{} {m}", case.name);
        for s in [
            metrics::sparsification_curve(&u, &perf).unwrap(),
            exact::sparsification_curve(&u, &perf).unwrap(),
        ] {
            for (i, (g, w)) in s.curve.iter().zip(case.floats("curve")).enumerate() {
                reference::assert_close(*g, w, METRIC_REFERENCE, &what(&format!("curve[{i}]")));
            }
            for (i, (g, w)) in s.oracle.iter().zip(case.floats("oracle")).enumerate() {
                reference::assert_close(*g, w, METRIC_REFERENCE, &what(&format!("oracle[{i}]")));
            }
            reference::assert_close(s.ausc, case.float("ausc"), METRIC_REFERENCE, &what("ausc"));
            reference::assert_close(
                s.oracle_ausc,
                case.float("oracle_ausc"),
                METRIC_REFERENCE,
                &what("oracle_ausc"),
            );
        }
    }
    for case in reference::cases("ece") {
        let conf = case.floats("confidence");
        let correct: Vec<bool> = case.usizes("correct").iter().map(|&c| c == 1).collect();
        let bins = case.usize("bins");
        for got in [
            metrics::expected_calibration_error(&conf, &correct, bins)
                .unwrap()
                .ece,
            exact::expected_calibration_error(&conf, &correct, bins)
                .unwrap()
                .ece,
        ] {
            reference::assert_close(
                got,
                case.float("ece"),
                METRIC_REFERENCE,
                &format!("ece/{}", case.name),
            );
        }
    }
    for case in reference::cases("closed_set") {
        let (votes, labels, bins) = (
            case.sets("votes"),
            case.usizes("labels"),
            case.usize("bins"),
        );
        for got in [
            metrics::closed_set_ece(&votes, &labels, bins).unwrap().ece,
            exact::closed_set_ece(&votes, &labels, bins).unwrap().ece,
        ] {
            reference::assert_close(
                got,
                case.float("ece"),
                METRIC_REFERENCE,
                &format!("closed_set/{}", case.name),
            );
        }
    }
    for case in reference::cases("ece_at_k") {
        let (u, ap, bins) = (
            case.floats("uncertainty"),
            case.floats("average_precision"),
            case.usize("bins"),
        );
        for got in [
            metrics::ece_at_k(&u, &ap, bins).unwrap().ece,
            exact::ece_at_k(&u, &ap, bins).unwrap().ece,
        ] {
            reference::assert_close(
                got,
                case.float("ece"),
                METRIC_REFERENCE,
                &format!("ece_at_k/{}", case.name),
            );
        }
    }
}
