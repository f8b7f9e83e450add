//! # Kendall's τ-b and HIB's binned uncertainty analysis (HIB §4.3, Table 2)
//!
//! τ_b = (C − D)/√((n₀ − n₁)(n₀ − n₂)) over the n₀ = n(n−1)/2 pairs, n₁ and n₂ the pairs tied
//! in x and in y (Kendall 1945), as `scipy.stats.kendalltau` (variant "b") evaluates it. HIB
//! sorts test inputs by the uncertainty η(x) into 20 equal-count bins, measures the
//! performance per bin, and reports −τ between bin index and performance.
//!
//! Claims:
//!
//! 1. **Fast = exact.** Knight's O(n log n) algorithm gives the same C − D, n₁, n₂ as the
//!    O(n²) pair classification, hence bitwise the same τ-b, on samples with heavy ties, signed
//!    zeros and continuous values.
//! 2. **Symmetries.** τ(x, −y) = −τ(x, y) exactly; τ(x, y) = τ(y, x) and τ(x, x) = 1 to two
//!    roundings (the square roots are taken in another order); τ ∈ [−1, 1]; τ is invariant
//!    under strictly increasing maps of either sample (bitwise).
//! 3. **Binned analysis, fast = exact**, and a performance that falls strictly from bin to bin
//!    gives τ = 1 (rises: −1), to two roundings.
//! 4. **Reference.** SciPy 1.16.3's `kendalltau` (and the binned analysis built on it) on the
//!    committed cases, within `METRIC_REFERENCE`.

// derivation: metrics::kendall_tau_b
// derivation: metrics::binned_kendall_tau

use crate::metrics_reference_data as reference;
use crate::support;
use probdml::metrics::{self, exact};
use probdml_proofs::registry::budget::METRIC_REFERENCE;
use proptest::prelude::*;
use support::config;

/// A sample of length n by category: integers 0–3, signed zeros and ±1, continuous reals.
fn sample(n: usize) -> BoxedStrategy<Vec<f64>> {
    prop_oneof![
        prop::collection::vec((0i32..4).prop_map(f64::from), n),
        prop::collection::vec(prop::sample::select(vec![-0.0, 0.0, 1.0, -1.0]), n),
        prop::collection::vec(-5.0..5.0f64, n),
    ]
    .boxed()
}

fn pairs() -> impl Strategy<Value = (Vec<f64>, Vec<f64>)> {
    (2usize..300).prop_flat_map(|n| (sample(n), sample(n)))
}

fn non_constant(v: &[f64]) -> bool {
    v.iter().any(|&x| x != v[0])
}

proptest! {
    #![proptest_config(config(4096, 0x08_7a0))]

    /// Claim 1 (and the error on a constant sample, raised by both twins alike).
    #[test]
    fn fast_equals_exact((x, y) in pairs()) {
        match (metrics::kendall_tau_b(&x, &y), exact::kendall_tau_b(&x, &y)) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "fast {:?} vs exact {:?}", a, b),
        }
    }

    /// Claim 2.
    #[test]
    fn symmetries((x, y) in pairs(), steps in prop::collection::vec(1e-3..10.0f64, 1..10)) {
        prop_assume!(non_constant(&x) && non_constant(&y));
        let t = metrics::kendall_tau_b(&x, &y).unwrap();
        prop_assert!((-1.0..=1.0).contains(&t));
        // Swapping the samples swaps the two square roots: one rounding apart.
        prop_assert!((metrics::kendall_tau_b(&y, &x).unwrap() - t).abs() <= 2.0 * f64::EPSILON);
        let neg: Vec<f64> = y.iter().map(|v| -v).collect();
        prop_assert_eq!(metrics::kendall_tau_b(&x, &neg).unwrap(), -t);
        // a/√a/√a: within two roundings of 1.
        prop_assert!((metrics::kendall_tau_b(&x, &x).unwrap() - 1.0).abs() <= 2.0 * f64::EPSILON);
        // A strictly increasing reassignment of the distinct values of x.
        let mut distinct: Vec<f64> = x.iter().map(|v| v + 0.0).collect();
        distinct.sort_by(|a, b| a.partial_cmp(b).unwrap());
        distinct.dedup();
        let image: Vec<f64> = (0..distinct.len())
            .scan(0.0, |acc, r| { *acc += steps[r % steps.len()]; Some(*acc) })
            .collect();
        let mapped: Vec<f64> = x
            .iter()
            .map(|v| image[distinct.binary_search_by(|d| d.partial_cmp(&(v + 0.0)).unwrap()).unwrap()])
            .collect();
        prop_assert_eq!(metrics::kendall_tau_b(&mapped, &y).unwrap(), t);
    }

    /// Claim 3: fast = exact for the binned analysis, errors included.
    #[test]
    fn binned_fast_equals_exact(
        (u, perf) in (4usize..120).prop_flat_map(|n| (sample(n), sample(n))),
        bins in 2usize..25,
    ) {
        let bins = bins.min(u.len());
        match (metrics::binned_kendall_tau(&u, &perf, bins), exact::binned_kendall_tau(&u, &perf, bins)) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "fast {:?} vs exact {:?}", a, b),
        }
        let is_match: Vec<bool> = perf.iter().map(|&p| p > 0.5).collect();
        match (
            metrics::binned_kendall_tau_verification(&u, &perf, &is_match, bins),
            exact::binned_kendall_tau_verification(&u, &perf, &is_match, bins),
        ) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "fast {:?} vs exact {:?}", a, b),
        }
    }

    /// Claim 3: a performance strictly falling with uncertainty gives τ = 1.
    #[test]
    fn falling_performance_gives_tau_one(n_per_bin in 1usize..6, bins in 2usize..21) {
        let n = n_per_bin * bins;
        // A permutation of 0 … n−1 (1 000 003 is a prime above n).
        let u: Vec<f64> = (0..n).map(|i| ((i * 1_000_003) % n) as f64).collect();
        let perf: Vec<f64> = u.iter().map(|&v| 1.0 - v / n as f64).collect();
        // n₀/√n₀/√n₀: ±1 to two roundings.
        let tau = metrics::binned_kendall_tau(&u, &perf, bins).unwrap().tau;
        prop_assert!((tau - 1.0).abs() <= 2.0 * f64::EPSILON, "τ = {}", tau);
        let rising: Vec<f64> = perf.iter().map(|p| -p).collect();
        let tau = metrics::binned_kendall_tau(&u, &rising, bins).unwrap().tau;
        prop_assert!((tau + 1.0).abs() <= 2.0 * f64::EPSILON, "τ = {}", tau);
    }
}

/// Claim 4.
#[test]
fn agrees_with_scipy() {
    for case in reference::cases("kendall") {
        let (x, y) = (case.floats("x"), case.floats("y"));
        let want = case.float("tau");
        let what = format!("kendall/{}", case.name);
        reference::assert_close(
            metrics::kendall_tau_b(&x, &y).unwrap(),
            want,
            METRIC_REFERENCE,
            &what,
        );
        reference::assert_close(
            exact::kendall_tau_b(&x, &y).unwrap(),
            want,
            METRIC_REFERENCE,
            &what,
        );
    }
    for case in reference::cases("binned") {
        let (u, perf, bins) = (
            case.floats("uncertainty"),
            case.floats("performance"),
            case.usize("bins"),
        );
        let what = format!("binned/{}", case.name);
        for b in [
            metrics::binned_kendall_tau(&u, &perf, bins).unwrap(),
            exact::binned_kendall_tau(&u, &perf, bins).unwrap(),
        ] {
            reference::assert_close(b.tau, case.float("tau"), METRIC_REFERENCE, &what);
            for (g, w) in b.bin_performance.iter().zip(case.floats("bin_performance")) {
                reference::assert_close(*g, w, METRIC_REFERENCE, &what);
            }
        }
    }
}
