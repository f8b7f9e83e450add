//! The law of a sample on `S^{M−1}` claimed to be `vMF(μ, κ)`, tested statistic by statistic.
//!
//! Wood (1994, §2): `X = Wμ + √(1 − W²)·V` with `W = μᵀX` of density
//! `∝ e^{κw}(1 − w²)^{(M−3)/2}` on `[−1, 1]`, and `V` uniform on the unit sphere of `μ^⊥`,
//! independent of `W`. That is the whole law, and each part has an exact reference CDF:
//!
//! 1. `W` against the marginal `vmf::exact::CosineMarginal(M, κ)` (adaptive quadrature of the
//!    density; nothing of Wood's rejection step);
//! 2. `U = bᵀV` for a fixed unit `b ⟂ μ`: a coordinate of a uniform point of `S^{M−2}`, whose
//!    law is the `κ = 0` marginal of `ℝ^{M−1}`, `CosineMarginal(M − 1, 0)` (density
//!    `∝ (1 − u²)^{(M−4)/2}`);
//! 3. the azimuth `atan2(cᵀX, bᵀX)` for orthonormal `b, c ⟂ μ`: uniform on `(−π, π]`, since the
//!    law of `V` is invariant under rotations of `μ^⊥` (`M ≥ 3`);
//! 4. `U` again, on the draws with `F_W(W) > ½` only: the tangent direction is independent of
//!    `W` (the selection uses the reference median, so under the claim the selected `U` are
//!    i.i.d. with the law of 2).
//!
//! `M = 2`: the tangent sphere is `{±1}`, so the signed angle `θ = atan2(bᵀX, μᵀX)` carries the
//! whole law, `P(θ ≤ t) = ½ + sgn(t)·P(|θ| ≤ |t|)/2`; with it `W`, and `|θ|` on the draws with
//! `θ > 0` (the sign independent of the angle).
//!
//! **The mean direction** ([`mean_direction_statistic`], every `M ≥ 2`). For a unit `u ⟂ μ`,
//! `uᵀX = √(1 − W²)·uᵀV` has mean 0 and variance `τ² = E[1 − W²]/(M − 1)`, since
//! `E[VVᵀ] = (I − μμᵀ)/(M − 1)` for `V` uniform on the sphere of `μ^⊥`; the `M − 1` tangent
//! coordinates are uncorrelated (`τ² = A_M(κ)/κ` by `E[W²] = 1 − (M − 1)A_M(κ)/κ`; here
//! `E[1 − W²]` is integrated by `CosineMarginal`). So the tangent part of the sample mean gives
//! `T = n‖(I − μμᵀ)X̄‖²/τ² → χ²_{M−1}` (multivariate CLT; the summands are bounded and their law
//! is symmetric under `V ↦ −V`, so the third cumulants vanish and the error of the χ² law is
//! `O(1/n)`). A turn of the mean direction by `θ` towards any unit `u ⟂ μ` moves `E[uᵀX̄]` by
//! `A_M(κ) sin θ`: first order in `θ` whatever `u`, where the statistics above see a turn
//! orthogonal to `b` and `c` only through `W`, at order `θ²`.
#![allow(dead_code)]

use super::chi_squared::chi_squared_survival;
use super::ks::ks_test;
use super::statistic::Statistic;
use probdml::vmf::exact::CosineMarginal;

/// Orthonormal `b` (and `c` for `M ≥ 3`) orthogonal to a unit `μ`, by Gram–Schmidt (twice, for
/// orthogonality to rounding) of the given vectors.
#[derive(Debug, Clone)]
pub struct TangentFrame {
    pub b: Vec<f64>,
    pub c: Option<Vec<f64>>,
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// `v` made orthogonal to the orthonormal vectors `against` (Gram–Schmidt twice) and unit.
pub fn orthonormalise(v: &[f64], against: &[&[f64]]) -> Vec<f64> {
    let mut v = v.to_vec();
    for _ in 0..2 {
        for a in against {
            let d = dot(&v, a);
            v.iter_mut().zip(a.iter()).for_each(|(x, y)| *x -= d * y);
        }
    }
    let n = dot(&v, &v).sqrt();
    v.iter().map(|x| x / n).collect()
}

impl TangentFrame {
    /// `b` from `r1`, `c` from `r2` (`r1, r2` in general position with `μ`).
    pub fn around(mu: &[f64], r1: &[f64], r2: &[f64]) -> Self {
        let b = orthonormalise(r1, &[mu]);
        let c = (mu.len() >= 3).then(|| orthonormalise(r2, &[mu, &b]));
        Self { b, c }
    }
}

/// The statistics of the module docs for draws `xs` against `vMF(mu, kappa)`.
pub fn vmf_statistics(
    xs: &[Vec<f64>],
    mu: &[f64],
    kappa: f64,
    frame: &TangentFrame,
) -> Vec<Statistic> {
    let dim = mu.len();
    let law = CosineMarginal::new(dim, kappa).expect("M ≥ 2, κ ≥ 0");
    let mut stats = Vec::new();
    let mut push = |name: &str, sample: &mut Vec<f64>, cdf: &dyn Fn(f64) -> f64| {
        let (d, p) = ks_test(sample, cdf);
        stats.push(Statistic {
            name: name.to_string(),
            n: sample.len(),
            d,
            p,
        });
    };
    let mut w: Vec<f64> = xs.iter().map(|x| dot(mu, x)).collect();
    if dim == 2 {
        let theta: Vec<f64> = xs
            .iter()
            .map(|x| dot(&frame.b, x).atan2(dot(mu, x)))
            .collect();
        let signed = |t: f64| 0.5 + 0.5 * t.signum() * law.cdf_angle(t.abs());
        push("signed angle", &mut theta.clone(), &signed);
        push("W = μᵀX", &mut w, &|t| law.cdf(t));
        let mut positive: Vec<f64> = theta.into_iter().filter(|&t| t > 0.0).collect();
        push("|θ| given θ > 0", &mut positive, &|t| law.cdf_angle(t));
        return stats;
    }
    let tangent_law = CosineMarginal::new(dim - 1, 0.0).expect("M − 1 ≥ 2");
    let median = law.quantile(0.5);
    let c = frame.c.as_ref().expect("M ≥ 3");
    let mut u = Vec::with_capacity(xs.len());
    let mut u_upper = Vec::new();
    let mut azimuth = Vec::with_capacity(xs.len());
    for (x, &wi) in xs.iter().zip(&w) {
        // V = (X − Wμ)/‖X − Wμ‖; bᵀμ = 0, so bᵀV = bᵀX/‖X − Wμ‖.
        let r = x
            .iter()
            .zip(mu)
            .map(|(xi, mi)| (xi - wi * mi).powi(2))
            .sum::<f64>()
            .sqrt();
        let ui = (dot(&frame.b, x) / r).clamp(-1.0, 1.0);
        u.push(ui);
        if wi > median {
            u_upper.push(ui);
        }
        azimuth.push(dot(c, x).atan2(dot(&frame.b, x)));
    }
    let pi = std::f64::consts::PI;
    push("W = μᵀX", &mut w, &|t| law.cdf(t));
    push("U = bᵀV", &mut u, &|t| tangent_law.cdf(t));
    push("azimuth in span(b, c)", &mut azimuth, &|t| {
        (t + pi) / (2.0 * pi)
    });
    push("U given W > median", &mut u_upper, &|t| tangent_law.cdf(t));
    stats
}

/// `τ² = E[(uᵀX)²]` for a unit `u ⟂ μ` under `vMF(μ, κ)` on `S^{M−1}`: `E[1 − W²]/(M − 1)`, with
/// `1 − W² = s(2 − s)`, `s = 1 − W`, so `E[1 − W²] = 2E s − (E s)² − Var s` (no cancellation as
/// `κ → ∞`, where `E s → 0`).
pub fn tangent_variance(dim: usize, kappa: f64) -> f64 {
    let law = CosineMarginal::new(dim, kappa).expect("M ≥ 2, κ ≥ 0");
    let s = law.mean_complement();
    (2.0 * s - s * s - law.variance()) / (dim - 1) as f64
}

/// The mean-direction statistic of the module docs: `T = n‖(I − μμᵀ)X̄‖²/τ²` against
/// `χ²_{M−1}`; `d` holds `T`.
pub fn mean_direction_statistic(xs: &[Vec<f64>], mu: &[f64], kappa: f64) -> Statistic {
    let dim = mu.len();
    let mut sum = vec![0.0; dim];
    for x in xs {
        sum.iter_mut().zip(x).for_each(|(s, v)| *s += v);
    }
    // The tangent part of the sum, projected directly (not ‖S‖² − (μᵀS)², which cancels).
    let along = dot(mu, &sum);
    let tangent: f64 = sum
        .iter()
        .zip(mu)
        .map(|(s, m)| (s - along * m).powi(2))
        .sum();
    let n = xs.len();
    let t = tangent / (n as f64 * tangent_variance(dim, kappa));
    Statistic {
        name: format!("mean direction, T vs χ²_{}", dim - 1),
        n,
        d: t,
        p: chi_squared_survival(dim - 1, t),
    }
}
