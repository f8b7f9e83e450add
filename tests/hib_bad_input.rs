//! Bad input to chapter 07: σ² < 0, a ≤ 0, K = 0, C = 0, mismatched D,
//! NaN/±∞ — each gives a `probdml::Error` that names the argument, from both twins; never a
//! panic, never a silent NaN.
// The positional forms are the registry's fast items (deprecated for users: the
// named form `hib::SoftThreshold` calls the same code).
#![allow(deprecated)]

use probdml::hib::{self, exact, HedgedEmbedding, VibPair};
use probdml::metrics::{self, Distance, Embeddings, Retrieval};
use probdml::Error;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The `arg` an error names.
fn arg_of(e: &Error) -> &'static str {
    match e {
        Error::NotFinite { arg, .. }
        | Error::OutOfDomain { arg, .. }
        | Error::DimensionMismatch { arg, .. }
        | Error::TooFew { arg, .. }
        | Error::NotFiniteElement { arg, .. }
        | Error::OutOfDomainElement { arg, .. }
        | Error::Empty { arg, .. }
        | Error::RaggedRows { arg, .. }
        | Error::Undefined { arg, .. }
        | Error::TooMany { arg, .. }
        | Error::CountOutOfRange { arg, .. } => arg,
        other => panic!("unexpected error {other:?}"),
    }
}

/// Both twins of the Gaussian match probability (and the approximation) fail alike.
fn both_fail(mu1: &[f64], var1: &[f64], mu2: &[f64], var2: &[f64], a: f64, b: f64, arg: &str) {
    let e = exact::match_probability(mu1, var1, mu2, var2, a, b).unwrap_err();
    assert_eq!(arg_of(&e), arg, "{e}");
    let e2 = hib::match_probability_moment_matched(mu1, var1, mu2, var2, a, b).unwrap_err();
    // Compared by their Debug text: a NaN payload is not equal to itself.
    assert_eq!(format!("{e:?}"), format!("{e2:?}"));
    let e3 = exact::match_probability_polar(mu1, var1, mu2, var2, a, b).unwrap_err();
    assert_eq!(format!("{e:?}"), format!("{e3:?}"));
    let e4 = exact::match_probability_by_quadratic_form(mu1, var1, mu2, var2, a, b).unwrap_err();
    assert_eq!(format!("{e:?}"), format!("{e4:?}"));
    assert!(!e.to_string().is_empty());
}

#[test]
fn gaussian_match_probability_rejects_bad_arguments() {
    let (m, v) = ([0.0, 1.0], [0.5, 0.5]);
    both_fail(&m, &[0.5, -0.1], &m, &v, 1.0, 0.0, "var1");
    both_fail(&m, &v, &m, &[-1e-300, 0.5], 1.0, 0.0, "var2");
    both_fail(&m, &v, &m, &v, 0.0, 0.0, "a");
    both_fail(&m, &v, &m, &v, -2.0, 0.0, "a");
    both_fail(&m, &v, &m, &v, f64::NAN, 0.0, "a");
    both_fail(&m, &v, &m, &v, 1.0, f64::INFINITY, "b");
    both_fail(&m, &v, &[0.0], &[0.5], 1.0, 0.0, "mu2");
    both_fail(&m, &[0.5], &m, &v, 1.0, 0.0, "var1");
    both_fail(&[f64::NAN, 0.0], &v, &m, &v, 1.0, 0.0, "mu1");
    both_fail(&m, &v, &m, &[0.5, f64::INFINITY], 1.0, 0.0, "var2");
    both_fail(&[], &[], &[], &[], 1.0, 0.0, "mu1");
}

#[test]
fn embeddings_and_monte_carlo_reject_bad_arguments() {
    assert_eq!(
        arg_of(
            &HedgedEmbedding::from_gaussian(probdml::Gaussian {
                mu: &[0.0],
                var: &[-1.0]
            })
            .unwrap_err()
        ),
        "var"
    );
    assert_eq!(
        arg_of(
            &HedgedEmbedding::from_gaussian(probdml::Gaussian { mu: &[], var: &[] }).unwrap_err()
        ),
        "mu"
    );
    // C = 0: no component.
    assert_eq!(
        arg_of(
            &HedgedEmbedding::from_components(probdml::Gaussian { mu: &[], var: &[] }, 2)
                .unwrap_err()
        ),
        "mu"
    );
    assert_eq!(
        arg_of(
            &HedgedEmbedding::from_components(
                probdml::Gaussian {
                    mu: &[0.0; 3],
                    var: &[0.1; 3]
                },
                2
            )
            .unwrap_err()
        ),
        "mu"
    );
    assert_eq!(
        arg_of(
            &HedgedEmbedding::from_components(
                probdml::Gaussian {
                    mu: &[0.0; 4],
                    var: &[0.1; 2]
                },
                2
            )
            .unwrap_err()
        ),
        "var"
    );
    assert_eq!(
        arg_of(
            &HedgedEmbedding::from_components(
                probdml::Gaussian {
                    mu: &[0.0; 4],
                    var: &[0.1; 4]
                },
                0
            )
            .unwrap_err()
        ),
        "dim"
    );
    assert_eq!(
        arg_of(
            &HedgedEmbedding::from_components(
                probdml::Gaussian {
                    mu: &[f64::NAN; 2],
                    var: &[0.1; 2]
                },
                2
            )
            .unwrap_err()
        ),
        "mu"
    );
    let x2 = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &[0.0, 0.0],
        var: &[0.1, 0.1],
    })
    .unwrap();
    let x3 = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &[0.0; 3],
        var: &[0.1; 3],
    })
    .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    // K = 0.
    assert_eq!(
        arg_of(&hib::match_probability(&x2, &x2, 1.0, 0.0, 0, &mut rng).unwrap_err()),
        "n_samples"
    );
    assert_eq!(
        arg_of(&hib::self_mismatch(&x2, 1.0, 0.0, 0, &mut rng).unwrap_err()),
        "n_samples"
    );
    // Mismatched D.
    assert_eq!(
        arg_of(&hib::match_probability(&x2, &x3, 1.0, 0.0, 8, &mut rng).unwrap_err()),
        "x2"
    );
    assert_eq!(
        arg_of(&exact::mixture_match_probability(&x2, &x3, 1.0, 0.0).unwrap_err()),
        "x2"
    );
    // a ≤ 0, non-finite b.
    assert_eq!(
        arg_of(&hib::match_probability(&x2, &x2, 0.0, 0.0, 8, &mut rng).unwrap_err()),
        "a"
    );
    assert_eq!(
        arg_of(&hib::self_mismatch(&x2, -1.0, 0.0, 8, &mut rng).unwrap_err()),
        "a"
    );
    assert_eq!(
        arg_of(&exact::self_mismatch(&x2, 1.0, f64::NAN).unwrap_err()),
        "b"
    );
}

#[test]
fn kl_and_vib_reject_bad_arguments() {
    for kl in [hib::kl_to_standard_normal, exact::kl_to_standard_normal] {
        assert_eq!(arg_of(&kl(&[0.0], &[-0.5]).unwrap_err()), "var");
        assert_eq!(arg_of(&kl(&[0.0, 1.0], &[0.5]).unwrap_err()), "var");
        assert_eq!(arg_of(&kl(&[f64::NEG_INFINITY], &[0.5]).unwrap_err()), "mu");
    }
    let good = VibPair {
        mu1: &[0.0, 1.0],
        var1: &[0.5, 0.5],
        mu2: &[1.0, 0.0],
        var2: &[0.2, 0.3],
        noise1: &[0.1, -0.2],
        noise2: &[0.3, 0.4, -0.5, 0.6],
        is_match: true,
    };
    let cases: Vec<(VibPair<'_>, f64, f64, f64, &str)> = vec![
        (
            VibPair {
                var1: &[0.0, 0.5],
                ..good
            },
            1.0,
            0.0,
            0.1,
            "var1",
        ),
        (
            VibPair {
                var2: &[0.5, -0.5],
                ..good
            },
            1.0,
            0.0,
            0.1,
            "var2",
        ),
        (
            VibPair {
                mu2: &[1.0],
                ..good
            },
            1.0,
            0.0,
            0.1,
            "var2",
        ),
        (
            VibPair {
                noise1: &[],
                ..good
            },
            1.0,
            0.0,
            0.1,
            "noise1",
        ),
        (
            VibPair {
                noise2: &[0.1, 0.2, 0.3],
                ..good
            },
            1.0,
            0.0,
            0.1,
            "noise2",
        ),
        (
            VibPair {
                noise2: &[0.1, f64::NAN],
                ..good
            },
            1.0,
            0.0,
            0.1,
            "noise2",
        ),
        (good, 0.0, 0.0, 0.1, "a"),
        (good, 1.0, f64::NAN, 0.1, "b"),
        (good, 1.0, 0.0, -1.0, "beta"),
    ];
    for (pair, a, b, beta, arg) in cases {
        let e = hib::vib_loss(&pair, a, b, beta).unwrap_err();
        assert_eq!(arg_of(&e), arg, "{e}");
        let e2 = exact::vib_loss(&pair, a, b, beta).unwrap_err();
        assert_eq!(format!("{e:?}"), format!("{e2:?}"));
    }
    assert!(hib::vib_loss(&good, 1.0, 0.0, 0.1).is_ok());
}

#[test]
fn metrics_reject_bad_arguments() {
    let v = metrics::verification_average_precision;
    assert_eq!(arg_of(&v(&[], &[]).unwrap_err()), "match_score");
    assert_eq!(arg_of(&v(&[0.5, 0.2], &[true]).unwrap_err()), "is_match");
    assert_eq!(
        arg_of(&v(&[0.5, f64::NAN], &[true, false]).unwrap_err()),
        "match_score"
    );
    assert_eq!(
        arg_of(&v(&[0.5, 0.2], &[false, false]).unwrap_err()),
        "is_match"
    );
    let x = [0.0, 1.0, 2.0, 3.0];
    let positives = vec![vec![1], vec![0], vec![3], vec![2]];
    let task = Retrieval::leave_one_out_positives(
        Embeddings::new(&x, 1).unwrap(),
        &positives,
        Distance::Euclidean,
    )
    .unwrap();
    assert_eq!(
        arg_of(&metrics::knn_identification(&task, 1).unwrap_err()),
        "task"
    );
    let task = Retrieval::leave_one_out(
        Embeddings::new(&x, 1).unwrap(),
        &[0, 0, 1, 1],
        Distance::Euclidean,
    )
    .unwrap();
    assert_eq!(
        arg_of(&metrics::knn_identification(&task, 0).unwrap_err()),
        "k"
    );
    assert_eq!(
        arg_of(&metrics::knn_identification(&task, 4).unwrap_err()),
        "k"
    );
    assert_eq!(
        arg_of(&metrics::exact::knn_identification(&task, 4).unwrap_err()),
        "k"
    );
}
