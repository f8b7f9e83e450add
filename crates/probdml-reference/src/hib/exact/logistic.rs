//! The logistic function for the reference routes, written from `ln sigmoid(t) = −softplus(−t)`
//! rather than by the fast branches of `crate::hib::log_sigmoid`, so that a wrong branch of
//! the fast twin changes only one side of a fast-vs-exact comparison.

/// `ln sigmoid(t) = −softplus(−t)` with `softplus(x) = max(x, 0) + ln(1 + e^{−|x|})`: the
/// exponent is never positive, so nothing overflows, and for `t → +∞` the `ln_1p` keeps the
/// `−e^{−t}` that `ln` of a rounded `sigmoid` would lose (HIB eq. 2–3). NaN in, NaN out.
#[doc(hidden)]
pub fn log_sigmoid(t: f64) -> f64 {
    let x = -t;
    -(x.max(0.0) + (-x.abs()).exp().ln_1p())
}

/// `ln Σ exp(x_i)`, shifted by the maximum and summed with Neumaier's compensation; `−∞` for
/// an empty slice or all terms `−∞`.
#[doc(hidden)]
pub fn log_sum_exp(xs: &[f64]) -> f64 {
    let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return max;
    }
    let (mut sum, mut compensation) = (0.0_f64, 0.0_f64);
    for &x in xs {
        let term = (x - max).exp();
        let t = sum + term;
        compensation += if sum.abs() >= term.abs() {
            (sum - t) + term
        } else {
            (term - t) + sum
        };
        sum = t;
    }
    max + (sum + compensation).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_sum_exp_of_equal_terms() {
        assert!((log_sum_exp(&[0.0; 4]) - 4f64.ln()).abs() < 1e-15);
        assert_eq!(log_sum_exp(&[]), f64::NEG_INFINITY);
        assert!((log_sum_exp(&[-1e3, -1e3]) - (-1e3 + 2f64.ln())).abs() < 1e-12);
    }
}
