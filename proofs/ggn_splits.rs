// derivation: ggn::euclidean_output_hessian
// derivation: ggn::arccos_output_hessian
//! # The Euclidean and Arccos splits of the GGN (LAM §3, eqs. 7–9, App. F)
//!
//! **Claim 1 (output Hessians, budget).** The closed forms of `euclidean_output_hessian`
//! (t[[I, −I], [−I, I]]) and `arccos_output_hessian` (H_ii, H_ij of LAM App. F) equal the Hessians of
//! (t/2)‖z_i − z_j‖² and t(1 − ŷ_iᵀŷ_j) by hyper-dual numbers, entrywise relative to the size of
//! the terms summed (the registered `Relative` budget `GGN`, through `support::check`). Not
//! relative to the result: at M = 1 the Arccos Hessian is exactly zero, the closed form gives 0
//! and the hyper-dual reference 2·10⁻¹⁶ of rounding. The identities of Claims 3 and 4 hold
//! between hyper-dual references on the same scale (`GGN_IDENTITIES`).
//!
//! **Claim 2 (eigenvalues, LAM eqs. 8–9).** Per coordinate, H_p = [[1, −1], [−1, 1]] has
//! eigenvalues {0, 2} and H_n = [[−1, 1], [1, −1]] has {−2, 0}: the Euclidean output Hessian with
//! t = ±1 has M eigenvalues 0 and M eigenvalues 2t.
//!
//! **Claim 3 (same zero- and first-order terms).** For every θ the two splits give the same loss
//! Σ ℓ_t and the same gradient Σ J_pairᵀ∇ℓ_pair, equal to the gradient of the composition — for
//! the linear last layer and for a tanh hidden layer under it.
//!
//! **Claim 4 (Arccos GGN = Hessian, linear last layer).** For y = Wx the dense Arccos GGN with
//! every block kept ("full", unclamped) equals the exact Hessian of the loss in W, both by
//! hyper-dual numbers, within 10⁻¹²·Σ_pairs |t|(1 + ‖x_i‖/r_i + ‖x_j‖/r_j)².
//!
//! **Refutation (Euclidean GGN = Hessian).** A concrete case where the Euclidean GGN differs
//! from the Hessian: W = I₂, x_0 = (1, 0), x_1 = (1, 1), one positive pair (0, 1) with t = 1;
//! the (W_00, W_00) entries differ by more than 0.1. *Corrected statement:* the Euclidean GGN
//! drops Σ ∇_zℓ · ∇²z (the curvature of the normalisation), which is what Claim 4's split keeps.
use crate::ggn_support;
use crate::support;
use ggn_support::*;
use probdml::contrastive::PairTarget;
use probdml::ggn::exact::{self, HiddenLayerNetwork, LastLayer};
use probdml::ggn::{self, Approximation, Split};
use probdml_proofs::registry::budget::GGN_IDENTITIES;
use proptest::prelude::*;
use support::{check_slice_with_magnitude, config};

const EUCLIDEAN: &str = "ggn::euclidean_output_hessian";
const ARCCOS: &str = "ggn::arccos_output_hessian";

proptest! {
    #![proptest_config(config(300, 0x04_5b_11))]

    /// Claim 1.
    #[test]
    fn output_hessians_match_hyperdual(
        yi in prop::collection::vec(-2.0..2.0f64, 1..6),
        yj_seed in prop::collection::vec(-2.0..2.0f64, 6),
        t in prop_oneof![Just(1.0), Just(-1.0), -3.0..3.0f64],
    ) {
        let yj = &yj_seed[..yi.len()];
        prop_assume!(yi.iter().any(|v| v.abs() > 1e-3) && yj.iter().any(|v| v.abs() > 1e-3));
        // Entries are sums of terms of size ≤ 4|t|(1/r_i + 1/r_j)² (and 1 + ‖y‖ for the
        // Euclidean ones, which act on z = y directly here); the output gradients under the
        // budget of their Hessians.
        let norm = |v: &[f64]| v.iter().map(|a| a * a).sum::<f64>().sqrt();
        let (ri, rj) = (norm(&yi), norm(yj));
        let terms = 4.0 * t.abs() * (1.0 + ri + rj + 1.0 / ri + 1.0 / rj).powi(2);
        let case = format!("y_i = {yi:?}, y_j = {yj:?}, t = {t}");
        check_slice_with_magnitude(ARCCOS, &case, &ggn::arccos_output_hessian(&yi, yj, t).unwrap(), &exact::arccos_output_hessian(&yi, yj, t).unwrap(), terms);
        check_slice_with_magnitude(EUCLIDEAN, &case, &ggn::euclidean_output_hessian(&yi, yj, t).unwrap(), &exact::euclidean_output_hessian(&yi, yj, t).unwrap(), terms);
        check_slice_with_magnitude(ARCCOS, &case, &ggn::arccos_output_gradient(&yi, yj, t).unwrap(), &exact::arccos_output_gradient(&yi, yj, t).unwrap(), terms);
        check_slice_with_magnitude(EUCLIDEAN, &case, &ggn::euclidean_output_gradient(&yi, yj, t).unwrap(), &exact::euclidean_output_gradient(&yi, yj, t).unwrap(), terms);
    }

    /// Claims 3 and 4 on random last-layer problems.
    #[test]
    fn splits_agree_to_first_order_and_arccos_is_the_hessian(p in problem()) {
        prop_assume!(p.min_output_norm() > 1e-2);
        let Some(pairs) = p.pairs() else { return Ok(()) };
        let model = LastLayer::new(&p.weights, &p.features, p.n_features).unwrap();
        let scale = p.term_scale(&pairs);
        let (le, la) = (exact::loss(&model, &pairs, Split::Euclidean).unwrap(), exact::loss(&model, &pairs, Split::Arccos).unwrap());
        prop_assert!((le - la).abs() <= GGN_IDENTITIES * scale, "loss {le} vs {la}");
        let truth = exact::loss_gradient(&model, &pairs).unwrap();
        for split in Split::ALL {
            let g = exact::split_gradient(&model, &pairs, split).unwrap();
            prop_assert!(close_with_scale(&g, &truth, GGN_IDENTITIES, scale), "{split:?}: {g:?} vs {truth:?}");
        }
        let ggn = exact::ggn_dense(&model, &pairs, Split::Arccos, Approximation::Full).unwrap();
        let hessian = exact::loss_hessian(&model, &pairs).unwrap();
        prop_assert!(close_with_scale(&ggn, &hessian, GGN_IDENTITIES, scale), "Arccos GGN ≠ Hessian");
    }

    /// Claim 3 for a tanh hidden layer (D = 2, H = 3, M = 2).
    #[test]
    fn splits_agree_to_first_order_hidden_layer(
        hidden in prop::collection::vec(-1.0..1.0f64, 6),
        out in prop::collection::vec(-1.0..1.0f64, 6),
        inputs in prop::collection::vec(-2.0..2.0f64, 8),
        labels in prop::collection::vec(0usize..2, 4),
    ) {
        let Ok(net) = HiddenLayerNetwork::new(&hidden, &out, &inputs, 2, 3) else { return Ok(()) };
        let pairs = all_pairs(&labels);
        prop_assume!(!pairs.is_empty());
        // Term size: |t| · ‖∂y/∂θ‖²-ish / r², bounded by (1 + max|u|)²(1 + max|θ|)²/r_min².
        let big = |v: &[f64]| 1.0 + v.iter().fold(0.0f64, |s, a| s.max(a.abs()));
        let r_min = exact::Model::outputs::<f64>(&net, exact::Model::params(&net)).chunks_exact(2)
            .map(|y| (y[0] * y[0] + y[1] * y[1]).sqrt()).fold(f64::INFINITY, f64::min);
        let scale = pairs.len() as f64 * (big(&inputs) * big(&hidden) * big(&out) / r_min).powi(2);
        let truth = exact::loss_gradient(&net, &pairs).unwrap();
        for split in Split::ALL {
            let g = exact::split_gradient(&net, &pairs, split).unwrap();
            prop_assert!(close_with_scale(&g, &truth, GGN_IDENTITIES, scale), "{split:?}");
        }
    }
}

/// All ordered pairs with t = +1 on same labels and −1 otherwise (a fixed-target stand-in).
fn all_pairs(labels: &[usize]) -> Vec<PairTarget> {
    let n = labels.len();
    (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .map(|(i, j)| PairTarget {
            i,
            j,
            target: if labels[i] == labels[j] { 1.0 } else { -1.0 },
        })
        .collect()
}

/// Claim 2.
#[test]
fn output_hessian_eigenvalues() {
    for m in 1..=4 {
        let z = vec![0.5; m];
        for t in [1.0, -1.0] {
            let h = ggn::euclidean_output_hessian(&z, &z, t).unwrap();
            let ev = exact::symmetric_eigenvalues(&h, 2 * m).unwrap();
            let mut want: Vec<f64> = std::iter::repeat_n(0.0, m)
                .chain(std::iter::repeat_n(2.0 * t, m))
                .collect();
            want.sort_by(f64::total_cmp);
            for (e, w) in ev.iter().zip(&want) {
                assert!((e - w).abs() < 1e-14, "M = {m}, t = {t}: {ev:?}");
            }
        }
    }
}

/// The refutation: the Euclidean GGN_IDENTITIES is not the Hessian for a linear last layer.
#[test]
fn euclidean_ggn_is_not_the_hessian() {
    let weights = [1.0, 0.0, 0.0, 1.0];
    let features = [1.0, 0.0, 1.0, 1.0];
    let pairs = [PairTarget {
        i: 0,
        j: 1,
        target: 1.0,
    }];
    let model = LastLayer::new(&weights, &features, 2).unwrap();
    let hessian = exact::loss_hessian(&model, &pairs).unwrap();
    let euclid = exact::ggn_dense(&model, &pairs, Split::Euclidean, Approximation::Full).unwrap();
    let arccos = exact::ggn_dense(&model, &pairs, Split::Arccos, Approximation::Full).unwrap();
    assert!(close_scaled(&arccos, &hessian, GGN_IDENTITIES));
    assert!(
        (euclid[0] - hessian[0]).abs() > 0.1,
        "Euclidean {} vs Hessian {}",
        euclid[0],
        hessian[0]
    );
}

/// For the hidden layer, even the Arccos GGN misses the network's own curvature: GGN ≠ Hessian.
#[test]
fn hidden_layer_ggn_is_not_the_hessian() {
    let net = HiddenLayerNetwork::new(
        &[0.9, -0.4, 0.3, 0.8, -0.7, 0.2],
        &[0.5, -0.6, 0.9, 0.4, 0.3, -0.8],
        &[1.0, 0.5, -0.3, 1.2, 0.7, -1.1, -0.9, 0.2],
        2,
        3,
    )
    .unwrap();
    let pairs = all_pairs(&[0, 0, 1, 1]);
    let hessian = exact::loss_hessian(&net, &pairs).unwrap();
    let arccos = exact::ggn_dense(&net, &pairs, Split::Arccos, Approximation::Full).unwrap();
    assert!(!close_scaled(&arccos, &hessian, 1e-6));
}
