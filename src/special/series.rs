//! The ascending power series of I_ν (A&S 9.6.10), used for ν < 20 and x < 32:
//!
//!   I_ν(x) = (x/2)^ν / Γ(ν+1) · S,   S = Σ_{k≥0} t_k,   t_0 = 1,   t_k = t_{k−1} · (x²/4) / (k (k+ν)).
//!
//! Every term is positive, so the sum has no cancellation; with x < 32 it needs at most 47
//! terms for a relative truncation error below 10⁻¹⁷. In the scaled form used by the dispatcher,
//!
//!   g(ν, x) = ln I_ν(x) − ν ln x = −ν ln 2 − ln Γ(ν+1) + ln S,
//!
//! the prefactor is formed in double-double (ln Γ(21) ≈ 42 would otherwise carry 7·10⁻¹⁵ of
//! rounding, more than the budget allows near a zero of ln I).

use super::double_double::DoubleDouble;
use super::ln_gamma::ln_gamma_dd;
use super::ln_table::LN_2;

/// Relative size of the last term kept.
const TRUNCATION: f64 = 1e-17;

/// S − 1 = Σ_{k≥1} t_k, for x ≥ 0 and ν ≥ 0 (returned without the leading 1 so that ln S
/// can be formed with `ln_1p` when S is close to 1).
#[inline(always)]
pub(crate) fn series_tail(nu: f64, x: f64) -> f64 {
    let y = 0.25 * x * x;
    let mut term = 1.0;
    let mut sum = 0.0;
    let mut k = 1.0;
    loop {
        term *= y / (k * (k + nu));
        sum += term;
        if term <= TRUNCATION * (1.0 + sum) {
            return sum;
        }
        k += 1.0;
    }
}

/// g(ν, x) = ln I_ν(x) − ν ln x by the power series; 0 ≤ ν, 0 ≤ x (intended for x < 32).
#[inline(always)]
pub(crate) fn log_bessel_i_scaled_series(nu: DoubleDouble, x: f64) -> DoubleDouble {
    let prefactor = DoubleDouble::from_pair(LN_2)
        .mul(nu)
        .neg()
        .sub(ln_gamma_dd(nu.add_f64(1.0)));
    if x == 0.0 {
        return prefactor;
    }
    prefactor.add_f64(series_tail(nu.hi, x).ln_1p())
}

/// I_{ν+1}(x)/I_ν(x) = x/(2(ν+1)) · S_{ν+1}/S_ν from the two power series (ν ≥ 0, x ≥ 0).
#[inline(always)]
pub(crate) fn bessel_i_ratio_series(nu: f64, x: f64) -> f64 {
    let upper = 1.0 + series_tail(nu + 1.0, x);
    let lower = 1.0 + series_tail(nu, x);
    x / (2.0 * (nu + 1.0)) * (upper / lower)
}
