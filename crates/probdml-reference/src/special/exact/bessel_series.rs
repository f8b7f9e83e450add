//! The power series of I_ν(x), summed outward from its largest term in log-scaled form.
//!
//! ```text
//! I_ν(x) = Σ_{k≥0} t_k,   t_k = (x/2)^{2k+ν} / (k! Γ(k+ν+1))          (A&S 9.6.10)
//! t_{k+1} / t_k = q / ((k+1)(k+ν+1)),   q = (x/2)²
//! ```
//!
//! Every term is positive, so the sum has no cancellation. The ratio of consecutive terms
//! decreases in k, so the terms rise to a single peak and fall: t_{k+1} > t_k exactly while
//! k + 1 < u, the positive root of u(u + ν) = q, so the largest term is t_{k*}, k* = ⌊u⌋.
//!
//! **Log-scaled form.** ln t_{k*} = (2k* + ν) ln(x/2) − ln Γ(k*+1) − ln Γ(k*+ν+1) is computed
//! directly (arbitrary-precision ln Γ), and S = Σ_k t_k / t_{k*} by the exact term ratio,
//! outward from k* in both directions. S lies between 1 and the number of terms, so nothing
//! overflows however large I_ν(x) is (e^{10⁸} at x = 10⁸), and ln I_ν(x) = ln t_{k*} + ln S.
//!
//! **Truncation.** Beyond the peak the ratios r_k = t_{k+1}/t_k keep decreasing, so once r < 1
//! the rest of the series is below the geometric tail t_k r/(1 − r). Summation in each direction
//! stops at the first term whose tail bound is below 2^−(p+8) S, so the neglected mass is at
//! most 2^−(p+7) S. (The bound is evaluated in `f64` from logarithms with two bits of slack;
//! ratios within 10⁻⁹ of 1 never stop the sum.)
//!
//! **Rounding.** Each step multiplies the previous term by q and divides by a product of two
//! rounded factors: at most 4 roundings, so the n-th term from the peak has relative error
//! ≤ 4n·2^−p, and the sum of N positive terms ≤ 5N·2^−p. With N ≤ 2·10⁵ (x = 10⁸) that is
//! below 2^−(p−20): ln S has absolute error below 2^−(p−21). ln t_{k*} has absolute error of
//! order |(2k*+ν) ln(x/2)|·2^−p, which the working precision keeps below 2^−192
//! (see [`working_precision`](super::working_precision)).
//!
//! **The ratio I_{ν+1}/I_ν.** The series of I_{ν+1} has terms t_k(ν+1) = t_k(ν)·(x/2)/(k+ν+1):
//! it is summed the same way, relative to the same peak t_{k*}(ν), starting from
//! (x/2)/(k*+ν+1). The ratio is then the quotient of two positive sums, S_{ν+1} / S_ν, with no
//! exponential and no cancellation.
//!
//! **Cost.** The number of terms is about the width of the peak times 2√(2(p+8) ln 2) ≈ 38
//! widths at p = 256. For x ≫ ν the terms are, up to a factor, a squared Poisson(x/2) mass, of
//! width √x/2, so N ≈ 19√x (1.9·10⁵ at x = 10⁸); far fewer when ν ≫ x. Each term costs a few
//! 256-bit operations (~1.5 µs), so the worst corner of the domain (x = 10⁸) takes ~0.3 s for
//! ln I_ν and twice that for the ratio.

use astro_float::{BigFloat, Consts};

use super::double_double::big_from_f64;
use super::ln_gamma::ln_gamma;
use super::working_precision::{working_precision, RM};

/// Largest argument x the series reference accepts: its cost grows like √x (about a few
/// seconds here, ~10⁶ terms). Beyond it the exact functions return NaN.
pub const SERIES_X_MAX: f64 = 1e10;

/// ln of the term ratios below which a step counts as "ratio < 1" for the tail bound: leaves
/// room for the `f64` evaluation error of the logarithms (~10⁻¹⁴).
const LN_RATIO_MARGIN: f64 = -1e-9;

/// k* = ⌊u⌋ with u(u + ν) = (x/2)²: the index of the largest term. Written as
/// u = x² / (2(ν + √(ν² + x²))) to avoid cancellation when x ≪ ν.
fn peak_index(nu: f64, x: f64) -> u64 {
    let u = x * x / (2.0 * (nu + nu.hypot(x)));
    if u.is_finite() && u > 0.0 {
        u.floor() as u64
    } else {
        0
    }
}

/// Whether every term after `term` (in the current direction) is negligible: with the next
/// ratio r = e^{ln_ratio} < 1 and the ratios decreasing, the tail is at most term·r/(1 − r),
/// and it must lie below 2^−(p+8)·sum.
fn tail_is_negligible(term: &BigFloat, sum: &BigFloat, ln_ratio: f64, p: usize) -> bool {
    if term.is_zero() {
        return true;
    }
    if ln_ratio >= LN_RATIO_MARGIN || ln_ratio.is_nan() {
        return false;
    }
    let (Some(term_exponent), Some(sum_exponent)) = (term.exponent(), sum.exponent()) else {
        return false;
    };
    // term < 2^term_exponent, sum ≥ 2^(sum_exponent − 1); log₂(r/(1 − r)) with 2 bits slack.
    let log2_factor = (ln_ratio - (-ln_ratio.exp_m1()).ln()) / std::f64::consts::LN_2;
    term_exponent as f64 + log2_factor + 2.0 <= sum_exponent as f64 - 1.0 - (p as f64 + 8.0)
}

/// Σ_k a_k for a series with a_{k+1}/a_k = q / ((k+1)(k+μ+1)), given a_start = `first`:
/// upward from `start` then downward to k = 0, each direction cut by [`tail_is_negligible`].
/// Returns NaN if an operation fails (allocation), never loops on it.
/// `mu_big` is μ exactly; `mu` its `f64` approximation, used only in the tail bound.
fn sum_outward(
    mu_big: &BigFloat,
    mu: f64,
    q: &BigFloat,
    ln_q: f64,
    start: u64,
    first: &BigFloat,
    p: usize,
) -> BigFloat {
    let mut sum = first.clone();

    // Upward: a_{k+1} = a_k · q / ((k+1)(k+1+μ)).
    let mut term = first.clone();
    let mut k = start;
    loop {
        let k1 = (k + 1) as f64;
        let ln_ratio = ln_q - k1.ln() - (k1 + mu).ln();
        if tail_is_negligible(&term, &sum, ln_ratio, p) {
            break;
        }
        let k1_big = BigFloat::from_u64(k + 1, p);
        let denominator = k1_big.mul(&k1_big.add(mu_big, p, RM), p, RM);
        term = term.mul(q, p, RM).div(&denominator, p, RM);
        sum = sum.add(&term, p, RM);
        if sum.is_nan() {
            return sum;
        }
        k += 1;
    }

    // Downward: a_{k−1} = a_k · k(k+μ) / q.
    let mut term = first.clone();
    let mut k = start;
    while k > 0 {
        let kf = k as f64;
        let ln_ratio = kf.ln() + (kf + mu).ln() - ln_q;
        if tail_is_negligible(&term, &sum, ln_ratio, p) {
            break;
        }
        let k_big = BigFloat::from_u64(k, p);
        let numerator = k_big.mul(&k_big.add(mu_big, p, RM), p, RM);
        term = term.mul(&numerator, p, RM).div(q, p, RM);
        sum = sum.add(&term, p, RM);
        if sum.is_nan() {
            return sum;
        }
        k -= 1;
    }
    sum
}

/// I_ν(x) (and optionally I_{ν+1}(x)) as ln t_{k*} plus sums relative to t_{k*}.
#[doc(hidden)]
pub struct LogScaledSeries {
    /// Working precision p in bits of every quantity below.
    #[doc(hidden)]
    pub precision: usize,
    /// ln t_{k*}(ν), the logarithm of the largest term of the series of I_ν(x).
    ln_peak_term: BigFloat,
    /// S_ν = I_ν(x) / t_{k*}(ν).
    sum: BigFloat,
    /// S_{ν+1} = I_{ν+1}(x) / t_{k*}(ν), when requested.
    sum_next_order: Option<BigFloat>,
}

impl LogScaledSeries {
    /// Sums the series for ν (and ν + 1 if `with_next_order`).
    ///
    /// Preconditions (checked by the public wrappers): ν finite and ≥ 0, 0 < x ≤
    /// [`SERIES_X_MAX`].
    #[doc(hidden)]
    pub fn evaluate(nu: f64, x: f64, with_next_order: bool, cc: &mut Consts) -> Self {
        let k_star = peak_index(nu, x);
        let kf = k_star as f64;
        let ln_half_x = x.ln() - std::f64::consts::LN_2;
        let magnitude = (2.0 * kf + nu) * ln_half_x.abs()
            + (kf + 1.0) * (kf + 2.0).ln()
            + (kf + nu + 1.0) * (kf + nu + 2.0).ln()
            + 1.0;
        let p = working_precision(magnitude);

        let nu_big = big_from_f64(nu, p);
        // x/2 and (x/2)² are exact: x has 53 bits and p ≥ 256.
        let half_x = big_from_f64(x, p).div(&BigFloat::from_u64(2, p), p, RM);
        let q = half_x.mul(&half_x, p, RM);
        let k_big = BigFloat::from_u64(k_star, p);
        let one = BigFloat::from_u64(1, p);

        // ln t_{k*} = (2k* + ν) ln(x/2) − ln Γ(k*+1) − ln Γ(k*+ν+1)
        let exponent = k_big
            .mul(&BigFloat::from_u64(2, p), p, RM)
            .add(&nu_big, p, RM);
        let k_plus_one = k_big.add(&one, p, RM);
        let k_plus_nu_plus_one = k_plus_one.add(&nu_big, p, RM);
        let ln_peak_term = exponent
            .mul(&half_x.ln(p, RM, cc), p, RM)
            .sub(&ln_gamma(&k_plus_one, p, cc), p, RM)
            .sub(&ln_gamma(&k_plus_nu_plus_one, p, cc), p, RM);

        let ln_q = 2.0 * ln_half_x;
        let sum = sum_outward(&nu_big, nu, &q, ln_q, k_star, &one, p);
        let sum_next_order = with_next_order.then(|| {
            // t_{k*}(ν+1) / t_{k*}(ν) = (x/2) / (k* + ν + 1)
            let first = half_x.div(&k_plus_nu_plus_one, p, RM);
            // ν + 1 exactly (ν has 53 bits, p ≥ 256); the f64 ν + 1 only steers the tail bound.
            let nu_plus_one = nu_big.add(&one, p, RM);
            sum_outward(&nu_plus_one, nu + 1.0, &q, ln_q, k_star, &first, p)
        });
        LogScaledSeries {
            precision: p,
            ln_peak_term,
            sum,
            sum_next_order,
        }
    }

    /// ln I_ν(x) = ln t_{k*} + ln S_ν.
    #[doc(hidden)]
    pub fn log_bessel_i(&self, cc: &mut Consts) -> BigFloat {
        let p = self.precision;
        self.ln_peak_term.add(&self.sum.ln(p, RM, cc), p, RM)
    }

    /// I_{ν+1}(x) / I_ν(x) = S_{ν+1} / S_ν (NaN if evaluated without the next order).
    #[doc(hidden)]
    pub fn ratio(&self) -> BigFloat {
        match &self.sum_next_order {
            Some(next) => next.div(&self.sum, self.precision, RM),
            None => BigFloat::nan(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::special::exact::double_double::round_to_f64;
    use crate::special::exact::working_precision::with_consts;
    use astro_float::Radix;

    /// |value − reference| / |reference| in the working precision.
    fn relative_error(value: &BigFloat, reference: &str, cc: &mut Consts) -> f64 {
        let want = BigFloat::parse(reference, Radix::Dec, 320, RM, cc);
        round_to_f64(&value.sub(&want, 320, RM).div(&want, 320, RM).abs())
    }

    /// The big-float results themselves, before rounding to a double-double, agree with mpmath
    /// (80-digit working precision, 50 digits printed) to 10⁻⁴⁵: far beyond what the `f64` and
    /// double-double interfaces can show.
    #[test]
    fn big_float_results_match_mpmath_to_45_digits() {
        let cases: &[(f64, f64, &str, &str)] = &[
            (
                0.1,
                7.3,
                "5.4048993254849715265692351075619091711899704154296",
                "0.91515054563274646620350496191794025156282638068143",
            ),
            (
                31.0,
                140.0,
                "133.18075830081623859912108419966647521426729051944",
                "0.79938431132992286743991237618765124349378320859496",
            ),
            (
                50000.0,
                10000.0,
                "-64638.060562040641154458884992321635790529728003278",
                "0.099017590551762574841698320674836100303153970796596",
            ),
            (
                4095.0,
                1e-8,
                "-108241.4556455552414570874903371113930668046957535",
                "0.0000000000012207031250000000255402335697949980164878755487949",
            ),
            (
                0.0,
                1e-8,
                "2.5000000000000000889878041506423633369681089005863e-17",
                "0.0000000050000000000000000421128041506423604953196814640172",
            ),
        ];
        with_consts(|cc| {
            for &(nu, x, ln_i, ratio) in cases {
                let series = LogScaledSeries::evaluate(nu, x, true, cc);
                let e = relative_error(&series.log_bessel_i(cc), ln_i, cc);
                assert!(e < 1e-45, "ln I_{nu}({x}): relative error {e:e}");
                let e = relative_error(&series.ratio(), ratio, cc);
                assert!(e < 1e-45, "I_{nu}+1/I_{nu}({x}): relative error {e:e}");
            }
        })
        .unwrap();
    }

    #[test]
    fn peak_index_is_the_largest_term() {
        // k* = ⌊u⌋, u(u + ν) = (x/2)²: at ν = 0, x = 2·10⁴, u = 10⁴ exactly.
        assert_eq!(peak_index(0.0, 2e4), 10_000);
        assert_eq!(peak_index(5e4, 1e-8), 0);
        assert_eq!(peak_index(0.0, 1.0), 0);
        // Neither neighbour is larger: (x/2)² ≤ (k*+1)(k*+ν+1) and k*(k*+ν) ≤ (x/2)².
        for &(nu, x) in &[
            (0.3, 17.0),
            (2.5, 1e3),
            (5e4, 1e8),
            (0.0, 1e8),
            (1023.0, 77.7),
        ] {
            let k = peak_index(nu, x) as f64;
            let q = x * x / 4.0;
            assert!(
                q <= (k + 1.0) * (k + nu + 1.0) * (1.0 + 1e-15),
                "({nu}, {x})"
            );
            assert!(k * (k + nu) <= q * (1.0 + 1e-15), "({nu}, {x})");
        }
    }
}
