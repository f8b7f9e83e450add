//! # Priors, KL terms and the ELBO of the Bayesian triplet loss (BTL §3.2–3.3, eq. 13)
//!
//! Claims proved here:
//!
//! 1. **Gaussian KL** (`triplet::gaussian_kl`): `½Σ[μ²/s² + r − 1 − ln r]`, `r = σ²/s²`, equals the
//!    quadrature of `∫ q ln(q/p)` (`triplet::exact::gaussian_kl`) to `QUADRATURE` relative to the
//!    summed magnitude of its terms; near the prior (`r → 1`, `μ → 0`) it keeps full relative
//!    accuracy against the series `½Σ[μ²/s² + t²/2 − t³/3 + …]`, `t = r − 1`.
//! 2. **The prior `N(0, I/D)` concentrates on the unit sphere**: `‖x‖² = χ²_D/D`, so
//!    `E‖x‖² = 1`, `Var‖x‖² = 2/D` (as a Gaussian quadratic form, exactly), and
//!    `P(|‖x‖² − 1| > 0.2)` falls from above 0.8 at `D = 1` to below `10⁻⁵` at `D = 2048`.
//! 3. **vMF KL** (`triplet::vmf_kl`) is chapter 02's `KL(vMF ‖ U)`: 0 at κ = 0, positive,
//!    increasing in κ (the listing's `κ − D ln 2` is refuted in `proofs/vmf_density.rs`).
//! 4. **Loss and ELBO**: `loss = NLL + kl_scale·ΣKL` with the paper's `kl_scale = 10⁻⁶`, and
//!    `ELBO = ln-likelihood − ΣKL = −loss` at `kl_scale = 1`.
// The six-slice `triplet::moments` and `triplet::log_likelihood` are deprecated for one release;
// these checks call them, and `tests/named_inputs.rs` holds `Triplet`'s methods to them bit for bit.
#![allow(deprecated)]

// derivation: triplet::gaussian_kl

use crate::support;
use probdml::gaussian_quadratic_form::GaussianQuadraticForm;
use probdml::triplet::{self, exact};
use proptest::prelude::*;

fn config(cases: u32) -> ProptestConfig {
    support::config(cases, 0x0005_0006)
}

const NAME: &str = "triplet::gaussian_kl";

proptest! {
    #![proptest_config(config(256))]

    /// Claim 1: closed form against quadrature.
    #[test]
    fn gaussian_kl_matches_quadrature(
        mu in prop::collection::vec(-3.0..3.0f64, 1..6),
        var in prop::collection::vec(support::log_uniform(1e-3, 1e2), 6),
        prior_var in support::log_uniform(1e-3, 10.0),
    ) {
        let var = &var[..mu.len()];
        let fast = triplet::gaussian_kl(&mu, var, prior_var).unwrap();
        let reference = exact::gaussian_kl(&mu, var, prior_var).unwrap();
        let magnitude: f64 = mu.iter().zip(var).map(|(m, v)| {
            let r = v / prior_var;
            0.5 * (m * m / prior_var + r + 1.0 + r.ln().abs())
        }).sum();
        support::check_with_magnitude(NAME, "random Gaussians", fast, reference, magnitude);
        prop_assert!(fast >= 0.0);
    }
}

/// Claim 1: near the prior, relative accuracy against the series.
#[test]
fn gaussian_kl_near_the_prior() {
    let s2 = 1.0 / 128.0;
    for t in [1e-9f64, -1e-6, 1e-3, -0.05] {
        let var = [s2 * (1.0 + t); 3];
        let mu = [0.0; 3];
        // s² is a power of 2, so σ²/s² = fl(1 + t) exactly: the series takes that t.
        let t = (1.0 + t) - 1.0;
        // ½·3·(t − ln(1 + t)) = 1.5(t²/2 − t³/3 + t⁴/4 − …).
        let series: f64 = (2..40).map(|k| (-t).powi(k) / k as f64).sum::<f64>() * 1.5;
        let got = triplet::gaussian_kl(&mu, &var, s2).unwrap();
        assert!(
            (got - series).abs() <= 1e-14 * series,
            "t = {t}: {got} vs {series}"
        );
    }
}

/// Claim 1: far from the prior (tiny posterior variances, as in training at D = 2048), where the
/// integrand changes sign and the quadrature must respect its rounding floor.
#[test]
fn gaussian_kl_far_from_the_prior() {
    let prior = 1.0 / 2048.0;
    let mu = [0.02, -0.01, 0.0];
    let var = [1e-8, 3e-7, 2e-4];
    let fast = triplet::gaussian_kl(&mu, &var, prior).unwrap();
    let reference = exact::gaussian_kl(&mu, &var, prior).unwrap();
    support::check_at(NAME, "far from the prior", fast, reference);
}

/// Claim 2: the prior N(0, I/D) and the unit sphere.
#[test]
fn the_gaussian_prior_concentrates_on_the_unit_sphere() {
    let mut previous = 1.0;
    for dim in [1usize, 16, 128, 2048] {
        let s2 = triplet::gaussian_prior_variance(dim).unwrap();
        let norm2 = GaussianQuadraticForm::new(&vec![s2; dim], &vec![0.0; dim], 0.0).unwrap();
        assert!(
            (norm2.mean() - 1.0).abs() < 1e-12,
            "D = {dim}: E = {}",
            norm2.mean()
        );
        let want = 2.0 / dim as f64;
        assert!((norm2.variance() - want).abs() < 1e-12 * want, "D = {dim}");
        let outside = norm2.cdf(0.8) + norm2.sf(1.2);
        assert!(outside < previous, "D = {dim}: {outside}");
        previous = outside;
        if dim == 1 {
            assert!(outside > 0.8, "{outside}");
        }
    }
    assert!(previous < 1e-5, "{previous}");
}

/// Claim 3: the vMF KL term.
#[test]
fn vmf_kl_is_chapter_02s_divergence() {
    for dim in [3usize, 128, 2048] {
        assert_eq!(triplet::vmf_kl(dim, 0.0).unwrap(), 0.0);
        let mut previous = 0.0;
        for kappa in [1e-3, 1.0, 10.0, 100.0] {
            let kl = triplet::vmf_kl(dim, kappa).unwrap();
            assert_eq!(kl, probdml::vmf::kl_to_uniform(dim, kappa));
            assert!(kl > previous, "D = {dim}, κ = {kappa}: {kl}");
            previous = kl;
        }
    }
}

/// Claim 4: loss and ELBO.
#[test]
fn loss_and_elbo() {
    let kl = [
        triplet::gaussian_kl(&[0.1, -0.2], &[0.4, 0.6], 0.5).unwrap(),
        triplet::gaussian_kl(&[0.0, 0.3], &[0.5, 0.5], 0.5).unwrap(),
        triplet::gaussian_kl(&[0.7, 0.0], &[0.2, 0.9], 0.5).unwrap(),
    ];
    let ll = triplet::log_likelihood(
        &[0.1, -0.2],
        &[0.4, 0.6],
        &[0.0, 0.3],
        &[0.5, 0.5],
        &[0.7, 0.0],
        &[0.2, 0.9],
        0.1,
    )
    .unwrap();
    let total: f64 = kl.iter().sum();
    let loss = triplet::loss(-ll, &kl, triplet::DEFAULT_KL_SCALE).unwrap();
    assert_eq!(loss, -ll + 1e-6 * total);
    assert_eq!(
        triplet::elbo(ll, &kl).unwrap(),
        -triplet::loss(-ll, &kl, 1.0).unwrap()
    );
    // A posterior equal to its prior has KL exactly 0, a valid term; only a negative one is
    // rejected.
    let at_prior = triplet::gaussian_kl(&[0.0, 0.0], &[0.5, 0.5], 0.5).unwrap();
    assert_eq!(at_prior, 0.0);
    assert_eq!(triplet::loss(2.0, &[at_prior, 1.5], 1.0).unwrap(), 3.5);
    assert_eq!(triplet::elbo(-2.0, &[at_prior]).unwrap(), -2.0);
    assert!(triplet::loss(2.0, &[-1e-300], 1.0).is_err());
}
