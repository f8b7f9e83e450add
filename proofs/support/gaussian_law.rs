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
#![allow(dead_code)]

use crate::chi_squared::chi_squared_cdf_even;
use crate::ks::ks_test;
use crate::normal_law::{normal_cdf, scale_distance};
use crate::statistic::Statistic;

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
