//! The power of the one-sample Kolmogorov–Smirnov test of `ks.rs` against a stated wrong law.
//!
//! The test rejects when `p < α`; its p-value falls as `D` grows, so it rejects exactly when
//! `D_n > c(n, α)`, the critical value found here by bisection on the same p-value formula.
//!
//! **Power.** Let the draws come from a continuous law `G` while the test's reference is `F`,
//! and `δ = sup|G − F|`. Then `D_n = sup|F_n − F| ≥ δ − sup|F_n − G|`, and the
//! Dvoretzky–Kiefer–Wolfowitz inequality with Massart's constant (Massart 1990, Ann. Probab.
//! 18(3)), `P(sup|F_n − G| > ε) ≤ 2e^{−2nε²}`, bounds the chance of a miss:
//!
//! `P(D_n ≤ c) ≤ 2 exp(−2n(δ − c)²)` for `δ > c`.
//!
//! No asymptotics enter this bound, so `1 − 2e^{−2n(δ−c)²}` is a guaranteed lower bound on the
//! power at every `n`. A `δ` computed as a maximum over a grid of points is at most the true
//! supremum, which keeps the bound valid. The same bound holds for a KS statistic taken over a
//! fixed grid of points only (`ks_on_grid`): under `F` it is at most `D_n` (the level stays
//! `≤ α`), and against `G` the argument above runs with the grid's `δ`.
#![allow(dead_code)]

use super::ks::ks_p_value;

/// The smallest `D` at which the test of `n` draws rejects at level `alpha` (`p(D) < α`).
pub fn critical_value(n: usize, alpha: f64) -> f64 {
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if ks_p_value(mid, n) < alpha {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// A lower bound on the probability that the test of `n` draws at level `alpha` rejects when
/// the draws' law is at KS distance `delta` from the reference (module docs).
pub fn power_lower_bound(delta: f64, n: usize, alpha: f64) -> f64 {
    let c = critical_value(n, alpha);
    if delta <= c {
        return 0.0;
    }
    let gap = delta - c;
    (1.0 - 2.0 * (-2.0 * n as f64 * gap * gap).exp()).max(0.0)
}

/// The smallest `n` at which [`power_lower_bound`] reaches `power` (the bound increases with
/// `n`).
pub fn smallest_n(delta: f64, alpha: f64, power: f64) -> usize {
    smallest_n_where(|n| power_lower_bound(delta, n, alpha) >= power)
}

/// The smallest `n` ≥ 9 for which `enough(n)` holds, `enough` being monotone in `n` (false, then
/// true): by doubling from 16, then bisection.
pub fn smallest_n_where(enough: impl Fn(usize) -> bool) -> usize {
    let mut hi = 16;
    while !enough(hi) {
        hi *= 2;
        assert!(hi < 1 << 40, "no feasible sample size below 2^40");
    }
    let mut lo = hi / 2;
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if enough(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// `max_i |f(t_i) − g(t_i)|` over the points `t`: a lower bound on `sup|F − G|`.
pub fn distance_on_grid<F: Fn(f64) -> f64, G: Fn(f64) -> f64>(points: &[f64], f: F, g: G) -> f64 {
    points
        .iter()
        .map(|&t| (f(t) - g(t)).abs())
        .fold(0.0, f64::max)
}

/// The KS statistic `max_i |F_n(t_i) − F(t_i)|` over sorted grid points `t_i` with the reference
/// CDF values `cdf[i] = F(t_i)`, and its p-value (conservative: the statistic is at most the
/// full `D_n`). Sorts `sample`.
pub fn ks_on_grid(sample: &mut [f64], points: &[f64], cdf: &[f64]) -> (f64, f64) {
    sample.sort_by(f64::total_cmp);
    let n = sample.len();
    let mut below = 0;
    let mut d: f64 = 0.0;
    for (&t, &f) in points.iter().zip(cdf) {
        while below < n && sample[below] <= t {
            below += 1;
        }
        d = d.max((below as f64 / n as f64 - f).abs());
    }
    (d, ks_p_value(d, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn critical_value_matches_the_kolmogorov_quantile() {
        // P(K > λ) = 10⁻⁶ at λ = 2.6934 (2Σ(−1)^{k−1}e^{−2k²λ²}, first term dominant:
        // λ = √(ln(2·10⁶)/2) = 2.69339); Stephens' λ = (√n + 0.12 + 0.11/√n)·D.
        let n = 10_000;
        let c = critical_value(n, 1e-6);
        let lambda = (100.0 + 0.12 + 0.0011) * c;
        assert!((lambda - 2.69339).abs() < 1e-4, "λ = {lambda}");
    }
}
