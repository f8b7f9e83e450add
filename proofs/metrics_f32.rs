//! # Scores in `f32`: the uncertainty metrics on a network's own precision
//!
//! A [`metrics::Score`] is `f32` or `f64`. Every `f32` is exactly an `f64`, and widening keeps
//! order and equality (−0 = +0), so ranking, binning and summing the widened values is the
//! metric of the `f32` scores; the fast twins widen one element where they read it.
//!
//! Claims:
//!
//! 1. **f32 = exact twin on the widened values.** For AUROC, AUPRC, the ROC curve, Kendall's
//!    τ-b, the binned τ (identification and verification), the sparsification curve, ECE, ECE@k,
//!    the verification AP and LAM's query–neighbour uncertainty, the fast twin on `f32` scores is
//!    within the registered budget of the exact twin run on the same values widened to `f64`
//!    (the curves and counts bitwise).
//! 2. **Same result in both precisions.** The fast twin on `f32` scores is bitwise the fast twin
//!    on the widened `f64` scores.
//! 3. **Same errors.** A NaN score, an empty set and a length mismatch give the same
//!    `probdml::Error`, naming the same argument and index, in both precisions.
//!
//! Inputs: heavy ties (quarters 0–1), signed zeros and the smallest subnormal, and continuous
//! `f32` values over several binades.
// The positional `metrics::auroc`, `auprc` and `roc_curve` are deprecated for one release; these
// checks call them, and `tests/named_inputs.rs` holds `OodScores`'s methods to them bit for bit.
#![allow(deprecated)]

// derivation: metrics::auroc
// derivation: metrics::auprc
// derivation: metrics::kendall_tau_b
// derivation: metrics::binned_kendall_tau
// derivation: metrics::sparsification_curve
// derivation: metrics::expected_calibration_error
// derivation: metrics::ece_at_k
// derivation: metrics::verification_average_precision

use crate::support;
use probdml::metrics::{self, exact};
use probdml::Error;
use proptest::prelude::*;
use support::{check_at, check_slice, config};

fn widen(xs: &[f32]) -> Vec<f64> {
    xs.iter().map(|&x| f64::from(x)).collect()
}

/// Scores by category: quarters (ties), signed zeros and subnormals, continuous values.
fn scores(len: impl Into<prop::collection::SizeRange>) -> impl Strategy<Value = Vec<f32>> {
    let len = len.into();
    prop_oneof![
        prop::collection::vec((0i32..5).prop_map(|v| v as f32 / 4.0), len.clone()),
        prop::collection::vec(
            prop::sample::select(vec![-0.0f32, 0.0, f32::from_bits(1), -1.5, 2.0]),
            len.clone()
        ),
        prop::collection::vec(-1.0e3f32..1.0e3, len),
    ]
}

/// Values in [0, 1]: confidences and per-query performances.
fn unit(len: usize) -> impl Strategy<Value = Vec<f32>> {
    prop_oneof![
        prop::collection::vec((0i32..=8).prop_map(|v| v as f32 / 8.0), len),
        prop::collection::vec(0.0f32..=1.0, len),
    ]
}

proptest! {
    #![proptest_config(config(256, 0xf32_0001))]

    #[test]
    fn ood_scores_in_f32_equal_the_exact_twin_on_widened_values(
        id in scores(1..200), ood in scores(1..200)
    ) {
        let (id64, ood64) = (widen(&id), widen(&ood));
        let case = format!("n_id {} n_ood {}", id.len(), ood.len());
        let auroc = metrics::auroc(&id, &ood).unwrap();
        check_at("metrics::auroc", &case, auroc, exact::auroc(&id64, &ood64).unwrap());
        prop_assert_eq!(auroc.to_bits(), metrics::auroc(&id64, &ood64).unwrap().to_bits());
        let auprc = metrics::auprc(&id, &ood).unwrap();
        check_at("metrics::auprc", &case, auprc, exact::auprc(&id64, &ood64).unwrap());
        prop_assert_eq!(auprc.to_bits(), metrics::auprc(&id64, &ood64).unwrap().to_bits());
        prop_assert_eq!(
            metrics::roc_curve(&id, &ood).unwrap(),
            exact::roc_curve(&id64, &ood64).unwrap()
        );
    }

    #[test]
    fn verification_in_f32_equals_the_exact_twin_on_widened_values(
        (score, is_match, uncertainty) in (4usize..200).prop_flat_map(|n| (
            scores(n),
            prop::collection::vec(prop::bool::ANY, n),
            scores(n),
        ))
    ) {
        prop_assume!(is_match.iter().any(|&m| m));
        let (score64, uncertainty64) = (widen(&score), widen(&uncertainty));
        let case = format!("n {}", score.len());
        let ap = metrics::verification_average_precision(&score, &is_match).unwrap();
        check_at(
            "metrics::verification_average_precision",
            &case,
            ap,
            exact::verification_average_precision(&score64, &is_match).unwrap(),
        );
        prop_assert_eq!(
            ap.to_bits(),
            metrics::verification_average_precision(&score64, &is_match).unwrap().to_bits()
        );
        let fast = metrics::binned_kendall_tau_verification(&uncertainty, &score, &is_match, 2);
        let want = exact::binned_kendall_tau_verification(&uncertainty64, &score64, &is_match, 2);
        match (fast, want) {
            (Ok(f), Ok(e)) => {
                check_at("metrics::binned_kendall_tau", &case, f.tau, e.tau);
                check_slice("metrics::binned_kendall_tau", &case, &f.bin_performance, &e.bin_performance);
                check_slice("metrics::binned_kendall_tau", &case, &f.bin_uncertainty, &e.bin_uncertainty);
            }
            (f, e) => prop_assert_eq!(format!("{f:?}"), format!("{e:?}")),
        }
    }

    #[test]
    fn rank_correlations_in_f32_equal_the_exact_twin_on_widened_values(
        (x, y, bins) in (2usize..150).prop_flat_map(|n| (scores(n), scores(n), 2..=n.min(20)))
    ) {
        let (x64, y64) = (widen(&x), widen(&y));
        let case = format!("n {} bins {bins}", x.len());
        match (metrics::kendall_tau_b(&x, &y), exact::kendall_tau_b(&x64, &y64)) {
            (Ok(f), Ok(e)) => {
                check_at("metrics::kendall_tau_b", &case, f, e);
                prop_assert_eq!(f.to_bits(), metrics::kendall_tau_b(&x64, &y64).unwrap().to_bits());
            }
            (f, e) => prop_assert_eq!(format!("{f:?}"), format!("{e:?}")),
        }
        // y as the per-query performance (f64, as the retrieval metrics give it).
        match (metrics::binned_kendall_tau(&x, &y64, bins), exact::binned_kendall_tau(&x64, &y64, bins)) {
            (Ok(f), Ok(e)) => {
                check_at("metrics::binned_kendall_tau", &case, f.tau, e.tau);
                check_slice("metrics::binned_kendall_tau", &case, &f.bin_uncertainty, &e.bin_uncertainty);
                check_slice("metrics::binned_kendall_tau", &case, &f.bin_performance, &e.bin_performance);
                prop_assert_eq!(f, metrics::binned_kendall_tau(&x64, &y64, bins).unwrap());
            }
            (f, e) => prop_assert_eq!(format!("{f:?}"), format!("{e:?}")),
        }
    }

    #[test]
    fn uncertainty_metrics_in_f32_equal_the_exact_twin_on_widened_values(
        (uncertainty, performance, confidence, correct, bins) in (1usize..200).prop_flat_map(|n| (
            scores(n),
            unit(n),
            unit(n),
            prop::collection::vec(prop::bool::ANY, n),
            1..=n.min(15),
        ))
    ) {
        let uncertainty64 = widen(&uncertainty);
        let performance = widen(&performance);
        let confidence64 = widen(&confidence);
        let case = format!("n {} bins {bins}", uncertainty.len());

        let f = metrics::sparsification_curve(&uncertainty, &performance).unwrap();
        let e = exact::sparsification_curve(&uncertainty64, &performance).unwrap();
        check_slice("metrics::sparsification_curve", &case, &f.curve, &e.curve);
        check_slice("metrics::sparsification_curve", &case, &f.oracle, &e.oracle);
        check_at("metrics::sparsification_curve", &case, f.ausc, e.ausc);
        prop_assert_eq!(f, metrics::sparsification_curve(&uncertainty64, &performance).unwrap());

        let f = metrics::expected_calibration_error(&confidence, &correct, bins).unwrap();
        let e = exact::expected_calibration_error(&confidence64, &correct, bins).unwrap();
        check_at("metrics::expected_calibration_error", &case, f.ece, e.ece);
        prop_assert_eq!(
            f.bins.iter().map(|b| b.count).collect::<Vec<_>>(),
            e.bins.iter().map(|b| b.count).collect::<Vec<_>>()
        );
        prop_assert_eq!(f, metrics::expected_calibration_error(&confidence64, &correct, bins).unwrap());

        let f = metrics::ece_at_k(&uncertainty, &performance, bins).unwrap();
        let e = exact::ece_at_k(&uncertainty64, &performance, bins).unwrap();
        check_at("metrics::ece_at_k", &case, f.ece, e.ece);
        prop_assert_eq!(f, metrics::ece_at_k(&uncertainty64, &performance, bins).unwrap());

        let nearest: Vec<usize> = (0..uncertainty.len()).rev().collect();
        let f = metrics::query_neighbour_uncertainty(&uncertainty, &uncertainty, &nearest).unwrap();
        prop_assert_eq!(
            &f,
            &exact::query_neighbour_uncertainty(&uncertainty64, &uncertainty64, &nearest).unwrap()
        );
    }
}

/// Debug text of an error: `Error` holds the offending value, and NaN ≠ NaN.
fn text<T: std::fmt::Debug>(r: probdml::Result<T>) -> String {
    format!("{:?}", r.expect_err("an error"))
}

#[test]
fn bad_input_fails_alike_in_both_precisions() {
    let (good32, good64) = ([0.25f32, 0.5], [0.25f64, 0.5]);
    let (nan32, nan64) = ([0.25f32, f32::NAN], [0.25f64, f64::NAN]);
    let (empty32, empty64): ([f32; 0], [f64; 0]) = ([], []);

    let e = metrics::auroc(&good32, &nan32).unwrap_err();
    assert!(
        matches!(e, Error::NotFiniteElement { arg: "ood_scores", index: 1, value } if value.is_nan()),
        "{e:?}"
    );
    assert_eq!(
        text(metrics::auroc(&good32, &nan32)),
        text(metrics::auroc(&good64, &nan64))
    );
    assert_eq!(
        text(metrics::auroc(&good32, &nan32)),
        text(exact::auroc(&good64, &nan64))
    );
    assert_eq!(
        text(metrics::auprc(&nan32, &good32)),
        text(metrics::auprc(&nan64, &good64))
    );
    assert_eq!(
        text(metrics::roc_curve(&nan32, &good32)),
        text(metrics::roc_curve(&nan64, &good64))
    );
    let e = metrics::auroc(&empty32, &good32).unwrap_err();
    assert!(
        matches!(
            e,
            Error::TooFew {
                arg: "id_scores",
                min: 1,
                got: 0
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        text(metrics::auroc(&empty32, &good32)),
        text(metrics::auroc(&empty64, &good64))
    );
    assert_eq!(
        text(metrics::verification_average_precision(
            &nan32,
            &[true, false]
        )),
        text(metrics::verification_average_precision(
            &nan64,
            &[true, false]
        ))
    );

    let e = metrics::kendall_tau_b(&good32, &[0.5f32]).unwrap_err();
    assert!(
        matches!(
            e,
            Error::DimensionMismatch {
                arg: "y",
                expected: 2,
                got: 1
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        text(metrics::kendall_tau_b(&good32, &[0.5f32])),
        text(metrics::kendall_tau_b(&good64, &[0.5f64]))
    );
    assert_eq!(
        text(metrics::kendall_tau_b(&good32, &nan32)),
        text(metrics::kendall_tau_b(&good64, &nan64))
    );

    let e = metrics::sparsification_curve(&nan32, &good64).unwrap_err();
    assert!(
        matches!(
            e,
            Error::NotFiniteElement {
                arg: "uncertainty",
                index: 1,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        text(metrics::sparsification_curve(&nan32, &good64)),
        text(metrics::sparsification_curve(&nan64, &good64))
    );
    let e = metrics::sparsification_curve(&good32, &[0.5]).unwrap_err();
    assert!(
        matches!(
            e,
            Error::DimensionMismatch {
                arg: "performance",
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        text(metrics::sparsification_curve(&empty32, &[])),
        text(metrics::sparsification_curve(&empty64, &[]))
    );

    let e = metrics::expected_calibration_error(&nan32, &[true, false], 10).unwrap_err();
    assert!(
        matches!(
            e,
            Error::NotFiniteElement {
                arg: "confidence",
                index: 1,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        text(metrics::expected_calibration_error(
            &nan32,
            &[true, false],
            10
        )),
        text(metrics::expected_calibration_error(
            &nan64,
            &[true, false],
            10
        ))
    );
    assert_eq!(
        text(metrics::expected_calibration_error(&[1.5f32], &[true], 10)),
        text(metrics::expected_calibration_error(&[1.5f64], &[true], 10))
    );
    assert_eq!(
        text(metrics::ece_at_k(&nan32, &good64, 1)),
        text(metrics::ece_at_k(&nan64, &good64, 1))
    );
    assert_eq!(
        text(metrics::binned_kendall_tau(&nan32, &good64, 2)),
        text(metrics::binned_kendall_tau(&nan64, &good64, 2))
    );
    assert_eq!(
        text(metrics::query_neighbour_uncertainty(
            &nan32,
            &good32,
            &[0, 1]
        )),
        text(metrics::query_neighbour_uncertainty(
            &nan64,
            &good64,
            &[0, 1]
        ))
    );
}
