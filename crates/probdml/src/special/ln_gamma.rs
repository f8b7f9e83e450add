//! ln Γ(z) for z > 0 as a double-double (used by the power series of I_ν, whose prefactor is
//! (x/2)^ν / Γ(ν + 1)).
//!
//! Shift z up to w = z + m ≥ 20 with Γ(z) = Γ(w) / (z (z+1) ⋯ (z+m−1)), then Stirling's series
//! (A&S 6.1.40)
//!
//!   ln Γ(w) = (w − ½) ln w − w + ½ ln 2π + Σ_{n=1}^{7} B_{2n} / (2n(2n−1) w^{2n−1}).
//!
//! At w ≥ 20 the first omitted term is |B₁₆|/(240 w¹⁵) < 10⁻²¹; the leading terms and
//! 1/(12w) are formed in double-double, the remaining corrections (< 3.5·10⁻⁷) in `f64`
//! (absolute error < 10⁻²²). The double-double logarithm's absolute floor of 2·10⁻²¹, multiplied
//! by w − ½ < 21, bounds the whole: |error| < 10⁻¹⁹ for the z ≤ 21 the series regime asks for.

use super::ln_table::HALF_LN_2PI;
use crate::compensated::DoubleDouble;
use crate::special::logarithm::Ln;

/// Where Stirling's series starts.
const STIRLING_MIN: f64 = 20.0;

/// ln Γ(z) for finite z > 0, z given as a double-double (the Bessel ratio asks for
/// ln Γ(ν + 2) with ν + 1 not always a double). The product of the shift stays below 20! ≈ 2.4·10¹⁸ times
/// z^20, far from overflow for the z ≤ 10⁶ this crate asks for.
#[inline(always)]
pub(crate) fn ln_gamma_dd(z: DoubleDouble) -> DoubleDouble {
    let mut w = z;
    let mut product = DoubleDouble::from_f64(1.0);
    while w.hi < STIRLING_MIN {
        product = product.mul(w);
        w = w.add_f64(1.0);
    }
    let ln_w = w.ln();
    let leading = w
        .add_f64(-0.5)
        .mul(ln_w)
        .sub(w)
        .add(DoubleDouble::from_pair(HALF_LN_2PI));
    // 1/(12w) (< 4.2·10⁻³) in double-double, the rest (< 3.5·10⁻⁷) in f64: absolute error
    // < 10⁻²².
    let first = DoubleDouble::from_f64(1.0).div(w.mul_f64(12.0));
    let inv = 1.0 / w.hi;
    let inv2 = inv * inv;
    // B4/12 = −1/360, B6/30 = 1/1260, B8/56 = −1/1680, B10/90 = 1/1188,
    // B12/132 = −691/360360, B14/182 = 1/156.
    let rest = inv
        * inv2
        * (-1.0 / 360.0
            + inv2
                * (1.0 / 1260.0
                    + inv2
                        * (-1.0 / 1680.0
                            + inv2 * (1.0 / 1188.0 + inv2 * (-691.0 / 360360.0 + inv2 / 156.0)))));
    let result = leading.add(first).add_f64(rest);
    if product.hi == 1.0 && product.lo == 0.0 {
        result
    } else {
        result.sub(product.ln())
    }
}

/// ln Γ(z) rounded to `f64`.
#[allow(dead_code)]
#[inline(always)]
pub(crate) fn ln_gamma(z: f64) -> f64 {
    ln_gamma_dd(DoubleDouble::from_f64(z)).to_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_gamma_matches_factorials_and_half_integers() {
        // ln n! by summing double-double logs of integers (an independent route).
        let mut ln_fact = DoubleDouble::ZERO;
        let ln_dd = crate::special::logarithm::ln_dd;
        for n in 1..=60u32 {
            ln_fact = ln_fact.add(ln_dd(n as f64));
            let got = ln_gamma_dd(DoubleDouble::from_f64(n as f64 + 1.0));
            let err = got.sub(ln_fact).to_f64().abs();
            // The documented bound (z ≤ 61 here: the ln floor times w gives < 2·10⁻¹⁹).
            assert!(err <= 2e-19, "n = {n}: {err:e}");
        }
        // Γ(1/2) = √π: ln Γ(½) = ½ ln π, (hi, lo) from mpmath at 50 digits
        let got = ln_gamma_dd(DoubleDouble::from_f64(0.5));
        let want = DoubleDouble::new(0.5723649429247001, 0.0).add_f64(5.132975581353913e-18);
        assert!(got.sub(want).to_f64().abs() < 1e-19, "{:?}", got);
    }
}
