//! Kolmogorov–Smirnov statistics and p-values for the sampler proofs.
//!
//! The p-value uses Kolmogorov's limiting distribution
//! `Q(λ) = P(√n·D > λ) → 2 Σ_{k≥1} (−1)^{k−1} e^{−2k²λ²}` with Stephens' finite-sample correction
//! `λ = (√n + 0.12 + 0.11/√n)·D` (Stephens 1970; Numerical Recipes §14.3), accurate to a few per
//! cent of `p` for `n ≥ 35`, far finer than the decision at `α = 10⁻⁶` needs. For `λ < 1.18` the
//! alternating series converges slowly and the Jacobi-transformed form
//! `1 − (√(2π)/λ) Σ e^{−(2k−1)²π²/(8λ²)}` is used instead.
#![allow(dead_code)]

/// `Q(λ) = P(K > λ)` for the Kolmogorov distribution `K`.
pub fn kolmogorov_survival(lambda: f64) -> f64 {
    if lambda <= 0.0 {
        return 1.0;
    }
    if lambda < 1.18 {
        let c = -std::f64::consts::PI.powi(2) / (8.0 * lambda * lambda);
        let mut s = 0.0;
        for k in 1..=20 {
            let j = (2 * k - 1) as f64;
            s += (c * j * j).exp();
        }
        (1.0 - (2.0 * std::f64::consts::PI).sqrt() / lambda * s).clamp(0.0, 1.0)
    } else {
        let mut s = 0.0;
        for k in 1..=100 {
            let kf = k as f64;
            let term = (-2.0 * kf * kf * lambda * lambda).exp();
            s += if k % 2 == 1 { term } else { -term };
            if term < 1e-300 {
                break;
            }
        }
        (2.0 * s).clamp(0.0, 1.0)
    }
}

/// The one-sample statistic `D = sup |F_n − F|` of `sample` against the continuous CDF `cdf`.
/// Sorts `sample` in place.
pub fn ks_statistic<F: Fn(f64) -> f64>(sample: &mut [f64], cdf: F) -> f64 {
    sample.sort_by(f64::total_cmp);
    let n = sample.len() as f64;
    let mut d: f64 = 0.0;
    for (i, &x) in sample.iter().enumerate() {
        let f = cdf(x);
        let lo = i as f64 / n;
        let hi = (i + 1) as f64 / n;
        d = d.max((f - lo).abs()).max((hi - f).abs());
    }
    d
}

/// The p-value of `D` for `n` draws.
pub fn ks_p_value(d: f64, n: usize) -> f64 {
    let sn = (n as f64).sqrt();
    kolmogorov_survival((sn + 0.12 + 0.11 / sn) * d)
}

/// One-sample test: `(D, p)`.
pub fn ks_test<F: Fn(f64) -> f64>(sample: &mut [f64], cdf: F) -> (f64, f64) {
    let d = ks_statistic(sample, cdf);
    (d, ks_p_value(d, sample.len()))
}

/// Two-sample test: `(D, p)` with the effective size `n₁n₂/(n₁+n₂)`. Sorts both samples.
pub fn ks_two_sample(a: &mut [f64], b: &mut [f64]) -> (f64, f64) {
    a.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    let (na, nb) = (a.len(), b.len());
    let (mut i, mut j) = (0, 0);
    let mut d: f64 = 0.0;
    while i < na && j < nb {
        let x = a[i].min(b[j]);
        while i < na && a[i] <= x {
            i += 1;
        }
        while j < nb && b[j] <= x {
            j += 1;
        }
        d = d.max((i as f64 / na as f64 - j as f64 / nb as f64).abs());
    }
    let ne = (na * nb) as f64 / (na + nb) as f64;
    let sn = ne.sqrt();
    (d, kolmogorov_survival((sn + 0.12 + 0.11 / sn) * d))
}

/// `‖x‖₂` in double-double (FMA products, TwoSum accumulation), to judge `|‖x‖ − 1| ≤ 10⁻¹⁵`
/// without the `~√M·2⁻⁵³` error of a naive sum of squares.
pub fn accurate_norm(x: &[f64]) -> f64 {
    let (mut s, mut c) = (0.0_f64, 0.0_f64);
    for &v in x {
        let p = v * v;
        let e = v.mul_add(v, -p);
        let t = s + p;
        let bb = t - s;
        c += (s - (t - bb)) + (p - bb) + e;
        s = t;
    }
    // √(s + c) with one Newton correction in double-double: √a ≈ r + (a − r²)/(2r).
    let r = s.sqrt();
    let r2 = r * r;
    let r2e = r.mul_add(r, -r2);
    r + ((s - r2) - r2e + c) / (2.0 * r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kolmogorov_table() {
        // Classical critical values: P(K > 1.3581) = 0.05, P(K > 1.6276) = 0.01,
        // P(K > 1.9495) = 0.001.
        assert!((kolmogorov_survival(1.3581) - 0.05).abs() < 2e-4);
        assert!((kolmogorov_survival(1.6276) - 0.01).abs() < 1e-4);
        assert!((kolmogorov_survival(1.9495) - 0.001).abs() < 1e-5);
        // Both series agree at the switch.
        let below = kolmogorov_survival(1.18 - 1e-12);
        let above = kolmogorov_survival(1.18 + 1e-12);
        assert!((below - above).abs() < 1e-10);
    }
}
