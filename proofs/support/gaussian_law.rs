//! The law of a sample claimed to be `N(μ, Σ)` in `ℝ^p` (`p` even), tested statistic by
//! statistic against `Φ` (`libm::erfc`) and the closed-form χ² law:
//!
//! * every marginal `(θ_k − μ_k)/√Σ_kk` against `N(0, 1)`;
//! * for every pair `i < j`, `((θ_i − μ_i) ± (θ_j − μ_j))/√(Σ_ii + Σ_jj ± 2Σ_ij)` against
//!   `N(0, 1)`: the two variances differ by `4Σ_ij`, so a wrong covariance, its sign included,
//!   moves one of them;
//! * the squared Mahalanobis distance `(θ − μ)ᵀΛ(θ − μ)`, `Λ = Σ⁻¹`, against `χ²_p`: the
//!   whole covariance at once.
//!
//! A Gaussian law is fixed by its mean and covariance, and every one of its one-dimensional
//! projections is normal; the marginals and pairs test the normality and every entry of `Σ`.
//!
//! **The whitened battery** ([`whitened_statistics`], any `p ≥ 1`). With `Σ = LLᵀ` (Cholesky,
//! computed here), `w = L⁻¹(θ − μ)` is `N(0, I_p)` under the claim, and:
//!
//! * every `w_k` against `Φ` (KS) and `‖w‖²` against `χ²_p` (KS): the shape;
//! * every `Σ_i w_{ik}/√n` against `N(0, 1)`, exactly: the mean;
//! * for every `a` among the `e_k` and the `(e_j ± e_k)/√2`, `Σ_i (aᵀw_i)²` against `χ²_n`,
//!   exactly (a sum of `n` squared independent standard normals), two-sided: the covariance.
//!   Draws from `N(μ, Σ')` make this sum `r·χ²_n` with `r = aᵀCa`, `C = L⁻¹Σ'L⁻ᵀ`; the
//!   diagonal of `C` and the pairs' `(C_jj + C_kk ± 2C_jk)/2` carry every entry of `C`, and the
//!   test's power against `r` is exact ([`whitened_control_power`]): where a KS test of the
//!   marginal needs 618 597 draws for power 0.999 at `α = 10⁻⁶` against a variance 5 % high,
//!   this one needs 53 500.
#![allow(dead_code)]

use super::chi_squared::{
    chi_squared_cdf, chi_squared_cdf_even, chi_squared_lower_quantile, chi_squared_survival,
    chi_squared_two_sided_p, chi_squared_upper_quantile,
};
use super::ks::ks_test;
use super::normal_law::{normal_cdf, scale_distance};
use super::statistic::Statistic;

/// The projections of the module docs: `(name, a)` with `a` the direction (not normalised).
pub fn projections(p: usize) -> Vec<(String, Vec<f64>)> {
    let mut out = Vec::new();
    for k in 0..p {
        let mut a = vec![0.0; p];
        a[k] = 1.0;
        out.push((format!("θ_{k}"), a));
    }
    for i in 0..p {
        for j in i + 1..p {
            for (sign, label) in [(1.0, '+'), (-1.0, '−')] {
                let mut a = vec![0.0; p];
                a[i] = 1.0;
                a[j] = sign;
                out.push((format!("θ_{i} {label} θ_{j}"), a));
            }
        }
    }
    out
}

fn quadratic(a: &[f64], m: &[f64], p: usize) -> f64 {
    (0..p)
        .map(|i| (0..p).map(|j| a[i] * m[i * p + j] * a[j]).sum::<f64>())
        .sum()
}

/// The battery for `draws` (rows of length `p`) against `N(mean, covariance)`, with
/// `precision = covariance⁻¹` (row-major `p × p`).
pub fn gaussian_statistics(
    draws: &[Vec<f64>],
    mean: &[f64],
    covariance: &[f64],
    precision: &[f64],
) -> Vec<Statistic> {
    let p = mean.len();
    assert!(
        p.is_multiple_of(2),
        "the χ² reference needs an even dimension"
    );
    let centred: Vec<Vec<f64>> = draws
        .iter()
        .map(|x| x.iter().zip(mean).map(|(a, b)| a - b).collect())
        .collect();
    let mut stats = Vec::new();
    for (name, a) in projections(p) {
        let sd = quadratic(&a, covariance, p).sqrt();
        let mut z: Vec<f64> = centred
            .iter()
            .map(|c| c.iter().zip(&a).map(|(x, y)| x * y).sum::<f64>() / sd)
            .collect();
        let (d, pv) = ks_test(&mut z, normal_cdf);
        stats.push(Statistic {
            name,
            n: z.len(),
            d,
            p: pv,
        });
    }
    let mut r2: Vec<f64> = centred.iter().map(|c| quadratic(c, precision, p)).collect();
    let (d, pv) = ks_test(&mut r2, |x| chi_squared_cdf_even(p, x));
    stats.push(Statistic {
        name: "Mahalanobis² vs χ²".to_string(),
        n: r2.len(),
        d,
        p: pv,
    });
    stats
}

/// A lower bound on the KS distance between the battery's reference and the law of draws from
/// `N(mean, wrong_covariance)`: the largest over the projections of the distance between
/// `N(0, 1)` and `N(0, s²)`, `s² = aᵀΣ'a / aᵀΣa` (`normal_law::scale_distance`).
pub fn control_distance(covariance: &[f64], wrong_covariance: &[f64]) -> f64 {
    let p = (covariance.len() as f64).sqrt() as usize;
    projections(p)
        .iter()
        .map(|(_, a)| {
            let s2 = quadratic(a, wrong_covariance, p) / quadratic(a, covariance, p);
            scale_distance(s2.sqrt())
        })
        .fold(0.0, f64::max)
}

/// The lower-triangular Cholesky factor `L` of a symmetric positive definite `a = LLᵀ`
/// (row-major `p × p`).
pub fn cholesky(a: &[f64]) -> Vec<f64> {
    let p = (a.len() as f64).sqrt() as usize;
    let mut l = vec![0.0; p * p];
    for i in 0..p {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[i * p + k] * l[j * p + k]).sum();
            if i == j {
                let d = a[i * p + i] - s;
                assert!(d > 0.0, "not positive definite at {i}");
                l[i * p + i] = d.sqrt();
            } else {
                l[i * p + j] = (a[i * p + j] - s) / l[j * p + j];
            }
        }
    }
    l
}

/// `L⁻¹v` by forward substitution.
fn forward(l: &[f64], v: &[f64]) -> Vec<f64> {
    let p = v.len();
    let mut w = vec![0.0; p];
    for i in 0..p {
        let s: f64 = (0..i).map(|k| l[i * p + k] * w[k]).sum();
        w[i] = (v[i] - s) / l[i * p + i];
    }
    w
}

/// The projections of the variance tests: `(name, a)` with unit `a`, the `e_k` then the
/// `(e_j ± e_k)/√2`.
pub fn variance_projections(p: usize) -> Vec<(String, Vec<f64>)> {
    let mut out = Vec::new();
    for k in 0..p {
        let mut a = vec![0.0; p];
        a[k] = 1.0;
        out.push((format!("Σ w_{k}²"), a));
    }
    let h = std::f64::consts::FRAC_1_SQRT_2;
    for i in 0..p {
        for j in i + 1..p {
            for (sign, label) in [(1.0, '+'), (-1.0, '−')] {
                let mut a = vec![0.0; p];
                a[i] = h;
                a[j] = sign * h;
                out.push((format!("Σ ((w_{i} {label} w_{j})/√2)²"), a));
            }
        }
    }
    out
}

/// The whitened battery of the module docs for `draws` (rows of length `p`) against
/// `N(mean, covariance)`: `2p + 1 + p²` statistics.
pub fn whitened_statistics(draws: &[Vec<f64>], mean: &[f64], covariance: &[f64]) -> Vec<Statistic> {
    let p = mean.len();
    let n = draws.len();
    let l = cholesky(covariance);
    let w: Vec<Vec<f64>> = draws
        .iter()
        .map(|x| {
            let c: Vec<f64> = x.iter().zip(mean).map(|(a, b)| a - b).collect();
            forward(&l, &c)
        })
        .collect();
    let mut stats = Vec::new();
    for k in 0..p {
        let mut z: Vec<f64> = w.iter().map(|v| v[k]).collect();
        let sum: f64 = z.iter().sum();
        let (d, pv) = ks_test(&mut z, normal_cdf);
        stats.push(Statistic {
            name: format!("w_{k} vs Φ"),
            n,
            d,
            p: pv,
        });
        let zm = sum / (n as f64).sqrt();
        stats.push(Statistic {
            name: format!("Σ w_{k}/√n vs N(0, 1)"),
            n,
            d: zm,
            p: libm::erfc(zm.abs() * std::f64::consts::FRAC_1_SQRT_2),
        });
    }
    let mut r2: Vec<f64> = w.iter().map(|v| v.iter().map(|x| x * x).sum()).collect();
    let (d, pv) = ks_test(&mut r2, |x| chi_squared_cdf(p, x));
    stats.push(Statistic {
        name: format!("‖w‖² vs χ²_{p}"),
        n,
        d,
        p: pv,
    });
    for (name, a) in variance_projections(p) {
        let s: f64 = w
            .iter()
            .map(|v| v.iter().zip(&a).map(|(x, y)| x * y).sum::<f64>().powi(2))
            .sum();
        stats.push(Statistic {
            name: format!("{name} vs χ²_n"),
            n,
            d: s / n as f64,
            p: chi_squared_two_sided_p(n, s),
        });
    }
    stats
}

/// The exact chance that the variance test of a projection misses draws whose sum is `r·χ²_n`
/// (the module docs), at level `alpha` split evenly between the tails.
pub fn variance_test_miss(r: f64, n: usize, alpha: f64) -> f64 {
    let lo = chi_squared_lower_quantile(n, 0.5 * alpha) / r;
    let hi = chi_squared_upper_quantile(n, 0.5 * alpha) / r;
    // P(lo ≤ χ²_n ≤ hi), from the tail both ends lie in (no cancellation near 1).
    if hi <= n as f64 {
        chi_squared_cdf(n, hi) - chi_squared_cdf(n, lo)
    } else if lo >= n as f64 {
        chi_squared_survival(n, lo) - chi_squared_survival(n, hi)
    } else {
        1.0 - chi_squared_cdf(n, lo) - chi_squared_survival(n, hi)
    }
}

/// The best variance test against draws from `N(μ, wrong_covariance)` checked as
/// `N(μ, covariance)`, at `n` draws and level `alpha`: its name, its ratio `r = aᵀCa`,
/// `C = L⁻¹Σ'L⁻ᵀ`, and its exact miss probability (the battery's power is at least
/// `1 −` that).
pub fn whitened_control_power(
    covariance: &[f64],
    wrong_covariance: &[f64],
    n: usize,
    alpha: f64,
) -> (String, f64, f64) {
    let p = (covariance.len() as f64).sqrt() as usize;
    let l = cholesky(covariance);
    // C = L⁻¹ Σ' L⁻ᵀ, column by column: M = L⁻¹Σ', then C = L⁻¹Mᵀ (Σ' symmetric).
    let columns: Vec<Vec<f64>> = (0..p)
        .map(|j| {
            forward(
                &l,
                &(0..p)
                    .map(|i| wrong_covariance[i * p + j])
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    let m: Vec<f64> = (0..p * p).map(|k| columns[k % p][k / p]).collect();
    let rows: Vec<Vec<f64>> = (0..p)
        .map(|j| forward(&l, &(0..p).map(|i| m[j * p + i]).collect::<Vec<_>>()))
        .collect();
    let c: Vec<f64> = (0..p * p).map(|k| rows[k % p][k / p]).collect();
    variance_projections(p)
        .into_iter()
        .map(|(name, a)| {
            let r = quadratic(&a, &c, p);
            (name, r, variance_test_miss(r, n, alpha))
        })
        .min_by(|x, y| x.2.total_cmp(&y.2))
        .expect("p ≥ 1")
}
