//! # Out-of-distribution detection: AUROC and AUPRC (LAM Table 2, Fig. 6)
//!
//! The score is an uncertainty, OOD the positive class. AUROC = P(s_OOD > s_ID) + ½P(tie)
//! (the Mann–Whitney statistic over n_ID · n_OOD pairs); AUPRC = the average precision of the
//! OOD class, Σ_t (R_t − R_{t−1}) P_t over distinct thresholds (scikit-learn's
//! `average_precision_score`, tied scores entering together).
//!
//! Claims:
//!
//! 1. **Fast = exact.** One pass over the tie groups — counted in a hash table when the scores
//!    take few distinct values, else read off one partitioned sort per class — gives exactly
//!    the O(n²) pair count (both are one integer over 2 n_ID n_OOD) and exactly the threshold-by-
//!    threshold step sum (same terms, same order); the ROC curves are identical. Inputs: small
//!    integer scores (heavy ties), three-level scores, signed zeros, continuous reals.
//! 2. **Invariance under monotone transforms.** Any strictly increasing map of the scores —
//!    here an arbitrary increasing reassignment of the distinct values — leaves AUROC and
//!    AUPRC unchanged, bitwise: both depend on the order and the ties only.
//! 3. **Negation and class swap.** AUROC(−s) = 1 − AUROC(s) and AUROC with the classes swapped
//!    = 1 − AUROC, to one rounding (the integer count is complemented exactly).
//! 4. **Perfect and random separation.** Every OOD score above every ID score: AUROC = 1 and
//!    AUPRC = 1 (to the rounding of the telescoping recall steps); every OOD below: AUROC = 0; the same multiset in both classes: AUROC = ½ exactly;
//!    all scores tied: AUROC = ½, AUPRC = n_OOD/(n_ID + n_OOD).
//! 5. **Area under the ROC curve.** The trapezoid area of `roc_curve` (ties are diagonal
//!    segments) equals AUROC within `METRIC`.
//! 6. **Reference.** scikit-learn 1.7.2's `roc_auc_score`, `average_precision_score` and
//!    `roc_curve(drop_intermediate=False)` on the committed cases, within `METRIC_REFERENCE`.
// The positional `metrics::auroc`, `auprc` and `roc_curve` are deprecated for one release; these
// checks call them, and `tests/named_inputs.rs` holds `OodScores`'s methods to them bit for bit.
#![allow(deprecated)]

// derivation: metrics::auroc
// derivation: metrics::auprc

use crate::metrics_reference_data as reference;
use crate::support;
use probdml::metrics::{self, exact};
use probdml_proofs::registry::budget::METRIC_REFERENCE;
use proptest::prelude::*;
use support::config;

/// Scores by category: heavy ties (integers 0–4), three levels, signed zeros mixed in, and
/// continuous reals.
fn scores(max_len: usize) -> impl Strategy<Value = Vec<f64>> {
    prop_oneof![
        prop::collection::vec((0i32..5).prop_map(f64::from), 1..max_len),
        prop::collection::vec(prop::sample::select(vec![0.0, 0.5, 1.0]), 1..max_len),
        prop::collection::vec(prop::sample::select(vec![-0.0, 0.0, -1.5, 2.0]), 1..max_len),
        prop::collection::vec(-10.0..10.0f64, 1..max_len),
    ]
}

/// A strictly increasing reassignment of the distinct values of both sets: value rank r goes
/// to Σ_{i≤r} step_i with positive steps.
fn increasing_map(id: &[f64], ood: &[f64], steps: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let mut distinct: Vec<f64> = id.iter().chain(ood).map(|&x| x + 0.0).collect();
    distinct.sort_by(|a, b| a.partial_cmp(b).unwrap());
    distinct.dedup();
    let mut image = Vec::with_capacity(distinct.len());
    let mut acc = -1.0e3;
    for r in 0..distinct.len() {
        acc += steps[r % steps.len()];
        image.push(acc);
    }
    let map = |x: f64| {
        image[distinct
            .binary_search_by(|d| d.partial_cmp(&(x + 0.0)).unwrap())
            .unwrap()]
    };
    (
        id.iter().map(|&x| map(x)).collect(),
        ood.iter().map(|&x| map(x)).collect(),
    )
}

fn trapezoid(x: &[f64], y: &[f64]) -> f64 {
    x.windows(2)
        .zip(y.windows(2))
        .map(|(a, b)| (a[1] - a[0]) * (b[0] + b[1]) / 2.0)
        .sum()
}

proptest! {
    #![proptest_config(config(4096, 0x08_00d))]

    /// Claim 1.
    #[test]
    fn fast_equals_exact(id in scores(200), ood in scores(200)) {
        prop_assert_eq!(metrics::auroc(&id, &ood).unwrap(), exact::auroc(&id, &ood).unwrap());
        prop_assert_eq!(metrics::auprc(&id, &ood).unwrap(), exact::auprc(&id, &ood).unwrap());
        prop_assert_eq!(metrics::roc_curve(&id, &ood).unwrap(), exact::roc_curve(&id, &ood).unwrap());
    }

    /// Claim 2.
    #[test]
    fn invariant_under_increasing_maps(
        id in scores(200),
        ood in scores(200),
        steps in prop::collection::vec(prop_oneof![Just(1e-9), 1e-3..1e3f64], 1..20),
    ) {
        let (id2, ood2) = increasing_map(&id, &ood, &steps);
        prop_assert_eq!(metrics::auroc(&id2, &ood2).unwrap(), metrics::auroc(&id, &ood).unwrap());
        prop_assert_eq!(metrics::auprc(&id2, &ood2).unwrap(), metrics::auprc(&id, &ood).unwrap());
    }

    /// Claim 3.
    #[test]
    fn negation_and_swap_complement(id in scores(200), ood in scores(200)) {
        let a = metrics::auroc(&id, &ood).unwrap();
        let neg = |v: &[f64]| v.iter().map(|x| -x).collect::<Vec<f64>>();
        let negated = metrics::auroc(&neg(&id), &neg(&ood)).unwrap();
        let swapped = metrics::auroc(&ood, &id).unwrap();
        prop_assert!((negated - (1.0 - a)).abs() <= f64::EPSILON, "{} vs 1 − {}", negated, a);
        prop_assert!((swapped - (1.0 - a)).abs() <= f64::EPSILON, "{} vs 1 − {}", swapped, a);
    }

    /// Claim 4: random separation — the same multiset on both sides, in any order.
    #[test]
    fn same_distribution_gives_one_half(id in scores(200), seed in any::<u64>()) {
        let mut ood = id.clone();
        let n = ood.len();
        let mut s = seed | 1;
        for i in (1..n).rev() {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            ood.swap(i, (s % (i as u64 + 1)) as usize);
        }
        prop_assert_eq!(metrics::auroc(&id, &ood).unwrap(), 0.5);
    }

    /// Claim 4: perfect separation in both directions.
    #[test]
    fn perfect_separation(id in scores(200), ood in scores(200)) {
        let top = id.iter().cloned().fold(f64::MIN, f64::max);
        let above: Vec<f64> = ood.iter().map(|x| x.abs() + top + 1.0).collect();
        prop_assert_eq!(metrics::auroc(&id, &above).unwrap(), 1.0);
        // Σ_t (R_t − R_{t−1}) · 1 telescopes to 1 up to the rounding of the recall steps.
        prop_assert!((metrics::auprc(&id, &above).unwrap() - 1.0).abs() <= support::tolerance("metrics::auprc"));
        prop_assert_eq!(metrics::auroc(&above, &id).unwrap(), 0.0);
    }

    /// Claim 5.
    #[test]
    fn roc_area_is_auroc(id in scores(200), ood in scores(200)) {
        let roc = metrics::roc_curve(&id, &ood).unwrap();
        let area = trapezoid(&roc.false_positive_rate, &roc.true_positive_rate);
        let a = metrics::auroc(&id, &ood).unwrap();
        prop_assert!((area - a).abs() <= support::tolerance("metrics::auroc"), "area {} vs AUROC {}", area, a);
        prop_assert_eq!(*roc.false_positive_rate.last().unwrap(), 1.0);
        prop_assert_eq!(*roc.true_positive_rate.last().unwrap(), 1.0);
    }
}

/// Claim 4: all scores tied.
#[test]
fn all_tied() {
    for (n_id, n_ood) in [(1, 1), (3, 1), (2, 5), (100, 7)] {
        let id = vec![0.25; n_id];
        let ood = vec![0.25; n_ood];
        assert_eq!(metrics::auroc(&id, &ood).unwrap(), 0.5);
        assert_eq!(
            metrics::auprc(&id, &ood).unwrap(),
            n_ood as f64 / (n_id + n_ood) as f64
        );
    }
}

/// Large inputs with heavy ties and both zeros (some 200 distinct scores in 5500: counted in the
/// hash table) against the pair count.
#[test]
fn large_inputs_use_the_radix_path() {
    let id: Vec<f64> = (0..3000)
        .map(|i| [((i * 37) % 101) as f64 / 10.0 - 5.0, -0.0][i % 2])
        .collect();
    let ood: Vec<f64> = (0..2500)
        .map(|i| [((i * 53) % 97) as f64 / 10.0 - 4.0, 0.0][i % 2])
        .collect();
    assert_eq!(
        metrics::auroc(&id, &ood).unwrap(),
        exact::auroc(&id, &ood).unwrap()
    );
    assert_eq!(
        metrics::auprc(&id, &ood).unwrap(),
        exact::auprc(&id, &ood).unwrap()
    );
}

/// Claim 6.
#[test]
fn agrees_with_scikit_learn() {
    for case in reference::cases("ood") {
        let (id, ood) = (case.floats("id"), case.floats("ood"));
        let what = |m: &str| format!("ood/{} {m}", case.name);
        for (got, m) in [
            (metrics::auroc(&id, &ood).unwrap(), "auroc"),
            (exact::auroc(&id, &ood).unwrap(), "auroc"),
            (metrics::auprc(&id, &ood).unwrap(), "auprc"),
            (exact::auprc(&id, &ood).unwrap(), "auprc"),
        ] {
            reference::assert_close(got, case.float(m), METRIC_REFERENCE, &what(m));
        }
        let roc = metrics::roc_curve(&id, &ood).unwrap();
        let (fpr, tpr) = (case.floats("fpr"), case.floats("tpr"));
        assert_eq!(
            roc.false_positive_rate.len(),
            fpr.len(),
            "{}",
            what("ROC length")
        );
        for i in 0..fpr.len() {
            reference::assert_close(
                roc.false_positive_rate[i],
                fpr[i],
                METRIC_REFERENCE,
                &what("fpr"),
            );
            reference::assert_close(
                roc.true_positive_rate[i],
                tpr[i],
                METRIC_REFERENCE,
                &what("tpr"),
            );
        }
    }
}

/// Claim 1 on large inputs with too many distinct scores for the hash-table count (more than
/// n/8: the partitioned sort), still with ties and both zeros, and on the same scores rounded
/// to few distinct values (the count): bitwise the pair count and the step sum.
#[test]
fn large_inputs_take_the_count_or_the_sort() {
    let mut state = 0x853c_49e6_748f_ea9bu64;
    let mut draw = |n: usize, shift: f64| -> Vec<f64> {
        (0..n)
            .map(|i| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // A grid of 2⁻¹² over [−2, 2) (16384 values) and, for every fifth score, a zero.
                match i % 5 {
                    0 => [-0.0, 0.0][(state >> 40) as usize % 2],
                    _ => ((state % 16_384) as f64 - 8192.0) / 4096.0 + shift,
                }
            })
            .collect()
    };
    let (id, ood) = (draw(4000, 0.0), draw(3000, 0.25));
    let distinct = |x: &[f64]| {
        let mut keys: Vec<u64> = x.iter().map(|&s| (s + 0.0).to_bits()).collect();
        keys.sort_unstable();
        keys.dedup();
        keys.len()
    };
    let rounded =
        |x: &[f64]| -> Vec<f64> { x.iter().map(|&s| (s * 16.0).round() / 16.0).collect() };
    let all = |a: &[f64], b: &[f64]| [a, b].concat();
    let n = id.len() + ood.len();
    assert!(distinct(&all(&id, &ood)) > n / 8, "many distinct: the sort");
    let (id_r, ood_r) = (rounded(&id), rounded(&ood));
    assert!(
        distinct(&all(&id_r, &ood_r)) <= n / 8,
        "few distinct: the count"
    );
    for (id, ood) in [(&id, &ood), (&id_r, &ood_r)] {
        let (fast, slow) = (
            metrics::auroc(id, ood).unwrap(),
            exact::auroc(id, ood).unwrap(),
        );
        support::check("metrics::auroc", fast, slow);
        assert_eq!(fast.to_bits(), slow.to_bits(), "auroc");
        let (fast, slow) = (
            metrics::auprc(id, ood).unwrap(),
            exact::auprc(id, ood).unwrap(),
        );
        support::check("metrics::auprc", fast, slow);
        assert_eq!(fast.to_bits(), slow.to_bits(), "auprc");
        assert_eq!(
            metrics::roc_curve(id, ood).unwrap(),
            exact::roc_curve(id, ood).unwrap()
        );
    }
}
