//! Bernstein's inequality as a test of a mean, with its power: a p-value that holds at every
//! `n`, no asymptotics.
//!
//! For i.i.d. `Z_i` with mean `m`, variance `σ²` and `|Z_i − m| ≤ b`, Bernstein's inequality
//! (Boucheron, Lugosi & Massart, *Concentration Inequalities*, 2013, Thm 2.10 and §2.8) bounds
//! each tail of the sample mean:
//!
//! `P(Z̄ − m ≥ ε) ≤ exp(−nε²/(2σ² + 2bε/3))`,
//!
//! so `p = min(1, 2 exp(−nε²/(2σ² + 2bε/3)))` at the observed `ε = |Z̄ − m|` is a valid
//! two-sided p-value: a test that rejects at `p < α` has level at most `α`. It rejects exactly
//! when `ε` exceeds the threshold `ε*` that solves `nε² = L(2σ² + 2bε/3)`, `L = ln(2/α)`.
//!
//! **Power.** If the draws come from a wrong law under which `Z` has mean `m'`, variance `σ'²`
//! and `|Z − m'| ≤ b'`, with `Δ = |m' − m| > ε*`, the test misses only if `Z̄` falls within
//! `ε*` of `m`, that is at least `g = Δ − ε*` away from `m'` towards `m`; by the same inequality
//! the miss probability is at most `exp(−ng²/(2σ'² + 2b'g/3))`.
#![allow(dead_code)]

/// The two-sided Bernstein p-value of a sample mean `deviation` away from its claimed mean.
pub fn bernstein_p_value(deviation: f64, n: usize, variance: f64, bound: f64) -> f64 {
    let e = deviation.abs();
    (2.0 * (-(n as f64) * e * e / (2.0 * variance + 2.0 * bound * e / 3.0)).exp()).min(1.0)
}

/// The deviation `ε*` at which [`bernstein_p_value`] equals `alpha`: the positive root of
/// `nε² − (2bL/3)ε − 2σ²L = 0`, `L = ln(2/α)`.
pub fn bernstein_threshold(n: usize, variance: f64, bound: f64, alpha: f64) -> f64 {
    let l = (2.0 / alpha).ln();
    let (a, b) = (n as f64, 2.0 * bound * l / 3.0);
    (b + (b * b + 8.0 * a * variance * l).sqrt()) / (2.0 * a)
}

/// `ln` of the bound on the miss probability (module docs) when the mean is off by `shift`
/// under the wrong law, with that law's variance and bound; `+∞` (no bound) when `|shift|` is
/// at most the threshold.
pub fn bernstein_ln_miss(
    shift: f64,
    n: usize,
    threshold: f64,
    variance_wrong: f64,
    bound_wrong: f64,
) -> f64 {
    let g = shift.abs() - threshold;
    if g <= 0.0 {
        return f64::INFINITY;
    }
    -(n as f64) * g * g / (2.0 * variance_wrong + 2.0 * bound_wrong * g / 3.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_threshold_is_where_the_p_value_is_alpha() {
        for (n, var, b) in [(100_000, 0.7, 24.0), (1000, 1e-3, 2.0), (10, 1.0, 0.0)] {
            let e = bernstein_threshold(n, var, b, 1e-6);
            let p = bernstein_p_value(e, n, var, b);
            assert!((p / 1e-6 - 1.0).abs() < 1e-9, "n = {n}: p = {p}");
        }
        // b = 0: the sub-Gaussian threshold √(2σ² ln(2/α)/n).
        let e = bernstein_threshold(10_000, 2.0, 0.0, 1e-6);
        assert!((e - (4.0 * (2e6f64).ln() / 1e4).sqrt()).abs() < 1e-15);
    }
}
