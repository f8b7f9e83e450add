//! # The nivMF density (nivMF eq. (4), Supp. B)
//!
//! For `K = diag(κ_1, …, κ_M)`, `κ_m > 0`, `μ ∈ S^{M−1}`, `κ̃ = ‖Kμ‖`, `g(x) = Kx/‖Kx‖`:
//!
//! 1. **Fast ≈ exact**: `nivmf::log_density` and `nivmf::log_density_heuristic` agree with their
//!    references (256-bit `ln C_M`, compensated sums) to `LOG_SPECIAL·max(1, Σ|summands|)`.
//! 2. **Mass 1** (the theorem): `f(x) = C_M(κ̃)·det K/‖Kx‖^M·exp(κ̃ s(Kx, Kμ))` integrates to 1
//!    on `S¹` and `S²` by adaptive quadrature (`vmf::exact::sphere`) to `QUADRATURE`, and on
//!    `S^{M−1}`, `M ∈ {3, 8, 16, 64}`, by Monte Carlo with the uniform law as proposal
//!    (`|S^{M−1}|·E_U[f]`, `2·10⁵` draws) inside a `MONTE_CARLO_SIGMAS`-σ band, `σ` the computed
//!    standard error.
//! 3. **`f_h/f = ‖Kx‖^M/κ̃`** pointwise, and `K = cI` gives `f = vMF(μ, c)` and
//!    `f_h = c^{M−1}·vMF(μ, c)`.
//! 4. **The sampler** `X = K⁻¹Y/‖K⁻¹Y‖`, `Y ~ vMF(Kμ/κ̃, κ̃)` has law `f`: KS test of the
//!    projection `vᵀX` (`v` not aligned with any axis) against the CDF of `vᵀX` under `f`
//!    computed by quadrature, `n = 4000`, at `SAMPLER_ALPHA`.
//!
//! ## Refutation: Supp. B's heuristic normaliser
//!
//! **Claim (false):** with `D(K) = Πκ_m/κ̃` (Supp. B eq. (19)), `f_h = C_M(κ̃) D(K)
//! exp(κ̃ s(Kx, Kμ))` is a density (the paper itself calls `D` a heuristic and notes that it
//! does not reduce to the vMF). At `M = 3`, `K = diag(2, 5, 9)`, `μ = (1,1,1)/√3`, the quadrature
//! of `f_h` over `S²` is **27.75** (pinned below to 4 digits and printed in full), and at
//! `K = cI` the mass is `c^{M−1}`.
//!
//! **Corrected theorem.** The map `g` restricted to the sphere is a diffeomorphism with surface
//! Jacobian `det K/‖Kx‖^M`, so `f = C_M(κ̃)·det K/‖Kx‖^M·exp(κ̃ s(Kx, Kμ))` is the density of
//! `g⁻¹(Y)`, `Y ~ vMF(μ̃, κ̃)`, of mass exactly 1 (`probdml::nivmf::log_density`).
// The positional nivMF densities `(x, mu, …)` are the registry's fast items (deprecated for
// users: the distribution's `ln_pdf` names its arguments and calls the same code).
#![allow(deprecated)]

// derivation: nivmf::log_density
// derivation: nivmf::log_density_heuristic
// derivation: nivmf::NonIsotropicVmf::sample

use crate::ks;
use crate::support;
use probdml::nivmf;
use probdml::quadrature::{integrate_breakpoints, Tolerance};
use probdml::vmf;
use probdml::vmf::exact::sphere::{integrate_circle, integrate_s2};
use probdml_proofs::registry::budget;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

fn normalise(v: &[f64]) -> Vec<f64> {
    let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    v.iter().map(|x| x / n).collect()
}

fn spec_mu() -> Vec<f64> {
    normalise(&[1.0, 1.0, 1.0])
}

/// `∫_{S²} e^{ln_f}` for a log density on S².
fn mass_s2(mu: &[f64], kappas: &[f64], heuristic: bool) -> f64 {
    let kappa_tilde = mu
        .iter()
        .zip(kappas)
        .map(|(m, k)| (m * k).powi(2))
        .sum::<f64>()
        .sqrt();
    let pole = [mu[0], mu[1], mu[2]];
    integrate_s2(
        pole,
        kappa_tilde,
        |x| {
            let ln_f = if heuristic {
                nivmf::log_density_heuristic(&x, mu, kappas)
            } else {
                nivmf::log_density(&x, mu, kappas)
            };
            ln_f.unwrap().exp()
        },
        Tolerance::relative(1e-12),
    )
    .unwrap()
    .value
}

/// Claim 2 on S²: mass 1 for several K, including strongly anisotropic ones; and the
/// refutation: the heuristic's mass.
#[test]
fn density_has_mass_one_on_s2_and_the_heuristic_does_not() {
    let cases: [(&[f64], Vec<f64>); 5] = [
        (&[2.0, 5.0, 9.0], spec_mu()),
        (&[2.0, 5.0, 9.0], vec![0.0, 0.0, 1.0]),
        (&[0.1, 0.3, 0.2], normalise(&[1.0, -2.0, 0.5])),
        (&[50.0, 1.0, 10.0], normalise(&[0.3, 0.9, -0.1])),
        (&[7.0, 7.0, 7.0], normalise(&[1.0, 2.0, 3.0])),
    ];
    for (kappas, mu) in cases.iter() {
        let mass = mass_s2(mu, kappas, false);
        assert!(
            (mass - 1.0).abs() <= budget::QUADRATURE,
            "K = {kappas:?}, μ = {mu:?}: ∫f = {mass}"
        );
    }
    let heuristic = mass_s2(&spec_mu(), &[2.0, 5.0, 9.0], true);
    println!("∫ f_h over S² at K = diag(2, 5, 9), μ = (1,1,1)/√3: {heuristic:.12}");
    assert!((heuristic - 27.75).abs() < 5e-3, "{heuristic}");
    // K = cI: mass c^{M−1}.
    let iso = mass_s2(&normalise(&[1.0, 2.0, 3.0]), &[7.0; 3], true);
    assert!((iso / 49.0 - 1.0).abs() <= budget::QUADRATURE, "{iso}");
}

/// Claim 2 on S¹ (M = 2).
#[test]
fn density_has_mass_one_on_s1() {
    for (kappas, angle) in [
        ([2.0, 9.0], 0.3),
        ([0.05, 0.2], 2.0),
        ([300.0, 4.0], -1.0),
        ([5.0, 5.0], 0.0),
    ] {
        let mu = [f64::cos(angle), f64::sin(angle)];
        let kappa_tilde = (mu[0] * kappas[0]).hypot(mu[1] * kappas[1]);
        let est = integrate_circle(
            mu,
            kappa_tilde,
            |x| nivmf::log_density(&x, &mu, &kappas).unwrap().exp(),
            Tolerance::relative(1e-12),
        )
        .unwrap();
        assert!(
            (est.value - 1.0).abs() <= budget::QUADRATURE,
            "K = {kappas:?}: {}",
            est.value
        );
    }
}

/// A uniform point on S^{M−1}.
fn uniform(rng: &mut ChaCha8Rng, dim: usize) -> Vec<f64> {
    let v: Vec<f64> = (0..dim).map(|_| rng.sample(StandardNormal)).collect();
    normalise(&v)
}

/// Claim 2 in higher dimensions by importance sampling from the uniform law.
#[test]
fn density_has_mass_one_by_monte_carlo() {
    const DRAWS: usize = 200_000;
    for (dim, seed) in [(3usize, 1u64), (8, 2), (16, 3), (64, 4)] {
        let mut rng = ChaCha8Rng::seed_from_u64(0x0006_0200 + seed);
        // Concentrations spread over [0.8, 1.25]·1.5: anisotropic, with κ̃ ≈ 1.5, so that the
        // weights f/u have a modest variance even at M = 64.
        let kappas: Vec<f64> = (0..dim)
            .map(|i| 1.5 * 0.8 * (1.25f64 / 0.8).powf(i as f64 / (dim - 1) as f64))
            .collect();
        let mu = uniform(&mut rng, dim);
        let ln_area = vmf::log_sphere_area(dim);
        let (mut sum, mut sum_sq, mut heuristic) = (0.0, 0.0, 0.0);
        for _ in 0..DRAWS {
            let x = uniform(&mut rng, dim);
            let w = (nivmf::log_density(&x, &mu, &kappas).unwrap() + ln_area).exp();
            sum += w;
            sum_sq += w * w;
            heuristic += (nivmf::log_density_heuristic(&x, &mu, &kappas).unwrap() + ln_area).exp();
        }
        let n = DRAWS as f64;
        let mean = sum / n;
        let sigma = ((sum_sq / n - mean * mean) / (n - 1.0)).sqrt();
        assert!(
            sigma < 0.01,
            "M = {dim}: the band must be tight enough to mean anything ({sigma})"
        );
        assert!(
            (mean - 1.0).abs() <= budget::MONTE_CARLO_SIGMAS * sigma,
            "M = {dim}: ∫f = {mean} ± {sigma}"
        );
        let h = heuristic / n;
        println!("M = {dim}: ∫f = {mean:.5} ± {sigma:.5}; ∫f_h ≈ {h:.4e}");
        assert!(
            (h - 1.0).abs() > 100.0 * sigma,
            "M = {dim}: the heuristic's mass {h}"
        );
    }
}

/// Claim 3: the ratio identity and the isotropic case.
#[test]
fn heuristic_ratio_and_isotropic_reduction() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x0006_0300);
    for &dim in &[2usize, 3, 8, 64, 512] {
        let kappas: Vec<f64> = (0..dim)
            .map(|_| 10f64.powf(rng.random_range(-1.0..2.5)))
            .collect();
        let mu = uniform(&mut rng, dim);
        for _ in 0..20 {
            let x = uniform(&mut rng, dim);
            let f = nivmf::log_density(&x, &mu, &kappas).unwrap();
            let fh = nivmf::log_density_heuristic(&x, &mu, &kappas).unwrap();
            let kx = x
                .iter()
                .zip(&kappas)
                .map(|(a, k)| (a * k).powi(2))
                .sum::<f64>()
                .sqrt();
            let kt = mu
                .iter()
                .zip(&kappas)
                .map(|(a, k)| (a * k).powi(2))
                .sum::<f64>()
                .sqrt();
            let want = dim as f64 * kx.ln() - kt.ln();
            let scale = f.abs().max(fh.abs()).max(1.0);
            assert!(
                (fh - f - want).abs() <= 8.0 * support::tolerance("nivmf::log_density") * scale,
                "M = {dim}"
            );
        }
        let c = kappas[0];
        let iso = vec![c; dim];
        let x = uniform(&mut rng, dim);
        let v = vmf::log_density(&x, &mu, c).unwrap();
        let f = nivmf::log_density(&x, &mu, &iso).unwrap();
        let fh = nivmf::log_density_heuristic(&x, &mu, &iso).unwrap();
        // Isotropic K = cI: the vMF density, and ln κ̃ in place of M ln‖Kx‖.
        support::check_at("nivmf::log_density", format!("K = {c}·I, M = {dim}"), f, v);
        let want = v + (dim as f64 - 1.0) * c.ln();
        support::check_at(
            "nivmf::log_density_heuristic",
            format!("K = {c}·I, M = {dim}"),
            fh,
            want,
        );
    }
}

/// Claim 4: KS test of the sampler on S².
#[test]
fn sampler_matches_the_density_on_s2() {
    const N: usize = 4000;
    let kappas = [2.0, 5.0, 9.0];
    let mu = spec_mu();
    let law = nivmf::NonIsotropicVmf::new(&mu, &kappas).unwrap();
    let v = normalise(&[0.2, -0.5, 0.9]);
    // An orthonormal frame (v, q, r).
    let q = normalise(&[v[1], -v[0], 0.0]);
    let r = [
        v[1] * q[2] - v[2] * q[1],
        v[2] * q[0] - v[0] * q[2],
        v[0] * q[1] - v[1] * q[0],
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(0x0006_0400);
    let mut sample: Vec<f64> = (0..N)
        .map(|_| {
            let x = law.sample(&mut rng);
            x.iter().zip(&v).map(|(a, b)| a * b).sum::<f64>()
        })
        .collect();
    sample.sort_by(f64::total_cmp);
    // Archimedes: on S² the surface element is dw dφ, w = vᵀx; the marginal density of w is
    // p(w) = ∫_0^{2π} f(w v + √(1−w²)(cos φ q + sin φ r)) dφ.
    let marginal = |w: f64| {
        let s = (1.0 - w * w).max(0.0).sqrt();
        integrate_breakpoints(
            |phi: f64| {
                let (sp, cp) = phi.sin_cos();
                let x: Vec<f64> = (0..3)
                    .map(|i| w * v[i] + s * (cp * q[i] + sp * r[i]))
                    .collect();
                let x = normalise(&x);
                nivmf::log_density(&x, &mu, &kappas).unwrap().exp()
            },
            &[0.0, std::f64::consts::PI, 2.0 * std::f64::consts::PI],
            Tolerance::relative(1e-11),
        )
        .unwrap()
        .value
    };
    // The CDF at every sorted sample point, by accumulating ∫ p between neighbours.
    let mut cdf_values = Vec::with_capacity(N);
    let mut acc = 0.0;
    let mut last = -1.0;
    for &w in &sample {
        acc += integrate_breakpoints(
            &marginal,
            &[last, w],
            Tolerance {
                absolute: 1e-13,
                relative: 1e-11,
            },
        )
        .unwrap()
        .value;
        cdf_values.push(acc);
        last = w;
    }
    let total = acc
        + integrate_breakpoints(
            &marginal,
            &[last, 1.0],
            Tolerance {
                absolute: 1e-13,
                relative: 1e-11,
            },
        )
        .unwrap()
        .value;
    assert!((total - 1.0).abs() < 1e-9, "∫p = {total}");
    let n = N as f64;
    let d = cdf_values
        .iter()
        .enumerate()
        .map(|(i, &f)| (f - i as f64 / n).abs().max(((i + 1) as f64 / n - f).abs()))
        .fold(0.0, f64::max);
    let p = ks::ks_p_value(d, N);
    println!("KS on S²: D = {d:.4}, p = {p:.3}");
    assert!(p >= budget::SAMPLER_ALPHA, "D = {d}, p = {p}");
}

fn density_case() -> impl Strategy<Value = (Vec<f64>, Vec<f64>, Vec<f64>)> {
    prop::sample::select(vec![2usize, 3, 8, 64, 512]).prop_flat_map(|dim| {
        (
            prop::collection::vec(-1.0f64..1.0, dim),
            prop::collection::vec(-1.0f64..1.0, dim),
            prop::collection::vec(support::log_uniform(1e-2, 1e3), dim),
            0u8..3,
        )
            .prop_filter_map("non-degenerate", |(a, b, k, position)| {
                let na = a.iter().map(|x| x * x).sum::<f64>().sqrt();
                let nb = b.iter().map(|x| x * x).sum::<f64>().sqrt();
                if na < 1e-3 || nb < 1e-3 {
                    return None;
                }
                let mu = normalise(&a);
                let x = match position {
                    0 => normalise(&b),
                    1 => mu.clone(),
                    _ => mu.iter().map(|v| -v).collect(),
                };
                Some((x, mu, k))
            })
    })
}

proptest! {
    #![proptest_config(support::config(256, 0x0006_0100))]

    /// Claim 1.
    #[test]
    fn fast_matches_exact((x, mu, kappas) in density_case()) {
        let dim = mu.len();
        let f = nivmf::log_density(&x, &mu, &kappas).unwrap();
        let fe = nivmf::exact::log_density(&x, &mu, &kappas).unwrap();
        let fh = nivmf::log_density_heuristic(&x, &mu, &kappas).unwrap();
        let fhe = nivmf::exact::log_density_heuristic(&x, &mu, &kappas).unwrap();
        // The summands: ln C_M(κ̃), ln det K, M ln‖Kx‖, κ̃ s.
        let kt = mu.iter().zip(&kappas).map(|(a, k)| (a * k).powi(2)).sum::<f64>().sqrt();
        let kx = x.iter().zip(&kappas).map(|(a, k)| (a * k).powi(2)).sum::<f64>().sqrt();
        let log_det: f64 = kappas.iter().map(|k| k.ln().abs()).sum();
        let magnitude = vmf::log_norm_const(dim, kt).abs() + log_det + dim as f64 * kx.ln().abs() + kt;
        support::check_with_magnitude("nivmf::log_density", format!("M = {dim}"), f, fe, magnitude);
        support::check_with_magnitude("nivmf::log_density_heuristic", format!("M = {dim}"), fh, fhe, magnitude);
    }
}
