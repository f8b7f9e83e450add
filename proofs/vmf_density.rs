//! # The vMF density, its entropy and its KL divergence to the uniform law (book chapter 02)
//!
//! Claims proved here, for `X ~ vMF(μ, κ)` on `S^{M−1}`:
//!
//! 1. **Log density** (LAM eq. (3); nivMF eq. (1)): `ln f(x) = ln C_M(κ) + κ μᵀx`.
//!    The fast twin agrees with the reference (256-bit `ln C_M`, compensated dot product) to
//!    `LOG_SPECIAL · max(1, |ln C_M(κ)| + κ|μᵀx|)`: the registry's `AbsOrRel` budget applied to
//!    the magnitude of the two summands, since no sum is more accurate relative to itself than
//!    its condition number allows (at `x ⟂ μ`, `κ = 10⁵` the value is small while `ln C_M` is
//!    `−10⁵`).
//! 2. **Normalisation**: `∫_{S^{M−1}} f = |S^{M−2}| C_M(κ) ∫_0^π e^{κ cos θ} sin^{M−2}θ dθ = 1`,
//!    with the closed-form `ln C_M` and the integral by quadrature, to `QUADRATURE`.
//! 3. **Entropy**: `H = −∫ f ln f = −ln C_M(κ) − κA_M(κ)` (closed form) equals the quadrature of
//!    `−∫ f ln f` reduced to the marginal of `μᵀx`, to `QUADRATURE · max(1, |H|)` (an entropy
//!    crosses zero as κ grows, so it is judged like a logarithm), for `M ∈ {2, 3, 10, 128, 2048}`
//!    and `κ ∈ [10⁻³, 10⁵]`.
//! 4. **KL to uniform**: `KL = ln C_M(κ) + κA_M(κ) + ln|S^{M−1}|`, `|S^{M−1}| = 2π^{M/2}/Γ(M/2)`,
//!    equals the quadrature of `∫ f ln(f|S^{M−1}|)` to `QUADRATURE` *relative* on the same grid,
//!    including `κ = 10⁻³`, `M = 2048`, where `KL ≈ κ²/(2M) ≈ 2.4·10⁻¹⁰`.
//! 5. **KL is a divergence**: `KL ≥ 0`, `KL(κ = 0) = 0`, `KL ~ κ²/(2M)` as `κ → 0`, and
//!    `H + KL = ln|S^{M−1}|`.
//! 6. **`ln|S^{M−1}|`**: the fast `ln Γ` route agrees with the compensated sum of logarithms.
//! 7. **Inputs normalised in `f32`** (the embeddings a PyTorch model gives, cast to `f64`): a
//!    vector normalised in `f32` by any summation order has `|‖v‖ − 1| ≤ (M/2 + 2)·2⁻²⁴`, inside
//!    `vmf::unit_norm_tolerance(M) = (M + 4)·2⁻²⁴`, so the density, the KL divergence, the
//!    nivMF density and the sample statistics accept it; and their value is the one at `v/‖v‖`:
//!    the fast twin on the `f32`-normalised input agrees, within its own budget, with the
//!    reference at the vector renormalised by the 256-bit norm. Using `v` as given instead errs
//!    by `≈ κ|μᵀx|·|‖x‖ − 1|` (10⁻² at `M = 512`, `κ = 10⁴`), far outside the budget. Both twins
//!    accept a vector just inside the tolerance and refuse one just outside with one error.
//!
//! ## Refutation: the BTL listing's `kl_div_vMF`
//!
//! The BTL code (`functional.py`, listing 2, lines 35–44) uses `kl = κ − D·ln 2` as the KL
//! divergence of a vMF on `S^{D−1}` from the uniform prior. **Claim (false): this is
//! `KL(vMF(μ, κ) ‖ U(S^{D−1}))`.** A KL divergence is never negative, but `κ − D ln 2 < 0` for
//! every `κ < D ln 2`; proptest finds the counterexample and shrinks it to `(D, κ) = (2, 0)`,
//! pinned below with three more: `(3, 1)` (listing `−1.079`, true `0.1516`), `(128, 50)`
//! (listing `−38.7`) and `(3, 100)` (listing `97.9`, true `4.30`: where it is positive it is
//! still wrong, growing like κ instead of like `((D−1)/2) ln κ`).
//!
//! **Corrected theorem.** `KL(vMF(μ, κ) ‖ U(S^{D−1})) = ln C_D(κ) + κ A_D(κ) + ln|S^{D−1}|`
//! with `C_D(κ) = κ^{D/2−1}/((2π)^{D/2} I_{D/2−1}(κ))`, `A_D = I_{D/2}/I_{D/2−1}`,
//! `|S^{D−1}| = 2π^{D/2}/Γ(D/2)`; it is `0` at `κ = 0`, `≈ κ²/(2D)` for small κ and
//! `≈ ((D−1)/2) ln(κ/2π) − ln Γ(D/2) + ln 2 + (D/2) ln π − (D−1)/2 …` for large κ
//! (`probdml::vmf::kl_to_uniform`).

// derivation: vmf::log_density
// derivation: vmf::entropy
// derivation: vmf::kl_to_uniform

use crate::support;
use probdml::vmf;
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, TestError, TestRunner};
use support::{check_at, check_with_magnitude, tolerance};

const LOG_DENSITY: &str = "vmf::log_density";
const ENTROPY: &str = "vmf::entropy";
const KL_TO_UNIFORM: &str = "vmf::kl_to_uniform";
/// ln |S^{M−1}| = −ln C_M(0): checked under the budget of ln C_M.
const LOG_NORM_CONST: &str = "vmf::log_norm_const";

/// H against its quadrature, relative to max(1, |H|): an entropy crosses zero as κ grows.
fn check_entropy(dim: usize, kappa: f64) -> f64 {
    let h = vmf::entropy(dim, kappa);
    let h_quad = vmf::exact::entropy(dim, kappa);
    let case = format!("M = {dim}, κ = {kappa}");
    check_with_magnitude(ENTROPY, case, h, h_quad, h_quad.abs().max(1.0));
    h
}

/// KL against its quadrature, relative: KL > 0 for κ > 0.
fn check_kl(dim: usize, kappa: f64) -> f64 {
    let kl = vmf::kl_to_uniform(dim, kappa);
    let case = format!("M = {dim}, κ = {kappa}");
    check_at(
        KL_TO_UNIFORM,
        case,
        kl,
        vmf::exact::kl_to_uniform(dim, kappa),
    );
    kl
}

/// The dimension grid of book chapter 02.
const DIMS: [usize; 5] = [2, 3, 10, 128, 2048];
/// κ over `[10⁻³, 10⁵]`, one point per decade.
const KAPPAS: [f64; 9] = [1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0, 1e3, 1e4, 1e5];

fn config(cases: u32) -> ProptestConfig {
    support::config(cases, 0x0002_0001)
}

/// Dimensions by category: that grid, small, and log-uniform up to 2048.
fn dims() -> impl Strategy<Value = usize> {
    prop_oneof![
        prop::sample::select(DIMS.to_vec()),
        2usize..=16,
        (1.0f64..11.0).prop_map(|e| 2f64.powf(e).round() as usize),
    ]
}

/// Concentrations by category: the edges, the decade grid, log-uniform on `[10⁻³, 10⁵]`.
fn kappas() -> impl Strategy<Value = f64> {
    prop_oneof![
        prop::sample::select(vec![0.0, 1e-300, f64::MIN_POSITIVE, 1e-3, 1e5]),
        prop::sample::select(KAPPAS.to_vec()),
        (-3.0f64..5.0).prop_map(|e| 10f64.powf(e)),
    ]
}

/// A unit vector of length `dim` from raw coordinates (proptest-generated, so shrinkable).
fn normalise(v: &[f64]) -> Option<Vec<f64>> {
    let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    (n > 1e-3).then(|| v.iter().map(|x| x / n).collect())
}

/// `(x, μ, κ)` with `x` in one of four positions relative to `μ`: random, `μ`, `−μ`, `⟂ μ`.
fn density_case() -> impl Strategy<Value = (Vec<f64>, Vec<f64>, f64)> {
    (dims(), kappas()).prop_flat_map(|(dim, kappa)| {
        (
            prop::collection::vec(-1.0f64..1.0, dim),
            prop::collection::vec(-1.0f64..1.0, dim),
            0u8..4,
            Just(kappa),
        )
            .prop_filter_map("non-degenerate", |(a, b, position, kappa)| {
                let mu = normalise(&a)?;
                let x = match position {
                    0 => normalise(&b)?,
                    1 => mu.clone(),
                    2 => mu.iter().map(|v| -v).collect(),
                    _ => {
                        // b minus its component along μ, renormalised.
                        let d: f64 = b.iter().zip(&mu).map(|(p, q)| p * q).sum();
                        let perp: Vec<f64> = b.iter().zip(&mu).map(|(p, q)| p - d * q).collect();
                        normalise(&perp)?
                    }
                };
                Some((x, mu, kappa))
            })
    })
}

proptest! {
    #![proptest_config(config(256))]

    /// Claim 1: fast log density ≈ reference within the summand-scaled budget.
    #[test]
    fn log_density_fast_matches_exact((x, mu, kappa) in density_case()) {
        let fast = vmf::log_density(&x, &mu, kappa).unwrap();
        let exact = vmf::exact::log_density(&x, &mu, kappa).unwrap();
        let dim = mu.len();
        let t: f64 = x.iter().zip(&mu).map(|(a, b)| a * b).sum();
        let magnitude = vmf::exact::log_norm_const(dim, kappa).abs() + kappa * t.abs();
        check_with_magnitude(LOG_DENSITY, format_args!("M = {dim}, κ = {kappa}"), fast, exact, magnitude);
    }

    /// Claims 3–5 on random (M, κ): closed forms against quadrature, KL ≥ 0, H + KL = ln|S|.
    #[test]
    fn entropy_and_kl_match_quadrature(dim in dims(), kappa in kappas()) {
        let h = check_entropy(dim, kappa);
        let kl = check_kl(dim, kappa);
        prop_assert!(kl >= 0.0);
        let area = vmf::log_sphere_area(dim);
        prop_assert!(
            (h + kl - area).abs() <= 4.0 * tolerance(LOG_NORM_CONST) * area.abs().max(kl).max(1.0),
            "H + KL = ln|S|: M = {dim}, κ = {kappa}"
        );
    }
}

/// Claims 3 and 4 on the full grid `M ∈ {2, 3, 10, 128, 2048}` × `κ ∈ 10⁻³…10⁵`.
#[test]
fn entropy_and_kl_on_the_spec_grid() {
    for &dim in &DIMS {
        for &kappa in &KAPPAS {
            check_entropy(dim, kappa);
            check_kl(dim, kappa);
        }
    }
}

/// Claim 2: the density integrates to one.
#[test]
fn density_integrates_to_one() {
    for &dim in &DIMS {
        for &kappa in [0.0].iter().chain(&KAPPAS) {
            let law = vmf::exact::CosineMarginal::new(dim, kappa).unwrap();
            // ln ∫ f = ln C_M(κ) (closed form) − ln C_M(κ) (by quadrature).
            // The quadrature's budget, absolute on ln ∫ f.
            let case = format!("ln ∫ f at M = {dim}, κ = {kappa}");
            let (closed, quadrature) = (vmf::log_norm_const(dim, kappa), law.log_norm_const());
            check_with_magnitude(ENTROPY, case, closed, quadrature, 1.0);
        }
    }
}

/// Claim 5: `KL(κ = 0) = 0`, `KL ≈ κ²/(2M) − 3κ⁴/(4M²(M+2))` for small κ (an independent
/// expansion of `−ln ₀F₁ + 2y ∂_y ln ₀F₁`), and KL increases with κ.
#[test]
fn kl_limits_and_monotonicity() {
    for &dim in &[2usize, 3, 10, 128, 2048, 100_000] {
        assert_eq!(vmf::kl_to_uniform(dim, 0.0), 0.0);
        let m = dim as f64;
        for &kappa in &[1e-8, 1e-6, 1e-4, 1e-3] {
            let series =
                kappa * kappa / (2.0 * m) - 3.0 * kappa.powi(4) / (4.0 * m * m * (m + 2.0));
            let kl = vmf::kl_to_uniform(dim, kappa);
            assert!(
                (kl - series).abs() <= tolerance(KL_TO_UNIFORM) * series,
                "M = {dim}, κ = {kappa}: {kl} vs κ²/2M series {series}"
            );
        }
        let mut previous = 0.0;
        for i in -40..=50 {
            let kappa = 10f64.powf(i as f64 / 10.0);
            let kl = vmf::kl_to_uniform(dim, kappa);
            assert!(kl > previous, "KL not increasing at M = {dim}, κ = {kappa}");
            previous = kl;
        }
    }
}

/// Claim 5, closed forms at `M = 3` (`C_3 = κ/(4π sinh κ)`, `A_3 = coth κ − 1/κ`), which
/// involve no Bessel function at all.
#[test]
fn m3_closed_forms() {
    use std::f64::consts::PI;
    for &kappa in &[0.5_f64, 1.0, 2.0, 5.0, 20.0] {
        let kl = (kappa / kappa.sinh()).ln() + kappa / kappa.tanh() - 1.0;
        let h = (4.0 * PI).ln() - kl;
        // Both are sums of terms of size ~κ: judged on that scale.
        assert!((vmf::kl_to_uniform(3, kappa) - kl).abs() <= 4e-15 * kappa.max(1.0));
        assert!((vmf::entropy(3, kappa) - h).abs() <= 4e-15 * kappa.max(1.0));
    }
}

/// Claim 6: `ln|S^{M−1}|`, fast against the compensated sum of logarithms.
#[test]
fn sphere_area_fast_matches_exact() {
    let dims = (1..=600usize).chain([1000, 2047, 2048, 2049, 10_000, 65_537, 100_000, 1_000_000]);
    for dim in dims {
        let case = format!("ln |S^(M−1)| at M = {dim}");
        check_at(
            LOG_NORM_CONST,
            case,
            vmf::log_sphere_area(dim),
            vmf::exact::log_sphere_area(dim),
        );
    }
}

/// Bad input to the checked log density, and NaN from the raw kernels.
#[test]
fn bad_input() {
    let mu = [0.0, 1.0, 0.0];
    let x = [1.0, 0.0, 0.0];
    assert!(vmf::log_density(&x, &mu, 1.0).is_ok());
    assert!(
        vmf::log_density(&x[..2], &mu, 1.0).is_err(),
        "dimension mismatch"
    );
    assert!(vmf::log_density(&[1.0], &[1.0], 1.0).is_err(), "M < 2");
    assert!(vmf::log_density(&x, &mu, -1.0).is_err(), "κ < 0");
    assert!(vmf::log_density(&x, &mu, f64::NAN).is_err(), "κ NaN");
    assert!(vmf::log_density(&x, &mu, f64::INFINITY).is_err(), "κ ∞");
    assert!(
        vmf::log_density(&[1.0, 1e-3, 0.0], &mu, 1.0).is_err(),
        "non-unit x"
    );
    assert!(
        vmf::log_density(&x, &[0.0, 2.0, 0.0], 1.0).is_err(),
        "non-unit μ"
    );
    assert!(
        vmf::log_density(&[f64::NAN, 0.0, 1.0], &mu, 1.0).is_err(),
        "NaN x"
    );
    // Within the documented tolerance 10⁻¹²√M a vector is accepted.
    assert!(vmf::log_density(&[1.0 + 1e-13, 0.0, 0.0], &mu, 1.0).is_ok());
    for f in [
        vmf::entropy,
        vmf::kl_to_uniform,
        vmf::exact::entropy,
        vmf::exact::kl_to_uniform,
    ] {
        assert!(f(1, 1.0).is_nan());
        assert!(f(3, -1.0).is_nan());
        assert!(f(3, f64::NAN).is_nan());
        assert!(f(3, f64::INFINITY).is_nan());
    }
    assert!(vmf::log_sphere_area(0).is_nan());
}

// ---------------------------------------------------------------------------------------------
// Refutation: BTL's `kl_div_vMF`.

/// The BTL listing's formula, transcribed: `kl = kappa_q − D * log(2)` (functional.py, l. 42).
fn btl_kl_div_vmf(dim: usize, kappa: f64) -> f64 {
    kappa - dim as f64 * std::f64::consts::LN_2
}

/// Proptest searches for a counterexample to "the listing's value is a KL divergence (≥ 0)"
/// and shrinks it; the minimal case is `(D, κ) = (2, 0)`.
#[test]
fn refutation_btl_kl_is_negative_found_by_proptest() {
    // κ first, so that the shrinker drives κ to 0 and then D to its minimum.
    // The shrinking is the claim, so its budget is set here rather than taken from
    // PROPTEST_MAX_SHRINK_ITERS (which scripts/mutants.sh sets to 0).
    let mut runner = TestRunner::new(ProptestConfig {
        failure_persistence: None,
        max_shrink_iters: 4096,
        ..config(256)
    });
    let strategy = (0.0f64..1e4, 2usize..=4096);
    let result = runner.run(&strategy, |(kappa, dim)| {
        prop_assert!(btl_kl_div_vmf(dim, kappa) >= 0.0);
        Ok(())
    });
    match result {
        Err(TestError::Fail(_, (kappa, dim))) => {
            assert_eq!((dim, kappa), (2, 0.0), "shrunk counterexample");
            assert!(btl_kl_div_vmf(dim, kappa) < 0.0);
            assert_eq!(vmf::kl_to_uniform(dim, kappa), 0.0);
        }
        other => panic!("expected a counterexample, got {other:?}"),
    }
}

/// Pinned counterexamples: the listing is negative where a KL divergence cannot be, and differs
/// from the true KL (closed form, and quadrature) where it is positive.
#[test]
fn refutation_btl_kl_pinned_cases() {
    // (D, κ) = (2, 0): the uniform vMF *is* the prior: KL = 0, the listing gives −2 ln 2.
    assert!(btl_kl_div_vmf(2, 0.0) < -1.38);
    assert_eq!(vmf::kl_to_uniform(2, 0.0), 0.0);

    // (D, κ) = (3, 1): listing 1 − 3 ln 2 = −1.0794; true KL = ln(1/sinh 1) + coth 1 − 1.
    let listing = btl_kl_div_vmf(3, 1.0);
    assert!(listing < -1.079 && listing > -1.080);
    let true_kl = (1.0 / 1.0_f64.sinh()).ln() + 1.0 / 1.0_f64.tanh() - 1.0;
    assert!((true_kl - 0.151_595_9).abs() < 1e-7);
    assert!((vmf::kl_to_uniform(3, 1.0) - true_kl).abs() < 1e-15);
    check_at(
        KL_TO_UNIFORM,
        "quadrature at (3, 1)",
        vmf::exact::kl_to_uniform(3, 1.0),
        true_kl,
    );

    // (D, κ) = (128, 50), an embedding size and norm of the papers' range: listing −38.7.
    let listing = btl_kl_div_vmf(128, 50.0);
    assert!(listing < -38.0);
    let quad = vmf::exact::kl_to_uniform(128, 50.0);
    assert!(quad > 0.0);
    check_at(
        KL_TO_UNIFORM,
        "(128, 50)",
        vmf::kl_to_uniform(128, 50.0),
        quad,
    );

    // (D, κ) = (3, 100): positive but wrong: listing 97.9, true ln(100/sinh 100) + 100 coth 100 − 1
    // = ln 200 − 1 + O(e^{−200}) = 4.2983.
    let listing = btl_kl_div_vmf(3, 100.0);
    let true_kl = 200f64.ln() - 1.0;
    assert!((vmf::kl_to_uniform(3, 100.0) - true_kl).abs() < 1e-13 * true_kl);
    assert!(listing > 20.0 * true_kl);
}

/// The listing is negative on the whole region `κ < D ln 2`, for every D, while the true KL is
/// positive there: the failure is not an edge case.
#[test]
fn refutation_btl_kl_negative_region() {
    for &dim in &[2usize, 3, 10, 128, 512, 2048] {
        for i in 1..10 {
            let kappa = dim as f64 * std::f64::consts::LN_2 * i as f64 / 10.0;
            assert!(btl_kl_div_vmf(dim, kappa) < 0.0);
            assert!(vmf::kl_to_uniform(dim, kappa) > 0.0);
        }
    }
}

/// Torture run (ignored by default; `cargo test --release --test proofs -- vmf_density:: --ignored`):
/// claims 3 and 4 for every `M ≤ 64` and a log grid of `M` to 4096, at 41 values of κ per
/// decade-spaced grid on `[10⁻³, 10⁵]`.
#[test]
#[ignore]
fn torture_quadrature_dense_grid() {
    let dims: Vec<usize> = (2..=64)
        .chain((0..16).map(|i| (64.0 * 64f64.powf(i as f64 / 15.0)) as usize))
        .collect();
    for &dim in &dims {
        for i in 0..=40 {
            let kappa = 10f64.powf(-3.0 + 8.0 * i as f64 / 40.0);
            check_entropy(dim, kappa);
            check_kl(dim, kappa);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Claim 7: inputs normalised in f32.

/// `v` normalised as PyTorch's `F.normalize` does in `f32`: the squares summed in `f32` (forward
/// or backward), the root, one division per entry; then widened to `f64` (exactly).
fn normalised_in_f32(v: &[f64], backward: bool) -> Vec<f64> {
    let v32: Vec<f32> = v.iter().map(|&x| x as f32).collect();
    let add = |s: f32, x: &f32| s + x * x;
    let squares = if backward {
        v32.iter().rev().fold(0.0, add)
    } else {
        v32.iter().fold(0.0, add)
    };
    let norm = squares.sqrt();
    v32.iter().map(|&x| f64::from(x / norm)).collect()
}

/// `v/‖v‖` with the reference's 256-bit norm: the vector the result is defined at.
fn renormalised(v: &[f64]) -> Vec<f64> {
    let norm = probdml::compensated::exact::norm2(v);
    v.iter().map(|x| x / norm).collect()
}

/// The deviation `|‖v‖ − 1|`, from the 256-bit norm.
fn deviation(v: &[f64]) -> f64 {
    (probdml::compensated::exact::norm2(v) - 1.0).abs()
}

fn f32_case() -> impl Strategy<Value = (Vec<f64>, Vec<f64>, f64, bool)> {
    (dims(), kappas(), any::<bool>()).prop_flat_map(|(dim, kappa, backward)| {
        (
            prop::collection::vec(-1.0f64..1.0, dim),
            prop::collection::vec(-1.0f64..1.0, dim),
            Just(kappa),
            Just(backward),
        )
            .prop_filter("non-degenerate", |(a, b, _, _)| {
                normalise(a).is_some() && normalise(b).is_some()
            })
    })
}

proptest! {
    #![proptest_config(config(256))]

    /// Claim 7: the log density and the KL divergence of f32-normalised vectors are those at the
    /// vectors renormalised in f64.
    #[test]
    fn f32_normalised_inputs_are_renormalised((a, b, kappa, backward) in f32_case()) {
        let (x, mu) = (normalised_in_f32(&a, backward), normalised_in_f32(&b, !backward));
        let dim = mu.len();
        let bound = (dim as f64 / 2.0 + 2.0) * f64::from(f32::EPSILON) / 2.0;
        prop_assert!(deviation(&x) <= bound && deviation(&mu) <= bound);
        prop_assert!(bound < vmf::unit_norm_tolerance(dim));
        let (x_hat, mu_hat) = (renormalised(&x), renormalised(&mu));
        let case = format_args!("M = {dim}, κ = {kappa}, f32-normalised");

        let fast = vmf::log_density(&x, &mu, kappa).unwrap();
        let exact = vmf::exact::log_density(&x_hat, &mu_hat, kappa).unwrap();
        let t: f64 = x_hat.iter().zip(&mu_hat).map(|(p, q)| p * q).sum();
        let magnitude = vmf::exact::log_norm_const(dim, kappa).abs() + kappa * t.abs();
        check_with_magnitude(LOG_DENSITY, case, fast, exact, magnitude);
        // The reference renormalises the f32 input itself, to the same value.
        let exact_on_f32 = vmf::exact::log_density(&x, &mu, kappa).unwrap();
        check_with_magnitude(LOG_DENSITY, case, exact_on_f32, exact, magnitude);

        // nivMF density with anisotropic concentrations around κ.
        let kappas: Vec<f64> = (0..dim).map(|m| kappa.max(1e-3) * (1.0 + (m % 3) as f64)).collect();
        let fast = probdml::nivmf::NonIsotropicVmf::new(&mu, &kappas).unwrap().ln_pdf(&x).unwrap();
        let exact = probdml::nivmf::exact::log_density(&x_hat, &mu_hat, &kappas).unwrap();
        let kmu: Vec<f64> = mu_hat.iter().zip(&kappas).map(|(p, k)| p * k).collect();
        let kx: Vec<f64> = x_hat.iter().zip(&kappas).map(|(p, k)| p * k).collect();
        let kappa_tilde = probdml::compensated::exact::norm2(&kmu);
        let kx_norm = probdml::compensated::exact::norm2(&kx);
        let log_jacobian: f64 = kappas.iter().map(|k| k.ln().abs()).sum::<f64>() + dim as f64 * kx_norm.ln().abs();
        let exponent: f64 = kmu.iter().zip(&kx).map(|(p, q)| (p * q).abs()).sum::<f64>() / kx_norm;
        let magnitude = vmf::exact::log_norm_const(dim, kappa_tilde).abs() + log_jacobian + exponent;
        check_with_magnitude("nivmf::log_density", case, fast, exact, magnitude);
    }
}

/// Claim 7 for the sample statistics: `R̄`, `μ̂` and κ̂ of `f32`-normalised samples drawn
/// from a concentrated law are those of the samples renormalised in `f64`; without the
/// renormalisation `1 − R̄ ≈ 10⁻⁴` would carry an error of `≈ 10⁻⁷`, 10⁻³ of `κ̂`. The budget on
/// `R̄` (relative, `R̄ ≈ 1`) is an absolute one on `1 − R̄`, the quantity κ̂ is made of.
#[test]
fn f32_normalised_samples_give_the_statistics_of_the_renormalised_ones() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x0002_0007);
    for (dim, kappa) in [(3usize, 1e4), (128, 1e5), (512, 1e6)] {
        let mut mu = vec![0.0; dim];
        mu[0] = 1.0;
        let law = vmf::VonMisesFisher::new(&mu, kappa).unwrap();
        let n = 2000;
        let mut rows32 = Vec::with_capacity(n * dim);
        let mut rows = Vec::with_capacity(n * dim);
        for i in 0..n {
            // A direction near μ rotated off the axes, so every coordinate carries rounding.
            let mut x = law.sample(&mut rng);
            x.rotate_left(i % dim);
            let x32 = normalised_in_f32(&x, i % 2 == 1);
            rows.extend(renormalised(&x32));
            rows32.extend(x32);
        }
        let fast = vmf::mean_resultant(&rows32, dim).unwrap();
        let exact = vmf::exact::mean_resultant(&rows, dim).unwrap();
        let case = format!("M = {dim}, κ = {kappa}, n = {n}, f32-normalised rows");
        support::check_at("vmf::mean_resultant", &case, fast.rbar, exact.rbar);
        support::check_slice(
            "vmf::mean_resultant",
            &case,
            &fast.direction,
            &exact.direction,
        );
    }
}

/// Claim 7, the edge: both twins accept a vector just inside `unit_norm_tolerance(M)` and
/// refuse one just outside with the same error, naming the argument.
#[test]
fn the_unit_norm_tolerance_is_the_same_edge_for_both_twins() {
    for dim in [2usize, 3, 128, 2048] {
        let tolerance = vmf::unit_norm_tolerance(dim);
        let mut mu = vec![0.0; dim];
        mu[0] = 1.0;
        for (factor, accepted) in [(0.9, true), (1.1, false)] {
            let mut x = vec![0.0; dim];
            x[0] = 1.0 + factor * tolerance;
            let fast = vmf::log_density(&x, &mu, 1.0);
            let exact = vmf::exact::log_density(&x, &mu, 1.0);
            assert_eq!(
                fast.is_ok(),
                accepted,
                "M = {dim}, deviation {factor}·tolerance: {fast:?}"
            );
            match (fast, exact) {
                (Ok(f), Ok(e)) => {
                    // At x ∝ μ the value at x/‖x‖ is ln C_M(1) + 1.
                    let want = vmf::exact::log_norm_const(dim, 1.0) + 1.0;
                    check_with_magnitude(
                        LOG_DENSITY,
                        format_args!("M = {dim}"),
                        f,
                        want,
                        want.abs().max(1.0),
                    );
                    check_with_magnitude(
                        LOG_DENSITY,
                        format_args!("M = {dim}"),
                        e,
                        want,
                        want.abs().max(1.0),
                    );
                }
                (Err(f), Err(e)) => {
                    assert_eq!(f, e);
                    assert!(
                        matches!(f, probdml::Error::NotUnitVector { arg: "x", .. }),
                        "{f:?}"
                    );
                }
                (f, e) => panic!("M = {dim}: the twins disagree: {f:?} against {e:?}"),
            }
        }
    }
}
