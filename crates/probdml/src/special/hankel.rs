//! The large-argument (Hankel) expansion of I_ν (A&S 9.7.1), used for ν < 20 and x ≥ 32:
//!
//!   I_ν(x) ~ e^x / √(2πx) · Σ_{k≥0} (−1)^k a_k(ν) / x^k,
//!   a_k(ν) = (4ν² − 1²)(4ν² − 3²)⋯(4ν² − (2k−1)²) / (k! 8^k).
//!
//! (The companion term of order e^{−x} is below 10⁻²⁷ relative at x ≥ 32.) The terms alternate
//! and first grow like Π (4ν² − (2k−1)²)/(8kx): the sum is only accurate where they stay small
//! against the result. For x ≥ max(32, ¾ν²) and ν < 20 the largest term is at most twice the
//! sum (one bit lost) and the terms fall below 10⁻¹⁷ within 18 steps (checked on a grid of ν and
//! x by a sweep over ν ∈ [0, 20), x ∈ [32, 2300]); for half-integer ν it terminates. Scaled form:
//!
//!   g(ν, x) = ln I_ν(x) − ν ln x = x − (ν + ½) ln x − ½ ln 2π + ln Σ.
//!
//! ln I_ν(x) itself, x − ½ ln 2πx + ln Σ, needs no double-double: it is at least 0.9x, and its
//! terms are of that size or far smaller (`½ ln 2πx ≤ 0.09x`, `|ln Σ| < 0.01` at x ≥ 32).

use super::ln_table::{HALF_LN_2PI, LN_2PI};
use crate::compensated::DoubleDouble;
use crate::special::logarithm::{ln_1p_lanes, ln_dd, ln_normal_f64, Ln};

/// The smallest argument for which the expansion is used.
pub(crate) const HANKEL_MIN_ARGUMENT: f64 = 32.0;

/// Whether the expansion is accurate at (ν, x): x ≥ max(32, ¾ν²).
#[inline(always)]
pub(crate) fn hankel_applies(nu: f64, x: f64) -> bool {
    x >= HANKEL_MIN_ARGUMENT && x >= 0.75 * nu * nu
}

/// The k-th term ratio of the sum without its `1/x`, `−(4ν² − (2k−1)²)/(8k)`: it depends on the
/// order only, so that arguments sharing one order (the lanes below) share it, and each term
/// costs two multiplications (by it and by `1/x`) instead of a division.
#[inline(always)]
fn term_ratio_factor(mu: f64, k: f64) -> f64 {
    let odd = 2.0 * k - 1.0;
    -(mu - odd * odd) / (8.0 * k)
}

/// Σ_{k≥1} (−1)^k a_k(ν)/x^k, to a relative 10⁻¹⁷ of the whole sum.
#[inline(always)]
fn hankel_tail(nu: f64, x: f64) -> f64 {
    let mu = 4.0 * nu * nu;
    let inv_x = 1.0 / x;
    let mut term = 1.0;
    let mut sum = 0.0;
    // At most 40 terms, counted by an integer: the bound holds whatever the arithmetic does.
    for step in 1..=40u32 {
        let k = f64::from(step);
        term *= term_ratio_factor(mu, k) * inv_x;
        sum += term;
        if term.abs() <= 1e-17 {
            break;
        }
    }
    sum
}

/// [`hankel_tail`] at `L` arguments of one order, bit for bit: each lane keeps its sum once its
/// own stopping test has fired (a select, so that the loop vectorises).
#[inline(always)]
fn hankel_tail_lanes<const L: usize>(nu: f64, x: &[f64; L]) -> [f64; L] {
    let mu = 4.0 * nu * nu;
    let mut inv_x = [0.0; L];
    for (i, &xi) in inv_x.iter_mut().zip(x) {
        *i = 1.0 / xi;
    }
    let mut term = [1.0; L];
    let mut sum = [0.0; L];
    let mut running = [true; L];
    // At most 40 terms, as the scalar loop.
    for step in 1..=40u32 {
        let factor = term_ratio_factor(mu, f64::from(step));
        let mut any = false;
        for l in 0..L {
            let t = term[l] * (factor * inv_x[l]);
            term[l] = t;
            sum[l] = if running[l] { sum[l] + t } else { sum[l] };
            // The negation of the scalar loop's `|term| <= 1e-17` break: a NaN term stops neither path.
            #[allow(clippy::neg_cmp_op_on_partial_ord)]
            let go_on = !(t.abs() <= 1e-17);
            running[l] = running[l] && go_on;
            any |= running[l];
        }
        if !any {
            break;
        }
    }
    sum
}

/// g(ν, x) = ln I_ν(x) − ν ln x for ν < 20, x ≥ 32 finite.
#[inline(always)]
pub(crate) fn log_bessel_i_scaled_hankel(nu: DoubleDouble, x: f64) -> DoubleDouble {
    hankel_scaled_from(nu, x, ln_dd(x), hankel_tail(nu.hi, x))
}

/// ln I_ν(x) for ν < 20, x ≥ max(32, ¾ν²) finite, in `f64`: `x − (½ ln x + ½ ln 2π) + ln Σ`.
/// Each rounding is at most half an ulp of its result and the logarithms are within `2·10⁻¹⁶`
/// absolutely; the sum is ≥ 0.9x and every other term ≤ 0.09x, so the value is within two
/// ulps (relative `< 3·10⁻¹⁶`, inside [`log_bessel_i`](super::log_bessel_i)'s budget) where
/// `ν ln x + g` spends two double-double logarithms.
#[inline(always)]
pub(crate) fn log_bessel_i_hankel(nu: f64, x: f64) -> f64 {
    large_argument_log(x, hankel_tail(nu, x))
}

/// [`log_bessel_i_hankel`] at `L` arguments of one order where the expansion applies, bit for
/// bit (`ln_normal_f64` holds for every normal `x`, so the lanes need no range clamp beyond
/// the regime's own).
#[inline(always)]
pub(crate) fn log_bessel_i_hankel_lanes<const L: usize>(nu: f64, x: &[f64; L], out: &mut [f64; L]) {
    // A closure, not the function item, as the batch kernels pass their lanes (an item was once
    // left out of line and ran as baseline x86-64 code).
    #[allow(clippy::redundant_closure)]
    from_tail_lanes(
        nu,
        x,
        out,
        #[inline(always)]
        |xi, t| large_argument_log(xi, t),
    );
}

/// `out_l = form(x_l, Σ_l − 1)` with the Hankel sum's tail in lanes, as the scalar functions
/// form `form(x, hankel_tail(ν, x))`.
#[inline(always)]
fn from_tail_lanes<const L: usize>(
    nu: f64,
    x: &[f64; L],
    out: &mut [f64; L],
    form: impl Fn(f64, f64) -> f64,
) {
    let tail = hankel_tail_lanes(nu, x);
    for ((o, &xi), &t) in out.iter_mut().zip(x).zip(&tail) {
        *o = form(xi, t);
    }
}

/// `(ν + ½) ln(x/2π) − x − ln Σ` for ν < 20, x ≥ max(32, ¾ν²) finite, in `f64`: the vMF
/// normaliser `ln C_M(x) = −(M/2) ln 2π − g(ν, x)` at `ν = M/2 − 1` in this regime, where
/// `g` takes two double-double logarithms. Nothing cancels beyond a factor 1.6: `(ν + ½)
/// ln(x/2π) ≤ 0.4x` here (at most 11.4 against x = 32 at ν = 6.5, 76 against 285 at ν = 19.5),
/// so the value is below `−0.6x`; the error is that of `ln x` times `ν + ½ ≤ 20` (`< 1.5·10⁻¹⁴`
/// at the regime's smallest `x`) plus a few roundings of `x`, within `7·10⁻¹⁶` relative.
#[inline(always)]
pub(crate) fn log_norm_const_hankel(nu: f64, x: f64) -> f64 {
    log_norm_const_from(nu, x, hankel_tail(nu, x))
}

/// [`log_norm_const_hankel`] at `L` arguments of one order where the expansion applies, bit for
/// bit.
#[inline(always)]
pub(crate) fn log_norm_const_hankel_lanes<const L: usize>(
    nu: f64,
    x: &[f64; L],
    out: &mut [f64; L],
) {
    from_tail_lanes(
        nu,
        x,
        out,
        #[inline(always)]
        |xi, t| log_norm_const_from(nu, xi, t),
    );
}

/// ln C_M from x and the tail of the Hankel sum.
#[inline(always)]
fn log_norm_const_from(nu: f64, x: f64, tail: f64) -> f64 {
    let ln_x_over_2pi = (ln_normal_f64(x) - LN_2PI.0) - LN_2PI.1;
    (nu + 0.5).mul_add(ln_x_over_2pi, -x) - ln_1p_lanes(tail)
}

/// `ln[e^x (1 + tail) / √(2πx)]` for a normal `x ≥ ½` and `tail ≥ −½`, in `f64`: ln I_ν(x) from
/// the tail of its large-argument sum (here, and for `ν = ½`, whose sum is `1 − e^{−2x}`).
#[inline(always)]
pub(crate) fn large_argument_log(x: f64, tail: f64) -> f64 {
    (x - 0.5f64.mul_add(ln_normal_f64(x), HALF_LN_2PI.0)) + ln_1p_lanes(tail)
}

/// g from its pieces: `x − (ν + ½) ln x − ½ ln 2π + ln Σ`.
#[inline(always)]
fn hankel_scaled_from(nu: DoubleDouble, x: f64, ln_x: DoubleDouble, tail: f64) -> DoubleDouble {
    let logs = ln_x
        .mul(nu.add_f64(0.5))
        .add(DoubleDouble::from_pair(HALF_LN_2PI));
    DoubleDouble::from_f64(x)
        .sub(logs)
        .add_f64(ln_1p_lanes(tail))
}

/// [`log_bessel_i_scaled_hankel`] at `L` arguments of one order where the expansion applies
/// (`32 ≤ x ≤ 10¹⁵⁰`, so that `ln x` takes its branch-free normal path): the same operations
/// lane by lane, hence the same bits.
#[inline(always)]
pub(crate) fn log_bessel_i_scaled_hankel_lanes<const L: usize>(
    nu: DoubleDouble,
    x: &[f64; L],
    out: &mut [DoubleDouble; L],
) {
    let tail = hankel_tail_lanes(nu.hi, x);
    for ((o, &xi), &t) in out.iter_mut().zip(x).zip(&tail) {
        *o = hankel_scaled_from(nu, xi, DoubleDouble::from_f64(xi).ln_normal(), t);
    }
}

/// I_{ν+1}(x)/I_ν(x) = Σ_{ν+1}/Σ_ν from the two Hankel sums; valid where
/// `hankel_applies(ν + 1, x)`.
#[inline(always)]
pub(crate) fn bessel_i_ratio_hankel(nu: f64, x: f64) -> f64 {
    (1.0 + hankel_tail(nu + 1.0, x)) / (1.0 + hankel_tail(nu, x))
}
