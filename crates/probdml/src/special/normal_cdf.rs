//! ln Φ(z), the logarithm of the standard normal CDF, accurate from z = +∞ down to z = −10⁵
//! and beyond (BTL's CLT likelihood, book chapter 05).
//!
//! Three regimes, each chosen so that no digit is lost:
//!
//! * `z > 0`: `Φ(z) = 1 − ½ erfc(z/√2)`, so `ln Φ(z) = ln1p(−½ erfc(z/√2))`; the small
//!   complement is formed directly, never as `1 − Φ`.
//! * `−20 ≤ z ≤ 0`: `ln Φ(z) = ln(½ erfc(−z/√2))`, with `erfc` from `libm` (the musl/FreeBSD
//!   port, error below one ulp). The rounding of `z/√2` moves the result by at most
//!   `z²·2⁻⁵³` absolutely, which is `2⁻⁵²` relative to `|ln Φ(z)| ≈ z²/2`.
//! * `z < −20`: `erfc` underflows below `z ≈ −38.5`, and the BTL listing's `ln(Φ + 10⁻⁸)` clamp
//!   flattens the loss long before. Instead, Laplace's asymptotic series of Mills' ratio
//!   (A&S 26.2.12):
//!
//!   `Φ(z) = φ(z)/|z| · (1 − 1/z² + 3/z⁴ − 15/z⁶ + …)`,
//!
//!   so `ln Φ(z) = −z²/2 − ln|z| − ½ ln 2π + ln(1 − 1/z² + …)`. At `|z| ≥ 20` the terms
//!   `(2k−1)!!/z^{2k}` fall below `10⁻¹⁷` by `k = 10`, long before the series starts to diverge
//!   (`k ≈ z²/2 = 200`), and the alternating remainder is bounded by the first omitted term.

use super::LN_2PI;

/// Below this `z`, the asymptotic series replaces `erfc` (see the module docs).
const ASYMPTOTIC_BELOW: f64 = -20.0;

/// The largest number of series terms ever needed at `|z| ≥ 20` (the tenth is `< 10⁻¹⁷`).
const MAX_TERMS: usize = 16;

/// ln Φ(z), the natural logarithm of the standard normal cumulative distribution function.
///
/// # Formula
///
/// $$ \ln\Phi(z) = \ln \tfrac12 \operatorname{erfc}\\!\left(-z/\sqrt2\right),\qquad
///    \ln\Phi(z) \sim -\tfrac{z^2}{2} - \ln|z| - \tfrac12\ln 2\pi +
///      \ln\Big(1 - \tfrac{1}{z^2} + \tfrac{3}{z^4} - \cdots\Big)\ (z\to-\infty) $$
///
/// (A&S 7.1.2, 26.2.12). The three regimes and their error bounds are in the module docs.
/// This is the log-likelihood of the BTL CLT approximation (BTL eq. (11)) without the listing's
/// `ln(Φ + 10⁻⁸)` clamp, whose gradient vanishes for `Φ ≪ 10⁻⁸`.
///
/// Raw kernel: NaN for NaN; `ln Φ(+∞) = 0`, `ln Φ(−∞) = −∞`.
///
/// # Errors
///
/// None (NaN in, NaN out).
///
/// # Examples
///
/// ```
/// use probdml::special::log_normal_cdf;
/// // mpmath: log(ncdf(0)) = −ln 2; log(ncdf(−1)) = −1.8410216450092635057…
/// assert_eq!(log_normal_cdf(0.0), -std::f64::consts::LN_2);
/// assert!((log_normal_cdf(-1.0) + 1.8410216450092636).abs() < 1e-15);
/// // Far tail: log(ncdf(−1e5)) = −5000000012.4318639982…
/// assert!((log_normal_cdf(-1e5) / -5000000012.431864 - 1.0).abs() < 1e-15);
/// // Upper tail: ln Φ(10) = −7.6198530241605260704…e−24 (= −Φ(−10) to first order).
/// assert!((log_normal_cdf(10.0) / -7.619853024160526e-24 - 1.0).abs() < 1e-14);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn log_normal_cdf(z: f64) -> f64 {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || {
            if z.is_nan() {
                return f64::NAN;
            }
            if z > 0.0 {
                // Φ(z) = 1 − q with q = Φ(−z) small: ln1p keeps its relative accuracy.
                (-0.5 * libm::erfc(z * std::f64::consts::FRAC_1_SQRT_2)).ln_1p()
            } else if z >= ASYMPTOTIC_BELOW {
                (0.5 * libm::erfc(-z * std::f64::consts::FRAC_1_SQRT_2)).ln()
            } else if z == f64::NEG_INFINITY {
                f64::NEG_INFINITY
            } else {
                -0.5 * z * z - (-z).ln() - 0.5 * LN_2PI.0 + mills_series(z).ln()
            }
        },
    )
}

/// `1 − 1/z² + 3/z⁴ − …`, summed until the next term is below `10⁻¹⁷` (alternating: the
/// remainder is smaller than the first omitted term). Precondition: `z ≤ −20`.
#[inline(always)]
fn mills_series(z: f64) -> f64 {
    let inv_z2 = 1.0 / (z * z);
    let mut term = 1.0;
    let mut sum = 1.0;
    for k in 1..=MAX_TERMS {
        term *= -((2 * k - 1) as f64) * inv_z2;
        sum += term;
        if term.abs() < 1e-17 {
            break;
        }
    }
    sum
}

/// d ln Φ(z)/dz = φ(z)/Φ(z), the inverse Mills ratio at −z, accurate in both tails.
///
/// For `z ≥ −20` it is `exp(ln φ(z) − ln Φ(z))`; below, `|z|/(1 − 1/z² + 3/z⁴ − …)` from
/// the same series as [`log_normal_cdf`], so it grows like `|z|` without overflow or 0/0.
/// Raw kernel: NaN for NaN; `0` at `+∞`, `+∞` at `−∞`.
///
/// # Formula
///
/// $$ \frac{d}{dz}\ln\Phi(z) = \frac{\varphi(z)}{\Phi(z)} \sim -z\\,\big(1 + z^{-2} - 2z^{-4} +
///    \cdots\big)\ (z\to-\infty) $$
///
/// # Errors
///
/// None (NaN in, NaN out).
///
/// # Examples
///
/// ```
/// use probdml::special::{log_normal_cdf, normal_hazard};
/// // φ(0)/Φ(0) = 2/√(2π)
/// assert!((normal_hazard(0.0) - 0.7978845608028654).abs() < 1e-15);
/// // far tail: ≈ |z|
/// // mpmath: npdf(−1e5)/ncdf(−1e5) = 100000.000009999999998…
/// assert!((normal_hazard(-1e5) / 100000.00001 - 1.0).abs() < 1e-15);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn normal_hazard(z: f64) -> f64 {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || {
            if z.is_nan() {
                return f64::NAN;
            }
            if z == f64::NEG_INFINITY {
                return f64::INFINITY;
            }
            if z >= ASYMPTOTIC_BELOW {
                (-0.5 * z * z - 0.5 * LN_2PI.0 - log_normal_cdf(z)).exp()
            } else {
                -z / mills_series(z)
            }
        },
    )
}

/// [`log_normal_cdf`] under its former name: `ln_` is kept for the methods statrs names on
/// distributions (`ln_pdf`, `ln_cdf`, `ln_sf`) and for `ln_gamma`; every other logarithm is
/// `log_<quantity>`.
#[deprecated(since = "0.1.0", note = "renamed `log_normal_cdf`")]
pub fn ln_normal_cdf(z: f64) -> f64 {
    log_normal_cdf(z)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Below `ASYMPTOTIC_BELOW` the hazard is `−z` over the Mills series. Gordon's (1941)
    /// inequality bounds the inverse Mills ratio, `x < φ(x)/(1 − Φ(x)) < x + 1/x` for `x > 0`,
    /// i.e. `−z < h(z) < −z − 1/z` for `z < 0`; and the two branches meet at the switch.
    #[test]
    fn hazard_within_gordons_bounds_and_continuous_at_the_switch() {
        for z in [-5.0, ASYMPTOTIC_BELOW, -20.5, -40.0, -1e3, -1e5] {
            let (x, h) = (-z, normal_hazard(z));
            // `≤` above: at x = 10⁵ the bound and h (10⁻¹⁵ apart) round to one double.
            assert!(h > x && h <= x + 1.0 / x, "h({z}) = {h}");
        }
        let (at, below) = (
            normal_hazard(ASYMPTOTIC_BELOW),
            normal_hazard(ASYMPTOTIC_BELOW.next_down()),
        );
        assert!((at - below).abs() <= 1e-14 * at, "{at} vs {below}");
    }
}
