// derivation: special::bessel_i_ratio
//! # The Bessel ratio I_{ν+1}(x)/I_ν(x) (book chapter 01)
//!
//! **Claim 1 (budget).** For ν ∈ [0, 5·10⁴], x ∈ (0, 10⁸]:
//! |bessel_i_ratio(ν, x) − R_ν(x)| ≤ 10⁻¹⁴ R_ν(x), with R_ν(x) the quotient of two 256-bit
//! series (`special::exact::bessel_i_ratio`).
//!
//! **Claim 2 (Amos 1974, eq. (16)).** x/(ν+1+√(x²+(ν+1)²)) ≤ R_ν(x) ≤ x/(ν+½+√(x²+(ν+½)²)),
//! in particular 0 ≤ R_ν < 1.
//!
//! **Claim 3 (recurrence, A&S 9.6.26 divided by I_ν).** 1/R_{ν−1}(x) − R_ν(x) = 2ν/x.
//!
//! **Claim 4 (monotonicity).** R_ν(x) is increasing in x and decreasing in ν.
use crate::support;
use probdml::special::{bessel_i_ratio, exact};
use proptest::prelude::*;
use support::*;

const NAME: &str = "special::bessel_i_ratio";

proptest! {
    #![proptest_config(config(400, 0x01_4a710))]

    /// Claim 1, inputs by category over the whole domain.
    #[test]
    fn fast_within_budget_of_exact(nu in order(), x in argument()) {
        let case = format!("ν = {nu:e}, x = {x:e}");
        check_at(NAME, case, bessel_i_ratio(nu, x), exact::bessel_i_ratio(nu, x));
    }

    /// Claim 2 on the fast twin, with one budget of slack for its own error.
    #[test]
    fn within_amos_bounds(nu in order(), x in argument()) {
        let r = bessel_i_ratio(nu, x);
        let slack = tolerance(NAME);
        let lower = x / (nu + 1.0 + x.hypot(nu + 1.0));
        let upper = x / (nu + 0.5 + x.hypot(nu + 0.5));
        prop_assert!(r >= lower * (1.0 - slack) && r <= upper * (1.0 + slack) && r < 1.0,
            "ν = {nu:e}, x = {x:e}: {lower:e} ≤ {r:e} ≤ {upper:e} fails");
    }

    /// Claim 3: both sides are sums of positive terms; each ratio carries the budget, so the
    /// identity holds to (1/R_{ν−1} + R_ν)·(10⁻¹⁴ + 4ε).
    #[test]
    fn recurrence_of_ratios(nu in 1.0..5e4f64, x in log_uniform(1e-6, 1e8)) {
        let inverse_lower = 1.0 / bessel_i_ratio(nu - 1.0, x);
        let r = bessel_i_ratio(nu, x);
        let want = 2.0 * nu / x;
        let tol = (inverse_lower + r) * (tolerance(NAME) + 4.0 * f64::EPSILON);
        prop_assert!(((inverse_lower - r) - want).abs() <= tol,
            "ν = {nu}, x = {x}: 1/R_(ν−1) − R_ν = {:e}, 2ν/x = {want:e}", inverse_lower - r);
    }

    /// Claim 4: monotone in x (increasing) and in ν (decreasing), up to the budget.
    #[test]
    fn monotone_in_argument_and_order(nu in order(), x in log_uniform(1e-6, 1e7), step in 1.0001..2.0f64) {
        let r = bessel_i_ratio(nu, x);
        let slack = 2.0 * tolerance(NAME);
        prop_assert!(bessel_i_ratio(nu, x * step) >= r * (1.0 - slack));
        prop_assert!(bessel_i_ratio(nu + step, x) <= r * (1.0 + slack));
    }
}

/// Documented edge values.
#[test]
fn domain_edges_give_documented_values() {
    assert_eq!(bessel_i_ratio(2.0, 0.0), 0.0);
    assert_eq!(bessel_i_ratio(2.0, f64::INFINITY), 1.0);
    for (nu, x) in [
        (-1.0, 1.0),
        (1.0, -1.0),
        (f64::NAN, 1.0),
        (1.0, f64::NAN),
        (f64::INFINITY, 1.0),
    ] {
        assert!(bessel_i_ratio(nu, x).is_nan(), "ν = {nu}, x = {x}");
    }
}
