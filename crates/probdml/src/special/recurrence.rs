//! The order recurrence, used for ν < 20 at arguments where neither the power series (too many
//! terms) nor the Hankel expansion (too much cancellation) serves: 32 ≤ x < ¾ν².
//!
//! I_{ν−1}(x) − I_{ν+1}(x) = (2ν/x) I_ν(x) (A&S 9.6.26) gives, for Q_j = x I_{ν+j}(x)/I_{ν+j+1}(x),
//!
//!   Q_j = 2(ν+j+1) + x² / Q_{j+1},
//!
//! a sum of positive terms: backward in j it is stable (I is the dominant solution going down in
//! order) and an error in Q_{j+1} reaches Q_j damped by x²/(Q_j Q_{j+1}) < 1. Starting at
//! ν' = ν + N ≥ 20 with Q_N = x / (I_{ν'+1}/I_{ν'}) from the Debye expansion of the ratio,
//!
//!   g(ν, x) = g(ν', x) + ln Π_{j<N} Q_j.
//!
//! The product of at most 20 factors below 4·10² cannot overflow, and its rounding (≲ N ulp)
//! is far inside the budget here, where |ln I_ν(x)| > 20. Its logarithm is the branch-free
//! [`ln_normal_f64`] (the product is ≥ 2, a normal number), so that the lanes below perform
//! the same operations as the scalar kernel.

use super::debye::{
    bessel_i_ratio_debye, bessel_i_ratio_debye_lanes, log_bessel_i_scaled_debye,
    log_bessel_i_scaled_debye_lanes, DEBYE_MIN_ORDER,
};
use crate::compensated::DoubleDouble;
use crate::special::logarithm::ln_normal_f64;

/// The number of steps N = ⌈20 − ν⌉ and the starting order ν' = ν + N.
#[inline(always)]
fn start(nu: DoubleDouble) -> (usize, DoubleDouble) {
    let steps = (DEBYE_MIN_ORDER - nu.hi).ceil().max(1.0);
    (steps as usize, nu.add_f64(steps))
}

/// Runs Q_j = 2(ν+j+1) + x²/Q_{j+1} down from j = N − 1 and returns (Π_{j<N} Q_j, Q_0).
#[inline(always)]
fn run_down(steps: usize, top: DoubleDouble, x: f64) -> (f64, f64) {
    let top_f = top.to_f64();
    run_down_from(steps, top_f, x, bessel_i_ratio_debye(top_f, x))
}

/// [`run_down`] given the Debye ratio `I_{ν'+1}(x)/I_{ν'}(x)` at the top order.
#[inline(always)]
fn run_down_from(steps: usize, top_f: f64, x: f64, top_ratio: f64) -> (f64, f64) {
    let mut q = x / top_ratio;
    let x2 = x * x;
    let mut product = 1.0;
    let mut order = top_f; // ν + j + 1 for the Q_j being formed
    for _ in 0..steps {
        q = 2.0 * order + x2 / q;
        product *= q;
        order -= 1.0;
    }
    (product, q)
}

/// g(ν, x) = ln I_ν(x) − ν ln x for 0 ≤ ν < 20 and finite x > 0.
#[inline(always)]
pub(crate) fn log_bessel_i_scaled_recurrence(nu: DoubleDouble, x: f64) -> DoubleDouble {
    let (steps, top) = start(nu);
    let (product, _) = run_down(steps, top, x);
    log_bessel_i_scaled_debye(top, x).add_f64(ln_normal_f64(product))
}

/// [`log_bessel_i_scaled_recurrence`] at `L` arguments `0 < x ≤ 10¹⁵⁰` of one order: the Debye
/// ratio and logarithm at the top order in their lanes (the scalar kernels' bits), and the
/// recurrence, whose step count depends on the order only, straight-line across the lanes — the
/// same operations lane by lane, hence the same bits.
#[inline(always)]
pub(crate) fn log_bessel_i_scaled_recurrence_lanes<const L: usize>(
    nu: DoubleDouble,
    x: &[f64; L],
    out: &mut [DoubleDouble; L],
) {
    let (steps, top) = start(nu);
    let top_f = top.to_f64();
    let mut ratio = [0.0; L];
    bessel_i_ratio_debye_lanes(top_f, x, &mut ratio);
    log_bessel_i_scaled_debye_lanes(top, x, out);
    for ((o, &xi), &r) in out.iter_mut().zip(x).zip(&ratio) {
        let (product, _) = run_down_from(steps, top_f, xi, r);
        *o = o.add_f64(ln_normal_f64(product));
    }
}

/// I_{ν+1}(x)/I_ν(x) = x/Q_0 for 0 ≤ ν < 20 and finite x > 0.
#[inline(always)]
pub(crate) fn bessel_i_ratio_recurrence(nu: f64, x: f64) -> f64 {
    let (steps, top) = start(DoubleDouble::from_f64(nu));
    x / run_down(steps, top, x).1
}
