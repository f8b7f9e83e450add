// derivation: ggn::last_layer_ggn_diagonal
//! # The fast diagonal of the last-layer GGN (LAM §3,
//! App. E–F)
//!
//! **Claim 1 (budget).** For y = Wx, both splits and all three approximations,
//! `last_layer_ggn_diagonal` equals the diagonal of the dense hyper-dual GGN
//! (`exact::last_layer_ggn_diagonal`, clamped at 0 for "full") entrywise, relative to the size
//! of the summed terms, Σ_pairs |t|(1 + ‖x_i‖/r_i + ‖x_j‖/r_j)² (the registered `Relative`
//! budget `GGN`, through `support::check`). Not relative to the result, which can cancel to
//! rounding level (trivial pairs, M = 1): there the closed form gives 0 and the hyper-dual
//! reference 6·10⁻¹⁴ of rounding, and a result-relative test would compare rounding noise.
//!
//! **Claim 2 (one pass).** `last_layer_ggn_diagonals` returns the same six diagonals, within the
//! same budget, from one pass over the pairs.
//!
//! **Claim 3 (hard negatives).** Pairs with t = 0 (negatives outside the margin) change nothing:
//! listing them explicitly gives bit-identical diagonals.
use crate::ggn_support;
use crate::support;
use ggn_support::*;
use probdml::contrastive::PairTarget;
use probdml::ggn::{self, exact, Approximation, Split};
use proptest::prelude::*;
use support::{check_slice_with_magnitude, config};

const NAME: &str = "ggn::last_layer_ggn_diagonal";

proptest! {
    #![proptest_config(config(300, 0x04_d1_a9))]

    /// Claims 1–3.
    #[test]
    fn diagonal_matches_dense_for_all_six(p in problem()) {
        prop_assume!(p.min_output_norm() > 1e-2);
        let Some(pairs) = p.pairs() else { return Ok(()) };
        let terms = p.term_scale(&pairs);
        let all = ggn::last_layer_ggn_diagonals(&p.weights, &p.features, p.n_features, &pairs).unwrap();
        let mut padded = pairs.clone();
        let n = p.n_points();
        for i in 0..n {
            for j in 0..n {
                if !pairs.iter().any(|q| (q.i, q.j) == (i, j)) {
                    padded.push(PairTarget { i, j, target: 0.0 });
                }
            }
        }
        for split in Split::ALL {
            for approximation in Approximation::ALL {
                let fast = ggn::last_layer_ggn_diagonal(&p.weights, &p.features, p.n_features, &pairs, split, approximation).unwrap();
                let want = exact::last_layer_ggn_diagonal(&p.weights, &p.features, p.n_features, &pairs, split, approximation).unwrap();
                check_slice_with_magnitude(NAME, format!("{split:?}/{approximation:?}"), &fast, &want, terms);
                check_slice_with_magnitude(NAME, format!("one pass {split:?}/{approximation:?}"), all.get(split, approximation), &want, terms);
                let with_zeros = ggn::last_layer_ggn_diagonal(&p.weights, &p.features, p.n_features, &padded, split, approximation).unwrap();
                prop_assert_eq!(&with_zeros, &fast);
            }
        }
    }
}

/// A larger case than the property draws (B = 8, M = 3, F = 5), all ordered pairs.
#[test]
fn diagonal_matches_dense_larger_batch() {
    let (b, m, f) = (8usize, 3usize, 5usize);
    let value = |s: usize| ((s as f64 * 0.618_033_988_749_895).fract() - 0.5) * 2.0;
    let p = Problem {
        weights: (0..m * f).map(value).collect(),
        features: (0..b * f).map(|s| value(s + 101)).collect(),
        n_features: f,
        labels: (0..b).map(|i| i % 3).collect(),
        margin: 1.5,
    };
    let pairs = p.pairs().unwrap();
    for split in Split::ALL {
        for approximation in Approximation::ALL {
            let fast = ggn::last_layer_ggn_diagonal(
                &p.weights,
                &p.features,
                f,
                &pairs,
                split,
                approximation,
            )
            .unwrap();
            let want = exact::last_layer_ggn_diagonal(
                &p.weights,
                &p.features,
                f,
                &pairs,
                split,
                approximation,
            )
            .unwrap();
            let terms = p.term_scale(&pairs);
            check_slice_with_magnitude(
                NAME,
                format!("{split:?}/{approximation:?}"),
                &fast,
                &want,
                terms,
            );
        }
    }
}
