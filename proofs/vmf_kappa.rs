//! # Estimating κ: the MLE, Banerjee's approximation and Sra's Newton steps (Sra 2012; LAM App. C)
//!
//! From unit vectors `x₁…x_n`: `μ̂ = Σx/‖Σx‖`, `R̄ = ‖Σx‖/n` (LAM App. C). Claims:
//!
//! 1. **MLE** (Sra 2012, eq. 4): `kappa_mle(M, R̄)` is the root of `A_M(κ) = R̄` to the
//!    resolution of `f64`: the residual changes sign across `κ̂(1 ± 10⁻¹³)`.
//! 2. **Round trip**: `κ → R̄ = A_M(κ) → kappa_mle` recovers κ to
//!    `KAPPA_ROUND_TRIP = 10⁻¹²` relative, plus the information that rounding `R̄` to `f64`
//!    destroys: `½ulp(R̄)/(κ A_M'(κ))` (at `κ/M ~ 10⁸`, `R̄ = 1 − 10⁻⁸`, one ulp of `R̄` is 10⁻⁸ of
//!    `1 − R̄`, and no estimator can know κ better than that). The same round trip through the
//!    complement `1 − A_M(κ)` (which `f64` resolves) is tight to `10⁻¹²` everywhere.
//! 3. **Sra's two-step estimator** (Sra 2012, eqs. 5–6; LAM App. C): `kappa_sra(M, R̄, 2)` is
//!    within `KAPPA_SRA2 = 10⁻¹⁰` relative of the MLE for `M ∈ [45, 10⁵]`,
//!    `R̄ ∈ [10⁻⁶, 1 − 10⁻¹²]`; with four steps, for every `M ∈ [2, 10⁵]`. The error table of
//!    Banerjee (0 steps) vs 1 vs 2 vs 4 steps is printed by `sra_error_table` (run with
//!    `--nocapture`); it is checked only against budgets and inequalities, never against numbers
//!    produced by the code under test.
//!
//!    **Refutation of the claim** "Sra with 2 steps is within 10⁻¹⁰ relative of
//!    the MLE over M ∈ [2, 10⁵]". Banerjee's start is poor in low dimension (6.5% off at
//!    `M = 2`), and two quadratic steps from there leave `e₂ ≈ C·e₁² ≈ 2.7·10⁻⁵` at `M = 2`,
//!    `R̄ ≈ 0.87` (`5.7·10⁻⁶` at `M = 3`, `4·10⁻⁸` at `M = 10`, `1.09·10⁻¹⁰` at `M = 43`,
//!    `R̄ ≈ 0.716`). The worst case over `R̄` decays like `M⁻⁴` and falls below `10⁻¹⁰` at
//!    `M = 44` (`9.9·10⁻¹¹`). These are properties of the iteration, not of rounding: the
//!    reference twins (reference `A_M`, quadrature) give the same numbers.
//!    **Corrected theorem:** `|κ̂₂ − κ̂|/κ̂ ≤ 10⁻¹⁰` for `M ≥ 45` on the whole `R̄` range;
//!    `|κ̂₄ − κ̂|/κ̂ ≤ 10⁻¹⁰` for all `M ≥ 2` (three steps suffice for `M ≥ 3`).
//! 4. **Fast vs exact**: the fast MLE and Sra estimators agree with the reference ones (the MLE
//!    by bisection on the 256-bit `A_M`, or on the quadrature of `1 − A_M` for `R̄ > ½`; Sra's
//!    steps written out again with `A_M' = Var μᵀX` by quadrature for `R̄ > ½`) to
//!    `KAPPA_ROUND_TRIP`; the fast complement `1 − A_M(κ)` (Debye) agrees with the quadrature
//!    to `10⁻¹³` relative, and with the double-double reference `A_M` where that resolves it.
//! 5. **Edges**: `R̄ = 0 → κ = 0`; `R̄ ≥ 1`, `R̄ < 0`, NaN, ∞ and `M < 2` are errors; the MLE is
//!    increasing in `R̄`.
//! 6. **Mean resultant** (LAM App. C): the fast (cascade-summed) `μ̂`, `R̄` agree with the
//!    compensated reference to `RATIO` times the condition number of the sum,
//!    `‖(Σᵢ|x_ij|)_j‖/‖Σx‖`; sampled from `vMF(μ, κ)`, `R̄ → A_M(κ)` and `μ̂ → μ` (6σ bands),
//!    and LAM's uncertainty is `1/κ̂₀`.

// derivation: vmf::kappa_mle
// derivation: vmf::kappa_sra
// derivation: vmf::mean_resultant
// derivation: vmf::mean_resultant_length_complement

use crate::support;
use probdml::vmf::{self, VonMisesFisher};
use probdml_proofs::registry::budget;
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use support::{check_at, check_slice_with_magnitude, check_with_magnitude};

const MLE: &str = "vmf::kappa_mle";
const SRA: &str = "vmf::kappa_sra";
const RESULTANT: &str = "vmf::mean_resultant";
const COMPLEMENT: &str = "vmf::mean_resultant_length_complement";

fn config(cases: u32) -> ProptestConfig {
    support::config(cases, 0x0002_0003)
}

/// Dimensions by category over `[2, 10⁵]`: edges, the grid {2, 3, 10, 128, 2048}, small, log-uniform.
fn dims() -> impl Strategy<Value = usize> {
    prop_oneof![
        prop::sample::select(vec![2usize, 3, 100_000]),
        prop::sample::select(vec![10usize, 128, 512, 2048]),
        2usize..=20,
        (1.0f64..5.0).prop_map(|e| 10f64.powf(e).round() as usize),
    ]
}

/// Dimensions over `[45, 10⁵]`, where two Sra steps meet `KAPPA_SRA2`.
fn dims_two_steps() -> impl Strategy<Value = usize> {
    prop_oneof![
        prop::sample::select(vec![45usize, 46, 100_000]),
        prop::sample::select(vec![128usize, 512, 2048]),
        45usize..=100,
        (1.66f64..5.0).prop_map(|e| (10f64.powf(e).round() as usize).max(45)),
    ]
}

/// `R̄ ∈ [10⁻⁶, 1 − 10⁻¹²]` by category: the two ends, the branch point ½ and its neighbours,
/// log-uniform in `R̄` (small) and in `1 − R̄` (near 1), uniform in between.
fn rbars() -> impl Strategy<Value = f64> {
    prop_oneof![
        prop::sample::select(vec![
            1e-6,
            1.0 - 1e-12,
            0.5,
            f64::from_bits(0.5f64.to_bits() - 1),
            f64::from_bits(0.5f64.to_bits() + 1)
        ]),
        (-6.0f64..-0.3).prop_map(|e| 10f64.powf(e)),
        (-12.0f64..-0.3).prop_map(|e| 1.0 - 10f64.powf(e)),
        1e-6f64..(1.0 - 1e-12),
    ]
}

/// κ log-uniform over `[10⁻⁶, 10⁸]` plus edges.
fn kappas() -> impl Strategy<Value = f64> {
    prop_oneof![
        prop::sample::select(vec![1e-6, 1e-3, 1.0, 50.0, 1e5, 1e8]),
        (-6.0f64..8.0).prop_map(|e| 10f64.powf(e)),
    ]
}

/// `A_M'(κ)` by a central difference of the (relatively accurate) complement `1 − A_M`: good to
/// ~10⁻⁸, which is all a tolerance needs.
fn slope(dim: usize, kappa: f64) -> f64 {
    let h = 1e-4 * kappa;
    (vmf::mean_resultant_length_complement(dim, kappa - h)
        - vmf::mean_resultant_length_complement(dim, kappa + h))
        / (2.0 * h)
}

/// The residual of the estimating equation in the form each branch uses.
fn residual(dim: usize, rbar: f64, kappa: f64) -> f64 {
    if rbar <= 0.5 {
        vmf::mean_resultant_length(dim, kappa) - rbar
    } else {
        (1.0 - rbar) - vmf::mean_resultant_length_complement(dim, kappa)
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// Claim 1: κ̂ is the root to the resolution of f64.
    #[test]
    fn mle_is_the_root(dim in dims(), rbar in rbars()) {
        let k = vmf::kappa_mle(dim, rbar).unwrap();
        prop_assert!(k > 0.0 && k.is_finite());
        let below = residual(dim, rbar, k * (1.0 - 1e-13));
        let above = residual(dim, rbar, k * (1.0 + 1e-13));
        prop_assert!(below <= 0.0 && above >= 0.0,
            "M = {dim}, R̄ = {rbar}: κ̂ = {k}, residuals {below:e}, {above:e}");
    }

    /// Claim 2: round trip κ → A_M(κ) → κ̂.
    #[test]
    fn round_trip(dim in dims(), kappa in kappas()) {
        let rbar = vmf::mean_resultant_length(dim, kappa);
        prop_assume!(rbar < 1.0);
        let back = vmf::kappa_mle(dim, rbar).unwrap();
        let resolution = 0.5 * ulp(rbar) / (kappa * slope(dim, kappa));
        prop_assert!(
            (back - kappa).abs() <= (budget::KAPPA_ROUND_TRIP + 4.0 * resolution) * kappa,
            "M = {dim}, κ = {kappa}: κ̂ = {back}, relative {:e}, resolution {resolution:e}",
            (back - kappa).abs() / kappa
        );
        // Through the complement, which f64 resolves: tight everywhere.
        let delta = vmf::mean_resultant_length_complement(dim, kappa);
        if delta <= 0.5 && (1.0 - (1.0 - delta)) == delta {
            let back = vmf::kappa_mle(dim, 1.0 - delta).unwrap();
            prop_assert!((back - kappa).abs() <= budget::KAPPA_ROUND_TRIP * kappa,
                "complement round trip: M = {dim}, κ = {kappa}: {back}");
        }
    }

    /// Claim 3: Sra's two Newton steps reach the MLE for M ≥ 45.
    #[test]
    fn sra_two_steps_match_mle(dim in dims_two_steps(), rbar in rbars()) {
        let mle = vmf::kappa_mle(dim, rbar).unwrap();
        let sra2 = vmf::kappa_sra(dim, rbar, 2).unwrap();
        prop_assert!((sra2 - mle).abs() <= budget::KAPPA_SRA2 * mle,
            "M = {dim}, R̄ = {rbar}: Sra₂ {sra2}, MLE {mle}, relative {:e}", (sra2 - mle).abs() / mle);
    }

    /// Claim 3, corrected theorem: four steps reach the MLE for every M ≥ 2.
    #[test]
    fn sra_four_steps_match_mle(dim in dims(), rbar in rbars()) {
        let mle = vmf::kappa_mle(dim, rbar).unwrap();
        let sra4 = vmf::kappa_sra(dim, rbar, 4).unwrap();
        prop_assert!((sra4 - mle).abs() <= budget::KAPPA_SRA2 * mle,
            "M = {dim}, R̄ = {rbar}: Sra₄ {sra4}, MLE {mle}");
    }

    /// Claim 5: the MLE is increasing in R̄.
    #[test]
    fn mle_is_increasing(dim in dims(), rbar in rbars(), factor in 1.0f64..1.5) {
        let other = 1.0 - (1.0 - rbar) / factor;
        prop_assume!(other > rbar);
        prop_assert!(vmf::kappa_mle(dim, other).unwrap() > vmf::kappa_mle(dim, rbar).unwrap());
    }

    /// Claim 4: the fast complement 1 − A_M(κ) against the quadrature.
    #[test]
    fn complement_fast_matches_quadrature(dim in prop::sample::select(vec![2usize, 3, 10, 128, 2048, 20_000]),
                                          kappa in kappas()) {
        let fast = vmf::mean_resultant_length_complement(dim, kappa);
        let quad = vmf::exact::mean_resultant_length_complement(dim, kappa);
        check_at(COMPLEMENT, format_args!("M = {dim}, κ = {kappa}"), fast, quad);
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// Claim 4: fast against exact estimators (the exact ones cost quadratures per iterate).
    #[test]
    fn fast_matches_exact(dim in dims(), rbar in rbars()) {
        let exact = vmf::exact::kappa_mle(dim, rbar).unwrap();
        let fast = vmf::kappa_mle(dim, rbar).unwrap();
        check_at(MLE, format_args!("M = {dim}, R̄ = {rbar}"), fast, exact);
        for steps in 0..=2 {
            let e = vmf::exact::kappa_sra(dim, rbar, steps).unwrap();
            let f = vmf::kappa_sra(dim, rbar, steps).unwrap();
            check_at(SRA, format_args!("{steps} steps, M = {dim}, R̄ = {rbar}"), f, e);
        }
    }
}

/// `ulp(x)` for positive finite `x`.
fn ulp(x: f64) -> f64 {
    // `f64::next_up` is newer than the crate's MSRV (1.85); for positive finite x the next
    // double up is the next bit pattern.
    f64::from_bits(x.to_bits() + 1) - x
}

/// Claim 3: the error table of Banerjee (0), Sra κ̂₁ (1), κ̂₂ (2) and four steps against the MLE.
#[test]
fn sra_error_table() {
    let dims = [2usize, 3, 10, 44, 45, 100, 1_000, 10_000, 100_000];
    let rbars = [
        1e-6,
        0.1,
        0.3,
        0.5,
        0.7,
        0.716,
        0.87,
        0.9,
        0.99,
        0.999,
        1.0 - 1e-6,
        1.0 - 1e-12,
    ];
    println!("| M | R̄ | κ̂ (MLE) | Banerjee | 1 step | 2 steps | 4 steps |");
    println!("|---|---|---|---|---|---|---|");
    let mut worst = [0.0_f64; 4];
    for &dim in &dims {
        for &rbar in &rbars {
            let mle = vmf::kappa_mle(dim, rbar).unwrap();
            let err: Vec<f64> = [0, 1, 2, 4]
                .iter()
                .map(|&s| (vmf::kappa_sra(dim, rbar, s).unwrap() - mle).abs() / mle)
                .collect();
            println!(
                "| {dim} | {rbar} | {mle:.6e} | {:.1e} | {:.1e} | {:.1e} | {:.1e} |",
                err[0], err[1], err[2], err[3]
            );
            if dim >= 45 {
                assert!(
                    err[2] <= budget::KAPPA_SRA2,
                    "M = {dim}, R̄ = {rbar}: {err:?}"
                );
            }
            assert!(
                err[3] <= budget::KAPPA_SRA2,
                "M = {dim}, R̄ = {rbar}: {err:?}"
            );
            // Each Newton step improves on its start unless both are at rounding level.
            assert!(
                err[1] <= err[0].max(1e-14),
                "M = {dim}, R̄ = {rbar}: {err:?}"
            );
            assert!(
                err[2] <= err[1].max(1e-14),
                "M = {dim}, R̄ = {rbar}: {err:?}"
            );
            for s in 0..4 {
                worst[s] = worst[s].max(err[s]);
            }
        }
    }
    println!(
        "largest relative error: Banerjee {:.1e}, 1 step {:.1e}, 2 steps {:.1e}, 4 steps {:.1e}",
        worst[0], worst[1], worst[2], worst[3]
    );
}

/// Refutation (claim 3): two Sra steps miss the MLE by more than `KAPPA_SRA2` in low dimension.
/// Both sides from the reference twins (reference `A_M`; quadrature for `R̄ > ½`).
#[test]
fn refutation_sra_two_steps_in_low_dimension() {
    // (M, R̄): the worst R̄ of a 5·10⁻⁵ grid at M = 2, 3, 10 and 43.
    for (dim, rbar, at_least) in [
        (2usize, 0.8695, 2e-5),
        (3, 0.807, 5e-6),
        (10, 0.7345, 3e-8),
        (43, 0.7156, 1.05e-10),
    ] {
        let mle = vmf::exact::kappa_mle(dim, rbar).unwrap();
        let sra2 = vmf::exact::kappa_sra(dim, rbar, 2).unwrap();
        let err = (sra2 - mle).abs() / mle;
        assert!(
            err > budget::KAPPA_SRA2 && err > at_least,
            "M = {dim}, R̄ = {rbar}: {err:e}"
        );
        // The fast twins agree that the claim fails there.
        let fast =
            (vmf::kappa_sra(dim, rbar, 2).unwrap() - vmf::kappa_mle(dim, rbar).unwrap()).abs();
        assert!(fast / mle > budget::KAPPA_SRA2);
        // The corrected statement holds at the same points.
        let sra4 = vmf::exact::kappa_sra(dim, rbar, 4).unwrap();
        assert!((sra4 - mle).abs() <= budget::KAPPA_SRA2 * mle);
    }
}

/// Claim 1 against an independent closed form: `A_3(κ) = coth κ − 1/κ`.
#[test]
fn mle_m3_closed_form() {
    for &kappa in &[0.5_f64, 1.0, 2.0, 10.0, 100.0] {
        let rbar = 1.0 / kappa.tanh() - 1.0 / kappa;
        let k = vmf::kappa_mle(3, rbar).unwrap();
        let resolution =
            0.5 * ulp(rbar) / (kappa * (1.0 / (kappa * kappa) - 1.0 / kappa.sinh().powi(2)));
        assert!(
            (k - kappa).abs() <= (1e-14 + 4.0 * resolution) * kappa,
            "κ = {kappa}: {k}"
        );
    }
    // 1 − A_3(κ) = 1/κ for κ ≥ 40 (to e^{−80}): R̄ = 1 − 2⁻ᵏ gives κ = 2ᵏ exactly.
    for k in [10, 20, 30, 40] {
        let rbar = 1.0 - 2f64.powi(-k);
        let want = 2f64.powi(k);
        assert!((vmf::kappa_mle(3, rbar).unwrap() / want - 1.0).abs() < 1e-14);
    }
}

/// Claim 5: edges and bad input.
#[test]
fn edges_and_bad_input() {
    for &dim in &[2usize, 3, 1000] {
        assert_eq!(vmf::kappa_mle(dim, 0.0).unwrap(), 0.0);
        assert_eq!(vmf::exact::kappa_mle(dim, 0.0).unwrap(), 0.0);
        for steps in 0..3 {
            assert_eq!(vmf::kappa_sra(dim, 0.0, steps).unwrap(), 0.0);
            assert_eq!(vmf::exact::kappa_sra(dim, 0.0, steps).unwrap(), 0.0);
        }
        for bad in [
            1.0,
            1.5,
            -1e-300,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            assert!(vmf::kappa_mle(dim, bad).is_err(), "R̄ = {bad}");
            assert!(vmf::kappa_sra(dim, bad, 2).is_err(), "R̄ = {bad}");
            assert!(vmf::exact::kappa_mle(dim, bad).is_err(), "R̄ = {bad}");
        }
    }
    assert!(vmf::kappa_mle(1, 0.5).is_err());
    assert!(vmf::kappa_sra(0, 0.5, 1).is_err());
    // The largest R̄ below 1 still has an answer.
    let k = vmf::kappa_mle(3, 1f64.next_down()).unwrap();
    assert!(k.is_finite() && k > 1e15);
    // The smallest positive R̄: κ̂ ≈ M·R̄.
    let k = vmf::kappa_mle(10, 5e-324).unwrap();
    assert!(k > 0.0 && k < 1e-320);
}

/// Claim 4, complement against the double-double reference `A_M` where the latter resolves it
/// (`1 − A ≥ 10⁻¹⁰`: the pair carries ~106 bits).
#[test]
fn complement_matches_double_double_reference() {
    for &dim in &[2usize, 3, 10, 128, 2048] {
        for &kappa in &[0.1, 1.0, 10.0, 60.0, 100.0, 1e3, 1e4, 1e5] {
            let (hi, lo) = vmf::exact::mean_resultant_length_dd(dim, kappa);
            let reference = (1.0 - hi) - lo;
            let fast = vmf::mean_resultant_length_complement(dim, kappa);
            assert!(
                (fast - reference).abs() <= 1e-14 * reference,
                "M = {dim}, κ = {kappa}: {fast:e} vs {reference:e}"
            );
        }
    }
}

/// Claim 6: fast mean resultant against the compensated reference on vMF samples.
#[test]
fn mean_resultant_fast_matches_exact() {
    for &dim in &[2usize, 3, 10, 128, 512] {
        for (cell, &kappa) in [0.0, 0.5, 10.0, 1e3].iter().enumerate() {
            for &n in &[1usize, 7, 1000, 20_000] {
                let mut rng = ChaCha8Rng::seed_from_u64((dim * 1000 + cell * 10) as u64 + n as u64);
                let mut mu = vec![1.0; dim];
                let norm = (dim as f64).sqrt();
                mu.iter_mut().for_each(|v| *v /= norm);
                let vmf = VonMisesFisher::new(&mu, kappa).unwrap();
                let mut samples = Vec::with_capacity(n * dim);
                for _ in 0..n {
                    samples.extend(vmf.sample(&mut rng));
                }
                let fast = vmf::mean_resultant(&samples, dim).unwrap();
                let exact = vmf::exact::mean_resultant(&samples, dim).unwrap();
                // Condition number of the sum: ‖(Σ_i |x_ij|)_j‖ / ‖Σ x‖.
                let abs_sums: Vec<f64> = (0..dim)
                    .map(|j| samples.iter().skip(j).step_by(dim).map(|v| v.abs()).sum())
                    .collect();
                let cond =
                    abs_sums.iter().map(|v| v * v).sum::<f64>().sqrt() / (exact.rbar * n as f64);
                assert_eq!(fast.n, n);
                let case = format!("R̄ at M = {dim}, κ = {kappa}, n = {n}");
                check_with_magnitude(RESULTANT, case, fast.rbar, exact.rbar, cond * exact.rbar);
                let case = format!("μ̂ at M = {dim}, κ = {kappa}, n = {n}");
                check_slice_with_magnitude(
                    RESULTANT,
                    case,
                    &fast.direction,
                    &exact.direction,
                    cond,
                );
            }
        }
    }
}

/// Claim 6, statistics: `R̄ → A_M(κ)`, `μ̂ → μ`, and LAM's `1/κ̂₀`.
#[test]
fn mean_resultant_estimates_the_parameters() {
    let n = 20_000;
    for &dim in &[3usize, 10, 128] {
        for &kappa in &[2.0, 50.0] {
            let mut rng = ChaCha8Rng::seed_from_u64(31 * dim as u64 + kappa as u64);
            let mu: Vec<f64> = (0..dim).map(|j| if j == 1 { 1.0 } else { 0.0 }).collect();
            let vmf = VonMisesFisher::new(&mu, kappa).unwrap();
            let mut samples = Vec::with_capacity(n * dim);
            let mut w = Vec::with_capacity(n);
            for _ in 0..n {
                let x = vmf.sample(&mut rng);
                w.push(x[1]);
                samples.extend(x);
            }
            let mr = vmf::mean_resultant(&samples, dim).unwrap();
            // R̄ ≥ μᵀx̄ = mean of w, and R̄ − w̄ = O(1/n): judge w̄ against A_M in 6σ.
            let nf = n as f64;
            let mean = w.iter().sum::<f64>() / nf;
            let sigma =
                (w.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (nf - 1.0) / nf).sqrt();
            let a = vmf::exact::mean_resultant_length(dim, kappa);
            assert!((mean - a).abs() <= budget::MONTE_CARLO_SIGMAS * sigma);
            assert!(
                mr.rbar >= mean
                    && mr.rbar - mean <= budget::MONTE_CARLO_SIGMAS * sigma + (dim as f64) / nf
            );
            // μ̂ → μ: the tangent part t̄ of the sample mean has R̄² = w̄² + ‖t̄‖² exactly, and
            // n‖t̄‖²(M−1)/(1 − E w²) ~ χ²_{M−1}; Laurent–Massart: P(χ²_k > k + 2√(kx) + 2x) ≤ e^{−x}.
            let k = (dim - 1) as f64;
            let x = 20.0;
            let mean_sq = w.iter().map(|v| v * v).sum::<f64>() / nf;
            let tangent_sq = mr.rbar * mr.rbar - mean * mean;
            let bound = (k + 2.0 * (k * x).sqrt() + 2.0 * x) * (1.0 - mean_sq) / (k * nf);
            assert!(
                tangent_sq <= bound,
                "M = {dim}, κ = {kappa}: ‖t̄‖² = {tangent_sq:e} > {bound:e}"
            );
            assert!((mr.direction[1] - mean / mr.rbar).abs() < 1e-12);
            let u = vmf::lam_uncertainty(&samples, dim).unwrap();
            assert!((u * vmf::kappa_sra(dim, mr.rbar, 0).unwrap() - 1.0).abs() < 1e-14);
            let ue = vmf::exact::lam_uncertainty(&samples, dim).unwrap();
            assert!((u - ue).abs() <= 1e-12 * ue);
        }
    }
}

/// Claim 6, bad input.
#[test]
fn mean_resultant_bad_input() {
    assert!(vmf::mean_resultant(&[], 3).is_err());
    assert!(vmf::mean_resultant(&[1.0, 0.0, 0.0, 1.0], 3).is_err());
    assert!(vmf::mean_resultant(&[1.0], 1).is_err());
    assert!(vmf::mean_resultant(&[1.0, 1.0], 2).is_err());
    assert!(vmf::mean_resultant(&[f64::NAN, 1.0], 2).is_err());
    assert!(
        vmf::mean_resultant(&[1.0, 0.0, -1.0, 0.0], 2).is_err(),
        "Σx = 0"
    );
    assert!(
        vmf::exact::mean_resultant(&[1.0, 0.0, -1.0, 0.0], 2).is_err(),
        "Σx = 0"
    );
    assert_eq!(
        vmf::lam_uncertainty(&[1.0, 0.0, -1.0, 0.0], 2).unwrap(),
        f64::INFINITY
    );
    assert_eq!(vmf::lam_uncertainty(&[0.0, 1.0, 0.0, 1.0], 2).unwrap(), 0.0);
}

/// Torture run (ignored by default; `cargo test --release --test proofs -- vmf_kappa:: --ignored`):
/// claims 3 and 4 on a dense grid — every `M ≤ 200` and a log grid to `10⁵`, 400 values of `R̄`
/// per dimension spread over `[10⁻⁶, 1 − 10⁻¹²]` — and the fast MLE against the reference on
/// 500 seeded random cases.
#[test]
#[ignore]
fn torture_dense_grid() {
    let dim_grid: Vec<usize> = (2..=200)
        .chain((0..40).map(|i| (200.0 * 500f64.powf(i as f64 / 39.0)) as usize))
        .collect();
    let rbar_grid: Vec<f64> = (0..400)
        .map(|i| {
            let t = i as f64 / 399.0;
            if i % 2 == 0 {
                10f64.powf(-6.0 + 5.7 * t)
            } else {
                1.0 - 10f64.powf(-12.0 + 11.7 * t)
            }
        })
        .collect();
    let mut worst2: f64 = 0.0;
    for &dim in &dim_grid {
        for &rbar in &rbar_grid {
            let mle = vmf::kappa_mle(dim, rbar).unwrap();
            let e4 = (vmf::kappa_sra(dim, rbar, 4).unwrap() - mle).abs() / mle;
            assert!(
                e4 <= budget::KAPPA_SRA2,
                "four steps: M = {dim}, R̄ = {rbar}: {e4:e}"
            );
            if dim >= 45 {
                let e2 = (vmf::kappa_sra(dim, rbar, 2).unwrap() - mle).abs() / mle;
                assert!(
                    e2 <= budget::KAPPA_SRA2,
                    "two steps: M = {dim}, R̄ = {rbar}: {e2:e}"
                );
                worst2 = worst2.max(e2);
            }
        }
    }
    println!("largest two-step error for M ≥ 45: {worst2:.2e}");
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        failure_persistence: None,
        ..config(500)
    });
    runner
        .run(&(dims(), rbars()), |(dim, rbar)| {
            let exact = vmf::exact::kappa_mle(dim, rbar).unwrap();
            let fast = vmf::kappa_mle(dim, rbar).unwrap();
            check_at(MLE, format_args!("M = {dim}, R̄ = {rbar}"), fast, exact);
            Ok(())
        })
        .unwrap();
}
