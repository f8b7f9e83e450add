// derivation: special::log_bessel_i
//! # ln I_ν(x): the fast twin against the arbitrary-precision series (book chapter 01)
//!
//! **Claim 1 (budget).** For every ν ∈ [0, 5·10⁴] and x ∈ (0, 10⁸],
//! |log_bessel_i(ν, x) − ln I_ν(x)| ≤ 4·10⁻¹⁵ · max(1, |ln I_ν(x)|), with ln I_ν(x) the
//! 256-bit series sum of A&S 9.6.10 (`special::exact::log_bessel_i`).
//!
//! **Claim 2 (recurrence, A&S 9.6.26).** I_{ν−1}(x) − I_{ν+1}(x) = (2ν/x) I_ν(x), checked in
//! log space: exp(ln I_{ν−1} − ln I_ν) − exp(ln I_{ν+1} − ln I_ν) = 2ν/x, with both
//! differences of the fast logarithms.
//!
//! **Claim 3 (continuity).** At every regime switch of the fast implementation the jump of the
//! fast twin between neighbouring doubles equals the exact jump within the budget.
//!
//! **Claim 4 (domain edges).** x = 0, x = +∞, NaN and negative input give the documented
//! values, never a panic.
use crate::support;
use probdml::special::{exact, log_bessel_i};
use proptest::prelude::*;
use support::*;

const NAME: &str = "special::log_bessel_i";

fn check_budget(nu: f64, x: f64) -> Result<(), TestCaseError> {
    let case = format!("ν = {nu:e}, x = {x:e}");
    check_at(NAME, case, log_bessel_i(nu, x), exact::log_bessel_i(nu, x));
    Ok(())
}

proptest! {
    #![proptest_config(config(400, 0x01_b355e1))]

    /// Claim 1 over the whole domain, inputs by category.
    #[test]
    fn fast_within_budget_of_exact(nu in order(), x in argument()) {
        check_budget(nu, x)?;
    }

    /// Claim 1 near the zero of ln I_ν, x ≈ 0.66ν, where the large terms of the Debye form
    /// cancel to O(1) and only the absolute part of the budget applies.
    #[test]
    fn fast_within_budget_near_the_zero_of_ln_i(nu in log_uniform(20.0, 5e4), z in 0.55..0.8f64) {
        check_budget(nu, nu * z)?;
    }
}

proptest! {
    #![proptest_config(config(300, 0x02_b355e1))]

    /// Claim 2: the three-term recurrence, in log space, on the fast twin. The two exponentials
    /// are positive and their difference is 2ν/x; each exponent is a difference of two fast
    /// logarithms, so it carries at most e = 2·4·10⁻¹⁵·max(1, |ln I|), and the identity holds to
    /// (up + down)·(e + 4ε).
    #[test]
    fn three_term_recurrence_in_log_space(nu in 1.0..3000.0f64, x in log_uniform(1e-3, 1e5)) {
        let l_minus = log_bessel_i(nu - 1.0, x);
        let l = log_bessel_i(nu, x);
        let l_plus = log_bessel_i(nu + 1.0, x);
        let up = (l_minus - l).exp();
        let down = (l_plus - l).exp();
        let want = 2.0 * nu / x;
        let exponent_error = 2.0 * tolerance(NAME) * [l_minus, l, l_plus].iter().fold(1.0f64, |m, v| m.max(v.abs()));
        let tol = (up + down) * (exponent_error + 4.0 * f64::EPSILON);
        prop_assert!(((up - down) - want).abs() <= tol,
            "ν = {nu}, x = {x}: {up:e} − {down:e} = {:e} vs 2ν/x = {want:e}", up - down);
    }
}

/// Claim 3: at each switch, step one ulp across it in the switching variable.
#[test]
fn continuous_at_every_regime_switch() {
    let next_down = |v: f64| f64::from_bits(v.to_bits() - 1);
    let next_up = |v: f64| f64::from_bits(v.to_bits() + 1);
    // (ν, x) pairs straddling a switch: (left, right).
    let mut straddles: Vec<((f64, f64), (f64, f64))> = Vec::new();
    // Debye from ν = 20, and its term counts at ν = 50, 100, 250, 1000 (all x).
    for &nu_switch in &[20.0, 50.0, 100.0, 250.0, 1000.0] {
        for &x in &[1e-3, 1.0, 13.0, 32.0, 100.0, 1e4, 1e8] {
            straddles.push(((next_down(nu_switch), x), (nu_switch, x)));
        }
    }
    // Power series to Hankel/recurrence at x = 32 for ν < 20.
    for &nu in &[0.0, 1.0, 2.5, 6.0, 7.0, 12.25, 19.0, 19.75] {
        straddles.push(((nu, next_down(32.0)), (nu, 32.0)));
    }
    // Recurrence to Hankel at x = ¾ν².
    for &nu in &[7.0, 9.5, 12.25, 15.0, 19.75] {
        let x = 0.75 * nu * nu;
        straddles.push(((nu, next_down(x)), (nu, next_up(x))));
    }
    // The closed form at ν = ½ against its neighbours.
    for &x in &[1e-3, 0.5, 3.0, 31.0, 40.0, 1e5] {
        straddles.push(((next_down(0.5), x), (0.5, x)));
        straddles.push(((0.5, x), (next_up(0.5), x)));
    }
    for ((nu_a, x_a), (nu_b, x_b)) in straddles {
        let fast_jump = log_bessel_i(nu_b, x_b) - log_bessel_i(nu_a, x_a);
        let (exact_a, exact_b) = (
            exact::log_bessel_i(nu_a, x_a),
            exact::log_bessel_i(nu_b, x_b),
        );
        // A difference of two values, each within the budget of its own magnitude.
        let magnitude = exact_a.abs().max(1.0) + exact_b.abs().max(1.0);
        let case = format!("jump from (ν, x) = ({nu_a:e}, {x_a:e}) to ({nu_b:e}, {x_b:e})");
        check_with_magnitude(NAME, case, fast_jump, exact_b - exact_a, magnitude);
    }
}

/// Claim 4: the documented edge values.
#[test]
fn domain_edges_give_documented_values() {
    assert_eq!(log_bessel_i(0.0, 0.0), 0.0);
    assert_eq!(log_bessel_i(3.5, 0.0), f64::NEG_INFINITY);
    assert_eq!(log_bessel_i(2.0, f64::INFINITY), f64::INFINITY);
    for (nu, x) in [
        (-1.0, 1.0),
        (1.0, -1.0),
        (f64::NAN, 1.0),
        (1.0, f64::NAN),
        (f64::INFINITY, 1.0),
    ] {
        assert!(log_bessel_i(nu, x).is_nan(), "ν = {nu}, x = {x}");
    }
    // Subnormal x: ln I_ν(x) = ν ln(x/2) − ln Γ(ν+1) to all digits.
    let x = f64::from_bits(1);
    // ln I_0(x) = x²/4 + … underflows to 0; the budget is absolute here.
    check(NAME, log_bessel_i(0.0, x), 0.0);
    let want = 2.0 * (x.ln() - 2f64.ln()) - 2f64.ln(); // ν = 2: 2 ln(x/2) − ln 2!
    check(NAME, log_bessel_i(2.0, x), want);
    // Subnormal x where ln I_ν is formed without ν ln x: ν = ½ (its closed form scales x into
    // the normal range) and the Debye orders (ln((ν + s)/x), whose quotient would overflow).
    for nu in [0.5, 20.0, 63.0, 4095.0, 50_000.0] {
        for x in [f64::from_bits(1), 1e-310, f64::MIN_POSITIVE] {
            let case = format!("ν = {nu:e}, x = {x:e}");
            check_at(NAME, case, log_bessel_i(nu, x), exact::log_bessel_i(nu, x));
        }
    }
}
