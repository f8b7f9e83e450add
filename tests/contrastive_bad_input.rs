//! Bad input for chapter 03: every checked entry point returns an error that names the argument.
use probdml::contrastive::{self, exact, LossForm, PairBatch, PairCounts};
use probdml::Error;

const Z: [f64; 6] = [1.0, 0.0, 0.0, 1.0, -1.0, 0.0];
const LABELS: [usize; 3] = [0, 0, 1];

/// The fast and exact twins give the same error, and it names `arg`.
fn both(arg: &str, z: &[f64], dim: usize, labels: &[usize], margin: f64) {
    for form in [LossForm::Squared, LossForm::Hadsell, LossForm::Linear] {
        let fast = contrastive::loss(z, dim, labels, margin, form).unwrap_err();
        let slow = exact::loss(z, dim, labels, margin, form).unwrap_err();
        assert_eq!(fast.to_string(), slow.to_string());
        assert!(fast.to_string().contains(&format!("`{arg}`")), "{fast}");
    }
    let errors = [
        contrastive::loss_gradient(z, dim, labels, margin).unwrap_err(),
        exact::loss_gradient(z, dim, labels, margin).unwrap_err(),
        contrastive::negative_log_likelihood(z, dim, labels, margin).unwrap_err(),
        exact::negative_log_likelihood(z, dim, labels, margin).unwrap_err(),
        contrastive::pair_counts(z, dim, labels, margin).unwrap_err(),
        exact::pair_counts(z, dim, labels, margin).unwrap_err(),
        contrastive::hard_negatives(z, dim, labels, margin).unwrap_err(),
        exact::hard_negatives(z, dim, labels, margin).unwrap_err(),
    ];
    for e in errors {
        assert!(e.to_string().contains(&format!("`{arg}`")), "{arg}: {e}");
    }
}

#[test]
fn non_unit_embeddings() {
    let mut z = Z;
    z[2] = 1e-5; // row 1 has norm √(1 + 10⁻¹⁰) ≈ 1 + 5·10⁻¹¹: accepted.
    assert!(contrastive::loss(&z, 2, &LABELS, 1.0, LossForm::Squared).is_ok());
    z[3] = 1.0 + 2e-6; // off by 2·10⁻⁶ > 10⁻⁶.
    both("z", &z, 2, &LABELS, 1.0);
    assert!(matches!(
        contrastive::loss(&z, 2, &LABELS, 1.0, LossForm::Squared),
        Err(Error::NotUnitRow { row: 1, .. })
    ));
    let mut z = Z;
    z[3] = 1.0 + 5e-7; // inside the 10⁻⁶ tolerance.
    assert!(contrastive::loss(&z, 2, &LABELS, 1.0, LossForm::Squared).is_ok());
}

#[test]
fn fewer_than_two_classes() {
    both("labels", &Z, 2, &[4, 4, 4], 1.0);
    assert!(matches!(
        contrastive::loss(&Z, 2, &[4, 4, 4], 1.0, LossForm::Squared),
        Err(Error::TooFewClasses { classes: 1, .. })
    ));
}

#[test]
fn empty_batch() {
    both("z", &[], 2, &[], 1.0);
    let batch = PairBatch {
        positives: vec![],
        negatives: vec![(0, 2)],
    };
    let e = contrastive::rescaled_loss(&Z, 2, &LABELS, 1.0, &batch).unwrap_err();
    assert!(e.to_string().contains("`batch.positives`"), "{e}");
    let batch = PairBatch {
        positives: vec![(0, 1)],
        negatives: vec![],
    };
    let e = exact::rescaled_loss(&Z, 2, &LABELS, 1.0, &batch).unwrap_err();
    assert!(e.to_string().contains("`batch.negatives`"), "{e}");
}

#[test]
fn label_length_mismatch() {
    both("labels", &Z, 2, &[0, 1], 1.0);
    both("labels", &Z, 2, &[0, 1, 1, 0], 1.0);
    both("z", &Z[..5], 2, &LABELS, 1.0);
}

#[test]
fn non_positive_or_non_finite_margin() {
    for m in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        both("margin", &Z, 2, &LABELS, m);
    }
}

#[test]
fn nan_anywhere() {
    let mut z = Z;
    z[4] = f64::NAN;
    both("z", &z, 2, &LABELS, 1.0);
    assert!(matches!(
        contrastive::loss(&z, 2, &LABELS, 1.0, LossForm::Squared),
        Err(Error::NotFiniteElement { index: 4, .. })
    ));
    let e = contrastive::class_likelihood(&Z, 2, &LABELS, 0, f64::NAN, 1.0).unwrap_err();
    assert!(e.to_string().contains("`kappa_positive`"), "{e}");
    let e = exact::class_likelihood(&Z, 2, &LABELS, 0, 1.0, -1.0).unwrap_err();
    assert!(e.to_string().contains("`kappa_negative`"), "{e}");
}

#[test]
fn batch_pairs_must_match_their_kind_and_range() {
    let wrong_kind = PairBatch {
        positives: vec![(0, 2)],
        negatives: vec![(1, 2)],
    };
    assert!(matches!(
        contrastive::rescaled_loss(&Z, 2, &LABELS, 1.0, &wrong_kind),
        Err(Error::PairKindMismatch {
            arg: "batch.positives",
            ..
        })
    ));
    let out_of_range = PairBatch {
        positives: vec![(0, 1)],
        negatives: vec![(1, 3)],
    };
    assert!(matches!(
        contrastive::rescaled_gradient(&Z, 2, &LABELS, 1.0, &out_of_range),
        Err(Error::IndexOutOfRange {
            arg: "batch.negatives",
            index: 3,
            ..
        })
    ));
}

#[test]
fn likelihood_needs_a_sphere_and_consistent_counts() {
    let z = [1.0, -1.0];
    let e = contrastive::negative_log_likelihood(&z, 1, &[0, 1], 1.0).unwrap_err();
    assert!(e.to_string().contains("`dim`"), "{e}");
    let bad = PairCounts {
        n: 2,
        positives: 2,
        negatives: 2,
        negatives_inside: 3,
    };
    for e in [
        contrastive::likelihood_constant(2, &bad, 1.0).unwrap_err(),
        exact::likelihood_constant(2, &bad, 1.0).unwrap_err(),
    ] {
        assert!(e.to_string().contains("`counts.negatives_inside`"), "{e}");
    }
    let e = exact::batch_expectation(&Z, 2, &LABELS, 1.0, 6, 1).unwrap_err();
    assert!(e.to_string().contains("`p`"), "{e}");
}
