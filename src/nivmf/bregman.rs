//! The Bregman divergence of the vMF log-partition function, the cancellation-free core of
//! `kl_vmf` and of the Bhattacharyya distance.
//!
//! With `Φ(κ) = −ln C_M(κ)` (the log-partition function of the vMF as a function of `‖ν‖`),
//! `Φ'(κ) = A_M(κ)` and `Φ''(κ) = A_M'(κ) > 0`, the divergence
//!
//! `B(a; b) = Φ(a) − Φ(b) − A_M(b)(a − b) = ∫_0^{a−b} (a − b − u) A_M'(b + u) du ≥ 0`
//!
//! (Taylor's theorem with integral remainder) is what both the KL divergence between vMFs and
//! the Bhattacharyya distance reduce to. Written as the difference of the two `ln C_M` values it
//! cancels badly when `a ≈ b`: at `M = 3`, `κ = 10⁴`, `a − b = 1` the terms are `~10⁴` and
//! `B ≈ 10⁻⁸`, so the `4·10⁻¹⁵` relative error of each `ln C_M` would swamp it. The integral form
//! has a positive integrand and no cancellation; it is evaluated by 10-point Gauss–Legendre with
//! `A_M'` from the cancellation-free `vmf` slope (Debye expansion for large κ).
//!
//! The integral form is used for `|a − b| ≤ R/2` when the difference would lose more than
//! `10⁻¹⁴` of `B` (estimated from the `ln C_M` budget and `A_M'(b)`), `R = √(b² + (ν+1)²)`, `ν = M/2 − 1`: `A_M'` is
//! analytic in a disc of radius `≥ R` about `b` (its poles are the zeros of `I_ν`, on the
//! imaginary axis beyond `j_{ν,1} > ν + 1`), so the Gauss–Legendre error is below
//! `(5.8)^{−20} ≈ 5·10⁻¹⁶` there. Farther apart, the two normalisers differ by at least a
//! sizeable fraction of themselves and the direct difference is accurate.

use crate::special::debye::{
    bessel_i_ratio_debye_lanes, DEBYE_LANES, DEBYE_LANES_MAX_ARGUMENT, DEBYE_MIN_ORDER,
};
use crate::vmf::{complement_and_slope, log_norm_const, mean_resultant_length};

/// Positive half of the 10-point Gauss–Legendre rule on `[−1, 1]` (Abramowitz & Stegun,
/// Table 25.4): nodes and weights.
#[allow(clippy::excessive_precision)]
const GAUSS_LEGENDRE_10: [(f64, f64); 5] = [
    (
        0.148_874_338_981_631_210_884_826_0,
        0.295_524_224_714_752_870_173_893_0,
    ),
    (
        0.433_395_394_129_247_190_799_265_9,
        0.269_266_719_309_996_355_091_226_9,
    ),
    (
        0.679_409_568_299_024_406_234_327_4,
        0.219_086_362_515_982_043_995_534_9,
    ),
    (
        0.865_063_366_688_984_510_732_096_7,
        0.149_451_349_150_580_593_145_776_3,
    ),
    (
        0.973_906_528_517_171_720_077_964_0,
        0.066_671_344_308_688_137_593_568_8,
    ),
];

/// Non-negative half of the 5-point Gauss–Legendre rule (A&S Table 25.4); the node 0 once.
#[allow(clippy::excessive_precision)]
const GAUSS_LEGENDRE_5: [(f64, f64); 3] = [
    (0.0, 0.568_888_888_888_888_888_888_888_9),
    (
        0.538_469_310_105_683_091_036_314_4,
        0.478_628_670_499_366_468_041_291_5,
    ),
    (
        0.906_179_845_938_663_992_797_626_9,
        0.236_926_885_056_189_087_514_264_0,
    ),
];

/// `A_M'(κ) = dA_M/dκ > 0`, relatively accurate for every `κ ≥ 0`.
///
/// For `κ ≤ M/4` it is `A_M (A_{M+2} − A_M + 1/κ)` (from `I'_{ν+1} = I_{ν+2} + (ν+1)I_{ν+1}/κ`),
/// where `A_M − A_{M+2} ≈ 2κ/M² ≤ 1/(8κ)·…` is small against `1/κ`, so nothing cancels; the
/// Riccati form `1 − A² − (M−1)A/κ` would lose a factor `M` there. Above, the `vmf` slope (Debye
/// expansion of `ln A_M` where `√(ν²+κ²) ≥ 50`, Riccati below) is used.
pub(crate) fn mean_resultant_slope(dim: usize, kappa: f64) -> f64 {
    let m = dim as f64;
    if kappa < 1e-150 {
        return 1.0 / m;
    }
    if 4.0 * kappa <= m {
        let a = mean_resultant_length(dim, kappa);
        let a_next = mean_resultant_length(dim + 2, kappa);
        return a * ((a_next - a) + kappa.recip());
    }
    complement_and_slope(dim, kappa).1
}

/// `B(a; b) = Φ(a) − Φ(b) − A_M(b)(a − b)` with `Φ = −ln C_M` (module docs); `a, b ≥ 0` finite.
pub(crate) fn log_partition_bregman(dim: usize, a: f64, b: f64) -> f64 {
    let delta = a - b;
    if delta == 0.0 {
        return 0.0;
    }
    let (log_c_a, log_c_b) = (log_norm_const(dim, a), log_norm_const(dim, b));
    let slope_term = mean_resultant_length(dim, b) * delta;
    let direct = (log_c_b - log_c_a) - slope_term;
    let radius = b.hypot(0.5 * dim as f64);
    if delta.abs() > 0.5 * radius {
        return direct;
    }
    // Near b the difference cancels. Its rounding error is at most the ln C_M budget
    // 4·10⁻¹⁵ on each summand; B is at least ~0.3·A_M'(b)δ²/2 here (A_M' varies by less than a
    // factor 3 within R/2). Keep the difference when that error is below 10⁻¹⁴ of B.
    let rounding = 4e-15 * (log_c_a.abs() + log_c_b.abs() + slope_term.abs());
    let lower = 0.15 * mean_resultant_slope(dim, b) * delta * delta;
    if rounding <= 1e-14 * lower.max(direct) {
        return direct;
    }
    // B = (δ²/4) ∫_{−1}^{1} (1 − x) A'(b + δ(1 + x)/2) dx by Gauss–Legendre: 10 points, or 5 where
    // |δ| ≤ R/8 (Bernstein ellipse ratio ≥ 28: error below 28⁻¹⁰ ≈ 3·10⁻¹⁵).
    let half = 0.5 * delta;
    let mid = b + half;
    let rule: &[(f64, f64)] = if delta.abs() <= 0.125 * radius {
        &GAUSS_LEGENDRE_5
    } else {
        &GAUSS_LEGENDRE_10
    };
    let mut sum = 0.0;
    for &(x, w) in rule {
        if x == 0.0 {
            sum += w * mean_resultant_slope(dim, mid);
            continue;
        }
        let right = mean_resultant_slope(dim, mid + half * x);
        let left = mean_resultant_slope(dim, mid - half * x);
        sum += w * ((1.0 - x) * right + (1.0 + x) * left);
    }
    half * half * sum
}

/// `A_M(κ)/κ`, continuous at `κ = 0` where it is `1/M` (the gradient of `ln C_M(‖ν‖)` is
/// `−(A_M(κ)/κ)ν`).
pub(crate) fn mean_resultant_over_kappa(dim: usize, kappa: f64) -> f64 {
    let m = dim as f64;
    if kappa * kappa < 1e-8 * m {
        // A_M = κ/M − κ³/(M²(M+2)) + O(κ⁵): the next term is below 10⁻¹⁶ relative here.
        return 1.0 / m - kappa * kappa / (m * m * (m + 2.0));
    }
    mean_resultant_length(dim, kappa) / kappa
}

/// [`mean_resultant_over_kappa`] at every `κ` of `kappas` (finite, `≥ 0`) into `out`, the same
/// values: for `ν = M/2 − 1 ≥ 20` the Bessel ratio goes through the vectorised Debye lanes
/// (bit-identical to the scalar ratio), else the scalar function per value.
pub(crate) fn mean_resultant_over_kappa_batch(dim: usize, kappas: &[f64], out: &mut [f64]) {
    let nu = 0.5 * dim as f64 - 1.0;
    if nu < DEBYE_MIN_ORDER {
        for (o, &k) in out.iter_mut().zip(kappas) {
            *o = mean_resultant_over_kappa(dim, k);
        }
        return;
    }
    let (mut x, mut ratio) = ([0.0; DEBYE_LANES], [0.0; DEBYE_LANES]);
    for (oc, kc) in out.chunks_mut(DEBYE_LANES).zip(kappas.chunks(DEBYE_LANES)) {
        for (xi, &k) in x.iter_mut().zip(kc) {
            *xi = k.min(DEBYE_LANES_MAX_ARGUMENT);
        }
        bessel_i_ratio_debye_lanes(nu, &x, &mut ratio);
        for ((o, r), xi) in oc.iter_mut().zip(&ratio).zip(&x) {
            *o = r / xi;
        }
    }
    // The small-κ series (and κ = 0) and κ > 10¹⁵⁰: the scalar function.
    let m = dim as f64;
    for (o, &k) in out.iter_mut().zip(kappas) {
        if k * k < 1e-8 * m || k > DEBYE_LANES_MAX_ARGUMENT {
            *o = mean_resultant_over_kappa(dim, k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slope_matches_closed_form_on_s2() {
        // M = 3: A = coth κ − 1/κ, A' = 1/κ² − 1/sinh²κ.
        for &k in &[1e-3_f64, 0.1, 0.7, 1.0, 5.0, 30.0, 300.0] {
            let want = 1.0 / (k * k) - 1.0 / k.sinh().powi(2);
            let want = if k < 1e-2 {
                1.0 / 3.0 - k * k / 15.0
            } else {
                want
            };
            let got = mean_resultant_slope(3, k);
            // Between κ = M/4 and the Debye region (√(ν²+κ²) ≥ 50) the slope is the Riccati form
            // 1 − A² − (M−1)A/κ, whose terms cancel by a factor ~κ²/M: at κ = 30 the few-ulp
            // error of A_3 becomes ~10⁻¹² relative (measured 1.0·10⁻¹²).
            let tol = if (0.75..50.0).contains(&k) {
                2e-12
            } else {
                1e-13
            };
            assert!((got / want - 1.0).abs() < tol, "κ = {k}: {got} vs {want}");
        }
    }

    #[test]
    fn bregman_is_the_difference_where_that_is_accurate() {
        for &(dim, a, b) in &[(3usize, 2.0, 5.0), (128, 40.0, 50.0), (512, 10.0, 30.0)] {
            let direct = (log_norm_const(dim, b) - log_norm_const(dim, a))
                - mean_resultant_length(dim, b) * (a - b);
            let got = log_partition_bregman(dim, a, b);
            assert!(
                (got - direct).abs() < 1e-12 * direct.abs().max(1.0),
                "{dim} {a} {b}"
            );
        }
    }
}
