// derivation: contrastive::rescaled_loss
// derivation: contrastive::rescaled_gradient
//! # Minibatch rescaling is unbiased (LAM App. B.1, Definition eq. (30), Proposition B.1)
//!
//! Batches: B_P uniform without replacement from P (size p), B_N from N (size q), independent;
//! rescaled targets t̃ = 1/p on B_P and −1/q on the negatives of B_N inside the margin.
//!
//! **Claim 1 (Proposition B.1, exactly).** E_B[L̂_B] = L, E_B[∇L̂_B] = ∇L and E_B[∇²L̂_B] = ∇²L
//! (form S, Euclidean split Σ t ½‖z_i − z_j‖², whose Hessian is linear in t and built in closed
//! form by `squared_distance_hessian`), for n ≤ 8, M ∈ {2, 3}, p, q ∈ {1, 2, 3}: the expectation
//! is the average over **every** batch (`exact::batch_expectation`), not a sample. Equality to
//! `RESCALING` = 10⁻¹²·max(1, |·|) (averages of up to 3·10⁵ compensated terms).
//!
//! **Claim 2 (budget).** The fast estimator and its gradient are within `CONTRASTIVE_LOSS` of the
//! exact twins on a batch.
//!
//! **Refutation (naive 1/|B| scaling, eq. (29) applied to pairs).** The estimator
//! (|P| + |N|)/|B| · Σ_B t_ij ℓ_ij with the dataset targets has expectation
//! n²/(p + q)·(p·a_P/|P| + q·a_N/|N|), a_P = Σ_P ℓ⁺/|P|·… — biased unless p/(p + q) =
//! |P|/(|P| + |N|). Pinned (by hand): three points at 0°, 90°, 180°, classes [0, 0, 1], m = 2,
//! p = q = 1: L = 0.9, naive expectation 369/400 = 0.9225.
use crate::embeddings;
use crate::support;
use embeddings::*;
use probdml::contrastive::{self, exact, LossForm, PairBatch};
use probdml_proofs::registry::budget::RESCALING;
use proptest::prelude::*;
use support::{check_at, config, within_abs_or_rel};

fn choose(a: usize, b: usize) -> u128 {
    (0..b).fold(1u128, |c, k| c * (a - k) as u128 / (k + 1) as u128)
}

fn check_expectation(b: &Batch, m: f64, p: usize, q: usize) -> Result<(), TestCaseError> {
    let e = exact::batch_expectation(&b.z, b.dim, &b.labels, m, p, q).unwrap();
    let l = contrastive::loss(&b.z, b.dim, &b.labels, m, LossForm::Squared).unwrap();
    prop_assert!(
        within_abs_or_rel(e.loss, l, RESCALING),
        "E loss {} vs L {}",
        e.loss,
        l
    );
    let g = contrastive::loss_gradient(&b.z, b.dim, &b.labels, m).unwrap();
    for (k, (x, y)) in e.gradient.iter().zip(&g).enumerate() {
        prop_assert!(
            within_abs_or_rel(*x, *y, RESCALING),
            "gradient {k}: E {x:e} vs {y:e}"
        );
    }
    let targets = contrastive::pair_targets(&b.z, b.dim, &b.labels, m).unwrap();
    let h = contrastive::squared_distance_hessian(b.labels.len(), b.dim, &targets).unwrap();
    for (k, (x, y)) in e.hessian.iter().zip(&h).enumerate() {
        prop_assert!(
            within_abs_or_rel(*x, *y, RESCALING),
            "Hessian {k}: E {x:e} vs {y:e}"
        );
    }
    Ok(())
}

const LOSS: &str = "contrastive::rescaled_loss";
const GRADIENT: &str = "contrastive::rescaled_gradient";

proptest! {
    #![proptest_config(config(256, 0x03_b1_00))]

    /// Claim 1.
    #[test]
    fn rescaled_estimator_is_unbiased_by_enumeration(
        b in batch(8, 2usize..=3), m in margin(), p in 1usize..=3, q in 1usize..=3
    ) {
        prop_assume!(!negative_near_margin(&b, m, 1e-12));
        let c = contrastive::pair_counts(&b.z, b.dim, &b.labels, m).unwrap();
        prop_assume!(p <= c.positives && q <= c.negatives);
        prop_assume!(choose(c.positives, p) * choose(c.negatives, q) <= 300_000);
        check_expectation(&b, m, p, q)?;
    }

    /// Claim 2.
    #[test]
    fn rescaled_estimator_within_budget(b in batch(40, embedding_dimension()), m in margin(), seed in any::<u64>()) {
        prop_assume!(!negative_near_margin(&b, m, 1e-12));
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
        let n = b.labels.len();
        let mut batch = PairBatch::default();
        for _ in 0..64 {
            let (i, j) = (rng.random_range(0..n), rng.random_range(0..n));
            if b.labels[i] == b.labels[j] { batch.positives.push((i, j)) } else { batch.negatives.push((i, j)) }
        }
        batch.positives.push((0, 0));
        batch.negatives.push((0, 1));
        let fast = contrastive::rescaled_loss(&b.z, b.dim, &b.labels, m, &batch).unwrap();
        let want = exact::rescaled_loss(&b.z, b.dim, &b.labels, m, &batch).unwrap();
        check_at(LOSS, format!("n = {n}, M = {}, m = {m}", b.dim), fast, want);
        // The gradient against the explicit sum over the exact targets.
        let g = contrastive::rescaled_gradient(&b.z, b.dim, &b.labels, m, &batch).unwrap();
        let mut w = vec![0.0; b.z.len()];
        let t_neg = -1.0 / batch.negatives.len() as f64;
        let t_pos = 1.0 / batch.positives.len() as f64;
        let inside = exact::hard_negatives(&b.z, b.dim, &b.labels, m).unwrap();
        let pairs = batch.positives.iter().map(|&p| (p, t_pos))
            .chain(batch.negatives.iter().filter(|p| inside.contains(p)).map(|&p| (p, t_neg)));
        for ((i, j), t) in pairs {
            for k in 0..b.dim {
                let step = t * (b.z[i * b.dim + k] - b.z[j * b.dim + k]);
                w[i * b.dim + k] += step;
                w[j * b.dim + k] -= step;
            }
        }
        for (k, (x, y)) in g.iter().zip(&w).enumerate() {
            check_at(GRADIENT, format!("entry {k}"), *x, *y);
        }
    }
}

/// Claim 1 at the largest batch sizes on a small pinned batch (n = 4, two classes of two).
#[test]
fn unbiased_for_larger_batches() {
    let mut b = build(7, 4, 3, 2, Layout::Uniform);
    b.labels = vec![0, 0, 1, 1]; // |P| = |N| = 8
    for m in [0.8, 1.5, 2.0] {
        for (p, q) in [(3, 3), (4, 2), (8, 8), (1, 8)] {
            check_expectation(&b, m, p, q).unwrap();
        }
    }
}

/// Refutation of the naive 1/|B| scaling, pinned and computed by hand.
/// z = (1, 0), (0, 1), (−1, 0), classes [0, 0, 1], m = 2: |P| = 5, |N| = 4.
/// ℓ⁺ on P: 0, 0, 0, 1, 1 (a_P = 2/5); ℓ⁻ on N: 0, 0, 1, 1 (a_N = 1/2); L = 0.9.
/// Naive, p = q = 1: E = (9/2)(1·(1/5)(2/5) + 1·(1/4)(1/2)) = (9/2)(41/200) = 369/400.
/// With p = 5, q = 4 (positive fraction 5/9 = |P|/n²) the naive estimator is unbiased.
#[test]
fn refutation_naive_global_scaling_is_biased() {
    let z = [1.0, 0.0, 0.0, 1.0, -1.0, 0.0];
    let labels = [0, 0, 1];
    let m = 2.0;
    let l = contrastive::loss(&z, 2, &labels, m, LossForm::Squared).unwrap();
    assert!((l - 0.9).abs() <= 1e-15);
    let targets = exact::pair_targets(&z, 2, &labels, m).unwrap();
    let counts = exact::pair_counts(&z, 2, &labels, m).unwrap();
    let (positives, negatives): (Vec<(usize, usize)>, Vec<(usize, usize)>) = {
        let all: Vec<(usize, usize)> = (0..3).flat_map(|i| (0..3).map(move |j| (i, j))).collect();
        all.into_iter().partition(|&(i, j)| labels[i] == labels[j])
    };
    let naive = |p: usize, q: usize| -> f64 {
        // Enumerate every batch and average (|P| + |N|)/|B| · Σ_B t_ij ℓ_ij.
        let (mut total, mut count) = (0.0, 0u64);
        let subsets = |len: usize, k: usize| -> Vec<Vec<usize>> {
            (0u32..1 << len)
                .filter(|s| s.count_ones() as usize == k)
                .map(|s| (0..len).filter(|&b| s >> b & 1 == 1).collect())
                .collect()
        };
        for bp in subsets(positives.len(), p) {
            for bn in subsets(negatives.len(), q) {
                let batch = PairBatch {
                    positives: bp.iter().map(|&k| positives[k]).collect(),
                    negatives: bn.iter().map(|&k| negatives[k]).collect(),
                };
                let mut sum = 0.0;
                for &(i, j) in batch.positives.iter().chain(&batch.negatives) {
                    let d2: f64 = (0..2).map(|k| (z[2 * i + k] - z[2 * j + k]).powi(2)).sum();
                    let (t, ell) = if labels[i] == labels[j] {
                        (1.0 / counts.positives as f64, 0.5 * d2)
                    } else {
                        (1.0 / counts.negatives as f64, 0.5 * (m * m - d2).max(0.0))
                    };
                    sum += t * ell;
                }
                total += 9.0 / (p + q) as f64 * sum;
                count += 1;
            }
        }
        total / count as f64
    };
    let biased = naive(1, 1);
    assert!(
        (biased - 369.0 / 400.0).abs() <= 1e-15,
        "naive E = {biased}"
    );
    assert!(
        (biased - l).abs() > 0.02,
        "naive scaling must be biased here"
    );
    assert!(
        (naive(5, 4) - l).abs() <= 1e-15,
        "unbiased at the population fraction"
    );
    // The rescaled estimator is unbiased at p = q = 1.
    let e = exact::batch_expectation(&z, 2, &labels, m, 1, 1).unwrap();
    assert!((e.loss - 0.9).abs() <= 1e-15 && e.batches == 20);
    let _ = targets;
}
