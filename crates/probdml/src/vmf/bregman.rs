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
//! `B ≈ 10⁻⁸`, so the `4·10⁻¹⁵` relative error of each `ln C_M` would swamp it. Three routes, in
//! this order:
//!
//! ## 1. Taylor series in `δ = a − b` (near the expansion point)
//!
//! `B = Σ_{n≥2} Φ^{(n)}(b) δⁿ/n! = Σ_{n≥2} a_{n−1} δⁿ/n`, where `a_j = A^{(j)}(b)/j!` are the
//! Taylor coefficients of `A = A_M` at `κ = b`. They follow from the Riccati equation
//! `A' = 1 − A² − (M−1)A/κ` (from `I_ν' = I_{ν+1} + νI_ν/κ`), written `(κ+t)A'(κ+t) =
//! (κ+t)(1 − A²) − cA` with `c = M − 1` and compared coefficient by coefficient in `t`:
//!
//! * `a_0 = A`, `a_1 = A'`, both computed directly and relatively accurately (for `M ≥ 42` by
//!   the Debye expansion of the ratio and its derivative, `special/debye.rs`; below by
//!   [`mean_resultant_slope`]);
//! * `a_2 = −a_0 a_1 + c (a_0/κ − a_1)/(2κ)` (the `t¹` coefficient, with `1 − a_0² = a_1 +
//!   c a_0/κ` substituted so that the cancelling `1 − A²` is never formed);
//! * `a_{n+1} = −(κ s_n + s_{n−1} + (c + n) a_n) / (κ(n+1))` for `n ≥ 2`, with
//!   `s_n = Σ_{j=0}^{n} a_j a_{n−j}` the coefficients of `A²`.
//!
//! **Remainder.** `A_M(z) = I_{ν+1}(z)/I_ν(z) = Σ_{k≥1} 2z/(z² + j_{ν,k}²)` (the Mittag-Leffler
//! expansion of `J_{ν+1}/J_ν` at `z → iz`; Watson §15.41), so with `w_k = b ± i j_{ν,k}` the
//! coefficients are `a_n = Σ_k Σ_± (−1)ⁿ w_k^{−(n+1)}` and, for `n ≥ 1`,
//! `|a_n| ≤ R^{1−n} Σ_k 2/|w_k|² = R^{1−n} A(b)/b`, `R = √(b² + j_{ν,1}²) ≥ R₁ = √(b² + (ν+1)²)`
//! (`j_{ν,1} > ν + 1`: `j_{0,1} = 2.40…`, `j_{ν,1}` increases with `ν`, and `j_{ν,1} > ν +
//! 1.855 ν^{1/3}` for `ν > 0`, Qu & Wong 1999). With `q = |δ|/R₁ < 1` the terms beyond `n = m`
//! sum to at most `(A/b) R₁² q^{m+1} / ((m+1)(1 − q))`; the series stops at the first `m` where
//! that is below `10⁻¹⁷` of the partial sum (an explicit bound, not an estimate).
//!
//! **Rounding.** The recursion is a forward recurrence of the Riccati equation, whose
//! linearisation `e' = −(2A + c/(κ+t)) e` has the solutions `e(t) ∝ e^{−∫(2A + c/(κ+u))du}`:
//! an error injected into the coefficients (or carried by the input `a_1 = A'`) is amplified in
//! the sum by at most `e^G` with the growth exponent `G = (2A + c/(b − |δ|))|δ|` (`A` increases,
//! so `A(b)` bounds it on `t ≥ 0` and over-estimates it on `t < 0`). The step for `a_2` cancels
//! by a factor `~κ` for `κ ≫ M` and `~M` for `κ ≪ M`, which the extra power of `δ` in its term
//! repays. The series is therefore used on the domain
//!
//! `|δ| ≤ b/4,   G ≤ L,   |δ| ≤ R₁/4`,
//!
//! with `A` replaced by its upper bound `b/(ν + ½ + √((ν+½)² + b²))` (Amos 1974) so that the
//! test costs no Bessel ratio, `L = 3` where `A'` is accurate to a few ulps (`M ≥ 42`, and
//! `M = 3` with its closed form: `|δ| ≲ 1.5` for `b ≫ M`, `|δ| ≲ 3b/M` for `b ≪ M`; `δ = ½` at
//! `M = 128`, `b = 50`, `G = 1.6`) and `L = ½` for the other `M < 42`, where `A'` from
//! [`mean_resultant_slope`] can carry `~10⁻¹³` in its Riccati band and a larger growth would
//! multiply that (measured: `3·10⁻¹³` at `M = 2`, `b = 10`, `δ = −1.4` with `L = 3`, against
//! `4·10⁻¹⁴` for the integral form). On the domain the error is that of `A'` times at most
//! `e^L`, as `proofs/nivmf_bregman_series.rs` measures against the 256-bit integral and closed
//! forms and the sphere quadrature (largest relative error `7.5·10⁻¹⁶` at `M = 3`, `1.4·10⁻¹⁵`
//! at `M = 128`, `1.4·10⁻¹³` at `M = 2`). The cost is one evaluation of `(A, A')` and a few
//! multiply-adds per term (eight terms at `M = 128`, `κ = 50`, `δ = ½`).
//!
//! ## 2. Gauss–Legendre on the integral form
//!
//! Outside the series' domain but within `|δ| ≤ R/2` with `R = √(b² + (M/2)²)`, when the
//! difference would lose more than `10⁻¹⁴` of `B` (estimated from the `ln C_M` budget and
//! `A_M'(b)`): `A_M'` is analytic in a disc of radius `≥ R` about `b` (its poles are the zeros of
//! `I_ν`, on the imaginary axis beyond `j_{ν,1} > ν + 1`), so the Gauss–Legendre error is below
//! `(5.8)^{−20} ≈ 5·10⁻¹⁶` there; the integrand is positive, so nothing cancels.
//!
//! ## 3. The difference
//!
//! Farther apart, the two normalisers differ by at least a sizeable fraction of themselves and
//! the direct difference `Φ(a) − Φ(b) − A(b)δ` is accurate.

use super::{complement_and_slope, log_norm_const, mean_resultant_length};
use crate::special::debye::bessel_i_ratio_and_slope_debye;
use crate::special::debye::{
    bessel_i_ratio_debye_lanes, DEBYE_LANES, DEBYE_LANES_MAX_ARGUMENT, DEBYE_MIN_ORDER,
};
use crate::special::x_minus_ln1p;

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
/// Riccati form `1 − A² − (M−1)A/κ` would lose a factor `M` there. Above, at `M = 3`, the closed
/// form `A_3' = 1/κ² − 1/sinh²κ = 1/κ² − 4e^{−2κ}/(1 − e^{−2κ})²` (the derivative of the
/// Langevin function `coth κ − 1/κ`), whose two terms cancel by at most a factor 2.5 for
/// `κ > ¾`; otherwise the `vmf` slope (Debye expansion of `ln A_M` where `√(ν²+κ²) ≥ 50`,
/// Riccati below, which can lose `~10⁻¹³` relative for small `M` and `κ` near 10–50).
///
/// It chooses its instruction set itself, as [`log_partition_bregman`] does.
pub(crate) fn mean_resultant_slope(dim: usize, kappa: f64) -> f64 {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || mean_resultant_slope_kernel(dim, kappa),
    )
}

/// [`mean_resultant_slope`] in the caller's instruction set.
#[inline(always)]
fn mean_resultant_slope_kernel(dim: usize, kappa: f64) -> f64 {
    let m = dim as f64;
    if kappa < 1e-150 {
        return 1.0 / m;
    }
    if 4.0 * kappa <= m {
        let a = mean_resultant_length(dim, kappa);
        let a_next = mean_resultant_length(dim + 2, kappa);
        return a * ((a_next - a) + kappa.recip());
    }
    if dim == 3 {
        let e = (-2.0 * kappa).exp();
        let one_minus_e = -(-2.0 * kappa).exp_m1();
        let inv = kappa.recip();
        return inv * inv - 4.0 * e / (one_minus_e * one_minus_e);
    }
    complement_and_slope(dim, kappa).1
}

/// Whether [`mean_resultant_slope`] is accurate to a few ulps for every `κ` (no Riccati band):
/// `M = 3` (closed form) and `ν ≥ 20` (the Debye slope of [`mean_resultant_and_slope`]).
fn slope_is_accurate(dim: usize) -> bool {
    dim == 3 || 0.5 * dim as f64 - 1.0 >= DEBYE_MIN_ORDER
}

/// `B(a; b) = Φ(a) − Φ(b) − A_M(b)(a − b)` with `Φ = −ln C_M` (module docs); `a, b ≥ 0` finite.
///
/// Too large to inline into every caller, it chooses its instruction set itself: its series
/// recursion and quadrature are chains of fused multiply-adds, each a call to compiler-builtins' `fma`
/// in the baseline copy.
pub(crate) fn log_partition_bregman(dim: usize, a: f64, b: f64) -> f64 {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || log_partition_bregman_kernel(dim, a, b),
    )
}

/// [`log_partition_bregman`] in the caller's instruction set.
#[inline(always)]
fn log_partition_bregman_kernel(dim: usize, a: f64, b: f64) -> f64 {
    let delta = a - b;
    if delta == 0.0 {
        return 0.0;
    }
    if let Some(series) = bregman_series(dim, b, delta) {
        return series;
    }
    let (log_c_a, log_c_b) = (log_norm_const(dim, a), log_norm_const(dim, b));
    let slope_term = mean_resultant_length(dim, b) * delta;
    let direct = (log_c_b - log_c_a) - slope_term;
    let radius = b.hypot(0.5 * dim as f64);
    if delta.abs() > 0.5 * radius {
        return direct;
    }
    if b > SERIES_MAX_ARGUMENT {
        // Past the series, near b: the difference cancels to nothing and the quadrature of A'
        // would underflow A' ≈ (ν + ½)/κ² while δ² overflows (NaN from ∞·0 near κ = 10¹⁵⁵).
        // With ln I_ν(κ) = κ − ½ln(2πκ) + O(ν²/κ) and A_M(κ) = 1 − (ν + ½)/κ + O(ν²/κ²),
        // B(a; b) = (ν + ½)(t − ln(1 + t)), t = δ/b, to relative O(ν²/b) < 10⁻¹³⁰.
        return (0.5 * dim as f64 - 0.5) * x_minus_ln1p(delta / b);
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

/// `(A_M(κ), A_M'(κ))` for `κ > 0` finite, both relatively accurate: for `ν = M/2 − 1 ≥ 20`
/// from one Debye expansion of the ratio and its derivative (the same `A_M` as
/// [`mean_resultant_length`]), else [`mean_resultant_length`] and [`mean_resultant_slope`].
#[inline(always)]
pub(crate) fn mean_resultant_and_slope(dim: usize, kappa: f64) -> (f64, f64) {
    let nu = 0.5 * dim as f64 - 1.0;
    if nu >= DEBYE_MIN_ORDER {
        return bessel_i_ratio_and_slope_debye(nu, kappa);
    }
    (
        mean_resultant_length(dim, kappa),
        mean_resultant_slope(dim, kappa),
    )
}

/// Most coefficients the series may use; on its domain (`q ≤ 1/4`) the remainder bound is met
/// by `m ≈ 30` at worst (`M = 2`, `κ ≈ 1`), about 8 at `M = 128`, `κ = 50`, `δ = ½`.
const SERIES_MAX_TERMS: usize = 48;

/// `1/n` for `n ≤ SERIES_MAX_TERMS` (entry 0 unused): multiplications instead of divisions in
/// the recursion, whose steps depend on each other.
const RECIPROCALS: [f64; SERIES_MAX_TERMS + 1] = {
    let mut r = [0.0; SERIES_MAX_TERMS + 1];
    let mut n = 1;
    while n <= SERIES_MAX_TERMS {
        r[n] = 1.0 / n as f64;
        n += 1;
    }
    r
};

/// The series stops when its remainder bound is below this fraction of the partial sum.
const SERIES_TOLERANCE: f64 = 1e-17;

/// The bound `L` on the growth exponent `(2A + c/(b − |δ|))|δ|` of rounding errors (module
/// docs) for `M ≥ 42` and `M = 3`, where `A'` is accurate to a few ulps.
const SERIES_GROWTH_LIMIT: f64 = 3.0;

/// `L` for the other `M < 42`, where `A'` may carry `~10⁻¹³` (the Riccati band of
/// [`mean_resultant_slope`]) and the growth would multiply it: kept near 1 there.
const SERIES_GROWTH_LIMIT_LOW_ORDER: f64 = 0.5;

/// Beyond this `b` the series is not used (`b²` stays finite in the domain tests).
const SERIES_MAX_ARGUMENT: f64 = 1e150;

/// Below this `b` neither (`1/b` and the coefficients stay finite).
const SERIES_MIN_ARGUMENT: f64 = 1e-150;

/// Route 1 of the module docs: `B(b + δ; b) = Σ_{n≥2} a_{n−1}δⁿ/n` with the Riccati
/// recursion for the Taylor coefficients `a_j` of `A_M` at `b`, or `None` outside the domain
/// `|δ| ≤ b/4`, `(2A + (M−1)/(b − |δ|))|δ| ≤ L`, `|δ| ≤ R₁/4` (or if the remainder bound is
/// not met within [`SERIES_MAX_TERMS`]).
#[inline(always)]
fn bregman_series(dim: usize, b: f64, delta: f64) -> Option<f64> {
    let c = dim as f64 - 1.0;
    let nu = 0.5 * dim as f64 - 1.0;
    let d = delta.abs();
    // Written so that NaN fails; b = 0 and subnormal b (whose reciprocal overflows) are left
    // to the other routes.
    if !(4.0 * d <= b && (SERIES_MIN_ARGUMENT..=SERIES_MAX_ARGUMENT).contains(&b)) {
        return None;
    }
    let radius = (nu + 1.0).mul_add(nu + 1.0, b * b).sqrt();
    // Amos (1974): A_M(b) ≤ b/(ν + ½ + √((ν + ½)² + b²)).
    let h = nu + 0.5;
    let a_upper = b / (h + h.mul_add(h, b * b).sqrt());
    let limit = if slope_is_accurate(dim) {
        SERIES_GROWTH_LIMIT
    } else {
        SERIES_GROWTH_LIMIT_LOW_ORDER
    };
    if !((2.0 * a_upper + c / (b - d)) * d <= limit && 4.0 * d <= radius) {
        return None;
    }
    let q = d / radius;
    let inv_b = b.recip();
    let (a0, a1) = mean_resultant_and_slope(dim, b);
    let mut coef = [0.0_f64; SERIES_MAX_TERMS];
    coef[0] = a0;
    coef[1] = a1;
    coef[2] = -a0 * a1 + c * (a0 * inv_b - a1) * (0.5 * inv_b);
    // |T_n| ≤ (A/b)R₁² qⁿ/n for the term T_n = a_{n−1}δⁿ/n (module docs), so
    // Σ_{n>m} |T_n| ≤ majorant·q^{m+1}/(m+1).
    let majorant = a0 * inv_b * radius * radius / (1.0 - q);
    let mut power = delta * delta * delta; // δ^{m+1}
    let mut q_power = q * q * q; // q^{m+1}
                                 // T_2 + T_3.
    let mut sum = 0.5 * a1 * delta * delta + coef[2] * power * RECIPROCALS[3];
    // s_{m−2}, the t^{m−2} coefficient of A², for the step to a_m.
    let two_a0 = 2.0 * a0;
    let mut s_before = two_a0 * a1;
    for m in 3..SERIES_MAX_TERMS {
        q_power *= q;
        if majorant * q_power <= SERIES_TOLERANCE * (m + 1) as f64 * sum {
            return Some(sum);
        }
        // a_m from the t^{m−1} coefficient of the Riccati equation (n = m − 1 ≥ 2):
        // a_m = −(b s_n + s_{n−1} + (c + n) a_n)/(b m) with s_n = 2a_0 a_n + inner_n,
        // inner_n = Σ_{j=1}^{n−1} a_j a_{n−j}; grouped as −(a_n(2a_0 + (c+n)/b) + inner_n +
        // s_{n−1}/b)/m so that only one multiply-add per step waits on a_n.
        let n = m - 1;
        let mut inner = 0.0;
        for j in 1..n.div_ceil(2) {
            inner = coef[j].mul_add(coef[n - j], inner);
        }
        inner *= 2.0;
        if n % 2 == 0 {
            inner = coef[n / 2].mul_add(coef[n / 2], inner);
        }
        let rest = s_before.mul_add(inv_b, inner);
        let factor = (c + n as f64).mul_add(inv_b, two_a0);
        coef[m] = -coef[n].mul_add(factor, rest) * RECIPROCALS[m];
        s_before = two_a0.mul_add(coef[n], inner);
        power *= delta;
        sum += coef[m] * power * RECIPROCALS[m + 1];
    }
    None
}

/// `A_M(κ)/κ`, continuous at `κ = 0` where it is `1/M` (the gradient of `ln C_M(‖ν‖)` is
/// `−(A_M(κ)/κ)ν`).
#[inline(always)]
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
/// (bit-identical to the scalar ratio), else the scalar function per value. Its lanes are fused
/// multiply-adds: it chooses its instruction set itself.
pub(crate) fn mean_resultant_over_kappa_batch(dim: usize, kappas: &[f64], out: &mut [f64]) {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || mean_resultant_over_kappa_batch_in_place(dim, kappas, out),
    )
}

/// [`mean_resultant_over_kappa_batch`] in the caller's instruction set.
#[inline(always)]
fn mean_resultant_over_kappa_batch_in_place(dim: usize, kappas: &[f64], out: &mut [f64]) {
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

    /// The series answers only inside its documented domain: at M = 128, b = 10 the growth
    /// exponent (2A + (M−1)/(b − |δ|))|δ| passes L = 3 near |δ| = 0.23; just beyond (with the true
    /// A, smaller than the Amos bound the code uses) it is `None`, inside it is a value.
    #[test]
    fn series_is_used_only_inside_its_domain() {
        let (dim, b) = (128usize, 10.0);
        let a = crate::vmf::mean_resultant_length(dim, b);
        let growth = |d: f64| (2.0 * a + (dim as f64 - 1.0) / (b - d)) * d;
        for d in [0.2, 0.235] {
            for delta in [d, -d] {
                let got = bregman_series(dim, b, delta);
                if growth(d) > SERIES_GROWTH_LIMIT {
                    assert!(got.is_none(), "δ = {delta}: growth {} > L", growth(d));
                } else {
                    assert!(got.is_some(), "δ = {delta}: growth {} ≤ L", growth(d));
                }
            }
        }
        assert!(growth(0.235) > SERIES_GROWTH_LIMIT && growth(0.2) < SERIES_GROWTH_LIMIT);
    }

    #[test]
    fn slope_matches_the_256_bit_identity_on_s2() {
        // M = 3 against A_3(A_5 − A_3 + 1/κ) with the 256-bit ratios, the bracket in
        // double-double (the cancellation in it costs nothing at that precision).
        for &k in &[
            1e-3_f64, 0.1, 0.7, 0.75, 0.76, 1.0, 5.0, 10.0, 30.0, 300.0, 1e4,
        ] {
            let (a, a_lo) = crate::vmf::exact::mean_resultant_length_dd(3, k);
            let (b, b_lo) = crate::vmf::exact::mean_resultant_length_dd(5, k);
            let inv = 1.0 / k;
            let inv_lo = (-inv).mul_add(k, 1.0) / k;
            let want = (a + a_lo) * (((b - a) + inv) + ((b_lo - a_lo) + inv_lo));
            let got = mean_resultant_slope(3, k);
            assert!((got / want - 1.0).abs() < 4e-15, "κ = {k}: {got} vs {want}");
        }
    }

    #[test]
    fn debye_slope_matches_the_complement_route() {
        // M ≥ 42: the slope from the derivative of the Debye ratio against the slope of
        // `complement_and_slope` (Debye expansion of ln A, its own closed-form derivative), and
        // the ratio bit for bit against `mean_resultant_length`.
        for &dim in &[42usize, 128, 512, 4096] {
            for &k in &[1e-3_f64, 0.5, 10.0, 50.0, 300.0, 1e4, 1e7] {
                let (a, slope) = mean_resultant_and_slope(dim, k);
                assert_eq!(a.to_bits(), mean_resultant_length(dim, k).to_bits());
                let want = mean_resultant_slope(dim, k);
                assert!(
                    (slope / want - 1.0).abs() < 1e-14,
                    "M = {dim}, κ = {k}: {slope} vs {want}"
                );
            }
        }
    }

    #[test]
    fn series_agrees_with_the_integral_form() {
        // The Taylor route against route 2 (Gauss–Legendre on ∫(δ − u)A'(b + u)du), computed
        // here directly with the 10-point rule, inside the series' domain.
        for &(dim, b, delta) in &[
            (128usize, 50.0, 0.5),
            (128, 50.0, -0.5),
            (3, 1e4, 0.2),
            (2, 1.0, 0.15),
            (512, 1e-3, 1e-6),
            (8, 3.0, -0.1),
        ] {
            let got = bregman_series(dim, b, delta).expect("inside the series domain");
            let (half, mid) = (0.5 * delta, b + 0.5 * delta);
            let mut sum = 0.0;
            for &(x, w) in &GAUSS_LEGENDRE_10 {
                sum += w
                    * ((1.0 - x) * mean_resultant_slope(dim, mid + half * x)
                        + (1.0 + x) * mean_resultant_slope(dim, mid - half * x));
            }
            let want = half * half * sum;
            assert!(
                (got / want - 1.0).abs() < 1e-12,
                "M = {dim}, b = {b}, δ = {delta}: {got} vs {want}"
            );
        }
        // Outside the domain: none.
        assert!(bregman_series(128, 50.0, 20.0).is_none());
        assert!(bregman_series(3, 0.0, 1e-3).is_none());
        assert!(bregman_series(3, 1e-310, 1e-312).is_none());
        assert!(bregman_series(3, f64::NAN, 1e-3).is_none());
        // Tiny κ and δ (A ≈ κ/M, A' ≈ 1/M): B ≈ δ²/(2M).
        let b = bregman_series(64, 1e-100, 1e-103).expect("inside");
        assert!((b / (0.5e-206 / 64.0) - 1.0).abs() < 1e-14, "{b}");
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
