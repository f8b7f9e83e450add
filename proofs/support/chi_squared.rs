//! The χ² law in closed form. For an even number of degrees of freedom `k = 2m`,
//! `P(χ²_k > x) = e^{−x/2} Σ_{j<m} (x/2)^j / j!` (the Poisson–Erlang identity; A&S 26.4.21).
//! The reference for squared Mahalanobis distances of Gaussian draws; no quadrature, no
//! incomplete gamma function.
//!
//! Every `k ≥ 1` ([`chi_squared_survival`], [`chi_squared_cdf`]): with `a = k/2`, `y = x/2`,
//! the recursion `Q(a + 1, y) = Q(a, y) + y^a e^{−y}/Γ(a + 1)` of the regularised upper
//! incomplete gamma function from `Q(1, y) = e^{−y}` or `Q(½, y) = erfc √y` (A&S 6.5.21–22,
//! 26.4.4) is a finite sum of positive terms, each `exp(−y + j ln y − ln Γ(j + 1))` in log
//! space (no underflow at `k = 10⁵`); the lower tail is the series
//! `P(a, y) = Σ_{j≥0} e^{−y} y^{a+j}/Γ(a + j + 1)` (A&S 6.5.29), also positive. Each tail is
//! summed where it is the smaller one, so both are accurate down to their smallest values
//! (`erfc` and `lgamma` from `libm`; checked against mpmath in
//! `scripts/reference/chi_squared_values.txt`).
#![allow(dead_code)]

/// `P(χ²_k > x)` for even `k ≥ 2`.
pub fn chi_squared_survival_even(k: usize, x: f64) -> f64 {
    assert!(
        k >= 2 && k.is_multiple_of(2),
        "even degrees of freedom only, got {k}"
    );
    if x <= 0.0 {
        return 1.0;
    }
    let h = 0.5 * x;
    let (mut term, mut sum) = (1.0_f64, 1.0_f64);
    for j in 1..k / 2 {
        term *= h / j as f64;
        sum += term;
    }
    (-h).exp() * sum
}

/// `P(χ²_k ≤ x)` for even `k ≥ 2`.
pub fn chi_squared_cdf_even(k: usize, x: f64) -> f64 {
    1.0 - chi_squared_survival_even(k, x)
}

/// `Σ_{j=0}^{last} exp(−y + (a₀ + j) ln y − ln Γ(a₀ + j + 1))` (`last = None`: the series):
/// the largest term by `lgamma`, the others outwards from it by the ratio
/// `t_{j+1}/t_j = y/(a₀ + j + 1)`, until they fall below `10⁻¹⁸` of the sum (they fall at least
/// geometrically away from the peak).
fn poisson_sum(a0: f64, y: f64, last: Option<usize>) -> f64 {
    let top = last.map_or(f64::INFINITY, |l| l as f64);
    let peak = (y - a0 - 1.0).ceil().clamp(0.0, top) as usize;
    let first = (-y + (a0 + peak as f64) * y.ln() - libm::lgamma(a0 + peak as f64 + 1.0)).exp();
    let mut sum = first;
    let (mut t, mut j) = (first, peak);
    while last.is_none_or(|l| j < l) {
        t *= y / (a0 + j as f64 + 1.0);
        j += 1;
        sum += t;
        if t <= 1e-18 * sum {
            break;
        }
    }
    let (mut t, mut j) = (first, peak);
    while j > 0 {
        t *= (a0 + j as f64) / y;
        j -= 1;
        sum += t;
        if t <= 1e-18 * sum {
            break;
        }
    }
    sum
}

/// `P(χ²_k > x)` as the finite sum of the module docs (accurate where it is at most about ½).
fn upper_sum(k: usize, x: f64) -> f64 {
    let y = 0.5 * x;
    if k.is_multiple_of(2) {
        poisson_sum(0.0, y, Some(k / 2 - 1))
    } else if k == 1 {
        libm::erfc(y.sqrt())
    } else {
        libm::erfc(y.sqrt()) + poisson_sum(0.5, y, Some(k / 2 - 1))
    }
}

/// `P(χ²_k ≤ x)` as the series of the module docs (accurate where it is at most about ½).
fn lower_series(k: usize, x: f64) -> f64 {
    poisson_sum(0.5 * k as f64, 0.5 * x, None)
}

/// `P(χ²_k > x)` for every `k ≥ 1`.
pub fn chi_squared_survival(k: usize, x: f64) -> f64 {
    assert!(k >= 1, "at least one degree of freedom");
    if x <= 0.0 {
        return 1.0;
    }
    if x < k as f64 {
        1.0 - lower_series(k, x)
    } else {
        upper_sum(k, x)
    }
}

/// `P(χ²_k ≤ x)` for every `k ≥ 1`.
pub fn chi_squared_cdf(k: usize, x: f64) -> f64 {
    assert!(k >= 1, "at least one degree of freedom");
    if x <= 0.0 {
        return 0.0;
    }
    if x < k as f64 {
        lower_series(k, x)
    } else {
        1.0 - upper_sum(k, x)
    }
}

/// The `x` with `P(χ²_k > x) = alpha` (bisection; `alpha ∈ (0, ½)`).
pub fn chi_squared_upper_quantile(k: usize, alpha: f64) -> f64 {
    let (mut lo, mut hi) = (k as f64, 2.0 * k as f64 + 100.0);
    while chi_squared_survival(k, hi) > alpha {
        hi *= 2.0;
    }
    while hi - lo > 1e-12 * hi {
        let mid = 0.5 * (lo + hi);
        if chi_squared_survival(k, mid) > alpha {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// The `x` with `P(χ²_k ≤ x) = alpha` (bisection; `alpha ∈ (0, ½)`).
pub fn chi_squared_lower_quantile(k: usize, alpha: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, k as f64);
    while hi - lo > 1e-12 * hi {
        let mid = 0.5 * (lo + hi);
        if chi_squared_cdf(k, mid) < alpha {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The two-sided p-value of a sum of `k` squared standard normals that came out at `x`:
/// `2 min(P(χ²_k ≤ x), P(χ²_k > x))`, at most 1.
pub fn chi_squared_two_sided_p(k: usize, x: f64) -> f64 {
    (2.0 * chi_squared_cdf(k, x).min(chi_squared_survival(k, x))).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against mpmath's regularised incomplete gamma functions at 40 digits
    /// (`scripts/reference/chi_squared_values.py`), both tails, relative error.
    #[test]
    fn every_degree_of_freedom_against_mpmath() {
        let table = include_str!("../../scripts/reference/chi_squared_values.txt");
        let mut rows = 0;
        for line in table.lines().filter(|l| !l.starts_with('#')) {
            let v: Vec<f64> = line
                .split_whitespace()
                .map(|w| w.parse().unwrap())
                .collect();
            let (k, x) = (v[0] as usize, v[1]);
            for (got, want, tail) in [
                (chi_squared_survival(k, x), v[2], "upper"),
                (chi_squared_cdf(k, x), v[3], "lower"),
            ] {
                // Each tail is summed directly where it is small; its complement carries the
                // rounding of a value near 1 (2·10⁻¹⁶ absolute). The worst relative errors
                // seen: 4.0·10⁻¹⁴ for k ≤ 127, 2.7·10⁻¹¹ at k = 10⁵, where the exponents
                // (~10⁵) carry an absolute rounding of ~10⁻¹¹; the bounds are 10× those.
                let tol = if k > 1000 { 3e-10 } else { 4e-13 } * want + 1e-15;
                assert!(
                    (got - want).abs() <= tol,
                    "k = {k}, x = {x}, {tail}: {got:e} vs {want:e}"
                );
            }
            rows += 1;
        }
        assert_eq!(rows, 15);
        for k in [1, 2, 3, 9, 127, 2047] {
            let q = chi_squared_upper_quantile(k, 1e-6);
            assert!(
                (chi_squared_survival(k, q) / 1e-6 - 1.0).abs() < 1e-9,
                "k = {k}"
            );
            let q = chi_squared_lower_quantile(k, 1e-6);
            assert!((chi_squared_cdf(k, q) / 1e-6 - 1.0).abs() < 1e-9, "k = {k}");
        }
        // The even closed form agrees with the general one.
        for (k, x) in [(2, 3.0), (4, 4.0), (16, 40.0)] {
            let (a, b) = (chi_squared_survival_even(k, x), chi_squared_survival(k, x));
            assert!((a - b).abs() <= 1e-15, "k = {k}: {a} vs {b}");
        }
    }

    #[test]
    fn closed_forms() {
        // k = 2: exponential with mean 2.
        assert!((chi_squared_cdf_even(2, 3.0) - (1.0 - (-1.5_f64).exp())).abs() < 1e-16);
        // k = 4 at x = 4: 1 − 3e^{−2} = 0.5939941502901619 (scipy.stats.chi2.cdf(4, 4)).
        assert!((chi_squared_cdf_even(4, 4.0) - 0.593_994_150_290_161_9).abs() < 1e-15);
    }
}
