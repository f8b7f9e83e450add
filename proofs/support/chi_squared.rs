//! The χ² law with an even number of degrees of freedom, in closed form: for `k = 2m`,
//! `P(χ²_k > x) = e^{−x/2} Σ_{j<m} (x/2)^j / j!` (the Poisson–Erlang identity; A&S 26.4.21).
//! The reference for squared Mahalanobis distances of Gaussian draws; no quadrature, no
//! incomplete gamma function.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_forms() {
        // k = 2: exponential with mean 2.
        assert!((chi_squared_cdf_even(2, 3.0) - (1.0 - (-1.5_f64).exp())).abs() < 1e-16);
        // k = 4 at x = 4: 1 − 3e^{−2} = 0.5939941502901619 (scipy.stats.chi2.cdf(4, 4)).
        assert!((chi_squared_cdf_even(4, 4.0) - 0.593_994_150_290_161_9).abs() < 1e-15);
    }
}
