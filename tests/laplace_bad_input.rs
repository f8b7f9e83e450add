//! Bad input to the chapter-04 Laplace code: each a clear `Error` naming the argument, in the
//! fast and the exact twins alike.

use probdml::laplace::{self, exact, online_update, predictive_summary};
use probdml::Error;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn arg_of(err: &Error) -> &'static str {
    match err {
        Error::NotFinite { arg, .. }
        | Error::OutOfDomain { arg, .. }
        | Error::InvalidDimension { arg, .. }
        | Error::DimensionMismatch { arg, .. }
        | Error::TooFew { arg, .. }
        | Error::NotFiniteElement { arg, .. }
        | Error::OutOfDomainElement { arg, .. }
        | Error::Empty { arg, .. }
        | Error::RaggedRows { arg, .. }
        | Error::Undefined { arg, .. } => arg,
        other => panic!("unexpected error {other}"),
    }
}

fn names(result: probdml::Result<impl std::fmt::Debug>, arg: &str) {
    let err = result.unwrap_err();
    assert_eq!(arg_of(&err), arg, "{err}");
    assert!(err.to_string().contains(arg), "{err}");
}

#[test]
fn prior_variance_must_be_positive() {
    for v in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        names(laplace::posthoc_precision(&[1.0], 1.0, v), "prior_var");
        names(exact::posthoc_precision(&[1.0], 1.0, v), "prior_var");
        names(laplace::prior_precision(2, v), "prior_var");
    }
}

#[test]
fn beta_must_be_nonnegative() {
    for b in [-1e-300, -1.0, f64::NAN] {
        names(laplace::posthoc_precision(&[1.0], b, 1.0), "beta");
        names(exact::posthoc_precision(&[1.0], b, 1.0), "beta");
    }
}

#[test]
fn nan_entries_are_named() {
    names(
        laplace::posthoc_precision(&[1.0, f64::NAN], 1.0, 1.0),
        "hessian_diagonal",
    );
    names(
        exact::posthoc_precision(&[1.0, f64::NAN, 0.0, 1.0], 1.0, 1.0),
        "hessian",
    );
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut out = [0.0; 2];
    names(
        laplace::sample_posterior(&[f64::NAN, 0.0], &[1.0, 1.0], &mut rng, &mut out),
        "mu",
    );
    names(
        laplace::sample_posterior(&[0.0, 0.0], &[1.0, f64::NAN], &mut rng, &mut out),
        "precision",
    );
    names(
        laplace::sample_posterior(&[0.0, 0.0], &[1.0, 0.0], &mut rng, &mut out),
        "precision",
    );
    names(
        exact::sample_posterior(&[0.0, 0.0], &[1.0, 2.0, 2.0, 1.0], &mut rng, &mut out),
        "precision",
    );
    names(
        predictive_summary(&[1.0, f64::NAN], 2, &[1.0]),
        "weight_samples",
    );
    names(predictive_summary(&[1.0, 0.0], 2, &[f64::NAN]), "features");
    let (mut mean, mut precision) = (vec![0.0; 2], vec![1.0; 2]);
    names(
        online_update(
            &mut mean,
            &mut precision,
            &mut rng,
            2,
            f64::NAN,
            0.0,
            |_, _, _| {},
        ),
        "learning_rate",
    );
    names(
        online_update(
            &mut mean,
            &mut precision,
            &mut rng,
            2,
            0.1,
            0.0,
            |_, g, _| g[0] = f64::NAN,
        ),
        "gradient",
    );
    names(
        online_update(
            &mut mean,
            &mut precision,
            &mut rng,
            2,
            0.1,
            0.0,
            |_, _, h| h[1] = f64::INFINITY,
        ),
        "hessian_diagonal",
    );
    assert_eq!(
        (mean, precision),
        (vec![0.0; 2], vec![1.0; 2]),
        "state unchanged on error"
    );
}

#[test]
fn alpha_must_lie_in_unit_interval() {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let (mut mean, mut precision) = (vec![0.0; 2], vec![1.0; 2]);
    for a in [-0.1, 1.0 + 1e-12, f64::NAN] {
        names(
            online_update(&mut mean, &mut precision, &mut rng, 1, 0.1, a, |_, _, _| {}),
            "alpha",
        );
    }
    online_update(
        &mut mean,
        &mut precision,
        &mut rng,
        1,
        0.1,
        1.0,
        |_, _, h| h.fill(1.0),
    )
    .unwrap();
}

#[test]
fn length_mismatches_are_named() {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut out = [0.0; 2];
    names(
        laplace::sample_posterior(&[0.0, 0.0], &[1.0], &mut rng, &mut out),
        "precision",
    );
    names(
        laplace::sample_posterior(&[0.0, 0.0], &[1.0, 1.0], &mut rng, &mut out[..1]),
        "out",
    );
    names(
        exact::sample_posterior(&[0.0, 0.0], &[1.0, 0.0, 1.0], &mut rng, &mut out),
        "precision",
    );
    names(
        exact::posthoc_precision(&[1.0, 0.0, 1.0], 1.0, 1.0),
        "hessian",
    );
    let (mut mean, mut precision) = (vec![0.0; 2], vec![1.0; 3]);
    names(
        online_update(
            &mut mean,
            &mut precision,
            &mut rng,
            1,
            0.1,
            0.5,
            |_, _, _| {},
        ),
        "precision",
    );
    names(
        predictive_summary(&[1.0, 0.0, 0.0], 2, &[1.0]),
        "weight_samples",
    );
    names(predictive_summary(&[1.0, 0.0], 1, &[1.0]), "dim");
}

#[test]
fn zero_samples_are_an_error() {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let (mut mean, mut precision) = (vec![0.0; 2], vec![1.0; 2]);
    names(
        online_update(
            &mut mean,
            &mut precision,
            &mut rng,
            0,
            0.1,
            0.5,
            |_, _, _| {},
        ),
        "n_samples",
    );
    names(predictive_summary(&[], 2, &[1.0]), "weight_samples");
    names(predictive_summary(&[0.0, 0.0], 2, &[1.0]), "weight_samples"); // W x = 0
    names(
        laplace::posthoc_precision(&[], 1.0, 1.0),
        "hessian_diagonal",
    );
    names(laplace::prior_precision(0, 1.0), "n");
}
