//! Errors that keep the place: a bad element of a slice is reported with its index, a bad row of
//! a row-major matrix with its row, an empty input as empty, and the fast and exact twins of one
//! quantity fail on the same input with the same error.
// The six-slice `triplet::moments` and `triplet::log_likelihood` are deprecated for one release;
// these checks call them, and `tests/named_inputs.rs` holds `Triplet`'s methods to them bit for bit.
#![allow(deprecated)]
use probdml::{hib, laplace, triplet, vmf, Error};

#[test]
fn a_negative_variance_is_reported_with_its_index() {
    let (mu, var) = ([0.0, 0.0, 0.0], [1.0, 1.0, -0.5]);
    let ok = [0.5; 3];
    for err in [
        triplet::log_likelihood(&mu, &ok, &mu, &var, &mu, &ok, 0.1).unwrap_err(),
        triplet::exact::log_likelihood(&mu, &ok, &mu, &var, &mu, &ok, 0.1).unwrap_err(),
        triplet::moments(&mu, &ok, &mu, &var, &mu, &ok).unwrap_err(),
    ] {
        assert_eq!(
            err,
            Error::OutOfDomainElement {
                arg: "var_p",
                index: 2,
                value: -0.5,
                rule: "a variance must be >= 0",
            }
        );
        assert!(err.to_string().contains("element 2"), "{err}");
    }
    // A batch of B = 2 rows of D = 3: the flat index of the offender.
    let (mu6, ok6) = ([0.0; 6], [0.5; 6]);
    let var6 = [0.5, 0.5, 0.5, 0.5, -1.0, 0.5];
    let err = triplet::nll_gradient(&mu6, &ok6, &mu6, &ok6, &mu6, &var6, 3, 0.1).unwrap_err();
    assert!(
        matches!(
            err,
            Error::OutOfDomainElement {
                arg: "var_n",
                index: 4,
                ..
            }
        ),
        "{err:?}"
    );
    for err in [
        hib::HedgedEmbedding::from_gaussian(probdml::Gaussian { mu: &mu, var: &var }).unwrap_err(),
        hib::kl_to_standard_normal(&mu, &var).unwrap_err(),
        hib::exact::kl_to_standard_normal(&mu, &var).unwrap_err(),
    ] {
        assert!(
            matches!(
                err,
                Error::OutOfDomainElement {
                    arg: "var",
                    index: 2,
                    ..
                }
            ),
            "{err:?}"
        );
    }
    let err = triplet::gaussian_kl(&mu, &[1.0, 0.0, 1.0], 1.0).unwrap_err();
    assert!(
        matches!(
            err,
            Error::OutOfDomainElement {
                arg: "var",
                index: 1,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn a_non_positive_precision_is_reported_with_its_index() {
    let err =
        laplace::output_variance(&[1.0, 1.0, 0.0, 1.0], &[1.0, 1.0], &[1.0, 2.0]).unwrap_err();
    assert_eq!(
        err,
        Error::OutOfDomainElement {
            arg: "weight_precision",
            index: 2,
            value: 0.0,
            rule: "a precision must be > 0 (the Gaussian N(mean, precision⁻¹))",
        }
    );
}

#[test]
fn a_non_unit_row_of_mean_resultant_is_reported_with_its_row() {
    // Rows 0 and 1 are unit; row 2 has norm 1.1.
    let samples = [1.0, 0.0, 0.0, 1.0, 1.1, 0.0];
    for err in [
        vmf::mean_resultant(&samples, 2).unwrap_err(),
        vmf::exact::mean_resultant(&samples, 2).unwrap_err(),
        vmf::lam_uncertainty(&samples, 2).unwrap_err(),
    ] {
        assert!(
            matches!(
                err,
                Error::NotUnitRow {
                    arg: "samples",
                    row: 2,
                    ..
                }
            ),
            "{err:?}"
        );
    }
    // The same variant and field as the contrastive loss reports for its rows.
    let z = [1.0, 0.0, 0.0, 1.0, 1.1, 0.0];
    let err = probdml::contrastive::negative_log_likelihood(&z, 2, &[0, 0, 1], 0.5).unwrap_err();
    assert!(matches!(err, Error::NotUnitRow { row: 2, .. }), "{err:?}");
    // A NaN keeps its flat index.
    let err = vmf::mean_resultant(&[1.0, 0.0, f64::NAN, 0.0], 2).unwrap_err();
    assert!(
        matches!(
            err,
            Error::NotFiniteElement {
                arg: "samples",
                index: 2,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn empty_triplets_say_empty() {
    let e: [f64; 0] = [];
    for err in [
        triplet::log_likelihood(&e, &e, &e, &e, &e, &e, 0.1).unwrap_err(),
        triplet::exact::log_likelihood(&e, &e, &e, &e, &e, &e, 0.1).unwrap_err(),
        triplet::moments(&e, &e, &e, &e, &e, &e).unwrap_err(),
        triplet::nll_gradient(&e, &e, &e, &e, &e, &e, 2, 0.1).unwrap_err(),
    ] {
        assert!(matches!(err, Error::Empty { arg: "mu_a", .. }), "{err:?}");
        let message = err.to_string();
        assert!(message.contains("empty"), "{message}");
        assert!(!message.contains("not a valid dimension"), "{message}");
    }
}

#[test]
fn output_variance_twins_fail_alike_on_empty_input() {
    // No features, one output: both routes name `features` with the same error.
    let fast = laplace::output_variance(&[], &[1.0], &[]).unwrap_err();
    let exact = laplace::exact::output_variance(&[1.0], 1, &[]).unwrap_err();
    assert_eq!(fast, exact);
    assert!(
        matches!(
            fast,
            Error::Empty {
                arg: "features",
                ..
            }
        ),
        "{fast:?}"
    );
    // No outputs: each names its own argument for M, with the same rule.
    let fast = laplace::output_variance(&[], &[], &[1.0]).unwrap_err();
    let exact = laplace::exact::output_variance(&[], 0, &[1.0]).unwrap_err();
    let rule = "the last layer needs at least one output (M >= 1)";
    assert_eq!(
        fast,
        Error::Empty {
            arg: "bias_precision",
            rule
        }
    );
    assert_eq!(
        exact,
        Error::InvalidDimension {
            arg: "dim",
            dim: 0,
            rule
        }
    );
}

/// A batch kernel names the element that is out of its domain, not only the argument.
#[test]
fn a_batch_kernel_names_the_offending_element() {
    let rbars = [0.5, 0.9, 1.0, 0.2];
    let err = vmf::kappa_mle_batch(128, &rbars, &mut [0.0; 4]).unwrap_err();
    assert!(
        matches!(
            err,
            Error::OutOfDomainElement {
                arg: "rbars",
                index: 2,
                value: 1.0,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("element 2"), "{err}");
}

/// Under cosine distance a zero embedding is located by its row.
#[test]
fn a_zero_row_under_cosine_distance_is_located() {
    use probdml::metrics::{Distance, Embeddings, Retrieval};
    let x = [1.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.0, 1.0];
    let err = Retrieval::leave_one_out(
        Embeddings::new(&x, 2).unwrap(),
        &[0, 0, 1, 1],
        Distance::Cosine,
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::RowOutOfDomain {
                arg: "embeddings",
                row: 2,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("row 2"), "{err}");
}

/// A single cut-off is named `k`; a bad one in a list of cut-offs is named with its position.
#[test]
fn cut_offs_are_named_as_the_caller_passed_them() {
    use probdml::metrics::{self, exact, Distance, Embeddings, Retrieval};
    let x = [0.0, 0.2, 1.0, 1.1, 5.0];
    let task = Retrieval::leave_one_out(
        Embeddings::new(&x, 1).unwrap(),
        &[0, 1, 0, 1, 1],
        Distance::Euclidean,
    )
    .unwrap();
    for err in [
        metrics::recall_at_k(&task, 0).unwrap_err(),
        exact::recall_at_k(&task, 0).unwrap_err(),
        metrics::precision_at_k(&task, 9).unwrap_err(),
        metrics::map_at_k(&task, 0).unwrap_err(),
    ] {
        assert!(
            matches!(err, Error::CountOutOfRange { arg: "k", .. }),
            "{err:?}"
        );
    }
    for err in [
        metrics::evaluate_retrieval(&task, &[1, 2, 0]).unwrap_err(),
        exact::evaluate_retrieval(&task, &[1, 2, 0]).unwrap_err(),
    ] {
        assert_eq!(
            err,
            Error::CountOutOfRangeElement {
                arg: "ks",
                index: 2,
                value: 0,
                min: 1,
                max: 4,
                reason: "k counts retrieved items: at least 1, at most the database a query sees",
            }
        );
    }
}

/// A sample whose length is not a multiple of the row width is reported as ragged rows, as
/// the metrics and the contrastive loss report it.
#[test]
fn a_ragged_sample_says_ragged() {
    let samples = [1.0, 0.0, 0.0, 1.0, 1.0];
    for err in [
        vmf::mean_resultant(&samples, 2).unwrap_err(),
        vmf::exact::mean_resultant(&samples, 2).unwrap_err(),
        vmf::VonMisesFisher::fit(&samples, 2).unwrap_err(),
    ] {
        assert_eq!(
            err,
            Error::RaggedRows {
                arg: "samples",
                len: 5,
                dim: 2
            }
        );
    }
}

/// Moments of τ that overflow name the entry too large to square, in both twins and the batch.
#[test]
fn an_overflow_in_the_triplet_moments_names_its_input() {
    let (mu, var) = ([0.0, 0.0], [0.5, 0.5]);
    let huge = [0.0, 1e200];
    for err in [
        triplet::moments(&mu, &var, &mu, &var, &huge, &var).unwrap_err(),
        triplet::exact::moments(&mu, &var, &mu, &var, &huge, &var).unwrap_err(),
        triplet::log_likelihood(&mu, &var, &mu, &var, &huge, &var, 0.1).unwrap_err(),
    ] {
        assert!(
            matches!(
                err,
                Error::OutOfDomainElement {
                    arg: "mu_n",
                    index: 1,
                    value: 1e200,
                    ..
                }
            ),
            "{err:?}"
        );
    }
    // In a batch of two triplets of D = 2 the flat index of the second triplet's entry.
    let (mu4, var4) = ([0.0; 4], [0.5; 4]);
    let huge_var = [0.5, 0.5, 1e300, 0.5];
    for err in [
        triplet::nll_gradient(&mu4, &var4, &mu4, &huge_var, &mu4, &var4, 2, 0.1).unwrap_err(),
        triplet::exact::nll_gradient(&mu4, &var4, &mu4, &huge_var, &mu4, &var4, 2, 0.1)
            .unwrap_err(),
    ] {
        assert!(
            matches!(
                err,
                Error::OutOfDomainElement {
                    arg: "var_p",
                    index: 2,
                    ..
                }
            ),
            "{err:?}"
        );
    }
}

/// The bin count of a calibration analysis is bounded: 10⁹ bins once ran for 98 s.
#[test]
fn a_calibration_analysis_refuses_absurd_bin_counts() {
    use probdml::metrics::{self, exact, MAX_BINS};
    let (confidence, correct) = ([0.9, 0.2, 0.6], [true, false, true]);
    for bins in [0, MAX_BINS + 1, 1_000_000_000] {
        for err in [
            metrics::expected_calibration_error(&confidence, &correct, bins).unwrap_err(),
            exact::expected_calibration_error(&confidence, &correct, bins).unwrap_err(),
        ] {
            assert!(
                matches!(
                    err,
                    Error::CountOutOfRange {
                        arg: "bins",
                        min: 1,
                        max: MAX_BINS,
                        ..
                    }
                ),
                "{err:?}"
            );
        }
    }
    assert!(metrics::expected_calibration_error(&confidence, &correct, MAX_BINS).is_ok());
}
