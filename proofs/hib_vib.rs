//! # The VIB objective and its regulariser (HIB eq. 3, 8)
//!
//! Claims:
//!
//! 1. **KL closed form = its definition**: `hib::kl_to_standard_normal` against
//!    `hib::exact::kl_to_standard_normal` (adaptive quadrature of `∫ f ln(f/φ)`), within
//!    `|Δ| ≤ QUADRATURE·max(1, KL)`; `KL ≥ 0` with equality exactly at `N(0, I)`; the mpmath
//!    value at `μ = (0.5, −1)`, `σ² = (0.25, 2)`.
//! 2. **Loss and gradient**: `hib::vib_loss` (hand-derived gradient) against `hib::exact::vib_loss`
//!    (dual numbers), every component within `HIB_VIB·max(1, |exact|)`, on generated pairs.
//! 3. **Never NaN, never −∞, and right**: on saturated inputs (distances to 10⁴, `a` to 10³,
//!    `|b|` to 10³) the loss and every gradient component are finite and equal the dual-number
//!    twin's within `HIB_VIB·max(1, |exact|)`.
//! 4. **Regression: the reference baseline's two defects**, each on a concrete input.
//!    * NaN on saturation: the baseline's `−[m̂ ln p + (1 − m̂) ln(1 − p)]` with `p` the rounded
//!      probability: a matching pair at distance 0 with `b = 40` has `p = sigmoid(40) = 1.0` in
//!      `f64`, so `(1 − m̂) ln(1 − p) = 0 · (−∞) = NaN`; and the non-matching pair there has loss
//!      `+∞`. `hib::vib_loss` gives `ln(1 + e^{−40}) ≈ 4.25·10⁻¹⁸` and `40 + ln(1 + e^{−40})`.
//!    * KL with a flipped sign: the baseline adds `½ Σ(1 + ln σ² − μ² − σ²)` (that is `−KL`):
//!      at `μ = (0.5, −1)`, `σ² = (0.25, 2)` it is `−1.0966`, while KL is `+1.0966`; minimising
//!      the baseline's objective pushes the embeddings *away* from the prior.
// The positional forms are the registry's fast items (deprecated for users: the
// named form `hib::SoftThreshold` calls the same code).
#![allow(deprecated)]

// derivation: hib::kl_to_standard_normal
// derivation: hib::vib_loss

use crate::hib_reference;
use crate::support;
use hib_reference::reference;
use probdml::hib::{self, exact, KlToStandardNormal, VibPair};
use proptest::prelude::*;
use support::{check, check_at, config, log_uniform};

const KL: &str = "hib::kl_to_standard_normal";
const VIB: &str = "hib::vib_loss";

#[test]
fn kl_against_mpmath_and_zero_at_the_prior() {
    let want = reference("kl(mean=(0.5, -1), var=(0.25, 2))");
    let fast = hib::kl_to_standard_normal(&[0.5, -1.0], &[0.25, 2.0]).unwrap();
    let slow = exact::kl_to_standard_normal(&[0.5, -1.0], &[0.25, 2.0]).unwrap();
    assert!((fast - want).abs() <= 1e-15 * want, "{fast} vs {want}");
    // The embedding's method is the same function of its one component; a mixture has no
    // closed form and is an error naming `components`.
    let embedding = hib::HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &[0.5, -1.0],
        var: &[0.25, 2.0],
    })
    .unwrap();
    assert_eq!(embedding.kl_to_standard_normal().unwrap(), fast);
    let mixture = hib::HedgedEmbedding::from_components(
        probdml::Gaussian {
            mu: &[0.5, -1.0, 0.0, 1.0],
            var: &[0.25, 2.0, 1.0, 1.0],
        },
        2,
    )
    .unwrap();
    assert!(matches!(
        mixture.kl_to_standard_normal(),
        Err(probdml::Error::TooMany {
            arg: "components",
            max: 1,
            got: 2
        })
    ));
    check_at(KL, "the quadrature against mpmath", slow, want);
    assert_eq!(
        hib::kl_to_standard_normal(&[0.0; 4], &[1.0; 4]).unwrap(),
        0.0
    );
    // Near the prior the closed form keeps relative accuracy: ½(μ² + x²/2 − …), x = σ² − 1.
    let var = 1.0 + 1e-8;
    let x = var - 1.0; // exact (Sterbenz); not quite 1e−8
    let tiny = hib::kl_to_standard_normal(&[1e-9], &[var]).unwrap();
    let expected = 0.5 * (1e-18 + x * x / 2.0 - x * x * x / 3.0);
    assert!(
        (tiny - expected).abs() <= 1e-12 * expected,
        "{tiny} vs {expected}"
    );
    assert_eq!(
        hib::kl_to_standard_normal(&[0.0], &[0.0]).unwrap(),
        f64::INFINITY
    );
}

/// Tiny variances keep their digits: fast = exact to `HIB_VIB` from σ² = 10⁻³⁰⁰ to 10⁻³. The first
/// fast form took ln σ² as `ln1p(σ² − 1)`, which rounds σ² − 1 to 1 ulp of 1 first: relative
/// error 8·10⁻⁷ at σ² = 10⁻¹² (found by `crates/probdml-train/tests/train_hib.rs`, the training module's twin).
#[test]
fn kl_keeps_tiny_variances_digits() {
    for e in [-300, -100, -30, -12, -9, -6, -3] {
        let var = 10f64.powi(e);
        let fast = hib::kl_to_standard_normal(&[0.3, 0.0], &[var, 0.5]).unwrap();
        let slow = exact::kl_to_standard_normal(&[0.3, 0.0], &[var, 0.5]).unwrap();
        check_at(KL, format!("σ² = 1e{e}"), fast, slow);
    }
}

/// The baseline's soft contrastive loss on the rounded probability (the defect).
fn baseline_nll(p: f64, is_match: bool) -> f64 {
    let m = if is_match { 1.0 } else { 0.0 };
    -(m * p.ln() + (1.0 - m) * (1.0 - p).ln())
}

/// The baseline's regulariser: `½ Σ(1 + ln σ² − μ² − σ²)`, added to the loss (the defect: −KL).
fn baseline_kl(mean: &[f64], var: &[f64]) -> f64 {
    mean.iter()
        .zip(var)
        .map(|(m, v)| 0.5 * (1.0 + v.ln() - m * m - v))
        .sum()
}

#[test]
fn regression_baseline_goes_nan_on_saturation() {
    let (a, b) = (1.0, 40.0_f64);
    let p = 1.0 / (1.0 + (-b).exp()); // sigmoid(40), distance 0
    assert_eq!(p, 1.0, "the sigmoid saturates in f64");
    assert!(baseline_nll(p, true).is_nan(), "baseline: 0·ln 0 = NaN");
    assert_eq!(baseline_nll(p, false), f64::INFINITY);
    let pair = |is_match| VibPair {
        mu1: &[0.5, 0.5],
        var1: &[1e-300, 1e-300],
        mu2: &[0.5, 0.5],
        var2: &[1e-300, 1e-300],
        noise1: &[0.0, 0.0],
        noise2: &[0.0, 0.0],
        is_match,
    };
    let matched = hib::vib_loss(&pair(true), a, b, 0.0).unwrap();
    assert!(
        (matched.nll - 4.248354255291589e-18).abs() <= 1e-30,
        "{}",
        matched.nll
    );
    let unmatched = hib::vib_loss(&pair(false), a, b, 0.0).unwrap();
    assert!((unmatched.nll - 40.0).abs() <= 1e-14, "{}", unmatched.nll);
    assert!(unmatched.grad_b.is_finite() && unmatched.grad_a.is_finite());
}

#[test]
fn regression_baseline_kl_has_the_wrong_sign() {
    let (mean, var) = ([0.5, -1.0], [0.25, 2.0]);
    let kl = hib::kl_to_standard_normal(&mean, &var).unwrap();
    let baseline = baseline_kl(&mean, &var);
    assert!(
        kl > 1.09 && baseline < -1.09,
        "KL {kl}, baseline {baseline}"
    );
    assert!((kl + baseline).abs() <= 1e-15);
}

/// Entrywise, each entry within the budget of its own magnitude.
fn check_entries(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        check_at(VIB, format!("{what}[{k}]"), *g, *w);
    }
}

proptest! {
    #![proptest_config(config(256, 0x4869_620a))]

    /// Claim 1 on generated Gaussians.
    #[test]
    fn kl_closed_form_equals_quadrature(
        mean in prop::collection::vec(-5.0..5.0f64, 1..6),
        var_seed in prop::collection::vec(log_uniform(1e-4, 1e3), 6),
    ) {
        let var = &var_seed[..mean.len()];
        let fast = hib::kl_to_standard_normal(&mean, var).unwrap();
        let slow = exact::kl_to_standard_normal(&mean, var).unwrap();
        check(KL, fast, slow);
        prop_assert!(fast >= 0.0);
    }

    /// Claim 2: the hand-derived gradient against dual numbers.
    #[test]
    fn vib_loss_and_gradient_match_the_dual_number_twin(
        dim in 1usize..6,
        k1 in 1usize..4,
        k2 in 1usize..4,
        values in prop::collection::vec(-2.0..2.0f64, 64),
        variances in prop::collection::vec(log_uniform(1e-3, 3.0), 12),
        (a, b) in (log_uniform(0.2, 8.0), -4.0..6.0f64),
        beta in 0.0..1.0f64,
        is_match in any::<bool>(),
    ) {
        let pair = VibPair {
            mu1: &values[0..dim],
            var1: &variances[0..dim],
            mu2: &values[8..8 + dim],
            var2: &variances[6..6 + dim],
            noise1: &values[16..16 + k1 * dim],
            noise2: &values[40..40 + k2 * dim],
            is_match,
        };
        let fast = hib::vib_loss(&pair, a, b, beta).unwrap();
        let slow = exact::vib_loss(&pair, a, b, beta).unwrap();
        check_at(VIB, "loss", fast.loss, slow.loss);
        check_at(VIB, "NLL", fast.nll, slow.nll);
        check_at(VIB, "KL", fast.kl, slow.kl);
        check_at(VIB, "∂a", fast.grad_a, slow.grad_a);
        check_at(VIB, "∂b", fast.grad_b, slow.grad_b);
        check_entries("∂μ₁", &fast.grad_mu1, &slow.grad_mu1);
        check_entries("∂μ₂", &fast.grad_mu2, &slow.grad_mu2);
        check_entries("∂lnσ₁²", &fast.grad_log_var1, &slow.grad_log_var1);
        check_entries("∂lnσ₂²", &fast.grad_log_var2, &slow.grad_log_var2);
    }

    /// Claim 3: saturated inputs give finite losses and gradients.
    #[test]
    fn never_nan_never_minus_infinity(
        distance in log_uniform(1e-3, 1e4),
        a in log_uniform(1e-2, 1e3),
        b in -1e3..1e3f64,
        is_match in any::<bool>(),
        noise in prop::collection::vec(-3.0..3.0f64, 4),
    ) {
        let pair = VibPair {
            mu1: &[0.0, 0.0],
            var1: &[1e-4, 1e-4],
            mu2: &[distance, 0.0],
            var2: &[1e-4, 1e-4],
            noise1: &noise[..2],
            noise2: &noise[2..],
            is_match,
        };
        let out = hib::vib_loss(&pair, a, b, 0.1).unwrap();
        prop_assert!(out.loss.is_finite() && out.nll >= 0.0, "{out:?}");
        let all = out.grad_mu1.iter().chain(&out.grad_mu2).chain(&out.grad_log_var1).chain(&out.grad_log_var2);
        prop_assert!(all.copied().chain([out.grad_a, out.grad_b]).all(f64::is_finite), "{out:?}");
        // And the right values there: the dual-number twin, component by component.
        let slow = exact::vib_loss(&pair, a, b, 0.1).unwrap();
        check_at(VIB, "saturated loss", out.loss, slow.loss);
        check_at(VIB, "saturated NLL", out.nll, slow.nll);
        check_at(VIB, "saturated ∂a", out.grad_a, slow.grad_a);
        check_at(VIB, "saturated ∂b", out.grad_b, slow.grad_b);
        check_entries("saturated ∂μ₁", &out.grad_mu1, &slow.grad_mu1);
        check_entries("saturated ∂μ₂", &out.grad_mu2, &slow.grad_mu2);
        check_entries("saturated ∂lnσ₁²", &out.grad_log_var1, &slow.grad_log_var1);
        check_entries("saturated ∂lnσ₂²", &out.grad_log_var2, &slow.grad_log_var2);
    }
}
