// derivation: laplace::log_marginal_likelihood
// derivation: laplace::optimal_prior_precision
//! # The Laplace evidence and its evidence-maximising prior precision (MacKay 1992; Immer et al.
//! 2021 eq. (5); the marglik prior of book chapter 09)
//!
//! ln p(D | δ) ≈ ln p(D|θ*) − (δ/2)‖θ*‖² − ½ ln det(I + H/δ) for the prior N(0, δ⁻¹I).
//!
//! **Claim 1 (diagonal = dense).** For a diagonal H the fast evidence equals the dense Cholesky
//! evidence of `laplace::exact` within `LAPLACE` relative to the size of the summed terms.
//!
//! **Claim 2 (rotation invariance).** For H = Q diag(h) Qᵀ with Q orthogonal (a product of
//! Householder reflections), the dense evidence of H equals the fast evidence of diag(h) with the
//! same θ*: ln det and ‖θ*‖ are invariant. This checks the dense path on non-diagonal matrices.
//!
//! **Claim 3 (stationarity: MacKay's fixed point).** The fast maximiser δ* satisfies
//! γ(δ*) = Σ h_k/(h_k + δ*) = δ*‖θ*‖², recomputed here independently, to 10⁻¹³ relative; and the
//! evidence at δ* is not below its value at δ*·(1 ± 10⁻³) and δ*·(1 ± 0.5).
//!
//! **Claim 4 (the root is the maximum).** The exact twin — golden-section search on the dense
//! objective, then bisection on the sign of the dense derivative P − δ tr((H + δI)⁻¹) − δ‖θ*‖²
//! (no fixed-point formula) — finds the same δ* on rotated (non-diagonal) curvatures, within
//! `EVIDENCE_ARGMAX` times the root's condition number (computed per case in the proof).
//!
//! **Edges.** Curvatures spanning 10⁻³⁰⁰…10³⁰⁰, P = 10⁵ parameters, a single informed weight
//! among 10⁴ (δ* then sits far below 1), and the degenerate inputs H = 0 and θ* = 0, which have
//! no maximiser and are errors.
use crate::support;
use probdml::laplace::{self, exact};

use probdml::Error;
use proptest::prelude::*;
use support::config;

fn hessian_entry() -> impl Strategy<Value = f64> {
    prop_oneof![1 => Just(0.0), 4 => support::log_uniform(1e-6, 1e6)]
}

/// Dense row-major H = Q diag(h) Qᵀ, Q = product of two Householder reflections I − 2vvᵀ/‖v‖².
fn rotated(h: &[f64], v1: &[f64], v2: &[f64]) -> Vec<f64> {
    let n = h.len();
    let mut q = vec![0.0; n * n];
    for i in 0..n {
        q[i * n + i] = 1.0;
    }
    for v in [v1, v2] {
        let vv: f64 = v.iter().map(|x| x * x).sum();
        // Q ← Q (I − 2vvᵀ/vv)
        for row in 0..n {
            let dot: f64 = (0..n).map(|k| q[row * n + k] * v[k]).sum();
            for col in 0..n {
                q[row * n + col] -= 2.0 * dot * v[col] / vv;
            }
        }
    }
    let mut dense = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            dense[i * n + j] = (0..n).map(|k| q[i * n + k] * h[k] * q[j * n + k]).sum();
        }
    }
    // Symmetrise the rounding so the exact twin's symmetry check sees a symmetric matrix.
    for i in 0..n {
        for j in 0..i {
            let m = 0.5 * (dense[i * n + j] + dense[j * n + i]);
            dense[i * n + j] = m;
            dense[j * n + i] = m;
        }
    }
    dense
}

fn diagonal_matrix(h: &[f64]) -> Vec<f64> {
    let n = h.len();
    let mut dense = vec![0.0; n * n];
    for (k, &value) in h.iter().enumerate() {
        dense[k * n + k] = value;
    }
    dense
}

/// The size of the summed terms: the scale of rounding in the evidence.
fn term_size(log_likelihood: f64, theta: &[f64], h: &[f64], delta: f64) -> f64 {
    let scatter: f64 = theta.iter().map(|t| t * t).sum();
    log_likelihood.abs()
        + 0.5 * delta * scatter
        + 0.5 * h.iter().map(|&x| (x / delta).ln_1p()).sum::<f64>()
        + 1.0
}

fn inputs() -> impl Strategy<Value = (Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>)> {
    (1usize..10).prop_flat_map(|n| {
        (
            prop::collection::vec(-3.0..3.0f64, n),
            prop::collection::vec(hessian_entry(), n),
            prop::collection::vec(-1.0..1.0f64, n),
            prop::collection::vec(-1.0..1.0f64, n),
        )
    })
}

const EVIDENCE: &str = "laplace::log_marginal_likelihood";
const ARGMAX: &str = "laplace::optimal_prior_precision";

proptest! {
    #![proptest_config(config(300, 0x04_e7_01))]

    #[test]
    fn claim1_diagonal_equals_dense((theta, h, _, _) in inputs(), delta in support::log_uniform(1e-6, 1e6),
                                    log_likelihood in -1e3..1e3f64) {
        let fast = laplace::log_marginal_likelihood(log_likelihood, &theta, &h, delta).unwrap();
        let dense = exact::log_marginal_likelihood(log_likelihood, &theta, &diagonal_matrix(&h), delta).unwrap();
        let size = term_size(log_likelihood, &theta, &h, delta);
        support::check_with_magnitude(EVIDENCE, "diagonal H", fast, dense, size);
    }

    #[test]
    fn claim2_rotation_invariance((theta, h, v1, v2) in inputs(), delta in support::log_uniform(1e-3, 1e3)) {
        prop_assume!(v1.iter().map(|x| x * x).sum::<f64>() > 1e-3 && v2.iter().map(|x| x * x).sum::<f64>() > 1e-3);
        let fast = laplace::log_marginal_likelihood(0.0, &theta, &h, delta).unwrap();
        let dense = exact::log_marginal_likelihood(0.0, &theta, &rotated(&h, &v1, &v2), delta).unwrap();
        // Forming QDQᵀ rounds each entry relative to max h: its effect on ln det(I + H/δ) is
        // bounded by ‖ΔH‖/δ·‖(I + H/δ)⁻¹‖ ≤ n·ε·max h/δ.
        let n = h.len() as f64;
        let h_max = h.iter().copied().fold(0.0, f64::max);
        let size = term_size(0.0, &theta, &h, delta) + 8.0 * n * n * h_max / delta;
        support::check_with_magnitude(EVIDENCE, "rotated H", fast, dense, size);
    }

    #[test]
    fn claim3_stationarity((theta, h, _, _) in inputs()) {
        prop_assume!(h.iter().any(|&x| x > 0.0) && theta.iter().any(|&t| t != 0.0));
        let delta = laplace::optimal_prior_precision(&theta, &h).unwrap();
        let scatter: f64 = theta.iter().map(|t| t * t).sum();
        let gamma: f64 = h.iter().map(|&x| x / (x + delta)).sum();
        prop_assert!((gamma - delta * scatter).abs() <= 1e-13 * gamma.max(delta * scatter),
            "γ = {gamma}, δ‖θ‖² = {}", delta * scatter);
        prop_assert!(gamma >= 0.0 && gamma <= h.len() as f64);
        let at = |d: f64| laplace::log_marginal_likelihood(0.0, &theta, &h, d).unwrap();
        let best = at(delta);
        for factor in [1.0 - 1e-3, 1.0 + 1e-3, 0.5, 1.5] {
            prop_assert!(at(delta * factor) <= best + 1e-14 * best.abs().max(1.0),
                "evidence at {factor}·δ* exceeds the maximum");
        }
    }
}

proptest! {
    #![proptest_config(config(256, 0x04_e7_02))]

    #[test]
    fn claim4_root_is_the_dense_maximum((theta, h, v1, v2) in inputs()) {
        prop_assume!(h.iter().any(|&x| x > 1e-3) && theta.iter().any(|&t| t.abs() > 1e-2));
        prop_assume!(v1.iter().map(|x| x * x).sum::<f64>() > 1e-3 && v2.iter().map(|x| x * x).sum::<f64>() > 1e-3);
        let fast = laplace::optimal_prior_precision(&theta, &h).unwrap();
        let dense = exact::optimal_prior_precision(&theta, &rotated(&h, &v1, &v2)).unwrap();
        // Conditioning of the root in t = ln δ: a perturbation Δγ of MacKay's γ moves it by
        // Δγ / |d(γ − δ‖θ‖²)/dt| = Δγ / (Σ q(1 − q) + δ‖θ‖²), q = h/(h + δ). Forming QDQᵀ rounds
        // the entries by ~8n²ε·max h (claim 2), which perturbs γ by up to that over δ.
        let n = h.len() as f64;
        let scatter: f64 = theta.iter().map(|t| t * t).sum();
        let h_max = h.iter().copied().fold(0.0, f64::max);
        let slope: f64 = h.iter().map(|&x| { let q = x / (x + fast); q * (1.0 - q) }).sum::<f64>()
            + fast * scatter;
        // Compared in ln δ, where the registered magnitude is the root's condition number.
        let condition = (n + 8.0 * n * n * h_max / fast) / slope;
        support::check_with_magnitude(ARGMAX, "ln δ*", fast.ln(), dense.ln(), condition);
    }
}

#[test]
fn edges_extreme_curvatures_and_sizes() {
    // Curvatures across the whole f64 range: the root stays finite and stationary.
    let h = [1e-300, 1e-150, 1.0, 1e150, 1e300];
    let theta = [1.0; 5];
    let delta = laplace::optimal_prior_precision(&theta, &h).unwrap();
    let gamma: f64 = h.iter().map(|&x| x / (x + delta)).sum();
    assert!(delta.is_finite() && delta > 0.0);
    assert!((gamma - delta * 5.0).abs() <= 1e-13 * gamma);
    // P = 10⁵ parameters.
    let n = 100_000;
    let h: Vec<f64> = (0..n).map(|k| (k % 7) as f64 * 10.0).collect();
    let theta: Vec<f64> = (0..n).map(|k| ((k % 11) as f64 - 5.0) / 50.0).collect();
    let delta = laplace::optimal_prior_precision(&theta, &h).unwrap();
    let gamma: f64 = h.iter().map(|&x| x / (x + delta)).sum();
    let scatter: f64 = theta.iter().map(|t| t * t).sum();
    assert!(
        (gamma - delta * scatter).abs() <= 1e-12 * gamma,
        "{gamma} vs {}",
        delta * scatter
    );
    // One informed weight among 10⁴: γ ≤ 1, so δ* ≤ 1/‖θ‖², far below the reference code's 1.
    let mut h = vec![0.0; 10_000];
    h[0] = 1e4;
    let theta = vec![0.5; 10_000];
    let delta = laplace::optimal_prior_precision(&theta, &h).unwrap();
    assert!(delta <= 1.0 / 2500.0, "δ* = {delta}");
}

#[test]
fn degenerate_curvature_or_mode_has_no_maximiser() {
    assert!(matches!(
        laplace::optimal_prior_precision(&[1.0, -1.0], &[0.0, 0.0]),
        Err(Error::Undefined { .. })
    ));
    assert!(matches!(
        exact::optimal_prior_precision(&[1.0, -1.0], &[0.0, 0.0, 0.0, 0.0]),
        Err(Error::Undefined { .. })
    ));
    assert!(matches!(
        laplace::optimal_prior_precision(&[0.0, 0.0], &[1.0, 2.0]),
        Err(Error::Undefined { .. })
    ));
    assert!(matches!(
        exact::optimal_prior_precision(&[0.0, 0.0], &[1.0, 0.0, 0.0, 2.0]),
        Err(Error::Undefined { .. })
    ));
    // Bad input names the argument.
    let err = laplace::log_marginal_likelihood(f64::NAN, &[1.0], &[1.0], 1.0).unwrap_err();
    assert!(err.to_string().contains("log_likelihood"), "{err}");
    let err =
        exact::log_marginal_likelihood(0.0, &[1.0, 0.0], &[1.0, 2.0, 0.0, 1.0], 1.0).unwrap_err();
    assert!(err.to_string().contains("symmetric"), "{err}");
    let err =
        exact::log_marginal_likelihood(0.0, &[1.0, 0.0], &[1.0, 2.0, 2.0, 1.0], 0.5).unwrap_err();
    assert!(err.to_string().contains("positive definite"), "{err}");
    let err = laplace::optimal_prior_precision(&[1.0], &[f64::INFINITY]).unwrap_err();
    assert!(err.to_string().contains("hessian_diagonal"), "{err}");
}
