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

use super::ln_gamma::ln_gamma_dd;
use super::ln_table::LN_2;
use super::series_prefactors::SERIES_PREFACTORS;
use crate::compensated::DoubleDouble;
use crate::special::logarithm::ln_1p_lanes;

/// Relative size of the last term kept.
const TRUNCATION: f64 = 1e-17;

/// The most terms summed. The series is used for x < 32, where at most 53 terms reach
/// `TRUNCATION` (ν = 0.5 at x = 40 takes 53); the bound only makes the loop finite whatever
/// the arithmetic does (a term that stops falling would otherwise loop for ever).
const MAX_TERMS: usize = 256;

/// The factor `1/(k(k+ν))` of the term ratio `t_k/t_{k−1} = (x²/4)·1/(k(k+ν))`: it depends on
/// the order only, so that arguments sharing one order (the lanes below) share it, and the
/// terms cost a multiplication instead of a division.
#[inline(always)]
fn term_ratio_factor(nu: f64, k: f64) -> f64 {
    1.0 / (k * (k + nu))
}

/// S − 1 = Σ_{k≥1} t_k, for x ≥ 0 and ν ≥ 0 (returned without the leading 1 so that ln S
/// can be formed as ln(1 + (S − 1)) when S is close to 1).
#[inline(always)]
pub(crate) fn series_tail(nu: f64, x: f64) -> f64 {
    let y = 0.25 * x * x;
    let mut term = 1.0;
    let mut sum = 0.0;
    let mut k = 1.0;
    for _ in 0..MAX_TERMS {
        term *= y * term_ratio_factor(nu, k);
        sum += term;
        if term <= TRUNCATION * (1.0 + sum) {
            return sum;
        }
        k += 1.0;
    }
    sum
}

/// [`series_tail`] at `L` arguments of one order, bit for bit: each lane runs the scalar
/// recurrence and keeps its sum once its own stopping test has fired (a select, not a branch,
/// so that the loop vectorises); the loop runs until every lane has stopped, or `MAX_TERMS`
/// terms, as the scalar loop.
#[inline(always)]
pub(crate) fn series_tail_lanes<const L: usize>(nu: f64, x: &[f64; L]) -> [f64; L] {
    let mut y = [0.0; L];
    for (yi, &xi) in y.iter_mut().zip(x) {
        *yi = 0.25 * xi * xi;
    }
    let mut term = [1.0; L];
    let mut sum = [0.0; L];
    let mut running = [true; L];
    let mut k = 1.0;
    for _ in 0..MAX_TERMS {
        let factor = term_ratio_factor(nu, k);
        let mut any = false;
        for l in 0..L {
            let t = term[l] * (y[l] * factor);
            let s = sum[l] + t;
            term[l] = t;
            sum[l] = if running[l] { s } else { sum[l] };
            // The negation of the scalar loop's `term <= TRUNCATION·(1 + sum)` break, so that a NaN
            // term stops neither path (bit-identical results, NaN included).
            #[allow(clippy::neg_cmp_op_on_partial_ord)]
            let go_on = !(t <= TRUNCATION * (1.0 + s));
            running[l] = running[l] && go_on;
            any |= running[l];
        }
        if !any {
            return sum;
        }
        k += 1.0;
    }
    sum
}

/// The order-dependent part of [`log_bessel_i_scaled_series`], `−ν ln 2 − ln Γ(ν+1)`: the
/// scaled logarithm at x = 0, shared by every argument of one order.
#[inline(always)]
pub(crate) fn series_prefactor(nu: DoubleDouble) -> DoubleDouble {
    // The vMF normaliser's orders M/2 − 1 are whole or half integers: below 20 their prefactors
    // come from a table (mpmath), sparing each scalar call the shifted Stirling series, whose
    // up to 19 sequential double-double products made it ~150 ns of a ~200 ns call.
    let twice = 2.0 * nu.hi;
    if nu.lo == 0.0 && twice == twice.trunc() && twice < SERIES_PREFACTORS.len() as f64 {
        return DoubleDouble::from_pair(SERIES_PREFACTORS[twice as usize]);
    }
    DoubleDouble::from_pair(LN_2)
        .mul(nu)
        .neg()
        .sub(ln_gamma_dd(nu.add_f64(1.0)))
}

/// [`log_bessel_i_scaled_series`] at `L` arguments `x < 32` of one order, given its
/// [`series_prefactor`]: the same operations lane by lane, hence the same bits.
#[inline(always)]
pub(crate) fn log_bessel_i_scaled_series_lanes<const L: usize>(
    prefactor: DoubleDouble,
    nu: f64,
    x: &[f64; L],
    out: &mut [DoubleDouble; L],
) {
    let tail = series_tail_lanes(nu, x);
    for ((o, &t), &xi) in out.iter_mut().zip(&tail).zip(x) {
        let g = prefactor.add_f64(ln_1p_lanes(t));
        *o = if xi == 0.0 { prefactor } else { g };
    }
}

/// g(ν, x) = ln I_ν(x) − ν ln x by the power series; 0 ≤ ν, 0 ≤ x (intended for x < 32).
#[inline(always)]
pub(crate) fn log_bessel_i_scaled_series(nu: DoubleDouble, x: f64) -> DoubleDouble {
    let prefactor = series_prefactor(nu);
    if x == 0.0 {
        return prefactor;
    }
    prefactor.add_f64(ln_1p_lanes(series_tail(nu.hi, x)))
}

/// I_{ν+1}(x)/I_ν(x) = x/(2(ν+1)) · S_{ν+1}/S_ν from the two power series (ν ≥ 0, x ≥ 0).
#[inline(always)]
pub(crate) fn bessel_i_ratio_series(nu: f64, x: f64) -> f64 {
    let upper = 1.0 + series_tail(nu + 1.0, x);
    let lower = 1.0 + series_tail(nu, x);
    x / (2.0 * (nu + 1.0)) * (upper / lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tabulated prefactors (mpmath) are the computed ones (Stirling's series after the
    /// shift, `ln_gamma.rs`) within the latter's error bound (< 10⁻¹⁹), at every tabulated order;
    /// an ulp off a tabulated order the computed route runs, continuous with the table.
    #[test]
    fn tabulated_prefactors_are_the_computed_ones() {
        let computed = |nu: DoubleDouble| {
            DoubleDouble::from_pair(LN_2)
                .mul(nu)
                .neg()
                .sub(ln_gamma_dd(nu.add_f64(1.0)))
        };
        for (k, &(hi, _)) in SERIES_PREFACTORS.iter().enumerate() {
            let nu = DoubleDouble::from_f64(k as f64 / 2.0);
            let table = series_prefactor(nu);
            assert_eq!(table.hi, hi, "k = {k}: the table is read");
            let err = table.sub(computed(nu)).to_f64().abs();
            assert!(err < 2e-19, "ν = {}: {err:e}", nu.hi);
            let off = DoubleDouble::from_f64(nu.hi.next_up());
            assert_eq!(
                series_prefactor(off).hi,
                computed(off).hi,
                "ν = {:e}",
                off.hi
            );
            // |d/dν (−ν ln 2 − ln Γ(ν+1))| = |ln 2 + ψ(ν+1)| < 5 for ν < 20.
            let step = off.hi - nu.hi;
            assert!((series_prefactor(off).to_f64() - table.to_f64()).abs() <= 5.0 * step + 1e-15);
        }
    }
}
