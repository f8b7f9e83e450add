//! The logistic function in the forms the soft contrastive loss needs: `ln sigmoid(t)` without
//! overflow, underflow to `−∞`, or the `0 · ∞` of `m ln p + (1 − m) ln(1 − p)` at saturation.

/// `ln sigmoid(t) = −ln(1 + e^{−t})`, finite for every finite `t` (about `t` for `t → −∞`,
/// about `−e^{−t}` for `t → +∞`).
///
/// # Formula
///
/// $$ \ln \sigma(t) = \begin{cases} -\operatorname{ln1p}(e^{-t}) & t \ge 0 \\\\ t - \operatorname{ln1p}(e^{t}) & t < 0 \end{cases} $$
///
/// Both branches exponentiate a non-positive number, so nothing overflows; `ln sigmoid(t)` and
/// `ln(1 − sigmoid(t)) = ln sigmoid(−t)` are computed directly instead of as `ln` of a rounded
/// probability, which is `ln 0 = −∞` once `sigmoid` saturates (HIB eq. 3 written naively).
/// NaN in, NaN out.
///
/// # Examples
///
/// ```
/// use probdml::hib::log_sigmoid;
/// assert_eq!(log_sigmoid(0.0), -std::f64::consts::LN_2);
/// assert_eq!(log_sigmoid(-800.0), -800.0); // ln(1 − sigmoid(800)), where 1 − sigmoid(800) = 0.0
/// assert!((log_sigmoid(40.0) + 4.248354255291589e-18).abs() < 1e-32);
/// ```
///
/// Cited: HIB eq. (2)–(3).
#[inline]
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn log_sigmoid(t: f64) -> f64 {
    if t >= 0.0 {
        -(-t).exp().ln_1p()
    } else {
        t - t.exp().ln_1p()
    }
}

/// `sigmoid(t) = 1/(1 + e^{−t})`, evaluated without overflow for either sign.
#[inline]
pub(crate) fn sigmoid(t: f64) -> f64 {
    if t >= 0.0 {
        1.0 / (1.0 + (-t).exp())
    } else {
        let e = t.exp();
        e / (1.0 + e)
    }
}

/// `ln Σ exp(x_i)` of a non-empty slice, shifted by its maximum (every term ≤ 1).
pub(crate) fn log_sum_exp(xs: &[f64]) -> f64 {
    let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return max;
    }
    max + xs.iter().map(|x| (x - max).exp()).sum::<f64>().ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_sigmoid_matches_the_definition_where_it_is_safe() {
        // The direct form rounds 1/(1 + e^{−t}) first: an absolute error of ~1 ulp of 1 in ln.
        for &t in &[-3.0_f64, -0.5, 0.0, 0.5, 3.0] {
            let direct = (1.0 / (1.0 + (-t).exp())).ln();
            assert!((log_sigmoid(t) - direct).abs() <= 1e-15 * direct.abs() + 2.3e-16);
            assert!((sigmoid(t) - 1.0 / (1.0 + (-t).exp())).abs() <= 1e-16);
        }
        // Tails: t − e^{t} + … and −e^{−t} + …
        assert!((log_sigmoid(-30.0) - (-30.0 - (-30f64).exp())).abs() <= 1e-15 * 30.0);
        let x = (-30f64).exp();
        assert!((log_sigmoid(30.0) + (x - 0.5 * x * x)).abs() <= 1e-15 * x);
        // Saturation: finite and asymptotically right.
        assert_eq!(log_sigmoid(-1e300), -1e300);
        assert!(log_sigmoid(1e300) == 0.0);
        assert!(log_sigmoid(f64::NAN).is_nan());
    }

    #[test]
    fn log_sum_exp_of_huge_and_tiny_terms() {
        assert_eq!(
            log_sum_exp(&[-1000.0, -1000.0]),
            -1000.0 + std::f64::consts::LN_2
        );
        assert_eq!(log_sum_exp(&[800.0]), 800.0);
        assert_eq!(log_sum_exp(&[f64::NEG_INFINITY]), f64::NEG_INFINITY);
    }

    #[test]
    fn log_sigmoid_matches_the_exact_twin_and_its_limits() {
        for &t in &[-800.0, -40.0, -1.0, -1e-3, 0.0, 1e-3, 1.0, 40.0, 800.0] {
            let (e, f) = (crate::hib::exact::logistic::log_sigmoid(t), log_sigmoid(t));
            assert!(
                (e - f).abs() <= 2.0 * f64::EPSILON * f.abs(),
                "{t}: {e} vs {f}"
            );
        }
        let exact = crate::hib::exact::logistic::log_sigmoid;
        assert_eq!(exact(-800.0), -800.0);
        assert!((exact(40.0) + 4.248354255291589e-18).abs() < 1e-32);
        assert!(exact(f64::NAN).is_nan());
    }
}
