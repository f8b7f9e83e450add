//! Reference ln Φ(z) in arbitrary precision: the Maclaurin series of Φ near the origin,
//! Laplace's continued fraction of Mills' ratio in the tails.
//!
//! * `|z| ≤ 3`: `Φ(z) = ½ + (1/√2π) Σ_{k≥0} (−1)^k z^{2k+1} / (2^k k! (2k+1))` (A&S 26.2.10).
//!   The largest term is below `e^{z²/2}/√(2π) < 36`, so at `p ≥ 256` bits the cancellation
//!   costs at most 6 bits. Summation stops once a term, past the peak `k > z²/2`, is below
//!   `2^{−(p+8)}`; the remaining terms alternate and decrease, so the remainder is smaller.
//! * `|z| > 3`: with `x = |z|`, `Φ(−x) = φ(x)·R(x)` and Mills' ratio by Laplace's continued
//!   fraction `R(x) = 1/(x + 1/(x + 2/(x + 3/(x + …))))` (A&S 26.2.14), evaluated backwards from
//!   depth `N`, doubling `N` until two depths agree to `2^{−(p+4)}` relative. All partial
//!   numerators are positive, so the approximants bracket `R(x)` alternately. Then
//!   `ln Φ(−x) = −x²/2 − ½ ln 2π + ln R(x)`, and for `z = x > 3`, `ln Φ(x) = ln(1 − q)`,
//!   `q = Φ(−x) < 1.4·10⁻³`, summed as `−Σ q^k/k` so that `q` below `2^{−p}` is not lost.
//!
//! Nothing here calls `crate::special::log_normal_cdf` or `erfc`.

use astro_float::BigFloat;

use super::double_double::{big_from_f64, round_to_f64};
use super::working_precision::{with_consts, working_precision, RM};

/// Boundary between the series and the continued fraction.
const SERIES_LIMIT: f64 = 3.0;

/// ln Φ(z), reference implementation: the nearest `f64` to the arbitrary-precision value.
///
/// # Formula
///
/// $$ \ln\Phi(z),\qquad \Phi(z) = \tfrac12 + \frac{1}{\sqrt{2\pi}}\sum_{k\ge0}
///    \frac{(-1)^k z^{2k+1}}{2^k k!\\,(2k+1)},\qquad
///    \Phi(-x) = \varphi(x)\cfrac{1}{x+\cfrac{1}{x+\cfrac{2}{x+\cdots}}} $$
///
/// (A&S 26.2.10, 26.2.14). See the module docs of `crates/probdml-reference/src/special/exact/normal_cdf.rs`.
///
/// # Errors
///
/// None: NaN for NaN, `0` at `+∞`, `−∞` at `−∞`.
///
/// # Examples
///
/// ```
/// use probdml::special::exact::log_normal_cdf;
/// // mpmath, 40 digits: log(ncdf(−1)) = −1.841021645009263505770783…
/// assert_eq!(log_normal_cdf(-1.0), -1.8410216450092635);
/// // log(ncdf(−38)) = −726.5572160188201300965035…
/// assert_eq!(log_normal_cdf(-38.0), -726.5572160188201);
/// ```
pub fn log_normal_cdf(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    if z == f64::INFINITY {
        return 0.0;
    }
    if z == f64::NEG_INFINITY {
        return f64::NEG_INFINITY;
    }
    let p = working_precision(0.5 * z * z);
    with_consts(|cc| {
        let ln_2pi = cc
            .pi(p, RM)
            .mul(&BigFloat::from_u64(2, p), p, RM)
            .ln(p, RM, cc);
        let value = if z.abs() <= SERIES_LIMIT {
            let phi = series_cdf(z, p, &ln_2pi, cc);
            phi.ln(p, RM, cc)
        } else {
            let x = big_from_f64(z.abs(), p);
            let ln_q = x
                .mul(&x, p, RM)
                .div(&BigFloat::from_u64(2, p), p, RM)
                .add(&ln_2pi.div(&BigFloat::from_u64(2, p), p, RM), p, RM)
                .neg()
                .add(&mills_ratio(&x, p).ln(p, RM, cc), p, RM);
            if z < 0.0 {
                ln_q
            } else {
                ln_one_minus(&ln_q.exp(p, RM, cc), p)
            }
        };
        round_to_f64(&value)
    })
    .unwrap_or(f64::NAN)
}

/// Φ(z) from the Maclaurin series, `|z| ≤ 3`.
fn series_cdf(z: f64, p: usize, ln_2pi: &BigFloat, cc: &mut astro_float::Consts) -> BigFloat {
    let zb = big_from_f64(z, p);
    let minus_half_z2 = zb
        .mul(&zb, p, RM)
        .div(&BigFloat::from_u64(2, p), p, RM)
        .neg();
    let mut power = zb.clone(); // (−z²/2)^k z / k!
    let mut sum = zb;
    let peak = (0.5 * z * z).ceil() as u64;
    let mut k = 1u64;
    loop {
        power = power
            .mul(&minus_half_z2, p, RM)
            .div(&BigFloat::from_u64(k, p), p, RM);
        let term = power.div(&BigFloat::from_u64(2 * k + 1, p), p, RM);
        sum = sum.add(&term, p, RM);
        if k > peak && is_below(&term, -(p as i32 + 8)) {
            break;
        }
        k += 1;
    }
    let inv_sqrt_2pi = ln_2pi
        .div(&BigFloat::from_u64(2, p), p, RM)
        .neg()
        .exp(p, RM, cc);
    BigFloat::from_f64(0.5, p).add(&sum.mul(&inv_sqrt_2pi, p, RM), p, RM)
}

/// Mills' ratio R(x) = Φ(−x)/φ(x), x > 3, by the continued fraction at doubling depths.
fn mills_ratio(x: &BigFloat, p: usize) -> BigFloat {
    let at_depth = |depth: u64| {
        let mut f = x.clone();
        for k in (1..=depth).rev() {
            f = x.add(&BigFloat::from_u64(k, p).div(&f, p, RM), p, RM);
        }
        f.reciprocal(p, RM)
    };
    let mut depth = 64u64;
    let mut previous = at_depth(depth);
    loop {
        depth *= 2;
        let next = at_depth(depth);
        let change = next.sub(&previous, p, RM).div(&next, p, RM);
        if change.is_zero() || is_below(&change, -(p as i32 + 4)) || depth > (1 << 20) {
            return next;
        }
        previous = next;
    }
}

/// ln(1 − q) = −Σ_{k≥1} q^k/k for 0 ≤ q < ½, summed to `2^{−(p+8)}` relative.
fn ln_one_minus(q: &BigFloat, p: usize) -> BigFloat {
    let mut power = q.clone();
    let mut sum = q.clone();
    let mut k = 1u64;
    while !power.is_zero() {
        k += 1;
        power = power.mul(q, p, RM);
        let term = power.div(&BigFloat::from_u64(k, p), p, RM);
        sum = sum.add(&term, p, RM);
        if is_below(&term.div(&sum, p, RM), -(p as i32 + 8)) {
            break;
        }
    }
    sum.neg()
}

/// `|b| < 2^{e}` (true for zero).
fn is_below(b: &BigFloat, e: i32) -> bool {
    b.is_zero() || b.exponent().is_some_and(|x| x < e)
}

/// [`log_normal_cdf`] under its former name (the crate's naming rule: `ln_` only for the
/// methods statrs names on distributions and for `ln_gamma`).
#[deprecated(since = "0.1.0", note = "renamed `log_normal_cdf`")]
pub fn ln_normal_cdf(z: f64) -> f64 {
    log_normal_cdf(z)
}
