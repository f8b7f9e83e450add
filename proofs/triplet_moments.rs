//! # Moments of the triplet statistic τ = ‖a − p‖² − ‖a − n‖² (BTL supplement)
//!
//! Claims proved here, for independent diagonal Gaussians `a, p, n` in `ℝ^D`:
//!
//! 1. **Fast = dense** (supplement eqs. 5, 17, 18, 26): the per-dimension closed form
//!    (`triplet::moments`) equals `tr(QΣ) + mᵀQm` and `2tr(QΣQΣ) + 4mᵀQΣQm` over the dense
//!    `3D × 3D` matrix (`triplet::exact::moments`, `faer`) within `TRIPLET_MOMENTS` relative to
//!    the size of the summed terms: `|ΔE| ≤ tol·Σ_d(d_p² + d_n² + σ_p² + σ_n²)` (E is a
//!    difference and may cancel) and `|ΔVar| ≤ tol·Var` (a sum of non-negative terms).
//! 2. **Invariances**: a common translation of the three means changes nothing; exchanging p
//!    and n negates `E τ` and keeps `Var τ`; `Var τ = 0` exactly when every variance is 0 (or
//!    only anchors are random and `μ_p = μ_n`).
//! 3. **The exact law's moments**: the Gaussian quadratic form of `exact::tau_distribution` has
//!    the same mean and variance as the dense identities.
//!
//! ## Refutation: BTL main text, eq. (12)
//!
//! **Claim (false).** `Var τ/2 = σ_p²(σ_p² + 2μ_p²) + σ_n²(σ_n² + 2μ_n²) − 4σ_a²μ_pμ_n
//! − 2μ_a(μ_a(μ_p² + μ_n²) − 2μ_pσ_p² − 2μ_nσ_n²) + 2(σ_a² + μ_a²)((σ_p² + μ_p²) + (σ_n² + μ_n²))`.
//! The term `+4μ_a(μ_pσ_p² + μ_nσ_n²)` has the wrong sign. At `(μ_a, μ_p, μ_n) = (0.7, −0.4, 1.3)`,
//! `(σ_a², σ_p², σ_n²) = (0.5, 0.8, 0.3)`, eq. (12) gives 14.528, the supplement (eqs. 17, 18, 26)
//! 13.744, and `2·10⁷` Monte Carlo draws give a sample variance within a 6σ band of 13.744 and
//! far outside it from 14.528, the band computed from the sample's fourth central moment
//! (`SE(s²) = √((m₄ − s⁴)/n)`).
//!
//! **Corrected theorem** (supplement eqs. 17, 18, 26):
//! `Var τ = Σ_d 2σ_p⁴ + 2σ_n⁴ + 4σ_p²(μ_p − μ_a)² + 4σ_n²(μ_n − μ_a)² + 4σ_a²(σ_p² + σ_n²)
//! + 4σ_a²(μ_p − μ_n)²`, i.e. eq. (12) with `−8μ_a(μ_pσ_p² + μ_nσ_n²)` in place of `+8…`.
// The six-slice `triplet::moments` and `triplet::log_likelihood` are deprecated for one release;
// these checks call them, and `tests/named_inputs.rs` holds `Triplet`'s methods to them bit for bit.
#![allow(deprecated)]

// derivation: triplet::moments

use crate::support;
use probdml::triplet::{self, exact};
use probdml_proofs::registry::budget;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};
use rayon::prelude::*;

const NAME: &str = "triplet::moments";

/// The registered tolerance, as the slack of the identities on the fast twin.
fn tol() -> f64 {
    support::tolerance(NAME)
}

fn config(cases: u32) -> ProptestConfig {
    support::config(cases, 0x0005_0002)
}

/// A triplet: six vectors of length D.
type Triplet = [Vec<f64>; 6];

/// Means by category (zero, small, unit, large) and variances including exact zeros.
fn triplet(max_dim: usize) -> impl Strategy<Value = Triplet> {
    (1..=max_dim).prop_flat_map(|d| {
        let mean = prop_oneof![
            1 => Just(0.0),
            3 => -2.0..2.0f64,
            1 => -1e3..1e3f64,
            1 => -1e-4..1e-4f64,
        ];
        let var = prop_oneof![
            1 => Just(0.0),
            3 => 0.0..2.0f64,
            1 => support::log_uniform(1e-8, 1e3),
        ];
        let m = prop::collection::vec(mean, 3 * d);
        let v = prop::collection::vec(var, 3 * d);
        (m, v).prop_map(move |(m, v)| {
            [
                m[..d].to_vec(),
                v[..d].to_vec(),
                m[d..2 * d].to_vec(),
                v[d..2 * d].to_vec(),
                m[2 * d..].to_vec(),
                v[2 * d..].to_vec(),
            ]
        })
    })
}

fn fast(t: &Triplet) -> (f64, f64) {
    triplet::moments(&t[0], &t[1], &t[2], &t[3], &t[4], &t[5]).unwrap()
}

fn dense(t: &Triplet) -> (f64, f64) {
    exact::moments(&t[0], &t[1], &t[2], &t[3], &t[4], &t[5]).unwrap()
}

/// `Σ_d (d_p² + d_n² + σ_p² + σ_n²)`: the size of the terms whose difference is `E τ`.
fn mean_scale(t: &Triplet) -> f64 {
    (0..t[0].len())
        .map(|d| {
            let (dp, dn) = (t[2][d] - t[0][d], t[4][d] - t[0][d]);
            dp * dp + dn * dn + t[3][d] + t[5][d]
        })
        .sum()
}

proptest! {
    #![proptest_config(config(256))]

    /// Claim 1: the per-dimension closed form equals the dense quadratic form.
    #[test]
    fn fast_moments_equal_the_dense_quadratic_form(t in triplet(24)) {
        let (fm, fv) = fast(&t);
        let (em, ev) = dense(&t);
        let scale = mean_scale(&t);
        support::check_with_magnitude(NAME, "E τ", fm, em, scale);
        support::check_at(NAME, "Var τ", fv, ev);
        prop_assert!(fv >= 0.0);
    }

    /// Claim 2: translation invariance and the p ↔ n exchange.
    #[test]
    fn translation_and_exchange(t in triplet(12), shift in -5.0..5.0f64) {
        let (m0, v0) = fast(&t);
        let mut moved = t.clone();
        for k in [0, 2, 4] {
            moved[k].iter_mut().for_each(|x| *x += shift);
        }
        let (m1, v1) = fast(&moved);
        let scale = mean_scale(&t) + mean_scale(&moved);
        prop_assert!((m1 - m0).abs() <= 4.0 * tol() * scale);
        prop_assert!((v1 - v0).abs() <= 4.0 * tol() * v0.max(f64::MIN_POSITIVE) + 4.0 * tol() * scale * scale);
        let swapped: Triplet = [t[0].clone(), t[1].clone(), t[4].clone(), t[5].clone(), t[2].clone(), t[3].clone()];
        let (m2, v2) = fast(&swapped);
        // E τ_d is summed in another association after the exchange: equal up to rounding.
        prop_assert!((m2 + m0).abs() <= tol() * mean_scale(&t), "{} vs {}", m2, -m0);
        // Var τ_d is symmetric term by term (a + b = b + a exactly in IEEE arithmetic).
        prop_assert_eq!(v2, v0);
    }

    /// Claim 3: the exact law has the dense moments.
    #[test]
    fn the_exact_law_has_the_dense_moments(t in triplet(8)) {
        let tau = exact::tau_distribution(&t[0], &t[1], &t[2], &t[3], &t[4], &t[5]).unwrap();
        let (em, ev) = dense(&t);
        let scale = mean_scale(&t);
        prop_assert!((tau.mean() - em).abs() <= 1e3 * tol() * scale.max(1.0),
            "mean {} vs {}", tau.mean(), em);
        prop_assert!((tau.variance() - ev).abs() <= 1e3 * tol() * ev.max(scale * scale).max(1e-300),
            "variance {} vs {}", tau.variance(), ev);
    }
}

/// Degenerate variances: exact zeros.
#[test]
fn zero_variances_give_a_deterministic_tau() {
    let zero = [0.0, 0.0];
    let (m, v) =
        triplet::moments(&[0.5, 1.0], &zero, &[0.0, 1.0], &zero, &[2.0, -1.0], &zero).unwrap();
    // τ = (0.25 + 0) − (2.25 + 4) = −6.
    assert_eq!((m, v), (-6.0, 0.0));
    // Only the anchor random and μ_p = μ_n: τ_d = (μ_n − μ_p)(…) = 0 identically.
    let (_, v) = triplet::moments(&[0.3], &[2.0], &[1.0], &[0.0], &[1.0], &[0.0]).unwrap();
    assert_eq!(v, 0.0);
    // Huge entries whose squares overflow are an error naming an argument, never a NaN.
    let err = triplet::moments(&[1e200], &[0.0], &[-1e200], &[0.0], &[0.0], &[0.0]).unwrap_err();
    assert!(err.to_string().contains("mu_a"), "{err}");
}

/// Eq. (12) of the main text, as printed.
fn variance_eq12(ma: f64, va: f64, mp: f64, vp: f64, mn: f64, vn: f64) -> f64 {
    let half = vp * (vp + 2.0 * mp * mp) + vn * (vn + 2.0 * mn * mn)
        - 4.0 * va * mp * mn
        - 2.0 * ma * (ma * (mp * mp + mn * mn) - 2.0 * mp * vp - 2.0 * mn * vn)
        + 2.0 * (va + ma * ma) * ((vp + mp * mp) + (vn + mn * mn));
    2.0 * half
}

/// The supplement's eqs. (17), (18), (26), as printed (T₁, T₂, T₃ of the listing).
fn variance_supplement(ma: f64, va: f64, mp: f64, vp: f64, mn: f64, vn: f64) -> f64 {
    let t1 = vp * vp + 2.0 * mp * mp * vp + 2.0 * (va + ma * ma) * (vp + mp * mp)
        - 2.0 * ma * ma * mp * mp
        - 4.0 * ma * mp * vp;
    let t2 = vn * vn + 2.0 * mn * mn * vn + 2.0 * (va + ma * ma) * (vn + mn * mn)
        - 2.0 * ma * ma * mn * mn
        - 4.0 * ma * mn * vn;
    let t3 = 4.0 * mp * mn * va;
    2.0 * t1 + 2.0 * t2 - 2.0 * t3
}

/// Refutation of eq. (12): the pinned point, by Monte Carlo with 2·10⁷ draws.
#[test]
fn refutation_eq12_sign_by_monte_carlo() {
    let (ma, va, mp, vp, mn, vn) = (0.7, 0.5, -0.4, 0.8, 1.3, 0.3);
    let supplement = variance_supplement(ma, va, mp, vp, mn, vn);
    let eq12 = variance_eq12(ma, va, mp, vp, mn, vn);
    assert!((supplement - 13.744).abs() < 1e-12, "{supplement}");
    assert!((eq12 - 14.528).abs() < 1e-12, "{eq12}");
    let (_, fast_var) = triplet::moments(&[ma], &[va], &[mp], &[vp], &[mn], &[vn]).unwrap();
    assert!((fast_var - supplement).abs() < 1e-12);
    // The difference is exactly the sign of 4μ_a(μ_pσ_p² + μ_nσ_n²) inside Var/2.
    assert!((eq12 - supplement - 16.0 * ma * (mp * vp + mn * vn)).abs() < 1e-12);

    // 2·10⁷ draws in 40 seeded chunks (rayon), power sums of τ − E τ for the sample variance
    // and its standard error.
    let chunks = 40u64;
    let per_chunk = 500_000usize;
    let n = (chunks as usize * per_chunk) as f64;
    let mean_tau = 1.35;
    let sums: (f64, f64, f64, f64) = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut rng = ChaCha8Rng::seed_from_u64(0x0005_1200 + c);
            let (sa, sp, sn) = (f64::sqrt(va), f64::sqrt(vp), f64::sqrt(vn));
            let mut s = (0.0, 0.0, 0.0, 0.0);
            for _ in 0..per_chunk {
                let z: [f64; 3] = std::array::from_fn(|_| StandardNormal.sample(&mut rng));
                let (a, p, q) = (ma + sa * z[0], mp + sp * z[1], mn + sn * z[2]);
                let t = (a - p) * (a - p) - (a - q) * (a - q) - mean_tau;
                let t2 = t * t;
                s.0 += t;
                s.1 += t2;
                s.2 += t2 * t;
                s.3 += t2 * t2;
            }
            s
        })
        .reduce(
            || (0.0, 0.0, 0.0, 0.0),
            |x, y| (x.0 + y.0, x.1 + y.1, x.2 + y.2, x.3 + y.3),
        );
    // Central moments about the sample mean from the power sums about E τ.
    let d = sums.0 / n;
    let m2 = sums.1 / n - d * d;
    let m4 = sums.3 / n - 4.0 * d * sums.2 / n + 6.0 * d * d * sums.1 / n - 3.0 * d.powi(4);
    let sample_var = m2 * n / (n - 1.0);
    let se = ((m4 - m2 * m2) / n).sqrt();
    let band = budget::MONTE_CARLO_SIGMAS * se;
    println!(
        "Var τ: Monte Carlo {sample_var:.5} ± {se:.5} (n = {n:e}); supplement {supplement}; eq. (12) {eq12}"
    );
    assert!(
        (sample_var - supplement).abs() <= band,
        "supplement outside the band"
    );
    assert!(
        (sample_var - eq12).abs() > 10.0 * band,
        "eq. (12) not excluded"
    );
}

/// Proptest over random points: eq. (12) differs from the dense variance whenever
/// `μ_a(μ_pσ_p² + μ_nσ_n²) ≠ 0`, by exactly `16μ_a(μ_pσ_p² + μ_nσ_n²)`.
#[test]
fn refutation_eq12_against_the_dense_form() {
    let mut runner = proptest::test_runner::TestRunner::new(config(256));
    runner
        .run(
            &(
                -2.0..2.0f64,
                0.01..2.0f64,
                -2.0..2.0f64,
                0.01..2.0f64,
                -2.0..2.0f64,
                0.01..2.0f64,
            ),
            |(ma, va, mp, vp, mn, vn)| {
                let (_, dense_var) =
                    exact::moments(&[ma], &[va], &[mp], &[vp], &[mn], &[vn]).unwrap();
                let sign_term = 16.0 * ma * (mp * vp + mn * vn);
                let eq12 = variance_eq12(ma, va, mp, vp, mn, vn);
                prop_assert!((eq12 - dense_var - sign_term).abs() <= 1e-12 * (1.0 + eq12.abs()));
                prop_assert!(
                    (variance_supplement(ma, va, mp, vp, mn, vn) - dense_var).abs()
                        <= 1e-12 * (1.0 + dense_var)
                );
                Ok(())
            },
        )
        .unwrap();
}
