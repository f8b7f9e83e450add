//! Bad input to the chapter-08 metrics (book chapter 08, "Bad input"): empty sets, k = 0, k larger than
//! the database, NaN scores or embeddings, a single class for AUROC — each an `Error` that
//! names the argument and the rule, raised alike by the fast and the exact twin.
// The positional `metrics::auroc`, `auprc` and `roc_curve` are deprecated for one release; these
// checks call them, and `tests/named_inputs.rs` holds `OodScores`'s methods to them bit for bit.
#![allow(deprecated)]

use probdml::metrics::{self, exact, Distance, Embeddings, Retrieval};
use probdml::Error;

/// Runs a check on both twins and returns the (equal) error.
fn both<T: std::fmt::Debug>(fast: probdml::Result<T>, slow: probdml::Result<T>) -> Error {
    let (a, b) = (fast.unwrap_err(), slow.unwrap_err());
    // Compared by their Debug form: an error carrying a NaN is not == to itself.
    assert_eq!(
        format!("{a:?}"),
        format!("{b:?}"),
        "the twins disagree on the error"
    );
    a
}

fn task<'a>(x: &'a [f64], labels: &'a [usize]) -> Retrieval<'a> {
    Retrieval::leave_one_out(Embeddings::new(x, 1).unwrap(), labels, Distance::Euclidean).unwrap()
}

#[test]
fn ood_scores_empty_single_class_or_nan() {
    let e = both(metrics::auroc(&[], &[1.0]), exact::auroc(&[], &[1.0]));
    assert_eq!(
        e,
        Error::TooFew {
            arg: "id_scores",
            min: 1,
            got: 0
        }
    );
    assert_eq!(
        e.to_string(),
        "argument `id_scores` needs at least 1 element(s), got 0"
    );
    // Only one class present: no OOD score.
    let e = both(
        metrics::auprc(&[0.3, 0.4], &[]),
        exact::auprc(&[0.3, 0.4], &[]),
    );
    assert_eq!(
        e,
        Error::TooFew {
            arg: "ood_scores",
            min: 1,
            got: 0
        }
    );
    let e = both(
        metrics::auroc(&[0.3, f64::NAN], &[1.0]),
        exact::auroc(&[0.3, f64::NAN], &[1.0]),
    );
    assert!(
        matches!(
            e,
            Error::NotFiniteElement {
                arg: "id_scores",
                index: 1,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "argument `id_scores` must be finite: element 1 is NaN"
    );
    let e = both(
        metrics::roc_curve(&[0.3], &[f64::INFINITY]),
        exact::roc_curve(&[0.3], &[f64::INFINITY]),
    );
    assert!(matches!(
        e,
        Error::NotFiniteElement {
            arg: "ood_scores",
            index: 0,
            ..
        }
    ));
}

#[test]
fn kendall_constant_short_mismatched_or_nan() {
    let e = both(
        metrics::kendall_tau_b(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]),
        exact::kendall_tau_b(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]),
    );
    assert!(matches!(e, Error::Undefined { arg: "x", .. }), "{e:?}");
    assert!(e.to_string().contains("all values are equal"));
    let e = both(
        metrics::kendall_tau_b(&[1.0], &[1.0]),
        exact::kendall_tau_b(&[1.0], &[1.0]),
    );
    assert_eq!(
        e,
        Error::TooFew {
            arg: "x",
            min: 2,
            got: 1
        }
    );
    let e = both(
        metrics::kendall_tau_b(&[1.0, 2.0], &[1.0]),
        exact::kendall_tau_b(&[1.0, 2.0], &[1.0]),
    );
    assert_eq!(
        e,
        Error::DimensionMismatch {
            arg: "y",
            expected: 2,
            got: 1
        }
    );
    let e = both(
        metrics::kendall_tau_b(&[1.0, 2.0], &[1.0, f64::NAN]),
        exact::kendall_tau_b(&[1.0, 2.0], &[1.0, f64::NAN]),
    );
    assert!(matches!(
        e,
        Error::NotFiniteElement {
            arg: "y",
            index: 1,
            ..
        }
    ));
}

#[test]
fn retrieval_cut_off_zero_or_beyond_the_database() {
    let x = [0.0, 1.0, 2.0];
    let labels = [0, 0, 1];
    let t = task(&x, &labels);
    let e = both(metrics::recall_at_k(&t, 0), exact::recall_at_k(&t, 0));
    assert_eq!(
        e,
        Error::CountOutOfRange {
            arg: "k",
            value: 0,
            min: 1,
            max: 2,
            reason: "k counts retrieved items: at least 1, at most the database a query sees"
        }
    );
    assert!(e
        .to_string()
        .starts_with("argument `k` = 0 is out of range: must satisfy 1 <= k <= 2"));
    // Leave-one-out: a query sees the other two items only.
    both(metrics::map_at_k(&t, 3), exact::map_at_k(&t, 3));
    both(
        metrics::nearest_neighbours(&t, 3),
        exact::nearest_neighbours(&t, 3),
    );
    both(metrics::per_query_at_k(&t, 0), exact::per_query_at_k(&t, 0));
    both(
        metrics::evaluate_retrieval(&t, &[]),
        exact::evaluate_retrieval(&t, &[]),
    );
    assert!(metrics::precision_at_k(&t, 2).is_ok());
}

#[test]
fn retrieval_nan_empty_ragged_and_mismatched_input() {
    let e = Embeddings::new(&[0.0, f64::NAN], 1).unwrap_err();
    assert_eq!(
        e.to_string(),
        "argument `data` must be finite: element 1 is NaN"
    );
    assert_eq!(
        Embeddings::new(&[], 2).unwrap_err(),
        Error::TooFew {
            arg: "data",
            min: 1,
            got: 0
        }
    );
    assert_eq!(
        Embeddings::new(&[1.0, 2.0, 3.0], 2).unwrap_err(),
        Error::RaggedRows {
            arg: "data",
            len: 3,
            dim: 2
        }
    );
    assert!(matches!(
        Embeddings::new(&[1.0], 0).unwrap_err(),
        Error::InvalidDimension { arg: "dim", .. }
    ));
    assert!(matches!(
        Embeddings::new(&[1e200, 1e200], 2).unwrap_err(),
        Error::OutOfDomain { arg: "data", .. }
    ));
    let one = Embeddings::new(&[1.0], 1).unwrap();
    assert_eq!(
        Retrieval::leave_one_out(one, &[0], Distance::Euclidean).unwrap_err(),
        Error::TooFew {
            arg: "embeddings",
            min: 2,
            got: 1
        }
    );
    let two = Embeddings::new(&[1.0, 2.0], 1).unwrap();
    assert_eq!(
        Retrieval::leave_one_out(two, &[0], Distance::Euclidean).unwrap_err(),
        Error::DimensionMismatch {
            arg: "labels",
            expected: 2,
            got: 1
        }
    );
    let zero = Embeddings::new(&[0.0, 0.0, 1.0, 0.0], 2).unwrap();
    assert!(matches!(
        Retrieval::leave_one_out(zero, &[0, 0], Distance::Cosine).unwrap_err(),
        Error::RowOutOfDomain {
            arg: "embeddings",
            row: 0,
            ..
        }
    ));
    let q = Embeddings::new(&[1.0, 2.0, 3.0], 3).unwrap();
    assert_eq!(
        Retrieval::query_database(q, &[0], two, &[0, 0], Distance::Euclidean).unwrap_err(),
        Error::DimensionMismatch {
            arg: "queries",
            expected: 1,
            got: 3
        }
    );
    let positives = vec![vec![0, 5], vec![1]];
    let e = Retrieval::leave_one_out_positives(two, &positives, Distance::Euclidean).unwrap_err();
    assert_eq!(
        e,
        Error::IndexOutOfRange {
            arg: "positives",
            position: 1,
            index: 5,
            target: "database",
            len: 2
        }
    );
    assert_eq!(
        e.to_string(),
        "argument `positives`: entry 1 is index 5, but the database has only 2 item(s)"
    );
}

#[test]
fn retrieval_without_any_positive_is_undefined() {
    let x = [0.0, 1.0, 2.0];
    let labels = [0, 1, 2];
    let t = task(&x, &labels);
    let e = both(metrics::recall_at_k(&t, 1), exact::recall_at_k(&t, 1));
    assert!(matches!(e, Error::Undefined { arg: "labels", .. }), "{e:?}");
    both(metrics::map_at_r(&t), exact::map_at_r(&t));
    both(metrics::r_precision(&t), exact::r_precision(&t));
}

#[test]
fn closed_set_votes_need_two_items_and_matching_sizes() {
    let one = [0.5];
    let samples = [Embeddings::new(&one, 1).unwrap()];
    let e = both(
        metrics::closed_set_votes(&samples, &[3], Distance::Euclidean),
        exact::closed_set_votes(&samples, &[3], Distance::Euclidean),
    );
    assert_eq!(
        e,
        Error::TooFew {
            arg: "labels",
            min: 2,
            got: 1
        }
    );
    let three = [0.5, 1.0, 2.0];
    let samples = [Embeddings::new(&three, 1).unwrap()];
    let e = both(
        metrics::closed_set_votes(&samples, &[3, 4], Distance::Euclidean),
        exact::closed_set_votes(&samples, &[3, 4], Distance::Euclidean),
    );
    assert_eq!(
        e,
        Error::DimensionMismatch {
            arg: "samples",
            expected: 2,
            got: 3
        }
    );
    let e = both(
        metrics::closed_set_votes(&[], &[3, 4], Distance::Euclidean),
        exact::closed_set_votes(&[], &[3, 4], Distance::Euclidean),
    );
    assert_eq!(
        e,
        Error::TooFew {
            arg: "samples",
            min: 1,
            got: 0
        }
    );
}

#[test]
fn sparsification_and_calibration_bad_input() {
    let e = both(
        metrics::sparsification_curve::<f64>(&[], &[]),
        exact::sparsification_curve(&[], &[]),
    );
    assert_eq!(
        e,
        Error::TooFew {
            arg: "uncertainty",
            min: 1,
            got: 0
        }
    );
    both(
        metrics::sparsification_curve(&[0.1], &[0.1, 0.2]),
        exact::sparsification_curve(&[0.1], &[0.1, 0.2]),
    );
    let e = both(
        metrics::sparsification_curve(&[f64::NAN], &[1.0]),
        exact::sparsification_curve(&[f64::NAN], &[1.0]),
    );
    assert!(matches!(
        e,
        Error::NotFiniteElement {
            arg: "uncertainty",
            ..
        }
    ));
    let e = both(
        metrics::expected_calibration_error(&[1.5], &[true], 10),
        exact::expected_calibration_error(&[1.5], &[true], 10),
    );
    assert!(matches!(
        e,
        Error::OutOfDomain {
            arg: "confidence",
            ..
        }
    ));
    both(
        metrics::expected_calibration_error(&[0.5], &[true], 0),
        exact::expected_calibration_error(&[0.5], &[true], 0),
    );
    both(
        metrics::closed_set_ece(&[vec![]], &[0], 10),
        exact::closed_set_ece(&[vec![]], &[0], 10),
    );
    both(
        metrics::closed_set_ece(&[], &[] as &[usize], 10),
        exact::closed_set_ece(&[], &[] as &[usize], 10),
    );
    let e = both(
        metrics::ece_at_k(&[0.1, 0.2], &[1.0, 0.5], 3),
        exact::ece_at_k(&[0.1, 0.2], &[1.0, 0.5], 3),
    );
    assert!(
        matches!(
            e,
            Error::CountOutOfRange {
                arg: "bins",
                value: 3,
                max: 2,
                ..
            }
        ),
        "{e:?}"
    );
    both(
        metrics::ece_at_k(&[0.1], &[f64::NAN], 1),
        exact::ece_at_k(&[0.1], &[f64::NAN], 1),
    );
    let e = both(
        metrics::binned_kendall_tau(&[0.1, 0.2, 0.3], &[1.0, 1.0, 1.0], 3),
        exact::binned_kendall_tau(&[0.1, 0.2, 0.3], &[1.0, 1.0, 1.0], 3),
    );
    assert!(
        matches!(
            e,
            Error::Undefined {
                arg: "performance",
                ..
            }
        ),
        "{e:?}"
    );
    both(
        metrics::binned_kendall_tau(&[0.1, 0.2], &[1.0, 0.0], 1),
        exact::binned_kendall_tau(&[0.1, 0.2], &[1.0, 0.0], 1),
    );
    let e = both(
        metrics::binned_kendall_tau_verification(
            &[0.1, 0.2, 0.3, 0.4],
            &[0.5; 4],
            &[true, true, false, false],
            2,
        ),
        exact::binned_kendall_tau_verification(
            &[0.1, 0.2, 0.3, 0.4],
            &[0.5; 4],
            &[true, true, false, false],
            2,
        ),
    );
    assert!(
        matches!(
            e,
            Error::Undefined {
                arg: "is_match",
                ..
            }
        ),
        "{e:?}"
    );
    // The verification form checks its own inputs: lengths, finiteness, the bin count.
    let verification = |u: &[f64], m: &[f64], is_match: &[bool], bins| {
        both(
            metrics::binned_kendall_tau_verification(u, m, is_match, bins),
            exact::binned_kendall_tau_verification(u, m, is_match, bins),
        )
    };
    let u = [0.1, 0.2, 0.3, 0.4];
    let e = verification(&u, &[0.5; 4], &[true, false, true], 2);
    assert!(
        matches!(
            e,
            Error::DimensionMismatch {
                arg: "is_match",
                expected: 4,
                got: 3
            }
        ),
        "{e:?}"
    );
    let e = verification(&u, &[0.5; 3], &[true, false, true, false], 2);
    assert!(
        matches!(
            e,
            Error::DimensionMismatch {
                arg: "match_score",
                ..
            }
        ),
        "{e:?}"
    );
    let e = verification(
        &u,
        &[0.5, f64::NAN, 0.5, 0.5],
        &[true, false, true, false],
        2,
    );
    assert!(
        matches!(
            e,
            Error::NotFiniteElement {
                arg: "match_score",
                index: 1,
                ..
            }
        ),
        "{e:?}"
    );
    let e = verification(&u, &[0.5; 4], &[true, false, true, false], 5);
    assert!(
        matches!(e, Error::CountOutOfRange { arg: "bins", .. }),
        "{e:?}"
    );
    let e = both(
        metrics::query_neighbour_uncertainty(&[0.1], &[0.2], &[3]),
        exact::query_neighbour_uncertainty(&[0.1], &[0.2], &[3]),
    );
    assert!(matches!(
        e,
        Error::IndexOutOfRange {
            arg: "nearest",
            index: 3,
            ..
        }
    ));
}

#[test]
fn f32_embeddings_and_thread_counts() {
    // f32 rows are checked like f64 rows: a NaN or an infinity is named by position.
    let e = Embeddings::from_f32(&[0.0, f32::NAN, 1.0, 2.0], 2).unwrap_err();
    assert!(matches!(
        e,
        Error::NotFiniteElement {
            arg: "data",
            index: 1,
            ..
        }
    ));
    assert!(matches!(
        Embeddings::from_f32(&[f32::INFINITY], 1),
        Err(Error::NotFiniteElement { index: 0, .. })
    ));
    assert!(matches!(
        Embeddings::from_f32(&[0.0; 5], 2),
        Err(Error::RaggedRows { len: 5, dim: 2, .. })
    ));
    assert!(matches!(
        Embeddings::from_f32(&[], 2),
        Err(Error::TooFew { arg: "data", .. })
    ));
    // A thread count of 0 (or an absurd one) is rejected, naming the argument.
    let x = [0.0, 1.0, 2.0];
    let t = task(&x, &[0, 0, 1]);
    assert!(matches!(
        t.with_threads(0),
        Err(Error::CountOutOfRange { arg: "threads", .. })
    ));
    assert!(t.with_threads(100_000).is_err());
    assert_eq!(t.with_threads(3).unwrap().threads(), Some(3));
    // A zero f32 row under cosine is rejected as for f64.
    let z = [0.0f32, 0.0, 1.0, 0.0];
    assert!(matches!(
        Retrieval::leave_one_out(
            Embeddings::from_f32(&z, 2).unwrap(),
            &[0, 0],
            Distance::Cosine
        ),
        Err(Error::RowOutOfDomain {
            arg: "embeddings",
            ..
        })
    ));
}
