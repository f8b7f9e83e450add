//! # Gradients of the BTL negative log-likelihood (BTL Fig. 2)
//!
//! Claims proved here:
//!
//! 1. **Closed form = dual numbers**: `triplet::nll_gradient` (per-dimension derivatives of the
//!    cancellation-free moments, chained through the hazard φ/Φ) equals forward-mode
//!    derivatives (`num-dual`) of the dense quadratic-form moments through the 256-bit `ln Φ`
//!    (`triplet::exact::nll_gradient`), entrywise within `TRIPLET_GRADIENT·max|exact|`, for
//!    batches of 1–3 triplets, `D ≤ 8`, margins in `[0, 2]`, zero variances included.
//! 2. **Translation invariance**: `∂/∂μ_a + ∂/∂μ_p + ∂/∂μ_n = 0` per coordinate.
//! 3. **BTL Fig. 2, as far as it holds.** The paper: "In all scenarios the mean of the anchor
//!    and positive are attracted, while the mean of the negative is repelled", and for a
//!    correctly ordered triplet "the gradients w.r.t. the variances are negative" (every
//!    variance shrinks under gradient descent). Proved: in the figure's three 1-D scenarios
//!    (equal variances; correct, wrong and ambiguous ordering) the positive moves towards the
//!    anchor and the negative away; in the correct one every variance shrinks, in the wrong one
//!    σ_a² and σ_p² grow. In general the mean gradient splits into a part through `E τ`, which
//!    always attracts p and repels n, and a part through `Var τ` with the sign of `z`; the claim
//!    holds wherever the first dominates.
//!
//! ## Refutation 1: "the negative is repelled in all scenarios" (BTL §3.1, Fig. 2)
//!
//! **Claim (false).** `(μ_n − μ_a)·∂NLL/∂μ_n < 0` always. Counterexample (proptest, shrunk):
//! `μ = (0, 1.95, 0.05)`, `σ² = 0.01` each, `m = 0`, a badly violated triplet: the loss then
//! wants a larger `Var τ ∋ 4σ_a²(μ_p − μ_n)²` and pulls the negative towards the anchor.
//! **Corrected theorem**: `∂NLL/∂μ_n = −(h/σ)·2d_n + (hz/2σ²)·8(σ_n²d_n − σ_a²e)`; the first
//! term always repels, and the negative is repelled whenever it dominates.
//!
//! ## Refutation 2: "a correctly ordered triplet lowers every variance" (BTL §3.1, Fig. 2)
//!
//! **Claim (false in general).** For `E τ < −m` (correct ordering), every `∂NLL/∂σ² > 0`.
//! `∂NLL/∂σ_n² = −h/σ + (hz/σ²)·2(σ_n² + d_n² + σ_a²)`, which is negative when `z` is small:
//! a barely correct triplet *raises* the negative's variance. Pinned (1-D): `μ = (0, 0.5, 0.72)`,
//! `σ² = (0.1, 0.1, 0.1)`, `m = 0`: `E τ = −0.2684 < 0` yet `∂NLL/∂σ_n² < 0`.
//! That is the CLT loss (`∂NLL/∂σ_n² = −0.1148`); under the exact likelihood
//! `P(τ < −m)` the same point has `∂NLL/∂σ_n² = +0.3092` (mpmath,
//! `scripts/reference/triplet_fig2_values.txt`; finite differences of both crate likelihoods
//! agree), so this refutation is about the loss BTL trains with, not about the likelihood.
//! Refutation 1 holds under both: `∂NLL/∂μ_n = +10.99` (CLT), `+33.82` (exact).
//!
//! **Corrected theorem.** For `z = (−m − E τ)/σ > 0`: `∂NLL/∂σ_a² > 0` and `∂NLL/∂σ_p² > 0`
//! always; `∂NLL/∂σ_n² > 0` iff `2z(σ_n² + (μ_n − μ_a)² + σ_a²) > σ`.
// The six-slice `triplet::moments` and `triplet::log_likelihood` are deprecated for one release;
// these checks call them, and `tests/named_inputs.rs` holds `Triplet`'s methods to them bit for bit.
#![allow(deprecated)]

// derivation: triplet::nll_gradient

use crate::support;
use probdml::triplet::{self, exact, TripletGradient};
use proptest::prelude::*;

const NAME: &str = "triplet::nll_gradient";

fn config(cases: u32) -> ProptestConfig {
    support::config(cases, 0x0005_0003)
}

/// A batch: (B, D, six row-major B × D inputs, margin).
fn batch() -> impl Strategy<Value = (usize, [Vec<f64>; 6], f64)> {
    (1usize..=3, 1usize..=8).prop_flat_map(|(b, d)| {
        let mean = prop_oneof![1 => Just(0.0), 4 => -1.5..1.5f64];
        let var = prop_oneof![1 => Just(0.0), 4 => 0.01..1.0f64];
        let means = prop::collection::vec(mean, 3 * b * d);
        let vars = prop::collection::vec(var, 3 * b * d);
        (Just(d), means, vars, 0.0..2.0f64).prop_map(move |(d, m, v, margin)| {
            let n = b * d;
            let inputs = [
                m[..n].to_vec(),
                v[..n].to_vec(),
                m[n..2 * n].to_vec(),
                v[n..2 * n].to_vec(),
                m[2 * n..].to_vec(),
                v[2 * n..].to_vec(),
            ];
            (d, inputs, margin)
        })
    })
}

fn fields(g: &TripletGradient) -> [&Vec<f64>; 6] {
    [&g.mu_a, &g.var_a, &g.mu_p, &g.var_p, &g.mu_n, &g.var_n]
}

proptest! {
    #![proptest_config(config(256))]

    /// Claim 1: closed form against dual numbers through the dense moments.
    #[test]
    fn closed_form_gradient_equals_dual_numbers((dim, x, margin) in batch()) {
        let fast = triplet::nll_gradient(&x[0], &x[1], &x[2], &x[3], &x[4], &x[5], dim, margin);
        let reference = exact::nll_gradient(&x[0], &x[1], &x[2], &x[3], &x[4], &x[5], dim, margin);
        match (fast, reference) {
            (Ok(f), Ok(e)) => {
                support::check_with_magnitude(NAME, "NLL", f.nll, e.nll, e.nll.abs().max(1.0));
                // Entrywise, relative to max|exact| over the whole batch gradient.
                let flat = |g: &TripletGradient| fields(g).iter().flat_map(|v| v.iter().copied()).collect::<Vec<f64>>();
                let (flat_fast, flat_exact) = (flat(&f), flat(&e));
                support::check_slice(NAME, format!("D = {dim}"), &flat_fast, &flat_exact);
                let scale = flat_exact.iter().fold(0.0f64, |m, x| m.max(x.abs()));
                // Claim 2: the three mean gradients cancel coordinate by coordinate.
                for i in 0..f.mu_a.len() {
                    let s = f.mu_a[i] + f.mu_p[i] + f.mu_n[i];
                    prop_assert!(s.abs() <= 1e-12 * scale.max(f64::MIN_POSITIVE));
                }
            }
            // Both refuse the same degenerate input (all variances 0 and violated).
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            (f, e) => prop_assert!(false, "fast {:?} but exact {:?}", f, e),
        }
    }

    /// Claim 3 (means, corrected): the gradient splits into a mean part `(h/σ)·∂E τ/∂μ`, which
    /// always attracts the positive and repels the negative, and a variance part
    /// `(hz/2σ²)·∂Var τ/∂μ`; the paper's claim holds exactly when the first dominates.
    #[test]
    fn fig2_means_split_into_an_attracting_part_and_a_variance_part(
        x in prop::collection::vec(-2.0..2.0f64, 3),
        v in prop::collection::vec(0.01..1.0f64, 3),
        margin in 0.0..1.0f64,
    ) {
        let (ma, mp, mn) = (x[0], x[1], x[2]);
        let (va, vp, vn) = (v[0], v[1], v[2]);
        let (mean, var) = triplet::moments(&[ma], &[va], &[mp], &[vp], &[mn], &[vn]).unwrap();
        let sigma = var.sqrt();
        let z = (-margin - mean) / sigma;
        let g = triplet::nll_gradient(&[ma], &[va], &[mp], &[vp], &[mn], &[vn], 1, margin).unwrap();
        let h = probdml::special::normal_hazard(z);
        let (dp, dn, e) = (mp - ma, mn - ma, mp - mn);
        // Mean parts: (h/σ)·2d_p for p and −(h/σ)·2d_n for n — attraction and repulsion.
        let (mean_p, mean_n) = (h / sigma * 2.0 * dp, -h / sigma * 2.0 * dn);
        // Variance parts: (hz/2σ²)·8(σ_p²d_p + σ_a²e) and (hz/2σ²)·8(σ_n²d_n − σ_a²e).
        let c = h * z / (2.0 * var);
        let (var_p, var_n) = (c * 8.0 * (vp * dp + va * e), c * 8.0 * (vn * dn - va * e));
        let scale = g.mu_p[0].abs().max(g.mu_n[0].abs()).max(mean_p.abs()).max(var_p.abs());
        prop_assert!((g.mu_p[0] - mean_p - var_p).abs() <= 1e-12 * scale);
        prop_assert!((g.mu_n[0] - mean_n - var_n).abs() <= 1e-12 * scale.max(mean_n.abs()).max(var_n.abs()));
        prop_assert!(dp * mean_p >= 0.0 && dn * mean_n <= 0.0);
        // The paper's claim, where the mean part dominates.
        if mean_p.abs() > var_p.abs() {
            prop_assert!(dp * g.mu_p[0] > 0.0);
        }
        if mean_n.abs() > var_n.abs() {
            prop_assert!(dn * g.mu_n[0] < 0.0);
        }
    }

    /// Claim 3 (variances): for a correctly ordered triplet σ_a² and σ_p² always shrink, and σ_n²
    /// shrinks exactly when 2z(σ_n² + d_n² + σ_a²) > σ.
    #[test]
    fn correct_ordering_and_the_variance_gradients(
        x in prop::collection::vec(-2.0..2.0f64, 3),
        v in prop::collection::vec(0.01..1.0f64, 3),
        margin in 0.0..1.0f64,
    ) {
        let (mean, var) = triplet::moments(&[x[0]], &[v[0]], &[x[1]], &[v[1]], &[x[2]], &[v[2]]).unwrap();
        let sigma = var.sqrt();
        let z = (-margin - mean) / sigma;
        prop_assume!(z > 0.0);
        let g = triplet::nll_gradient(&[x[0]], &[v[0]], &[x[1]], &[v[1]], &[x[2]], &[v[2]], 1, margin).unwrap();
        prop_assert!(g.var_a[0] > 0.0 && g.var_p[0] > 0.0, "{:?}", g);
        let dn = x[2] - x[0];
        let criterion = 2.0 * z * (v[2] + dn * dn + v[0]) - sigma;
        if criterion.abs() > 1e-9 * sigma {
            prop_assert_eq!(g.var_n[0] > 0.0, criterion > 0.0, "{:?}, criterion {}", g, criterion);
        }
    }
}

/// Refutation: a correctly ordered triplet whose negative variance grows.
#[test]
fn refutation_correct_ordering_does_not_shrink_every_variance() {
    let (ma, mp, mn, v, margin) = (0.0, 0.5, 0.72, 0.1, 0.0);
    let (mean, _) = triplet::moments(&[ma], &[v], &[mp], &[v], &[mn], &[v]).unwrap();
    assert!((mean - (0.25 - 0.5184)).abs() < 1e-15, "E τ = {mean}");
    assert!(mean < -margin, "the triplet is correctly ordered");
    let g = triplet::nll_gradient(&[ma], &[v], &[mp], &[v], &[mn], &[v], 1, margin).unwrap();
    assert!(g.var_n[0] < 0.0, "claim holds here after all: {g:?}");
    // Corrected theorem at this point: 2z(σ_n² + d_n² + σ_a²) < σ.
    let (_, var) = triplet::moments(&[ma], &[v], &[mp], &[v], &[mn], &[v]).unwrap();
    let z = (-margin - mean) / var.sqrt();
    assert!(2.0 * z * (v + mn * mn + v) < var.sqrt());
    // And σ_a², σ_p² do shrink.
    assert!(g.var_a[0] > 0.0 && g.var_p[0] > 0.0);
}

/// Refutation: "the mean of the negative is repelled in all scenarios" (BTL §3.1). Pinned from
/// proptest's shrunk counterexample: μ = (0, 1.95, 0.05), σ² = 0.01 each, m = 0 — a badly
/// violated triplet (z ≈ −7) whose negative is pulled *towards* the anchor, because the loss
/// then prefers a larger Var τ, which grows with (μ_p − μ_n)².
#[test]
fn refutation_the_negative_is_not_always_repelled() {
    let (ma, mp, mn, v) = (0.0, 1.95, 0.05, 0.01);
    let g = triplet::nll_gradient(&[ma], &[v], &[mp], &[v], &[mn], &[v], 1, 0.0).unwrap();
    assert!(
        (mn - ma) * g.mu_n[0] > 0.0,
        "the negative is repelled after all: {g:?}"
    );
}

/// BTL Fig. 2's three 1-D scenarios (equal variances 0.2, m = 0): the positive is attracted and
/// the negative repelled in each; in the correct ordering every variance shrinks, in the wrong
/// one σ_a² and σ_p² grow.
#[test]
fn fig2_three_scenarios_pinned() {
    // Left: correct ordering; centre: wrong ordering; right: ambiguous (p and n equidistant).
    let scenarios = [
        ("left", 0.0, 0.5, 2.0),
        ("centre", 0.0, 2.0, 0.5),
        ("right", 0.0, 1.0, -1.0),
    ];
    for (name, ma, mp, mn) in scenarios {
        let v = 0.2;
        let g = triplet::nll_gradient(&[ma], &[v], &[mp], &[v], &[mn], &[v], 1, 0.0).unwrap();
        assert!(
            (mp - ma) * g.mu_p[0] > 0.0,
            "{name}: positive not attracted {g:?}"
        );
        assert!(
            (mn - ma) * g.mu_n[0] < 0.0,
            "{name}: negative not repelled {g:?}"
        );
        let variances_shrink = g.var_a[0] > 0.0 && g.var_p[0] > 0.0 && g.var_n[0] > 0.0;
        match name {
            "left" => assert!(variances_shrink, "{name}: {g:?}"),
            "centre" => assert!(g.var_a[0] < 0.0 && g.var_p[0] < 0.0, "{name}: {g:?}"),
            _ => {}
        }
    }
}

/// BTL Fig. 2's two counterexamples under both likelihoods, by value. The NLL and its six
/// derivatives come from `scripts/reference/triplet_fig2_values.py` (mpmath: the exact
/// `P(τ < 0)` as a 1-D integral over the bivariate normal `(n − p, 2a − p − n)`, the CLT from
/// the closed-form moments, derivatives by `mpmath.diff`). Checked: the crate's CLT and exact
/// NLL equal them (the registered tolerances of ln Φ and of the generalised-χ² CDF); the analytic CLT gradient equals them
/// (`TRIPLET_GRADIENT`); central finite differences of both crate likelihoods reproduce them
/// (step 10⁻⁴, to 10⁻⁴ relative: the exact route's own error `10⁻¹⁰·|ln P|` divided by the
/// step is the floor). What that shows, recorded from the table:
///
/// * **"σ_n² grows"** (`μ = (0, 0.5, 0.72)`, `σ² = 0.1`, `m = 0`): `∂NLL/∂σ_n² = −0.1148` under
///   the CLT loss but `+0.3092` under the exact likelihood. The refutation is a property of the
///   CLT loss BTL trains with; the exact likelihood does shrink σ_n² there.
/// * **"the negative is attracted"** (`μ = (0, 1.95, 0.05)`, `σ² = 0.01`): `∂NLL/∂μ_n = +10.99`
///   (CLT) and `+33.82` (exact): descent moves `μ_n` towards the anchor under both, so this
///   refutation holds for the exact likelihood too.
#[test]
fn fig2_counterexamples_by_value_under_the_clt_and_the_exact_likelihood() {
    let table = include_str!("../scripts/reference/triplet_fig2_values.txt");
    let mut rows = 0;
    let mut var_n = std::collections::HashMap::new();
    let mut mu_n = std::collections::HashMap::new();
    for line in table.lines().filter(|l| l.starts_with("gradient ")) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (name, route) = (f[1], f[2]);
        let want_nll: f64 = f[3].parse().unwrap();
        let want: Vec<f64> = f[4..10].iter().map(|v| v.parse().unwrap()).collect();
        let (mu, var) = match name {
            "negative_attracted" => ([0.0, 1.95, 0.05], 0.01),
            "variance_grows" => ([0.0, 0.5, 0.72], 0.1),
            other => panic!("unknown point {other}"),
        };
        // (μ_a, μ_p, μ_n, σ_a², σ_p², σ_n²), the table's order.
        let point = [mu[0], mu[1], mu[2], var, var, var];
        let nll = |x: &[f64; 6]| -> f64 {
            let (a, va, p, vp, n, vn) = (&[x[0]], &[x[3]], &[x[1]], &[x[4]], &[x[2]], &[x[5]]);
            let ll = match route {
                "clt" => triplet::log_likelihood(a, va, p, vp, n, vn, 0.0),
                "exact" => exact::log_likelihood(a, va, p, vp, n, vn, 0.0),
                other => panic!("unknown route {other}"),
            };
            -ll.unwrap()
        };
        let value = nll(&point);
        // The mpmath value is a third reference: the slack is the registered tolerance of the
        // route's one inexact step (ln Φ for the CLT, the generalised-χ² CDF for exact).
        let value_budget = if route == "clt" {
            support::tolerance("special::log_normal_cdf")
        } else {
            support::tolerance("gaussian_quadratic_form::GaussianQuadraticForm::ln_cdf")
        };
        assert!(
            (value - want_nll).abs() <= value_budget * want_nll.abs().max(1.0),
            "{name} {route}: NLL {value} vs mpmath {want_nll}"
        );
        for k in 0..6 {
            let h = 1e-4 * point[k].abs().max(1.0);
            let (mut up, mut down) = (point, point);
            up[k] += h;
            down[k] -= h;
            let finite_difference = (nll(&up) - nll(&down)) / (2.0 * h);
            assert!(
                (finite_difference - want[k]).abs() <= 1e-4 * want[k].abs().max(1.0),
                "{name} {route}, coordinate {k}: finite difference {finite_difference} vs mpmath {}",
                want[k]
            );
        }
        if route == "clt" {
            let g = triplet::nll_gradient(
                &[point[0]],
                &[point[3]],
                &[point[1]],
                &[point[4]],
                &[point[2]],
                &[point[5]],
                1,
                0.0,
            )
            .unwrap();
            let got = [
                g.mu_a[0], g.mu_p[0], g.mu_n[0], g.var_a[0], g.var_p[0], g.var_n[0],
            ];
            let scale = want.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
            for k in 0..6 {
                assert!(
                    (got[k] - want[k]).abs() <= support::tolerance(NAME) * scale,
                    "{name}: analytic CLT gradient {k}: {} vs mpmath {}",
                    got[k],
                    want[k]
                );
            }
        }
        println!(
            "{name} {route}: NLL {value:.6}, ∂/∂μ_n {:.4}, ∂/∂σ_n² {:.4}",
            want[2], want[5]
        );
        var_n.insert((name, route), want[5]);
        mu_n.insert((name, route), want[2]);
        rows += 1;
    }
    assert_eq!(rows, 4, "two points, two routes");
    // "σ_n² grows" holds under the CLT loss, not under the exact likelihood.
    assert!((var_n[&("variance_grows", "clt")] + 0.1148).abs() < 1e-4);
    assert!((var_n[&("variance_grows", "exact")] - 0.3092).abs() < 1e-4);
    // "The negative is attracted" (μ_n − μ_a = 0.05 > 0 and ∂NLL/∂μ_n > 0) under both.
    assert!(mu_n[&("negative_attracted", "clt")] > 10.0);
    assert!(mu_n[&("negative_attracted", "exact")] > 30.0);
}

/// A batch of deterministic triplets (every variance 0) that all satisfy the constraint has
/// likelihood 1 and NLL 0; only a violated one is refused (its NLL is `+∞`).
#[test]
fn deterministic_satisfied_triplets_have_zero_loss() {
    let zero = [0.0, 0.0];
    // Two 1-D triplets: τ = 0 − 1 = −1 and τ = 0.25 − 4 = −3.75, both < −0.5.
    let (mu_a, mu_p, mu_n) = ([0.0, 0.0], [0.0, 0.5], [1.0, 2.0]);
    let g = triplet::nll_gradient(&mu_a, &zero, &mu_p, &zero, &mu_n, &zero, 1, 0.5).unwrap();
    assert_eq!(g.nll, 0.0);
    // The first triplet at the margin itself (τ = −1, m = 1) violates the strict constraint.
    let err = triplet::nll_gradient(&mu_a, &zero, &mu_p, &zero, &mu_n, &zero, 1, 1.0);
    assert!(
        matches!(err, Err(probdml::Error::Undefined { arg: "var_a", .. })),
        "{err:?}"
    );
}
