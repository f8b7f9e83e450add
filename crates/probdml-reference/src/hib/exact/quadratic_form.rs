//! The general diagonal route: `p = a ∫_0^∞ sigmoid(−ar + b) sigmoid(ar − b) P(‖Δ‖² ≤ r²) dr`.
//!
//! Integration by parts of `E h(‖Δ‖)` with `h(r) = sigmoid(−ar + b)`: `h(∞) = 0`, `P(‖Δ‖ ≤ 0) = 0`
//! when some coordinate is random, and `−h'(r) = a sigmoid(−ar + b) sigmoid(ar − b) > 0`, so
//!
//! `E h(‖Δ‖) = ∫_0^∞ −h'(r) P(‖Δ‖ ≤ r) dr`,
//!
//! a positive integrand: the log-sigmoids are concave in `r` and `P(‖Δ‖ ≤ r)` rises from 0 to 1,
//! so the integrand is unimodal and is taken relative to its peak by [`super::log_concave`]
//! (tiny probabilities keep their relative accuracy). `P(‖Δ‖² ≤ x)` in log space is chapter 05's
//! [`GaussianQuadraticForm::ln_cdf`] for `‖Δ‖² = c + Σ_k s_k (Z_k + δ_k/√s_k)²` — the one CDF of
//! quadratic forms in the crate.

use crate::error::Result;
use crate::gaussian_quadratic_form::GaussianQuadraticForm;
use crate::hib::exact::difference::DifferenceLaw;
use crate::hib::exact::log_concave;
use crate::hib::exact::logistic::log_sigmoid;

/// `ln E sigmoid(−a‖Δ‖ + b)` for any diagonal law with at least one random coordinate.
#[doc(hidden)]
pub fn log_match_probability(law: &DifferenceLaw, a: f64, b: f64) -> Result<f64> {
    let form = GaussianQuadraticForm::new(&law.weights, &law.shifts, law.offset)?;
    let ln_a = a.ln();
    let ell = |r: f64| ln_a + log_sigmoid(-a * r + b) + log_sigmoid(a * r - b) + form.ln_cdf(r * r);
    // The integrand falls like e^{−a|r − b/a|} beyond the threshold and like the CDF below the
    // bulk of ‖Δ‖: its peak lies below both scales summed.
    let bulk = (form.mean() + 10.0 * form.variance().sqrt()).sqrt();
    let upper = (b / a).max(0.0) + bulk + 10.0 / a;
    let threshold = if b > 0.0 { b / a } else { f64::NAN };
    log_concave::log_integral(ell, upper, &[threshold, law.offset.sqrt()])
}
