//! The order recurrence, used for ν < 20 at arguments where neither the power series (too many
//! terms) nor the Hankel expansion (too much cancellation) serves: 32 ≤ x < ¾ν².
//!
//! I_{ν−1}(x) − I_{ν+1}(x) = (2ν/x) I_ν(x) (A&S 9.6.26) gives, for Q_j = x I_{ν+j}(x)/I_{ν+j+1}(x),
//!
//!   Q_j = 2(ν+j+1) + x² / Q_{j+1},
//!
//! a sum of positive terms: backward in j it is stable (I is the dominant solution going down in
//! order) and an error in Q_{j+1} reaches Q_j damped by x²/(Q_j Q_{j+1}) < 1. Starting at
//! ν' = ν + N ≥ 20 with Q_N = exp(g(ν', x) − g(ν'+1, x)) from the Debye expansion,
//!
//!   g(ν, x) = g(ν', x) + ln Π_{j<N} Q_j.
//!
//! The product of at most 20 factors below 4·10² cannot overflow, and its rounding (≲ N ulp)
//! is far inside the budget here, where |ln I_ν(x)| > 20.

use super::debye::{log_bessel_i_scaled_debye, DEBYE_MIN_ORDER};
use super::double_double::DoubleDouble;

/// g(ν, x) = ln I_ν(x) − ν ln x and Q_0 = x I_ν(x)/I_{ν+1}(x), for 0 ≤ ν < 20 and finite x > 0.
pub(crate) fn log_bessel_i_scaled_recurrence(nu: DoubleDouble, x: f64) -> (DoubleDouble, f64) {
    let steps = (DEBYE_MIN_ORDER - nu.hi).ceil().max(1.0);
    let top = nu.add_f64(steps);
    let g_top = log_bessel_i_scaled_debye(top, x);
    let g_above = log_bessel_i_scaled_debye(top.add_f64(1.0), x);
    let mut q = g_top.sub(g_above).to_f64().exp();
    let x2 = x * x;
    let mut product = 1.0;
    let mut order = top.to_f64(); // ν + j + 1 for the Q_j being formed
    for _ in 0..steps as usize {
        q = 2.0 * order + x2 / q;
        product *= q;
        order -= 1.0;
    }
    (g_top.add_f64(product.ln()), q)
}
