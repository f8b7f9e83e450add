//! The uniform asymptotic (Debye) expansion of I_ν for large order (A&S 9.7.7, 9.7.9;
//! DLMF 10.41.3–4), used for ν ≥ 20 and every x ≥ 0:
//!
//!   I_ν(νz) ~ e^{νη} / (√(2πν) (1 + z²)^{1/4}) · Σ_{k≥0} U_k(p) / ν^k,
//!   I'_ν(νz) ~ (1 + z²)^{1/4} e^{νη} / (z √(2πν)) · Σ_{k≥0} V_k(p) / ν^k,
//!   p = 1/√(1+z²),  η = √(1+z²) + ln(z / (1 + √(1+z²))).
//!
//! With s = √(ν² + x²) and p = ν/s, the scaled logarithm is
//!
//!   g(ν, x) = ln I_ν(x) − ν ln x = s − ν ln(ν + s) − ½ ln(2π s) + Σ_{k≥1} W_k(p)/ν^k,
//!
//! where Σ W_k t^k = ln(1 + Σ U_k t^k) is the logarithm of the series, expanded once in exact
//! arithmetic by the generator (so no `ln_1p` at run time). The ratio follows from
//! I_{ν+1}/I_ν = I'_ν/I_ν − ν/x and V_k − U_k = −(1 − p²) F_k (DLMF 10.41.11):
//!
//!   I_{ν+1}(x)/I_ν(x) = x/(s + ν) − (x/s) · (Σ_{k≥1} F_k(p)/ν^k) / (1 + Σ_{k≥1} U_k(p)/ν^k),
//!
//! where the second term is at most a twentieth of the first: no cancellation.
//!
//! The expansion is uniform in z ∈ [0, ∞), so it also covers x → 0 (where it reduces to
//! Stirling's series for 1/Γ(ν+1)) and x → ∞. The number of terms is chosen from the maximum
//! of |U_k| on [0, 1] so that the first omitted term is below 10⁻¹⁷ (see `terms_for_order`).
//! The leading terms s − ν ln(ν+s) − ½ ln(2πs) reach 10⁶ at ν = 5·10⁴ and cancel to O(1) near
//! the zero of ln I_ν, so they are formed in double-double.

use super::debye_coefficients::{DEBYE_TERMS, LOG_TERMS, RATIO_TERMS, SERIES_TERMS};
use super::ln_table::{HALF_LN_2PI, LN_2PI};
use crate::compensated::DoubleDouble;
use crate::special::logarithm::{binary_parts, ln_1_to_2, Ln, LN_2_HI, LN_2_LO};

/// The smallest order for which the expansion is used.
pub(crate) const DEBYE_MIN_ORDER: f64 = 20.0;

/// Number of terms k = 1..=K with max_p |U_{K+1}(p)| / ν^{K+1} < 10⁻¹⁷ (max |U_k| on [0,1]:
/// U_6 0.040, U_7 0.065, U_9 0.38, U_11 3.6, U_16 4624 — from the exact polynomials; W_k and
/// F_k are of the same size).
#[inline(always)]
fn terms_for_order(nu: f64) -> usize {
    if nu >= 1000.0 {
        5
    } else if nu >= 250.0 {
        6
    } else if nu >= 100.0 {
        8
    } else if nu >= 50.0 {
        10
    } else {
        DEBYE_TERMS
    }
}

/// Evaluates `$body` with the constant `$k` set to the number of terms for the order `$nu`
/// ([`terms_for_order`]): a constant, so that the loops over the terms unroll.
macro_rules! with_term_count {
    ($nu:expr, $k:ident => $body:expr) => {
        match terms_for_order($nu) {
            5 => {
                const $k: usize = 5;
                $body
            }
            6 => {
                const $k: usize = 6;
                $body
            }
            8 => {
                const $k: usize = 8;
                $body
            }
            10 => {
                const $k: usize = 10;
                $body
            }
            _ => {
                const $k: usize = DEBYE_TERMS;
                $body
            }
        }
    };
}

/// Σ_{k=1}^{K} u^k P_k(p²) for one coefficient family, by Horner in u over k; `K` is a
/// constant so that both loops unroll into straight-line FMAs.
#[inline(always)]
fn expansion_sum_fixed<const K: usize>(
    family: &[[f64; DEBYE_TERMS + 1]; DEBYE_TERMS],
    u: f64,
    p2: f64,
) -> f64 {
    // Exclusive forward ranges over constants: these unroll completely (inclusive and
    // reversed ranges did not, and cost more than the arithmetic).
    let mut sum = 0.0;
    for step in 0..K {
        let k = K - step;
        let row = &family[k - 1];
        let mut v = row[k];
        for back in 0..k {
            v = v.mul_add(p2, row[k - 1 - back]);
        }
        sum = (sum + v) * u;
    }
    sum
}

/// Length of [`correction_polynomial`]'s coefficients: `u^k P_k(p²)` reaches `p^{3k}`.
const POLYNOMIAL_LEN: usize = 3 * DEBYE_TERMS + 1;

/// The correction `Σ_{k=1}^{K} u^k P_k(p²)` of one order `ν` as one polynomial in `p`: with
/// `u = p/ν`, `u^k P_k(p²) = ν^{−k} Σ_i a_{k,i} p^{k+2i}`, so the sum is `Σ_{j=1}^{3K} d_j p^j`
/// with `d_j = Σ_{k+2i=j} a_{k,i} ν^{−k}` (`d_0 = 0`). The coefficients depend on the order
/// alone: formed once for the arguments of one order, they leave `3K` fused multiply-adds per
/// argument, where the double Horner scheme of [`expansion_sum_fixed`] takes `K(K+1)/2 + 2K`
/// (75 against 30 at `K = 10`). Same terms, grouped by power: each `d_j p^j` is a sum of terms
/// `a_{k,i} p^{2i} u^k` of the original sum, each no larger than its `|P_k|`-bound times
/// `ν^{−k}`, so the rounding stays `~10⁻¹⁸` absolutely at `ν ≥ 20`.
#[inline(always)]
fn correction_polynomial<const K: usize>(
    family: &[[f64; DEBYE_TERMS + 1]; DEBYE_TERMS],
    nu: f64,
) -> [f64; POLYNOMIAL_LEN] {
    let mut d = [0.0; POLYNOMIAL_LEN];
    let inverse = 1.0 / nu;
    let mut scale = 1.0;
    for k in 1..K + 1 {
        scale *= inverse;
        for i in 0..k + 1 {
            d[k + 2 * i] = family[k - 1][i].mul_add(scale, d[k + 2 * i]);
        }
    }
    d
}

/// `Σ_{j=1}^{3K} d_j p^j` by Horner in `p`.
#[inline(always)]
fn polynomial_in_p<const K: usize>(d: &[f64; POLYNOMIAL_LEN], p: f64) -> f64 {
    let mut v = d[3 * K];
    for step in 1..3 * K {
        v = v.mul_add(p, d[3 * K - step]);
    }
    v * p
}

/// g(ν, x) = ln I_ν(x) − ν ln x for ν ≥ 20, x ≥ 0 finite; the order is a double-double so
/// that ν + 1 is exact where a caller needs it (an error δ in the order moves g by ~δ ln 2ν).
#[inline(always)]
pub(crate) fn log_bessel_i_scaled_debye(order: DoubleDouble, x: f64) -> DoubleDouble {
    debye_scalar(order, x)
}

/// ln C_M(x) = −(M/2) ln 2π − g(ν, x) for `ν = M/2 − 1 ≥ 20` (M ≥ 42) and finite x ≥ 0,
/// rounded once: `−((M−1)/2) ln 2π + (ν + ½) ln(ν + s) − s − ½ ln(1 + p) − Σ_{k≥1} W_k(p)/ν^k`.
/// With `ν + ½ = (M−1)/2` exact, the double-double logarithm is multiplied by an `f64`, and the
/// constant, `s` and the `f64` remainder are each added once (`−(M/2) ln 2π − g` adds the
/// expansion's `−½ ln 2π`, its remainder and the normaliser's constant separately).
#[inline(always)]
pub(crate) fn log_norm_const_debye(dim: usize, x: f64) -> f64 {
    let nu = dim as f64 / 2.0 - 1.0;
    with_term_count!(nu, K => {
        let d = correction_polynomial::<K>(&LOG_TERMS, nu);
        debye_log_norm_const::<K, false>(log_norm_const_constant(dim), nu, &d, x)
    })
}

/// [`log_norm_const_debye`] at `L` arguments `0 ≤ x ≤ 10¹⁵⁰` of one dimension `M ≥ 42`, bit
/// for bit (the same operations, the range branches of `sqrt` and `ln` left out).
#[inline(always)]
pub(crate) fn log_norm_const_debye_lanes<const L: usize>(
    dim: usize,
    x: &[f64; L],
    out: &mut [f64; L],
) {
    let nu = dim as f64 / 2.0 - 1.0;
    with_term_count!(nu, K => {
        let d = correction_polynomial::<K>(&LOG_TERMS, nu);
        let constant = log_norm_const_constant(dim);
        for (o, &v) in out.iter_mut().zip(x) {
            *o = debye_log_norm_const::<K, true>(constant, nu, &d, v);
        }
    })
}

/// `−((M−1)/2) ln 2π` in double-double (`(M−1)/2` is exact).
#[inline(always)]
fn log_norm_const_constant(dim: usize) -> DoubleDouble {
    DoubleDouble::from_pair(LN_2PI).mul_f64(-((dim - 1) as f64 / 2.0))
}

/// ln C_M with `K` correction terms; `LANES` as in [`debye_scaled`].
#[inline(always)]
fn debye_log_norm_const<const K: usize, const LANES: bool>(
    constant: DoubleDouble,
    nu: f64,
    polynomial: &[f64; POLYNOMIAL_LEN],
    x: f64,
) -> f64 {
    let (s, r) = debye_root::<LANES>(DoubleDouble::from_f64(nu), x);
    let nu_plus_s = s.add_f64(nu);
    let ln_nu_plus_s = if LANES {
        nu_plus_s.ln_normal()
    } else {
        nu_plus_s.ln()
    };
    let p = nu * r;
    let rest = 0.5f64.mul_add(ln_1_to_2(1.0 + p), polynomial_in_p::<K>(polynomial, p));
    ln_nu_plus_s
        .mul_f64(nu + 0.5)
        .add(constant)
        .sub(s)
        .add_f64(-rest)
        .to_f64()
}

/// ln I_ν(x) itself for ν ≥ 20 and finite x > 0 (normal or subnormal), from the same
/// expansion without its scaling (module docs):
///
///   ln I_ν(x) = ν ln x + g = s − ν ln((ν + s)/x) − ½ ln 2π − ½ ln s + Σ_{k≥1} W_k(p)/ν^k.
///
/// One double-double logarithm, of the quotient (formed without overflow by
/// [`Ln::ln_over`]), where `ν ln x + g` takes two (ln x, ln(ν + s)); `s − ν ln(…)` cancels to
/// O(1) near the zero of ln I_ν and is formed in double-double. The rest is O(1) apart from
/// `½ ln s = ½ e ln 2 + ½ ln m` (`s = 2^e m`, `m ∈ [1, 2)`), whose large part `½ e ln 2` is
/// exact in the Cody–Waite split and whose `ln m` takes the `f64` table logarithm (absolute
/// error `< 2·10⁻¹⁶`): the `f64` terms add a few 10⁻¹⁶ absolutely, inside the budget of
/// [`log_bessel_i`](super::log_bessel_i).
#[inline(always)]
pub(crate) fn log_bessel_i_debye(nu: f64, x: f64) -> f64 {
    with_term_count!(nu, K => {
        debye_log::<K, false>(nu, &correction_polynomial::<K>(&LOG_TERMS, nu), x)
    })
}

/// [`log_bessel_i_debye`] at `L` arguments `MIN_POSITIVE ≤ x ≤ 10¹⁵⁰` for one order `ν ≥ 20`,
/// bit for bit (the same operations, the range branches of `sqrt` and `ln` left out).
#[inline(always)]
pub(crate) fn log_bessel_i_debye_lanes<const L: usize>(nu: f64, x: &[f64; L], out: &mut [f64; L]) {
    with_term_count!(nu, K => {
        let d = correction_polynomial::<K>(&LOG_TERMS, nu);
        for (o, &v) in out.iter_mut().zip(x) {
            *o = debye_log::<K, true>(nu, &d, v);
        }
    })
}

/// ln I_ν(x) with `K` correction terms; `LANES` leaves out the range branches (valid for
/// `MIN_POSITIVE ≤ x ≤ 10¹⁵⁰`, identical results there).
#[inline(always)]
fn debye_log<const K: usize, const LANES: bool>(
    nu: f64,
    polynomial: &[f64; POLYNOMIAL_LEN],
    x: f64,
) -> f64 {
    let (s, r) = debye_root::<LANES>(DoubleDouble::from_f64(nu), x);
    let nu_plus_s = s.add_f64(nu);
    let quotient_log = if LANES {
        nu_plus_s.ln_over_normal(x)
    } else {
        nu_plus_s.ln_over(x)
    };
    let leading = s.sub(quotient_log.mul_f64(nu));
    // s = 2^e m (s ≥ 20: normal), and ln s = e ln 2 + ln m + s_lo/s_hi (the last < 2⁻⁵³).
    let (e, m) = binary_parts(s.hi);
    let e = e as f64;
    let correction = polynomial_in_p::<K>(polynomial, nu * r);
    let small = correction
        - 0.5 * (ln_1_to_2(m) + s.lo.mul_add(r, e * LN_2_LO))
        - HALF_LN_2PI.0
        - HALF_LN_2PI.1;
    leading.add_f64(-0.5 * e * LN_2_HI).add_f64(small).to_f64()
}

/// `(s, r)`: s = √(ν² + x²) as a double-double and r within two ulps of 1/s, from one
/// division; `LANES` leaves out the branch for `max(ν, x) > 10¹⁵⁰` (where the squares would
/// overflow and both are scaled first).
#[inline(always)]
fn debye_root<const LANES: bool>(order: DoubleDouble, x: f64) -> (DoubleDouble, f64) {
    let nu = order.hi;
    if LANES || nu.max(x) <= DEBYE_LANES_MAX_ARGUMENT {
        order
            .mul(order)
            .add(DoubleDouble::product(x, x))
            .sqrt_and_reciprocal()
    } else {
        // ν² or x² would overflow from ~1.3·10¹⁵⁴ on (ln C_M at κ = 10²⁰⁰ was NaN): scale
        // both by 2⁻⁶⁰⁰ (exact) so the squares stay normal, and scale the root back. A square
        // that underflows is below an ulp of the other, since max(ν, x) > 10¹⁵⁰.
        let (o, xs) = (order.mul_f64(TWO_TO_MINUS_600), x * TWO_TO_MINUS_600);
        let s = o
            .mul(o)
            .add(DoubleDouble::product(xs, xs))
            .sqrt()
            .mul_f64(1.0 / TWO_TO_MINUS_600);
        (s, 1.0 / s.hi)
    }
}

/// The scalar expansion with the term count of the order.
#[inline(always)]
fn debye_scalar(order: DoubleDouble, x: f64) -> DoubleDouble {
    with_term_count!(order.hi, K => {
        let d = correction_polynomial::<K>(&LOG_TERMS, order.hi);
        debye_scaled::<K, false>(order, &d, x)
    })
}

/// The largest argument [`log_bessel_i_scaled_debye_lanes`] accepts: x² and ν + s stay far
/// inside the normal range, where the branch-free logarithm applies.
pub(crate) const DEBYE_LANES_MAX_ARGUMENT: f64 = 1e150;

/// 2⁻⁶⁰⁰, the exact scale of ν and x when their squares would overflow.
const TWO_TO_MINUS_600: f64 = f64::from_bits((1023 - 600) << 52);

/// Lanes per call of the batched kernels: two AVX-512 registers of `f64`, so that two
/// independent dependency chains (the power series' term recurrence above all) overlap;
/// measured against eight lanes, 7 % less time for the batched ln C_M over the peers grid.
pub(crate) const DEBYE_LANES: usize = 16;

/// [`log_bessel_i_scaled_debye`] at `L` arguments `0 ≤ x ≤ 10¹⁵⁰` for one order
/// `ν ≥ 20`, bit for bit: the same operations, with the range branches of `sqrt` and `ln` left
/// out (they never fire here) so that the lane loop is straight-line code that the compiler
/// vectorises (ln I_ν for one order and many arguments; the few `g` of one order that the nivMF
/// divergences combine). ln C_M takes [`log_norm_const_debye_lanes`].
#[inline(always)]
pub(crate) fn log_bessel_i_scaled_debye_lanes<const L: usize>(
    order: DoubleDouble,
    x: &[f64; L],
    out: &mut [DoubleDouble; L],
) {
    debye_lanes(order, x, out);
}

/// The lanes with the term count of the order.
#[inline(always)]
fn debye_lanes<const L: usize>(order: DoubleDouble, x: &[f64; L], out: &mut [DoubleDouble; L]) {
    with_term_count!(order.hi, K => {
        let d = correction_polynomial::<K>(&LOG_TERMS, order.hi);
        for (o, &v) in out.iter_mut().zip(x) {
            *o = debye_scaled::<K, true>(order, &d, v);
        }
    })
}

/// The expansion with `K` correction terms; `LANES` picks the branch-free `sqrt` and `ln`
/// (valid for `x ≤ 10¹⁵⁰`, identical results there).
#[inline(always)]
fn debye_scaled<const K: usize, const LANES: bool>(
    order: DoubleDouble,
    polynomial: &[f64; POLYNOMIAL_LEN],
    x: f64,
) -> DoubleDouble {
    let nu = order.hi;
    // s = √(ν² + x²) and r ≈ 1/s (within two ulps) from one division: p = ν/s and the
    // expansion variable u = p/ν = 1/s are formed from r (an error of a few ulps in p moves
    // ½ ln(1 + p) by < 2·10⁻¹⁶ and the O(1/ν) correction by less).
    let (s, r) = debye_root::<LANES>(order, x);
    let nu_plus_s = s.add(order);
    let p = nu * r;
    // ν ln(ν+s) + ½ ln s = (ν + ½) ln(ν+s) − ½ ln(1 + p), since (ν+s)/s = 1 + p: one
    // double-double logarithm, and an f64 logarithm of 1 + p ∈ (1, 2] whose absolute error
    // (with the rounding of 1 + p) is < 3·10⁻¹⁶.
    let ln_nu_plus_s = if LANES {
        nu_plus_s.ln_normal()
    } else {
        nu_plus_s.ln()
    };
    let logs = ln_nu_plus_s
        .mul(order.add_f64(0.5))
        .add(DoubleDouble::from_pair(HALF_LN_2PI));
    let logs = logs.add_f64(-0.5 * ln_1_to_2(1.0 + p));
    let correction = polynomial_in_p::<K>(polynomial, p);
    s.sub(logs).add_f64(correction)
}

/// I_{ν+1}(x)/I_ν(x) for ν ≥ 20, x > 0 finite.
#[inline(always)]
pub(crate) fn bessel_i_ratio_debye(nu: f64, x: f64) -> f64 {
    with_term_count!(nu, K => ratio_debye::<K, false>(nu, x))
}

/// [`bessel_i_ratio_debye`] at `L` arguments `0 ≤ x ≤ 10¹⁵⁰` for one order
/// `ν ≥ 20`, bit for bit (the same operations, straight-line, vectorised across lanes).
#[inline(always)]
pub(crate) fn bessel_i_ratio_debye_lanes<const L: usize>(
    nu: f64,
    x: &[f64; L],
    out: &mut [f64; L],
) {
    with_term_count!(nu, K => {
        for (o, &v) in out.iter_mut().zip(x) {
            *o = ratio_debye::<K, true>(nu, v);
        }
    })
}

/// `(I_{ν+1}(x)/I_ν(x), d/dx I_{ν+1}(x)/I_ν(x))` for `ν ≥ 20`, `x > 0` finite: the ratio (the
/// same operations as [`bessel_i_ratio_debye`], hence the same value) and its slope from the
/// derivative of the same truncated expansion, without the cancellation of the Riccati form
/// `1 − R² − (2ν+1)R/x` (a factor `~400` at `ν = 63`, `x = 50`; `~x²/ν` for `x ≫ ν`).
///
/// With `s = √(ν² + x²)`, `p = ν/s`, `w = x/s` and the two sums `N = Σ_k s^{−k} P_k(p²)` (the
/// `F_k`) and `U = Σ_k s^{−k} Q_k(p²)` (the `U_k`; `u^k = (p/ν)^k = s^{−k}`), `ds/dx = w` and
/// `d(p²)/dx = −2p²w/s` give `dN/dx = −(w/s) N̂` with `N̂ = Σ_k s^{−k}[k P_k + 2p² P_k'(p²)]`
/// (likewise `Û`), so that, from `R = x/(s+ν) − w·N/(1+U)`,
///
/// `R' = (1/s)·[ν/(s+ν) − p²·N/(1+U) + w²·(N̂(1+U) − N Û)/(1+U)²]`.
///
/// The first term is the leading `ν/(s(s+ν))`; the second is under `2/ν` of it (as in the
/// ratio), and the third is positive: no cancellation, a few ulp.
#[inline(always)]
pub(crate) fn bessel_i_ratio_and_slope_debye(nu: f64, x: f64) -> (f64, f64) {
    with_term_count!(nu, K => ratio_and_slope_debye::<K>(nu, x))
}

/// `(Σ_{k=1}^{K} u^k P_k(p²), Σ_{k=1}^{K} u^k [k P_k(p²) + 2p² P_k'(p²)])` for one family:
/// the sum of [`expansion_sum_fixed`] (same operations for the first) and its weighted twin.
#[inline(always)]
fn expansion_sum_and_weighted<const K: usize>(
    family: &[[f64; DEBYE_TERMS + 1]; DEBYE_TERMS],
    u: f64,
    p2: f64,
) -> (f64, f64) {
    let (mut sum, mut weighted) = (0.0, 0.0);
    for step in 0..K {
        let k = K - step;
        let row = &family[k - 1];
        // P_k(p²) and P_k'(p²) by Horner.
        let (mut v, mut dv) = (row[k], 0.0_f64);
        for back in 0..k {
            dv = dv.mul_add(p2, v);
            v = v.mul_add(p2, row[k - 1 - back]);
        }
        sum = (sum + v) * u;
        weighted = (weighted + (k as f64 * v + 2.0 * p2 * dv)) * u;
    }
    (sum, weighted)
}

/// [`bessel_i_ratio_and_slope_debye`] with `K` terms.
#[inline(always)]
fn ratio_and_slope_debye<const K: usize>(nu: f64, x: f64) -> (f64, f64) {
    let s = if x < 1e150 {
        nu.mul_add(nu, x * x).sqrt()
    } else {
        nu.hypot(x)
    };
    let p = nu / s;
    let (u, p2) = (p / nu, p * p);
    let (numerator, numerator_w) = expansion_sum_and_weighted::<K>(&RATIO_TERMS, u, p2);
    let (series, series_w) = expansion_sum_and_weighted::<K>(&SERIES_TERMS, u, p2);
    let denominator = 1.0 + series;
    let f = numerator / denominator;
    let ratio = x / (s + nu) - (x / s) * f;
    let w = x / s;
    let df = (numerator_w * denominator - numerator * series_w) / (denominator * denominator);
    let slope = (nu / (s + nu) - p2 * f + w * w * df) / s;
    (ratio, slope)
}

/// The ratio with `K` terms; `LANES` drops the `hypot` branch for `x ≥ 10¹⁵⁰` (never taken
/// by the lane callers, so the results are identical).
#[inline(always)]
fn ratio_debye<const K: usize, const LANES: bool>(nu: f64, x: f64) -> f64 {
    let s = if LANES || x < 1e150 {
        nu.mul_add(nu, x * x).sqrt()
    } else {
        nu.hypot(x)
    };
    let p = nu / s;
    let (u, p2) = (p / nu, p * p);
    let numerator = expansion_sum_fixed::<K>(&RATIO_TERMS, u, p2);
    let denominator = 1.0 + expansion_sum_fixed::<K>(&SERIES_TERMS, u, p2);
    x / (s + nu) - (x / s) * (numerator / denominator)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lane kernels promise their scalar kernels' bits. Each order picks its number of
    /// terms (`terms_for_order`), and the scalar and the lane kernels each pick it (through
    /// `with_term_count!`): the orders straddle every switch, so that a count changed on one side
    /// only is seen. Arguments from below the order to far above it, up to the lanes' limit.
    #[test]
    fn lanes_give_the_scalar_bits_at_every_term_count() {
        let orders = [
            20.0, 49.5, 50.0, 99.5, 100.0, 249.5, 250.0, 999.5, 1000.0, 4096.0,
        ];
        let x: [f64; 8] = [
            0.0,
            0.5,
            19.0,
            77.0,
            310.0,
            1024.0,
            5e4,
            DEBYE_LANES_MAX_ARGUMENT,
        ];
        for nu in orders {
            let order = DoubleDouble::from_f64(nu);
            let mut ratio = [0.0; 8];
            bessel_i_ratio_debye_lanes(nu, &x, &mut ratio);
            let mut log = [DoubleDouble::ZERO; 8];
            log_bessel_i_scaled_debye_lanes(order, &x, &mut log);
            // Every order here is M/2 − 1 for a whole M.
            let dim = (2.0 * nu + 2.0) as usize;
            let mut norm_const = [0.0; 8];
            log_norm_const_debye_lanes(dim, &x, &mut norm_const);
            let mut unscaled = [0.0; 8];
            log_bessel_i_debye_lanes(nu, &x, &mut unscaled);
            for (l, &v) in x.iter().enumerate() {
                let at = format!("nu = {nu}, x = {v}");
                if v > 0.0 {
                    let scalar = bessel_i_ratio_debye(nu, v);
                    assert_eq!(ratio[l].to_bits(), scalar.to_bits(), "ratio, {at}");
                }
                let bits = |d: DoubleDouble| (d.hi.to_bits(), d.lo.to_bits());
                let scalar = log_bessel_i_scaled_debye(order, v);
                assert_eq!(bits(log[l]), bits(scalar), "g, {at}");
                let scalar = log_norm_const_debye(dim, v);
                assert_eq!(norm_const[l].to_bits(), scalar.to_bits(), "ln C_M, {at}");
                if v > 0.0 {
                    let scalar = log_bessel_i_debye(nu, v);
                    assert_eq!(unscaled[l].to_bits(), scalar.to_bits(), "ln I, {at}");
                }
            }
        }
    }
}
