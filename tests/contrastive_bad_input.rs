//! Bad input for chapter 03: every checked entry point returns an error that names the argument.
use probdml::contrastive::{self, exact, LossForm, PairBatch, PairCounts};
use probdml::Error;
use probdml_proofs::registry::budget::CONTRASTIVE_LOSS_TWIN;

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
        contrastive::pair_targets(z, dim, labels, margin).unwrap_err(),
        exact::pair_targets(z, dim, labels, margin).unwrap_err(),
    ];
    for e in errors {
        assert!(e.to_string().contains(&format!("`{arg}`")), "{arg}: {e}");
    }
}

#[test]
fn non_unit_embeddings() {
    // The rule of `vmf`: (M + 4)·2⁻²⁴ = 6·2⁻²⁴ ≈ 3.6·10⁻⁷ at M = 2.
    let tolerance = probdml::vmf::unit_norm_tolerance(2);
    let mut z = Z;
    z[2] = 1e-5; // row 1 has norm √(1 + 10⁻¹⁰) ≈ 1 + 5·10⁻¹¹: accepted (and renormalised).
    assert!(contrastive::loss(&z, 2, &LABELS, 1.0, LossForm::Squared).is_ok());
    z[3] = 1.0 + 1.1 * tolerance;
    both("z", &z, 2, &LABELS, 1.0);
    assert!(matches!(
        contrastive::loss(&z, 2, &LABELS, 1.0, LossForm::Squared),
        Err(Error::NotUnitRow { row: 1, .. })
    ));
    let mut z = Z;
    z[3] = 1.0 + 0.9 * tolerance;
    assert!(contrastive::loss(&z, 2, &LABELS, 1.0, LossForm::Squared).is_ok());
}

/// Rows normalised in `f32` (PyTorch's `F.normalize`) are accepted at any dimension and
/// renormalised in `f64`, so both twins work at the same unit rows: the fast twin on the f32
/// rows equals the fast twin on the rows normalised in `f64`, bit for bit, and the exact twin
/// agrees to the loss's budget.
#[test]
fn rows_normalised_in_f32_are_renormalised() {
    let (n, dim) = (6usize, 1024usize);
    let labels = [0i64, 1, 0, 2, 1, 2];
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    let raw: Vec<f64> = (0..n * dim).map(|_| next()).collect();
    let mut f32_rows = Vec::new();
    let mut f64_rows = Vec::new();
    for row in raw.chunks_exact(dim) {
        let r32: Vec<f32> = row.iter().map(|&v| v as f32).collect();
        let norm32 = r32.iter().map(|v| v * v).sum::<f32>().sqrt();
        let r32: Vec<f64> = r32.iter().map(|&v| f64::from(v / norm32)).collect();
        let norm = r32.iter().map(|v| v * v).sum::<f64>().sqrt();
        // Off the sphere by more than the former fixed tolerance of 10⁻⁶ allows at this M.
        assert!((norm - 1.0).abs() > 1e-9, "{norm}");
        f64_rows.extend(r32.iter().map(|v| v / probdml::compensated::norm2(&r32)));
        f32_rows.extend(r32);
    }
    for form in [LossForm::Squared, LossForm::Hadsell, LossForm::Linear] {
        let fast = contrastive::loss(&f32_rows, dim, &labels, 1.2, form).unwrap();
        assert_eq!(
            fast,
            contrastive::loss(&f64_rows, dim, &labels, 1.2, form).unwrap()
        );
        let reference = exact::loss(&f32_rows, dim, &labels, 1.2, form).unwrap();
        assert!((fast - reference).abs() <= CONTRASTIVE_LOSS_TWIN * reference.abs().max(1.0));
    }
    assert_eq!(
        contrastive::loss_gradient(&f32_rows, dim, &labels, 1.2).unwrap(),
        contrastive::loss_gradient(&f64_rows, dim, &labels, 1.2).unwrap()
    );
    assert_eq!(
        exact::loss_gradient(&f32_rows, dim, &labels, 1.2).unwrap(),
        exact::loss_gradient(&f64_rows, dim, &labels, 1.2).unwrap()
    );
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
