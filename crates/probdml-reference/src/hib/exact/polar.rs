//! The second, independent route for `D ≤ 4` random coordinates: the expectation of
//! `sigmoid(−a‖Δ‖ + b)` written in polar coordinates around the origin of the standardised
//! coordinates `y_k = Δ_k/√s_k ~ N(m_k, 1)`, `m_k = δ_k/√s_k`, `y = r u`:
//!
//! `p = ∫_{S^{D−1}} ∫_0^∞ sigmoid(−a √(c + r² q(u)²) + b) r^{D−1} φ(r u − m) dr dσ(u)`,
//!
//! with `q(u)² = Σ s_k u_k²` and `φ` the standard normal density in `ℝ^D` (standardising makes
//! the Gaussian factor the same along every ray, so the anisotropy enters only through the
//! slowly varying sigmoid). Why polar and not the Cartesian tensor Gauss–Hermite
//! rule: `‖Δ‖` has a kink at `Δ = 0` (a cone in `D ≥ 2`), so a Gauss–Hermite rule in
//! the Cartesian coordinates of `Δ` converges only algebraically whenever the origin carries
//! mass (the unit test below measures it: at `D = 1`, `δ = 0` the 64-point rule is still off by
//! more than `10⁻⁶`, and going from 16 to 64 points gains less than a factor 20). Around the origin the kink disappears: along each ray the
//! integrand is `r^{D−1}` times a Gaussian in `r` times a smooth sigmoid, log-concave in `r`
//! (integrated by [`super::log_concave`]), and over the sphere it is analytic, so tensor
//! products of Gauss rules in the angles converge exponentially:
//!
//! * `D = 1`: the two directions `u = ±1`;
//! * `D = 2`: the trapezoid rule in the angle (exponential for periodic analytic integrands);
//! * `D = 3`: Gauss–Legendre in `cos θ` × trapezoid in `φ`;
//! * `D = 4`: Gauss–Chebyshev (second kind) in `cos ψ` (`dσ_{S³} = sin²ψ dψ dσ_{S²}`) × the
//!   `D = 3` rule.
//!
//! The angular resolution is doubled until two successive values agree to `10⁻¹⁰` relative, or
//! until the change has shrunk a hundredfold in one doubling and extrapolates below `10⁻¹¹` (each
//! ray is integrated to `10⁻¹²`, so a tighter test would chase quadrature noise; the angular
//! convergence is exponential, so the finer value is far better than the test);
//! the sum over directions is a log-sum-exp, so tiny probabilities keep their relative accuracy.

use crate::error::{Error, Result};
use crate::gauss_rule::{gauss_chebyshev_second_kind, gauss_legendre};
use crate::hib::exact::difference::DifferenceLaw;
use crate::hib::exact::log_concave;
use crate::hib::exact::logistic::{log_sigmoid, log_sum_exp};
use std::f64::consts::PI;

/// The largest number of random coordinates the polar route handles.
pub const POLAR_MAX_DIM: usize = 4;

/// Angular agreement asked between two resolutions.
const ANGULAR_TOLERANCE: f64 = 1e-10;

/// A direction on `S^{D−1}` with its quadrature weight.
type Direction = (Vec<f64>, f64);

/// The product rule on `S^{D−1}` at resolution `n`.
fn sphere_rule(dim: usize, n: usize) -> Vec<Direction> {
    match dim {
        1 => vec![(vec![1.0], 1.0), (vec![-1.0], 1.0)],
        2 => (0..n)
            .map(|j| {
                let theta = 2.0 * PI * j as f64 / n as f64;
                (vec![theta.cos(), theta.sin()], 2.0 * PI / n as f64)
            })
            .collect(),
        3 => {
            let legendre = gauss_legendre(n);
            let m = 2 * n;
            let mut out = Vec::with_capacity(n * m);
            for (x, w) in legendre.nodes.iter().zip(&legendre.weights) {
                let rho = (1.0 - x * x).max(0.0).sqrt();
                for j in 0..m {
                    let phi = 2.0 * PI * j as f64 / m as f64;
                    out.push((
                        vec![rho * phi.cos(), rho * phi.sin(), *x],
                        w * 2.0 * PI / m as f64,
                    ));
                }
            }
            out
        }
        4 => {
            let chebyshev = gauss_chebyshev_second_kind(n);
            let inner = sphere_rule(3, n);
            let mut out = Vec::with_capacity(n * inner.len());
            for (x, w) in chebyshev.nodes.iter().zip(&chebyshev.weights) {
                let rho = (1.0 - x * x).max(0.0).sqrt();
                for (v, wv) in &inner {
                    out.push((vec![*x, rho * v[0], rho * v[1], rho * v[2]], w * wv));
                }
            }
            out
        }
        _ => unreachable!("the polar route is called only for 1 <= D <= 4"),
    }
}

/// `ln ∫_0^∞ sigmoid(−a√(c + r² q(u)²) + b) r^{D−1} φ(ru − m) dr` along the direction `u` of
/// the standardised coordinates `y_k = Δ_k/√s_k ~ N(m_k, 1)`, `q(u)² = Σ s_k u_k²`.
fn ln_ray(law: &DifferenceLaw, u: &[f64], a: f64, b: f64, ln_norm: f64) -> Result<f64> {
    let dim = law.random_dim();
    // φ(ru − m) = exp(−r²/2 + r uᵀm − |m|²/2)/(2π)^{D/2}.
    let (mut um, mut m2, mut q2) = (0.0, 0.0, 0.0);
    for ((&uk, &mk), &wk) in u.iter().zip(&law.shifts).zip(&law.weights).take(dim) {
        um += uk * mk;
        m2 += mk * mk;
        q2 += wk * uk * uk;
    }
    let c = law.offset;
    let power = (dim - 1) as f64;
    let ell = |r: f64| {
        let radial = if dim == 1 { 0.0 } else { power * r.ln() };
        log_sigmoid(-a * (c + r * r * q2).sqrt() + b) + radial - 0.5 * r * r + um * r - 0.5 * m2
            + ln_norm
    };
    // Without the sigmoid the maximiser solves r² − (uᵀm) r − (D−1) = 0; the sigmoid only
    // moves it towards 0.
    let r0 = 0.5 * (um + (um * um + 4.0 * power).sqrt());
    let upper = r0.max(0.0) + 10.0;
    let threshold = if b > 0.0 && (b / a).powi(2) > c {
        (((b / a).powi(2) - c) / q2).sqrt()
    } else {
        f64::NAN
    };
    log_concave::log_integral(ell, upper, &[threshold])
}

/// `ln p` by the polar route at angular resolution `n`.
fn ln_at_resolution(law: &DifferenceLaw, a: f64, b: f64, n: usize) -> Result<f64> {
    let dim = law.random_dim();
    let ln_norm = -0.5 * dim as f64 * (2.0 * PI).ln();
    let mut terms = Vec::new();
    for (u, w) in sphere_rule(dim, n) {
        terms.push(w.ln() + ln_ray(law, &u, a, b, ln_norm)?);
    }
    Ok(log_sum_exp(&terms))
}

/// `ln E sigmoid(−a‖Δ‖ + b)` by the polar route (`1 ≤ D ≤ 4` random coordinates).
#[doc(hidden)]
pub fn log_match_probability(law: &DifferenceLaw, a: f64, b: f64) -> Result<f64> {
    let dim = law.random_dim();
    if dim == 1 {
        return ln_at_resolution(law, a, b, 1);
    }
    let cap = match dim {
        2 => 8192,
        3 => 512,
        _ => 64,
    };
    let mut n = 8;
    let mut previous = ln_at_resolution(law, a, b, n)?;
    let mut previous_change = f64::INFINITY;
    while n < cap {
        n *= 2;
        let current = ln_at_resolution(law, a, b, n)?;
        let change = (current - previous).abs();
        // Converged: a change below the tolerance, or a change that shrank a hundredfold in one
        // doubling (the geometric regime), where the finer value's error is about
        // change · (change / previous change).
        let rate = change / previous_change;
        if change <= ANGULAR_TOLERANCE
            || (previous_change.is_finite()
                && rate <= 1e-2
                && change * rate <= 0.1 * ANGULAR_TOLERANCE)
        {
            return Ok(current);
        }
        previous = current;
        previous_change = change;
    }
    Err(Error::NoConvergence {
        method: "hib::exact::match_probability_polar (angular rule; the law is too concentrated far from the origin for the polar route)",
        iterations: n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gauss_rule::gauss_hermite;

    /// Why not Cartesian Gauss–Hermite: `E sigmoid(−|Z|)`, `Z ~ N(0, 1)` (mpmath:
    /// 0.32514317473302409844), has a kink at the mode; the n-point rule converges only
    /// algebraically, while the polar route (two rays) is exact to rounding.
    #[test]
    fn cartesian_gauss_hermite_converges_slowly_through_the_kink() {
        let want = 0.325_143_174_733_024_1;
        let cartesian = |n: usize| {
            let rule = gauss_hermite(n);
            let sum: f64 = rule
                .nodes
                .iter()
                .zip(&rule.weights)
                .map(|(x, w)| w * log_sigmoid(-(std::f64::consts::SQRT_2 * x).abs()).exp())
                .sum();
            sum / PI.sqrt()
        };
        let (e16, e64) = ((cartesian(16) - want).abs(), (cartesian(64) - want).abs());
        assert!(e64 > 1e-6, "64-point error {e64:e}");
        assert!(
            e16 / e64 < 20.0,
            "algebraic, not exponential: {e16:e} → {e64:e}"
        );
        let law = DifferenceLaw::new(&[0.0], &[0.5], &[0.0], &[0.5]);
        let polar = log_match_probability(&law, 1.0, 0.0).unwrap().exp();
        assert!((polar - want).abs() < 1e-15, "{polar}");
    }
}
