//! ln Γ(z) for real z > 0 in arbitrary precision: the Stirling series after an upward shift.
//!
//! For real z > 0 (DLMF 5.11.1 and §5.11(ii))
//!
//! ```text
//! ln Γ(z) = (z − ½) ln z − z + ½ ln 2π + Σ_{j=1}^{K} B₂ⱼ / (2j(2j−1) z^{2j−1}) + R_K(z),
//! ```
//!
//! where the remainder R_K(z) is bounded in magnitude by the first neglected term (and has its
//! sign). The sum is therefore cut at the first term smaller than 2^−(p+16): the truncation
//! error is below that term. The series is asymptotic, so small z is first shifted up by the
//! recurrence Γ(z + 1) = z Γ(z):
//!
//! ```text
//! ln Γ(z) = ln Γ(z + m) − ln(z (z+1) ⋯ (z+m−1)),
//! ```
//!
//! with m chosen so that z + m ≥ Z₀(p), the point where the bound on the first neglected
//! coefficient guarantees the cut happens within the precomputed coefficients (and if it did
//! not, the shift is doubled: a safety net, never a silent truncation). The product has only
//! positive factors, so its relative error is at most m·2^−p.
//!
//! ln Γ(1) = ln Γ(2) = 0 are returned exactly, so that ln I₀(x) for tiny x (≈ x²/4, e.g.
//! 2.5·10⁻¹⁷ at x = 10⁻⁸) keeps its full relative accuracy.

use std::cell::RefCell;
use std::rc::Rc;

use astro_float::{BigFloat, Consts};

use super::bernoulli::stirling_coefficients;
use super::double_double::round_to_f64;
use super::working_precision::RM;

/// Number of Stirling coefficients used at precision `p`.
fn coefficient_count(p: usize) -> usize {
    (p / 4).max(64)
}

thread_local! {
    /// Stirling coefficients per precision (p takes only a handful of values).
    static COEFFICIENTS: RefCell<Vec<(usize, Rc<Vec<BigFloat>>)>> = const { RefCell::new(Vec::new()) };
}

fn coefficients(p: usize) -> Rc<Vec<BigFloat>> {
    COEFFICIENTS.with(|cell| {
        if let Some((_, c)) = cell.borrow().iter().find(|(q, _)| *q == p) {
            return Rc::clone(c);
        }
        let c = Rc::new(stirling_coefficients(coefficient_count(p), p));
        cell.borrow_mut().push((p, Rc::clone(&c)));
        c
    })
}

/// Z₀(p): for z ≥ Z₀ the first coefficient left out, c_{K+1} z^{−(2K+1)}, is below 2^−(p+16).
///
/// |c_j| = |B₂ⱼ|/(2j(2j−1)) = 2 ζ(2j) (2j−2)! / (2π)^{2j} ≤ 2 ζ(2) (2j−2)! / (2π)^{2j}.
fn shift_threshold(p: usize, count: usize) -> f64 {
    let two_k = 2 * count;
    let ln_factorial: f64 = (2..=two_k).map(|i| (i as f64).ln()).sum();
    let ln_c_bound = (2.0 * std::f64::consts::PI * std::f64::consts::PI / 6.0).ln() + ln_factorial
        - (two_k as f64 + 2.0) * (2.0 * std::f64::consts::PI).ln();
    let ln_z0 = (ln_c_bound + (p as f64 + 16.0) * std::f64::consts::LN_2) / (two_k as f64 + 1.0);
    ln_z0.exp() * 1.05 + 1.0
}

/// The Stirling series at z (large enough), or `None` if the coefficients ran out before a term
/// fell below 2^−(p+16).
fn stirling_series(z: &BigFloat, p: usize, cc: &mut Consts) -> Option<BigFloat> {
    let ln_z = z.ln(p, RM, cc);
    let half = BigFloat::from_f64(0.5, p);
    let half_ln_two_pi = cc
        .pi(p, RM)
        .mul(&BigFloat::from_u64(2, p), p, RM)
        .ln(p, RM, cc)
        .mul(&half, p, RM);
    let mut value = z
        .sub(&half, p, RM)
        .mul(&ln_z, p, RM)
        .sub(z, p, RM)
        .add(&half_ln_two_pi, p, RM);
    let w = BigFloat::from_u64(1, p).div(z, p, RM);
    let w2 = w.mul(&w, p, RM);
    let mut power = w; // z^{1−2j}
    let negligible = -(p as i64 + 16);
    for c in coefficients(p).iter() {
        let term = c.mul(&power, p, RM);
        if term.is_zero() || (term.exponent()? as i64) <= negligible {
            // |term| < 2^exponent ≤ 2^−(p+16): the remainder is below it (DLMF §5.11(ii)).
            return Some(value);
        }
        value = value.add(&term, p, RM);
        power = power.mul(&w2, p, RM);
    }
    None
}

/// ln Γ(z) at precision `p` for real z > 0, with absolute error about (|ln Γ(z)| + m + 1)·2^−p
/// (m the shift; see the module docs). Returns NaN for z ≤ 0 or NaN.
#[doc(hidden)]
pub fn ln_gamma(z: &BigFloat, p: usize, cc: &mut Consts) -> BigFloat {
    if z.is_nan() || !z.is_positive() || z.is_zero() {
        return BigFloat::nan(None);
    }
    let one = BigFloat::from_u64(1, p);
    let two = BigFloat::from_u64(2, p);
    if z.cmp(&one) == Some(0) || z.cmp(&two) == Some(0) {
        return BigFloat::new(p);
    }
    let z_approx = round_to_f64(z);
    let threshold = shift_threshold(p, coefficient_count(p));
    let mut shift: u64 = if z_approx < threshold {
        (threshold - z_approx).ceil() as u64
    } else {
        0
    };
    loop {
        let shifted = z.add(&BigFloat::from_u64(shift, p), p, RM);
        if let Some(value) = stirling_series(&shifted, p, cc) {
            if shift == 0 {
                return value;
            }
            let mut product = z.clone();
            for i in 1..shift {
                product = product.mul(&z.add(&BigFloat::from_u64(i, p), p, RM), p, RM);
            }
            return value.sub(&product.ln(p, RM, cc), p, RM);
        }
        shift = (2 * shift).max(16);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::special::exact::double_double::round_to_f64;
    use crate::special::exact::working_precision::with_consts;
    use astro_float::Radix;

    /// |ln Γ(z) − reference| / |reference|, in 256-bit arithmetic.
    fn relative_error(z: f64, reference: &str) -> f64 {
        with_consts(|cc| {
            let got = ln_gamma(&BigFloat::from_f64(z, 256), 256, cc);
            let want = BigFloat::parse(reference, Radix::Dec, 256, RM, cc);
            round_to_f64(&got.sub(&want, 256, RM).div(&want, 256, RM).abs())
        })
        .unwrap()
    }

    #[test]
    fn ln_gamma_matches_mpmath() {
        // mpmath, mp.dps = 50: loggamma(mpf(z)) for z = 0.5, 10, 1e-3, 37.7 (binary value),
        // 1e7 + 0.25.
        assert!(
            relative_error(0.5, "0.57236494292470008707171367567652935582364740645766") < 1e-45
        );
        assert!(
            relative_error(10.0, "12.801827480081469611207717874566706164281149255663") < 1e-45
        );
        assert!(
            relative_error(1e-3, "6.9071788853838536616836814586486017832322969863729") < 1e-45
        );
        assert!(
            relative_error(37.7, "98.244504428306506456772361205461332780020210541941") < 1e-45
        );
        assert!(
            relative_error(
                1e7 + 0.25,
                "151180953.39899781730468545178508367048323500663142"
            ) < 1e-45
        );
    }

    #[test]
    fn ln_gamma_is_exactly_zero_at_one_and_two() {
        with_consts(|cc| {
            for z in [1u64, 2] {
                assert!(ln_gamma(&BigFloat::from_u64(z, 256), 256, cc).is_zero());
            }
            assert!(ln_gamma(&BigFloat::from_u64(0, 256), 256, cc).is_nan());
        })
        .unwrap();
    }
}
