// derivation: contrastive::loss
// derivation: contrastive::loss_gradient
// derivation: contrastive::hard_negatives
//! # The contrastive loss over a batch (LAM eq. (1), App. B eqs. (21)–(28))
//!
//! **Claim 1 (budget).** For unit embeddings (M ∈ [2, 512], n ≤ 40, 2–5 classes; uniform,
//! clustered down to 10⁻⁹ spread, exact duplicates and antipodes) and margins m ∈ (0, 2.5], the
//! fast loss (one Gram matrix, d² = 2 − 2z_iᵀz_j) of each form S, H, L is within
//! `CONTRASTIVE_LOSS` = 10⁻¹³·max(1, L) of the exact twin (explicit compensated double loop over
//! the n² ordered pairs, trivial pairs included, d² = ‖z_i − z_j‖² in double-double).
//!
//! **Claim 2 (budget).** The fast gradient of form S is within the same budget of its exact twin,
//! entrywise, relative to max(1, ‖∇L‖_∞).
//!
//! **Claim 3 (App. B eqs. (22)–(23)).** Form S is the target form plus a constant:
//! L_S = Σ_{(i,j)} t_ij ½d_ij² + (|N_m|/|N|)·½m², with t from `pair_targets`.
//!
//! **Claim 4.** `hard_negatives` and `pair_targets` list exactly the pairs of their exact twins
//! whenever no negative lies within rounding (10⁻¹² in d²) of the margin.
use crate::embeddings;
use crate::support;
use embeddings::*;
use probdml::contrastive::{self, exact, LossForm};
use proptest::prelude::*;
use support::{check_at, check_slice, config};

const FORMS: [LossForm; 3] = [LossForm::Squared, LossForm::Hadsell, LossForm::Linear];

const LOSS: &str = "contrastive::loss";
const GRADIENT: &str = "contrastive::loss_gradient";

proptest! {
    #![proptest_config(config(256, 0x03_c0_10))]

    /// Claim 1.
    #[test]
    fn loss_within_budget(b in batch(40, embedding_dimension()), m in margin()) {
        for form in FORMS {
            let fast = contrastive::loss(&b.z, b.dim, &b.labels, m, form).unwrap();
            let want = exact::loss(&b.z, b.dim, &b.labels, m, form).unwrap();
            check_at(LOSS, format!("{form:?}, n = {}, M = {}, m = {m}", b.labels.len(), b.dim), fast, want);
        }
    }

    /// Claim 2.
    #[test]
    fn gradient_within_budget(b in batch(40, embedding_dimension()), m in margin()) {
        prop_assume!(!negative_near_margin(&b, m, 1e-12));
        let fast = contrastive::loss_gradient(&b.z, b.dim, &b.labels, m).unwrap();
        let want = exact::loss_gradient(&b.z, b.dim, &b.labels, m).unwrap();
        // Entrywise, relative to max(1, ‖∇L‖∞).
        check_slice(GRADIENT, format!("n = {}, M = {}, m = {m}", b.labels.len(), b.dim), &fast, &want);
    }

    /// Claim 3.
    #[test]
    fn form_s_is_the_target_form_plus_a_constant(b in batch(40, embedding_dimension()), m in margin()) {
        prop_assume!(!negative_near_margin(&b, m, 1e-12));
        let targets = exact::pair_targets(&b.z, b.dim, &b.labels, m).unwrap();
        let counts = exact::pair_counts(&b.z, b.dim, &b.labels, m).unwrap();
        let mut sum = (counts.negatives_inside as f64 / counts.negatives as f64) * 0.5 * m * m;
        for t in &targets {
            let d2: f64 = (0..b.dim).map(|k| (b.z[t.i * b.dim + k] - b.z[t.j * b.dim + k]).powi(2)).sum();
            sum += t.target * 0.5 * d2;
        }
        let want = exact::loss(&b.z, b.dim, &b.labels, m, LossForm::Squared).unwrap();
        // Plain summation of ≤ 1600 terms of size ≤ 4/|N|: a few 10⁻¹⁵ absolute.
        prop_assert!((sum - want).abs() <= 1e-13 * want.abs().max(1.0), "{sum} vs {want}");
    }

    /// Claim 4.
    #[test]
    fn pair_sets_equal_the_exact_ones(b in batch(40, embedding_dimension()), m in margin()) {
        prop_assume!(!negative_near_margin(&b, m, 1e-12));
        prop_assert_eq!(contrastive::hard_negatives(&b.z, b.dim, &b.labels, m).unwrap(),
            exact::hard_negatives(&b.z, b.dim, &b.labels, m).unwrap());
        let fast = contrastive::pair_targets(&b.z, b.dim, &b.labels, m).unwrap();
        let want = exact::pair_targets(&b.z, b.dim, &b.labels, m).unwrap();
        prop_assert_eq!(fast.len(), want.len());
        for (f, w) in fast.iter().zip(&want) {
            prop_assert!(f.i == w.i && f.j == w.j && f.target == w.target, "{f:?} vs {w:?}");
        }
        let counts = contrastive::pair_counts(&b.z, b.dim, &b.labels, m).unwrap();
        prop_assert_eq!(counts, exact::pair_counts(&b.z, b.dim, &b.labels, m).unwrap());
    }
}

/// Worked values by hand (scripts/reference/contrastive_values.py prints the same): three points
/// on the circle at 0°, 90°, 180°, classes [0, 0, 1], m = 1.5. |P| = 5, |N| = 4.
/// P: d² = 0, 0, 0, 2, 2; N: (0,2),(2,0) at d = 2 (outside), (1,2),(2,1) at d = √2.
#[test]
fn pinned_three_points_on_the_circle() {
    let z = [1.0, 0.0, 0.0, 1.0, -1.0, 0.0];
    let labels = [0, 0, 1];
    let r2 = std::f64::consts::SQRT_2;
    // S: (2·½·2)/5 + (2·½(2.25 − 2))/4 = 0.4 + 0.0625.
    // H: (2·½·2)/5 + (2·½(1.5 − √2)²)/4.
    // L: (2·√2)/5 + (2·(1.5 − √2))/4.
    let want = [
        (LossForm::Squared, 0.4625),
        (LossForm::Hadsell, 0.4 + 0.25 * (1.5 - r2) * (1.5 - r2)),
        (LossForm::Linear, 0.4 * r2 + 0.5 * (1.5 - r2)),
    ];
    for (form, w) in want {
        for got in [
            contrastive::loss(&z, 2, &labels, 1.5, form).unwrap(),
            exact::loss(&z, 2, &labels, 1.5, form).unwrap(),
        ] {
            assert!((got - w).abs() <= 1e-15, "{form:?}: {got} vs {w}");
        }
    }
}
