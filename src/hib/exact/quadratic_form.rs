//! The general diagonal route: `p = a ∫_0^∞ sigmoid(−ar + b) sigmoid(ar − b) P(‖Δ‖² ≤ r²) dr`.
//!
//! Integration by parts of `E h(‖Δ‖)` with `h(r) = sigmoid(−ar + b)`, `h(∞) = 0`,
//! `−h'(r) = a sigmoid(−ar + b) sigmoid(ar − b) > 0`: a positive integrand, log-concave in `r`
//! (`ln sigmoid(−ar+b) + ln sigmoid(ar−b)` is concave, and so is `ln P(Q ≤ r²)`… for the
//! log-concave laws met here; the peak search only needs unimodality), taken relative to its
//! peak so that tiny probabilities keep their relative accuracy. `P(Q ≤ x)` in log space is
//! chapter 05's `GaussianQuadraticForm::ln_cdf`.
//!
//! Until chapter 05's module is merged, the general diagonal case is routed to the polar
//! reference for `D ≤ 4` and fails with `NoConvergence` above.

use crate::error::{Error, Result};
use crate::hib::exact::difference::DifferenceLaw;
use crate::hib::exact::polar;

/// `ln E sigmoid(−a‖Δ‖ + b)` for unequal variances.
pub(crate) fn ln_match_probability(law: &DifferenceLaw, a: f64, b: f64) -> Result<f64> {
    if law.random_dim() <= polar::POLAR_MAX_DIM {
        return polar::ln_match_probability(law, a, b);
    }
    Err(Error::NoConvergence {
        method: "hib::exact::match_probability (general diagonal route awaits chapter 05)",
        iterations: 0,
    })
}
