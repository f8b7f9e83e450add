// derivation: ggn::fixed_weights
//! # Positive, fixed and full: which GGN approximations are PSD (LAM eqs. 6–9,
//! Props. F.1–F.3)
//!
//! **Claim 1 (Prop. F.1, theorem).** "full" with the diagonal clamped at 0 is PSD: every entry of
//! `last_layer_ggn_diagonal(.., Full)` is ≥ 0, in both splits — while the unclamped dense "full"
//! GGN can be indefinite (pinned below).
//!
//! **Claim 2 (Prop. F.2, theorem).** "positive", Euclidean split:
//! H_θ = Σ_P |t|(J_i − J_j)ᵀ(J_i − J_j) ⪰ 0 (smallest eigenvalue ≥ −10⁻¹² times the size of the summed terms,
//! Σ_pairs |t|(1 + ‖x_i‖/r_i + ‖x_j‖/r_j)², as in every chapter-04 proof).
//!
//! **Refutation (Prop. F.3).** LAM claims the "fixed" Euclidean GGN is PSD always. A proptest
//! search over four points (M = 2, F = 3, labels in {0, 1}, margin 2 so every negative is inside
//! the margin) finds a counterexample and shrinks it to an unbalanced labelling with class
//! sizes {1, 3}; pinned: labels [0, 1, 1, 1], W = [[1, 0, 0], [0, 1, 0]],
//! x = (1, 0, 1), (0, 1, 0), (1, 1, 0), (−1, 1, 0): smallest eigenvalue −1.5403 (the mpmath script
//! `scripts/reference/ggn_prop_f3.py` gives the spectrum independently).
//!
//! **Corrected theorem (Prop. F.3').** H_θ = Σ_i w_i J_iᵀJ_i with
//! w_i = 2(#{j : (i,j)∈P}/|P| − #{j : (i,j)∈N, d_ij < m}/|N|) (`fixed_weights`), so (a) the
//! identity holds within the budget; (b) all w_i ≥ 0 ⇒ H_θ ⪰ 0; (c) balanced classes with every
//! negative inside the margin give H_θ = 0 (to rounding); (d) moving a negative pair outside the
//! margin increases H_θ in the PSD order (the difference is 2|t|(J_iᵀJ_i + J_jᵀJ_j) ⪰ 0).
//!
//! **Refutation (eq. 6).** The printed H_n = [[−1, −1], [1, −1]] is not symmetric, so it is no
//! Hessian; eqs. (8)–(9) and the derivation give [[−1, 1], [1, −1]].
//!
//! **Refutation (Arccos positive blocks are PSD).** The Arccos output Hessian of a positive
//! pair, ŷ_i = (1, 0), ŷ_j = (0, 1), t = 1, has H_ii = [[0, 1], [1, 0]] and eigenvalue −1.
use crate::ggn_support;
use crate::support;
use ggn_support::*;
use probdml::contrastive::{pair_targets, PairTarget};
use probdml::ggn::exact::{self, LastLayer};
use probdml::ggn::{self, fixed_weights, Approximation, Split};
use probdml_proofs::registry::budget::{GGN, GGN_IDENTITIES};
use proptest::prelude::*;
use proptest::test_runner::{TestError, TestRunner};
use support::config;

fn dense(
    p: &Problem,
    pairs: &[PairTarget],
    split: Split,
    approximation: Approximation,
) -> Vec<f64> {
    let model = LastLayer::new(&p.weights, &p.features, p.n_features).unwrap();
    exact::ggn_dense(&model, pairs, split, approximation).unwrap()
}

fn min_eigenvalue(g: &[f64]) -> f64 {
    let n = (g.len() as f64).sqrt() as usize;
    exact::symmetric_eigenvalues(g, n).unwrap()[0]
}

/// Σ_i w_i J_iᵀJ_i with J_i = (P_i/r_i) ⊗ x_iᵀ, i.e. entry (kF+l, k'F+l') = w_i (P_i/r_i²)_{kk'} x_il x_il'.
fn weighted_sum(p: &Problem, w: &[f64]) -> Vec<f64> {
    let (f, m) = (p.n_features, p.n_outputs());
    let n = m * f;
    let y = p.raw_outputs();
    let mut g = vec![0.0; n * n];
    for (i, wi) in w.iter().enumerate() {
        let jac = ggn::normalisation_jacobian(&y[i * m..(i + 1) * m]).unwrap();
        let x = &p.features[i * f..(i + 1) * f];
        for k in 0..m {
            for k2 in 0..m {
                let pk: f64 = (0..m).map(|a| jac[a * m + k] * jac[a * m + k2]).sum();
                for l in 0..f {
                    for l2 in 0..f {
                        g[(k * f + l) * n + k2 * f + l2] += wi * pk * x[l] * x[l2];
                    }
                }
            }
        }
    }
    g
}

/// The pinned counterexample to Prop. F.3 (also printed in docs chapter 04).
fn counterexample() -> Problem {
    Problem {
        weights: vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0],
        features: vec![1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, -1.0, 1.0, 0.0],
        n_features: 3,
        labels: vec![0, 1, 1, 1],
        margin: 2.0,
    }
}

proptest! {
    #![proptest_config(config(256, 0x04_f1_f2))]

    /// Claims 1 and 2.
    #[test]
    fn full_clamped_and_positive_euclidean_are_psd(p in problem()) {
        prop_assume!(p.min_output_norm() > 1e-2);
        let Some(pairs) = p.pairs() else { return Ok(()) };
        for split in Split::ALL {
            let d = ggn::last_layer_ggn_diagonal(&p.weights, &p.features, p.n_features, &pairs, split, Approximation::Full).unwrap();
            prop_assert!(d.iter().all(|&v| v >= 0.0));
        }
        let g = dense(&p, &pairs, Split::Euclidean, Approximation::Positive);
        prop_assert!(min_eigenvalue(&g) >= -GGN_IDENTITIES * p.term_scale(&pairs), "F.2 fails: {}", min_eigenvalue(&g));
    }

    /// Corrected theorem (a), (b), (d).
    #[test]
    fn fixed_is_the_weighted_sum_psd_when_weights_nonnegative_and_monotone(p in problem()) {
        prop_assume!(p.min_output_norm() > 1e-2);
        let Some(pairs) = p.pairs() else { return Ok(()) };
        let g = dense(&p, &pairs, Split::Euclidean, Approximation::Fixed);
        let w = fixed_weights(&pairs, p.n_points()).unwrap();
        let sum = weighted_sum(&p, &w);
        let scale = p.term_scale(&pairs);
        // (a): the fast weights' sum Σ w_i J_iᵀJ_i against the dense hyper-dual GGN.
        support::check_slice_with_magnitude("ggn::fixed_weights", "(a)", &sum, &g, scale);
        if w.iter().all(|&v| v >= 0.0) {
            prop_assert!(min_eigenvalue(&g) >= -GGN_IDENTITIES * scale, "(b) fails: {}", min_eigenvalue(&g));
        }
        // (d): move the first negative pair (i, j), and its mirror (j, i), outside the margin.
        if let Some(neg) = pairs.iter().find(|q| q.target < 0.0) {
            let (i, j) = (neg.i, neg.j);
            let kept: Vec<PairTarget> = pairs.iter().copied().filter(|q| !((q.i, q.j) == (i, j) || (q.i, q.j) == (j, i))).collect();
            let g2 = dense(&p, &kept, Split::Euclidean, Approximation::Fixed);
            let diff: Vec<f64> = g2.iter().zip(&g).map(|(a, b)| a - b).collect();
            prop_assert!(min_eigenvalue(&diff) >= -GGN_IDENTITIES * scale, "(d) fails: {}", min_eigenvalue(&diff));
        }
    }

    /// Corrected theorem (c): balanced classes, all negatives inside the margin → H_θ = 0.
    #[test]
    fn balanced_classes_all_inside_give_zero(
        classes in 2usize..=3, per_class in 1usize..=2,
        weights in prop::collection::vec(-1.0..1.0f64, 6),
        features in prop::collection::vec(-1.0..1.0f64, 18),
    ) {
        let n = classes * per_class;
        let p = Problem { weights, features: features[..n * 3].to_vec(), n_features: 3, labels: (0..n).map(|i| i % classes).collect(), margin: 2.0 };
        prop_assume!(p.min_output_norm() > 1e-2);
        let pairs = p.pairs().unwrap();
        prop_assume!(pairs.len() == n * n); // no antipodal negative
        let g = dense(&p, &pairs, Split::Euclidean, Approximation::Fixed);
        let scale = p.term_scale(&pairs);
        prop_assert!(max_abs(&g) <= GGN_IDENTITIES * scale, "max |H_θ| = {:e}, scale {scale:e}", max_abs(&g));
    }
}

/// The refutation of Prop. F.3, by search: proptest finds a non-PSD "fixed" Euclidean GGN and
/// shrinks it to an unbalanced four-point labelling with class sizes {1, 3}.
#[test]
fn prop_f3_refuted_by_search() {
    let strategy = (
        prop::collection::vec(0usize..2, 4),
        prop::collection::vec(-1.0..1.0f64, 6),
        prop::collection::vec(-1.0..1.0f64, 12),
    );
    // The shrinking is the claim, so its budget is set here rather than taken from
    // PROPTEST_MAX_SHRINK_ITERS (which scripts/mutants.sh sets to 0).
    let mut runner = TestRunner::new(ProptestConfig {
        max_shrink_iters: 4096,
        ..config(2000, 0x04_f3)
    });
    let result = runner.run(&strategy, |(labels, weights, features)| {
        let p = Problem {
            weights,
            features,
            n_features: 3,
            labels,
            margin: 2.0,
        };
        if p.min_output_norm() < 1e-2 {
            return Ok(());
        }
        let Some(pairs) = p.pairs() else {
            return Ok(());
        };
        let g = dense(&p, &pairs, Split::Euclidean, Approximation::Fixed);
        prop_assert!(min_eigenvalue(&g) >= -GGN_IDENTITIES * p.term_scale(&pairs));
        Ok(())
    });
    match result {
        Err(TestError::Fail(_, (labels, _, _))) => {
            let ones = labels.iter().filter(|&&c| c == 1).count();
            let mut sizes = [ones, labels.len() - ones];
            sizes.sort();
            assert_eq!(sizes, [1, 3], "shrunk labels {labels:?}");
        }
        other => panic!("Prop. F.3 was not refuted: {other:?}"),
    }
}

/// The pinned counterexample: labels [0, 1, 1, 1], every negative inside the margin.
#[test]
fn prop_f3_pinned_counterexample() {
    let p = counterexample();
    let pairs = p.pairs().unwrap();
    assert_eq!(pairs.len(), 16, "all 6 negatives inside the margin");
    let w = fixed_weights(&pairs, 4).unwrap();
    assert!((w[0] + 0.8).abs() < 1e-15 && w[1..].iter().all(|v| (v - 4.0 / 15.0).abs() < 1e-15));
    let g = dense(&p, &pairs, Split::Euclidean, Approximation::Fixed);
    let ev = exact::symmetric_eigenvalues(&g, 6).unwrap();
    // Independent spectrum: scripts/reference/ggn_prop_f3.py (mpmath, 50 digits).
    let want = [
        -1.540_319_995_049_186_5,
        0.0,
        0.0,
        0.042_867_164_413_916_81,
        4.0 / 15.0,
        0.430_786_163_968_603_1,
    ];
    for (e, v) in ev.iter().zip(want) {
        assert!((e - v).abs() < 1e-14, "{ev:?}");
    }
    // The full approximation's unclamped dense GGN is indefinite too (why F.1 needs the ReLU).
    assert!(min_eigenvalue(&dense(&p, &pairs, Split::Euclidean, Approximation::Full)) < -1e-3);
}

/// eq. (6): the printed H_n is not symmetric; the Euclidean output Hessian with t = −1 is.
#[test]
fn eq6_printed_negative_hessian_is_not_symmetric() {
    let printed = [[-1.0, -1.0], [1.0, -1.0]];
    assert_ne!(printed[0][1], printed[1][0]);
    assert_eq!(
        ggn::euclidean_output_hessian(&[0.0], &[1.0], -1.0).unwrap(),
        vec![-1.0, 1.0, 1.0, -1.0]
    );
}

/// An indefinite Arccos positive-pair block.
#[test]
fn arccos_positive_block_is_indefinite() {
    let h = ggn::arccos_output_hessian(&[1.0, 0.0], &[0.0, 1.0], 1.0).unwrap();
    let ev = exact::symmetric_eigenvalues(&h, 4).unwrap();
    assert!(ev[0] < -0.5, "{ev:?}");
    let h_ii = [h[0], h[1], h[4], h[5]];
    assert_eq!(
        exact::symmetric_eigenvalues(&h_ii, 2).unwrap(),
        vec![-1.0, 1.0]
    );
}

/// pair_targets on the counterexample puts every negative inside margin 2 (a sanity check of the
/// input the refutation stands on).
#[test]
fn counterexample_targets() {
    let p = counterexample();
    let pairs = pair_targets(&p.embeddings(), 2, &p.labels, 2.0).unwrap();
    assert_eq!(pairs.iter().filter(|q| q.target < 0.0).count(), 6);
}

/// Chapter 04's table "How the approximations differ on that batch", every row against the
/// independent mpmath values of `scripts/reference/ggn_approximation_table.py` (output in
/// `ggn_approximation_table.txt`): λ_min and λ_max of the dense GGN of each split and
/// approximation and the fast diagonal's `W_00` agree within `GGN` relative to the largest
/// |value| of the row, the Hessian's extreme eigenvalues likewise, and the chapter's 10-digit
/// numbers are those values rounded.
#[test]
fn chapter_04_approximation_table_against_mpmath() {
    let reference = include_str!("../scripts/reference/ggn_approximation_table.txt");
    let chapter = include_str!("../docs/src/04-ggn.md");
    let w = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let x: [f64; 12] = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, -1.0, 1.0, 0.0];
    let z: Vec<f64> = x
        .chunks(3)
        .flat_map(|v| {
            let r = (v[0] * v[0] + v[1] * v[1]).sqrt();
            [v[0] / r, v[1] / r]
        })
        .collect();
    let pairs = pair_targets(&z, 2, &[0, 1, 1, 1], 2.0).unwrap();
    let model = LastLayer::new(&w, &x, 3).unwrap();
    let mut rows = 0;
    for line in reference.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let number = |i: usize| -> f64 { fields[i].parse().unwrap() };
        let (lo, hi) = (number(2), number(3));
        if fields[0] == "hessian" {
            let h = exact::loss_hessian(&model, &pairs).unwrap();
            let ev = exact::symmetric_eigenvalues(&h, 6).unwrap();
            let scale = lo.abs().max(hi.abs());
            assert!(
                (ev[0] - lo).abs() <= GGN * scale && (ev[5] - hi).abs() <= GGN * scale,
                "Hessian: {ev:?}"
            );
            rows += 1;
            continue;
        }
        let split = match fields[0] {
            "Euclidean" => Split::Euclidean,
            "Arccos" => Split::Arccos,
            other => panic!("unknown split {other}"),
        };
        let approximation = match fields[1] {
            "positive" => Approximation::Positive,
            "fixed" => Approximation::Fixed,
            "full" => Approximation::Full,
            other => panic!("unknown approximation {other}"),
        };
        let d00 = number(4);
        let h = exact::ggn_dense(&model, &pairs, split, approximation).unwrap();
        let ev = exact::symmetric_eigenvalues(&h, 6).unwrap();
        let d = ggn::last_layer_ggn_diagonal(&w, &x, 3, &pairs, split, approximation).unwrap();
        let scale = lo.abs().max(hi.abs()).max(d00.abs());
        for (what, got, want) in [
            ("λ_min", ev[0], lo),
            ("λ_max", ev[5], hi),
            ("W_00", d[0], d00),
        ] {
            assert!(
                (got - want).abs() <= GGN * scale,
                "{} {}: {what} = {got} vs mpmath {want}",
                fields[0],
                fields[1]
            );
        }
        // The chapter's row: `| Euclidean | fixed | λ_min | λ_max | W_00 |`, 10 digits.
        let row = chapter
            .lines()
            .find(|l| l.starts_with(&format!("| {} | {} |", fields[0], fields[1])))
            .unwrap_or_else(|| panic!("chapter 04 has no row for {} {}", fields[0], fields[1]));
        let cells: Vec<f64> = row
            .split('|')
            .skip(3)
            .take(3)
            .map(|c| {
                let c = c.trim().replace('−', "-");
                c.split_whitespace().next().unwrap().parse().unwrap()
            })
            .collect();
        for (printed, want) in cells.iter().zip([lo, hi, d00]) {
            assert!(
                (printed - want).abs() <= 0.5e-10 * (1.0 + 1e-6),
                "chapter 04, {} {}: printed {printed} vs mpmath {want}",
                fields[0],
                fields[1]
            );
        }
        rows += 1;
    }
    assert_eq!(rows, 7, "six approximations and the Hessian");
}
