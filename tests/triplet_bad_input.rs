//! Bad input to every chapter-05 entry point is a `probdml::Error` naming the argument — never a
//! panic, never a NaN: σ² < 0, m < 0, length mismatch, D = 0, NaN/±∞, ragged batches, overflow.
// The six-slice `triplet::moments` and `triplet::log_likelihood` are deprecated for one release;
// these checks call them, and `tests/named_inputs.rs` holds `Triplet`'s methods to them bit for bit.
#![allow(deprecated)]

use probdml::gaussian_quadratic_form::GaussianQuadraticForm;
use probdml::triplet::{self, exact};
use probdml::Error;

const NAMES: [&str; 6] = ["mu_a", "var_a", "mu_p", "var_p", "mu_n", "var_n"];

fn good() -> [Vec<f64>; 6] {
    [
        vec![0.1, 0.2],
        vec![0.3, 0.1],
        vec![0.0, 0.5],
        vec![0.2, 0.2],
        vec![1.0, -1.0],
        vec![0.1, 0.4],
    ]
}

/// Every single-triplet entry point on one input, as `Result<f64>` (moments → the variance).
fn all_entry_points(x: &[Vec<f64>; 6], margin: f64) -> Vec<(&'static str, probdml::Result<f64>)> {
    let [a, b, c, d, e, f] = x;
    vec![
        ("moments", triplet::moments(a, b, c, d, e, f).map(|m| m.1)),
        (
            "exact::moments",
            exact::moments(a, b, c, d, e, f).map(|m| m.1),
        ),
        (
            "log_likelihood",
            triplet::log_likelihood(a, b, c, d, e, f, margin),
        ),
        (
            "exact::log_likelihood",
            exact::log_likelihood(a, b, c, d, e, f, margin),
        ),
        (
            "nll_gradient",
            triplet::nll_gradient(a, b, c, d, e, f, a.len().max(1), margin).map(|g| g.nll),
        ),
        (
            "exact::nll_gradient",
            exact::nll_gradient(a, b, c, d, e, f, a.len().max(1), margin).map(|g| g.nll),
        ),
        (
            "tau_distribution",
            exact::tau_distribution(a, b, c, d, e, f).map(|t| t.mean()),
        ),
    ]
}

fn expect_error_naming(results: Vec<(&'static str, probdml::Result<f64>)>, arg: &str) {
    for (name, result) in results {
        match result {
            Err(err) => assert!(
                err.to_string().contains(arg),
                "{name}: `{err}` does not name {arg}"
            ),
            Ok(v) => panic!("{name}: accepted bad `{arg}`, returned {v}"),
        }
    }
}

#[test]
fn negative_variance_is_an_error_naming_it() {
    for k in [1, 3, 5] {
        let mut x = good();
        x[k][1] = -1e-300;
        expect_error_naming(all_entry_points(&x, 0.1), NAMES[k]);
    }
}

#[test]
fn nan_and_infinite_entries_are_errors_naming_them() {
    for k in 0..6 {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let mut x = good();
            x[k][0] = bad;
            let results = all_entry_points(&x, 0.1);
            for (_, r) in &results {
                assert!(
                    matches!(r, Err(Error::NotFiniteElement { index: 0, .. })),
                    "{r:?}"
                );
            }
            expect_error_naming(results, NAMES[k]);
        }
    }
}

#[test]
fn length_mismatch_and_empty_input_are_errors() {
    for k in 1..6 {
        let mut x = good();
        x[k].push(0.5);
        expect_error_naming(all_entry_points(&x, 0.1), NAMES[k]);
    }
    let empty: [Vec<f64>; 6] = Default::default();
    for (name, r) in all_entry_points(&empty, 0.1) {
        assert!(
            matches!(r, Err(Error::Empty { arg: "mu_a", .. })),
            "{name}: {r:?}"
        );
    }
}

#[test]
fn margin_must_be_finite_and_nonnegative() {
    for m in [-1e-12, -1.0, f64::NAN, f64::INFINITY] {
        let [a, b, c, d, e, f] = good();
        for r in [
            triplet::log_likelihood(&a, &b, &c, &d, &e, &f, m),
            exact::log_likelihood(&a, &b, &c, &d, &e, &f, m),
            triplet::nll_gradient(&a, &b, &c, &d, &e, &f, 2, m).map(|g| g.nll),
            exact::nll_gradient(&a, &b, &c, &d, &e, &f, 2, m).map(|g| g.nll),
        ] {
            let err = r.unwrap_err();
            assert!(err.to_string().contains("margin"), "{err}");
        }
    }
}

#[test]
fn batches_must_have_whole_rows_and_a_dimension() {
    let [a, b, c, d, e, f] = good();
    let err = triplet::nll_gradient(&a, &b, &c, &d, &e, &f, 0, 0.1).unwrap_err();
    assert!(err.to_string().contains("dim"), "{err}");
    let err = triplet::nll_gradient(&a, &b, &c, &d, &e, &f, 3, 0.1).unwrap_err();
    assert!(
        matches!(err, Error::RaggedRows { dim: 3, len: 2, .. }),
        "{err}"
    );
    let err = exact::nll_gradient(&a, &b, &c, &d, &e, &f, 3, 0.1).unwrap_err();
    assert!(matches!(err, Error::RaggedRows { .. }), "{err}");
}

#[test]
fn deterministic_violated_triplets_and_overflow_are_errors_not_nan() {
    let z = [0.0];
    // All variances 0 and τ = 1 − 0 ≥ −m: the NLL is +∞, so the gradient is undefined.
    let err = triplet::nll_gradient(&[0.0], &z, &[1.0], &z, &[0.0], &z, 1, 0.0).unwrap_err();
    assert!(err.to_string().contains("var_a"), "{err}");
    // But the log-likelihoods are the indicator, −∞ (not NaN).
    assert_eq!(
        triplet::log_likelihood(&[0.0], &z, &[1.0], &z, &[0.0], &z, 0.0).unwrap(),
        f64::NEG_INFINITY
    );
    assert_eq!(
        exact::log_likelihood(&[0.0], &z, &[1.0], &z, &[0.0], &z, 0.0).unwrap(),
        f64::NEG_INFINITY
    );
    // Entries whose squares overflow f64.
    let big = [1e200];
    for (name, r) in all_entry_points(
        &[
            big.to_vec(),
            z.to_vec(),
            vec![-1e200],
            z.to_vec(),
            z.to_vec(),
            z.to_vec(),
        ],
        0.0,
    ) {
        assert!(r.is_err(), "{name}: {r:?}");
    }
}

#[test]
fn priors_and_the_loss_reject_bad_input() {
    let err = triplet::gaussian_kl(&[0.0], &[0.0], 1.0).unwrap_err();
    assert!(err.to_string().contains("var"), "{err}");
    let err = triplet::gaussian_kl(&[0.0], &[1.0], 0.0).unwrap_err();
    assert!(err.to_string().contains("prior_var"), "{err}");
    let err = triplet::gaussian_kl(&[], &[], 1.0).unwrap_err();
    assert!(err.to_string().contains("mu"), "{err}");
    let err = triplet::gaussian_kl(&[0.0, 1.0], &[1.0], 1.0).unwrap_err();
    assert!(err.to_string().contains("var"), "{err}");
    let err = exact::gaussian_kl(&[f64::NAN], &[1.0], 1.0).unwrap_err();
    assert!(err.to_string().contains("mu"), "{err}");
    let err = triplet::vmf_kl(1, 1.0).unwrap_err();
    assert!(err.to_string().contains("dim"), "{err}");
    let err = triplet::vmf_kl(3, -1.0).unwrap_err();
    assert!(err.to_string().contains("kappa"), "{err}");
    let err = triplet::loss(f64::NAN, &[], 1e-6).unwrap_err();
    assert!(err.to_string().contains("nll"), "{err}");
    let err = triplet::loss(1.0, &[-1.0], 1e-6).unwrap_err();
    assert!(err.to_string().contains("kl_terms"), "{err}");
    let err = triplet::loss(1.0, &[1.0], -1e-6).unwrap_err();
    assert!(err.to_string().contains("kl_scale"), "{err}");
    let err = triplet::elbo(f64::INFINITY, &[1.0]).unwrap_err();
    assert!(err.to_string().contains("log_likelihood"), "{err}");
    let err = triplet::gaussian_prior_variance(0).unwrap_err();
    assert!(err.to_string().contains("dim"), "{err}");
}

#[test]
fn quadratic_form_rejects_bad_input() {
    let err = GaussianQuadraticForm::with_normal(&[1.0], &[0.0], 0.0, f64::NAN).unwrap_err();
    assert!(err.to_string().contains("normal_sd"), "{err}");
    let err = GaussianQuadraticForm::new(&[1.0], &[], 0.0).unwrap_err();
    assert!(err.to_string().contains("shifts"), "{err}");
}
