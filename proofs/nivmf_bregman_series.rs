//! # The Taylor-series route of the vMF KL divergence near `κ_p = κ_z`
//!
//! `nivmf::kl_vmf` at `μ_p = μ_z` is the Bregman divergence of the log-partition function,
//! `B(κ_z + δ; κ_z) = Φ(κ_z + δ) − Φ(κ_z) − A_M(κ_z)δ` with `Φ = −ln C_M`. Near `δ = 0` it is
//! summed as the Taylor series `Σ_{n≥2} a_{n−1}δⁿ/n` of the Riccati recursion for the Taylor
//! coefficients `a_j` of `A_M` (module docs of `crates/probdml/src/vmf/bregman.rs`), on the domain
//! `|δ| ≤ κ/4`, `|δ| ≤ √(κ² + (M/2)²)/4` and `(2Ā + (M−1)/(κ − |δ|))|δ| ≤ L` (`Ā` Amos's upper
//! bound on `A_M(κ)`, `L = 3` for `M ≥ 42` and `M = 3`, `½` otherwise); farther out the
//! Gauss–Legendre integral
//! or the difference of normalisers. Claims:
//!
//! 1. **Against the 256-bit integral form.** For `M ∈ {2, 3, 4, 8, 64, 128, 512}`,
//!    `κ ∈ [10⁻³, 10⁵]`, `δ/κ` from `10⁻¹²` up to the switch point `δ*` (both signs), and at
//!    `δ*(1 ∓ 10⁻⁶)` on both sides of the switch, the fast KL is within `NIVMF_KL_NEAR`
//!    (relative) of `∫_0^δ (δ − u) A_M'(κ + u) du`, evaluated by Gauss–Legendre with
//!    `A_M' = A_M(A_{M+2} − A_M + 1/κ)` from the 256-bit ratios (`vmf::exact`, double-double
//!    pairs; the identity follows from `I'_{ν+1} = I_{ν+2} + (ν+1)I_{ν+1}/κ` and has no
//!    cancellation at double-double precision). Continuity: the fast values on the two sides of
//!    the switch stand in the ratio of the references to `2·NIVMF_KL_NEAR`.
//! 2. **Against the 256-bit closed form.** Where the closed form
//!    `ln C_M(κ_z) − ln C_M(κ_p) − A_M(κ_z)δ` summed in double-double from the 256-bit values is
//!    itself accurate (its error `2⁻¹⁰⁰(|ln C_z| + |ln C_p| + A|δ|)` below `10⁻¹⁵` of the value),
//!    the fast KL is within `NIVMF_KL_NEAR` of it, and so is the integral-form reference of
//!    claim 1 within `10⁻¹⁴` (the references agree).
//! 3. **Against the exact twin.** `nivmf::exact::kl_vmf` (sphere quadrature of `E_ζ[ln ζ/ρ]`)
//!    agrees within `QUADRATURE` (plus the twin's own absolute floor) on the same dimensions,
//!    `κ ∈ {10⁻³, 0.3, 1, 3, 10, 50, 10⁴}`, inside the series domain and at its edge, at angle 0
//!    and at a small angle that keeps `kl_vmf` on the series route.

// derivation: nivmf::kl_vmf

use probdml::nivmf;
use probdml::vmf;
use probdml_proofs::registry::budget;

const DIMS: [usize; 7] = [2, 3, 4, 8, 64, 128, 512];
const KAPPAS: [f64; 11] = [1e-3, 1e-2, 0.1, 1.0, 3.0, 10.0, 50.0, 300.0, 1e3, 1e4, 1e5];

/// Positive half of the 10-point Gauss–Legendre rule (A&S Table 25.4).
#[allow(clippy::excessive_precision)]
const GAUSS_LEGENDRE_10: [(f64, f64); 5] = [
    (0.148_874_338_981_631_210_9, 0.295_524_224_714_752_870_2),
    (0.433_395_394_129_247_190_8, 0.269_266_719_309_996_355_1),
    (0.679_409_568_299_024_406_2, 0.219_086_362_515_982_044_0),
    (0.865_063_366_688_984_510_7, 0.149_451_349_150_580_593_1),
    (0.973_906_528_517_171_720_1, 0.066_671_344_308_688_137_6),
];

/// The end of the series domain for `(M, κ)`: the largest `|δ|` it accepts (`crates/probdml/src/vmf/bregman.rs`:
/// `|δ| ≤ κ/4`, `|δ| ≤ √(κ² + (M/2)²)/4` and `(2Ā + (M−1)/(κ − |δ|))|δ| ≤ L` with Amos's bound
/// `Ā` on `A_M(κ)`, `L = 3` for `M ≥ 42` and `M = 3`, `½` otherwise), found by bisection on the
/// last test.
fn switch_point(dim: usize, kappa: f64) -> f64 {
    let (c, nu) = (dim as f64 - 1.0, 0.5 * dim as f64 - 1.0);
    let limit = if dim >= 42 || dim == 3 { 3.0 } else { 0.5 };
    let h = nu + 0.5;
    let a_upper = kappa / (h + h.hypot(kappa));
    let growth = |d: f64| (2.0 * a_upper + c / (kappa - d)) * d;
    let mut hi = (0.25 * kappa).min(0.25 * kappa.hypot(nu + 1.0));
    if growth(hi) > limit {
        let mut lo = 0.0;
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if growth(mid) <= limit {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        hi = lo;
    }
    hi
}

/// `A_M'(κ)` from the 256-bit ratios: `A_M (A_{M+2} − A_M + 1/κ)` with the bracket in
/// double-double (`1/κ` as an exact pair, the differences of close values exact by Sterbenz).
fn slope_256(dim: usize, kappa: f64) -> f64 {
    let (a, a_lo) = vmf::exact::mean_resultant_length_dd(dim, kappa);
    let (b, b_lo) = vmf::exact::mean_resultant_length_dd(dim + 2, kappa);
    let inv = 1.0 / kappa;
    let inv_lo = (-inv).mul_add(kappa, 1.0) / kappa;
    let bracket = ((b - a) + inv) + ((b_lo - a_lo) + inv_lo);
    (a + a_lo) * bracket
}

/// `B(κ + δ; κ) = ∫_0^δ (δ − u) A'(κ + u) du` by 10-point Gauss–Legendre on the 256-bit slope
/// (the integrand is analytic in a disc of radius `≥ 4|δ|` about the interval, so the rule's
/// error is below `10⁻²⁰` relative).
fn bregman_256(dim: usize, kappa: f64, delta: f64) -> f64 {
    let (half, mid) = (0.5 * delta, kappa + 0.5 * delta);
    let mut sum = 0.0;
    for &(x, w) in &GAUSS_LEGENDRE_10 {
        sum += w
            * ((1.0 - x) * slope_256(dim, mid + half * x)
                + (1.0 + x) * slope_256(dim, mid - half * x));
    }
    half * half * sum
}

/// The closed form in double-double from the 256-bit `ln C_M` and `A_M`, and a bound on its
/// own error.
fn bregman_closed_form_dd(dim: usize, kappa: f64, delta: f64) -> (f64, f64) {
    let (cz, czl) = vmf::exact::log_norm_const_dd(dim, kappa);
    let (cp, cpl) = vmf::exact::log_norm_const_dd(dim, kappa + delta);
    let (a, al) = vmf::exact::mean_resultant_length_dd(dim, kappa);
    let p = a * delta;
    let e = a.mul_add(delta, -p);
    let value = ((cz - cp) - p) + ((czl - cpl) - e - al * delta);
    let error = 2f64.powi(-100) * (cz.abs() + cp.abs() + p.abs());
    (value, error)
}

/// `δ` values for `(M, κ)`: `δ/κ ∈ {10⁻¹², 10⁻⁹, 10⁻⁶, 10⁻⁴, 10⁻²}` below the switch point, the
/// middle of the domain, and the two sides of the switch; each rounded so that `κ + δ − κ = δ`.
fn deltas(dim: usize, kappa: f64) -> Vec<(f64, &'static str)> {
    let edge = switch_point(dim, kappa);
    let mut out = Vec::new();
    for rel in [1e-12, 1e-9, 1e-6, 1e-4, 1e-2] {
        if rel * kappa < edge {
            out.push((rel * kappa, "inside"));
        }
    }
    out.push((0.5 * edge, "inside"));
    out.push((edge * (1.0 - 1e-6), "just inside"));
    out.push((edge * (1.0 + 1e-6), "just outside"));
    let mut signed = Vec::new();
    for (d, tag) in out {
        for s in [1.0, -1.0] {
            let exact = (kappa + s * d) - kappa;
            signed.push((exact, tag));
        }
    }
    signed
}

fn fast_bregman(dim: usize, kappa: f64, delta: f64) -> f64 {
    let mu = unit(dim);
    nivmf::kl_vmf(&mu, kappa, &mu, kappa + delta).unwrap()
}

/// A unit vector with every coordinate used.
fn unit(dim: usize) -> Vec<f64> {
    let v: Vec<f64> = (0..dim).map(|i| ((i as f64) * 0.7 + 0.3).sin()).collect();
    let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    v.iter().map(|x| x / n).collect()
}

/// Claims 1 and 2 on the grid, with continuity across the switch.
#[test]
fn series_route_matches_the_256_bit_references() {
    let (mut worst_series, mut worst_outside, mut worst_dd): (f64, f64, f64) = (0.0, 0.0, 0.0);
    let mut worst_by_dim = [0.0_f64; DIMS.len()];
    let mut checked_dd = 0;
    for (slot, &dim) in DIMS.iter().enumerate() {
        for &kappa in &KAPPAS {
            let mut sides: Vec<(f64, f64, f64)> = Vec::new(); // (δ, fast, reference) at the switch
            for (delta, tag) in deltas(dim, kappa) {
                let got = fast_bregman(dim, kappa, delta);
                let want = bregman_256(dim, kappa, delta);
                let err = (got - want).abs() / want;
                if tag == "just outside" {
                    worst_outside = worst_outside.max(err);
                } else {
                    worst_series = worst_series.max(err);
                    worst_by_dim[slot] = worst_by_dim[slot].max(err);
                }
                assert!(
                    err <= budget::NIVMF_KL_NEAR,
                    "M = {dim}, κ = {kappa}, δ = {delta} ({tag}): fast {got}, 256-bit integral {want}"
                );
                if tag.starts_with("just") {
                    sides.push((delta, got, want));
                }
                let (closed, closed_error) = bregman_closed_form_dd(dim, kappa, delta);
                if closed_error <= 1e-15 * closed {
                    checked_dd += 1;
                    let err = (got - closed).abs() / closed;
                    worst_dd = worst_dd.max(err);
                    assert!(
                        err <= budget::NIVMF_KL_NEAR,
                        "M = {dim}, κ = {kappa}, δ = {delta}: fast {got}, closed form {closed}"
                    );
                    assert!(
                        (want - closed).abs() <= 1e-14 * closed,
                        "references disagree: M = {dim}, κ = {kappa}, δ = {delta}: {want} vs {closed}"
                    );
                }
            }
            // Continuity: same sign pairs (inside, outside) in the order generated.
            for pair in sides.chunks(4) {
                for s in 0..2 {
                    let (inside, outside) = (pair[s], pair[s + 2]);
                    let fast_ratio = outside.1 / inside.1;
                    let reference_ratio = outside.2 / inside.2;
                    assert!(
                        (fast_ratio / reference_ratio - 1.0).abs() <= 2.0 * budget::NIVMF_KL_NEAR,
                        "jump at the switch: M = {dim}, κ = {kappa}, δ = {} / {}",
                        inside.0,
                        outside.0
                    );
                }
            }
        }
    }
    assert!(
        checked_dd > 100,
        "closed form usable at only {checked_dd} points"
    );
    println!(
        "series route: largest relative error {worst_series:.1e} (beyond the switch \
         {worst_outside:.1e}); against the closed form {worst_dd:.1e} at {checked_dd} points"
    );
    for (dim, worst) in DIMS.iter().zip(&worst_by_dim) {
        println!("  M = {dim}: largest relative error {worst:.1e}");
    }
}

/// Claim 3: the exact twin (quadrature), inside the series domain. The twin asks its driver for
/// `10⁻¹³` relative or `10⁻¹²·(|Δ ln C| + κ_z + κ_p)` absolute (its documented floor, from the
/// rounding of the integrand), so it resolves a KL of `~10⁻¹⁶` at `κ = 10⁴` only to that floor:
/// the check is `|fast − quadrature| ≤ QUADRATURE·quadrature + floor`, and the points where the
/// floor is below `QUADRATURE·KL` (where the check has its full strength) are counted.
#[test]
fn series_route_matches_the_quadrature_twin() {
    let (mut worst, mut informative): (f64, usize) = (0.0, 0);
    for &dim in &DIMS {
        for &kappa in &[1e-3, 0.3, 1.0, 3.0, 10.0, 50.0, 1e4] {
            let edge = switch_point(dim, kappa);
            let mu = unit(dim);
            for rel in [1e-6, 0.5, 1.0] {
                let delta = (kappa + rel * edge) - kappa;
                let kp = kappa + delta;
                // A second direction at the angle ω with κ_p(1 − cos ω) ≈ |δ|/8: the angle term
                // is a sizeable part of the KL, and the direct route of `kl_vmf` (which needs
                // κ_p(1 − cos ω) ≥ |δ|/2) stays out, so B still comes from the series.
                let omega = (0.25 * delta.abs() / kp).sqrt();
                let (cos, sin) = (omega.cos(), omega.sin());
                let mut tilted = mu.clone();
                tilted[0] = cos * mu[0] - sin * mu[1];
                tilted[1] = sin * mu[0] + cos * mu[1];
                let spread = (vmf::log_norm_const(dim, kp) - vmf::log_norm_const(dim, kappa)).abs();
                let floor = 1e-12 * (spread + kappa + kp);
                for mu_p in [&mu, &tilted] {
                    let got = nivmf::kl_vmf(&mu, kappa, mu_p, kp).unwrap();
                    let want = nivmf::exact::kl_vmf(&mu, kappa, mu_p, kp).unwrap();
                    assert!(
                        (got - want).abs() <= budget::QUADRATURE * want + floor,
                        "M = {dim}, κ = {kappa}, δ = {delta}: fast {got}, quadrature {want}"
                    );
                    if floor <= budget::QUADRATURE * want {
                        informative += 1;
                        worst = worst.max((got - want).abs() / want);
                    }
                }
            }
        }
    }
    assert!(informative >= 16, "only {informative} informative points");
    println!(
        "series route against quadrature: largest relative error {worst:.1e} at the \
         {informative} points above the quadrature floor"
    );
}
