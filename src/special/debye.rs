//! The uniform asymptotic (Debye) expansion of I_ν for large order (A&S 9.7.7, DLMF 10.41.3),
//! used for ν ≥ 20 and every x ≥ 0:
//!
//!   I_ν(νz) ~ e^{νη} / (√(2πν) (1 + z²)^{1/4}) · Σ_{k≥0} U_k(p) / ν^k,
//!   p = 1/√(1+z²),  η = √(1+z²) + ln(z / (1 + √(1+z²))).
//!
//! With s = √(ν² + x²) and p = ν/s this is, in the scaled form used by the dispatcher,
//!
//!   g(ν, x) = ln I_ν(x) − ν ln x = s − ν ln(ν + s) − ½ ln(2π s) + ln(1 + Σ_{k≥1} U_k(p)/ν^k).
//!
//! The expansion is uniform in z ∈ [0, ∞), so it also covers x → 0 (where it reduces to
//! Stirling's series for 1/Γ(ν+1)) and x → ∞. The number of terms is chosen from the maximum
//! of |U_k| on [0, 1] so that the first omitted term is below 10⁻¹⁷ (see the table in
//! `terms_for_order`). The leading terms s − ν ln(ν+s) − ½ ln(2πs) reach 10⁶ at ν = 5·10⁴ and
//! cancel to O(1) near the zero of ln I_ν, so they are formed in double-double.

use super::debye_coefficients::{DEBYE_TERMS, V};
use super::double_double::DoubleDouble;
use super::ln_table::LN_2PI;

/// The smallest order for which the expansion is used.
pub(crate) const DEBYE_MIN_ORDER: f64 = 20.0;

/// Number of terms k = 1..=K with max_p |U_{K+1}(p)| / ν^{K+1} < 10⁻¹⁷ (max |U_k| on [0,1]:
/// U_6 0.040, U_7 0.065, U_9 0.38, U_11 3.6, U_16 4624 — from the exact polynomials).
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

/// Σ_{k=1}^{K} U_k(p) / ν^k = Σ_k (p/ν)^k V_k(p²), by Horner in u = p/ν over k.
#[inline(always)]
fn correction_sum(nu: f64, p: f64) -> f64 {
    let terms = terms_for_order(nu);
    let p2 = p * p;
    let u = p / nu;
    let mut sum = 0.0;
    for k in (1..=terms).rev() {
        let row = &V[k - 1];
        let mut v = row[k];
        for j in (0..k).rev() {
            v = v.mul_add(p2, row[j]);
        }
        sum = (sum + v) * u;
    }
    sum
}

/// g(ν, x) = ln I_ν(x) − ν ln x for ν ≥ 20, x ≥ 0 finite; the order is a double-double so
/// that ν + 1 is exact for the Bessel ratio (an error δ in the order moves g by ~δ ln 2ν).
pub(crate) fn log_bessel_i_scaled_debye(order: DoubleDouble, x: f64) -> DoubleDouble {
    let nu = order.hi;
    let s = order.mul(order).add(DoubleDouble::product(x, x)).sqrt();
    let nu_plus_s = s.add(order);
    // ν ln(ν+s) + ½ ln s + ½ ln 2π, all in double-double.
    let logs = nu_plus_s
        .ln()
        .mul(order)
        .add(s.ln().add(DoubleDouble::from_pair(LN_2PI)).mul_f64(0.5));
    let p = nu / s.hi;
    s.sub(logs).add_f64(correction_sum(nu, p).ln_1p())
}
