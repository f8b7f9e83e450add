//! Fixed Gauss rules (nodes and weights), computed once by Newton's method on the three-term
//! recurrences (Golub–Welsch would need an eigensolver; Newton from the asymptotic starting
//! values of Press et al., *Numerical Recipes* §4.6, converges in a few steps for every node).
//!
//! Used by the deterministic approximation (Gauss–Hermite in the normalised power of `‖Δ‖²`)
//! and by the polar reference of `exact` (Gauss–Legendre and Gauss–Chebyshev in the angles).
//! The unit tests check the moments each rule must integrate exactly.

use std::f64::consts::PI;

/// Nodes and weights of an `n`-point rule.
#[derive(Debug, Clone)]
#[doc(hidden)]
pub struct GaussRule {
    pub nodes: Vec<f64>,
    pub weights: Vec<f64>,
}

/// Gauss–Hermite for the weight `e^{−x²}` on ℝ (physicists' convention): `Σ w_i = √π`.
#[doc(hidden)]
pub fn gauss_hermite(n: usize) -> GaussRule {
    let mut nodes = vec![0.0; n];
    let mut weights = vec![0.0; n];
    let pi_m4 = PI.powf(-0.25);
    let m = n.div_ceil(2);
    let nf = n as f64;
    let mut z = 0.0f64;
    for i in 0..m {
        // Starting values of Numerical Recipes `gauher`.
        z = match i {
            0 => (2.0 * nf + 1.0).sqrt() - 1.85575 * (2.0 * nf + 1.0).powf(-1.0 / 6.0),
            1 => z - 1.14 * nf.powf(0.426) / z,
            2 => 1.86 * z - 0.86 * nodes[0],
            3 => 1.91 * z - 0.91 * nodes[1],
            _ => 2.0 * z - nodes[i - 2],
        };
        let mut pp = 0.0;
        for _ in 0..100 {
            // Orthonormal Hermite recurrence.
            let mut p1 = pi_m4;
            let mut p2 = 0.0;
            for j in 1..=n {
                let p3 = p2;
                p2 = p1;
                let jf = j as f64;
                p1 = z * (2.0 / jf).sqrt() * p2 - ((jf - 1.0) / jf).sqrt() * p3;
            }
            pp = (2.0 * nf).sqrt() * p2;
            let z1 = z;
            z = z1 - p1 / pp;
            if (z - z1).abs() <= 1e-15 * z.abs().max(1.0) {
                break;
            }
        }
        nodes[i] = z;
        nodes[n - 1 - i] = -z;
        weights[i] = 2.0 / (pp * pp);
        weights[n - 1 - i] = weights[i];
    }
    GaussRule { nodes, weights }
}

/// Gauss–Legendre on `[−1, 1]`: `Σ w_i = 2`.
#[doc(hidden)]
pub fn gauss_legendre(n: usize) -> GaussRule {
    let mut nodes = vec![0.0; n];
    let mut weights = vec![0.0; n];
    let nf = n as f64;
    for i in 0..n.div_ceil(2) {
        let mut z = (PI * (i as f64 + 0.75) / (nf + 0.5)).cos();
        let mut pp = 0.0;
        for _ in 0..100 {
            let mut p1 = 1.0;
            let mut p2 = 0.0;
            for j in 1..=n {
                let p3 = p2;
                p2 = p1;
                let jf = j as f64;
                p1 = ((2.0 * jf - 1.0) * z * p2 - (jf - 1.0) * p3) / jf;
            }
            pp = nf * (z * p1 - p2) / (z * z - 1.0);
            let z1 = z;
            z = z1 - p1 / pp;
            if (z - z1).abs() <= 1e-16 {
                break;
            }
        }
        nodes[i] = z;
        nodes[n - 1 - i] = -z;
        weights[i] = 2.0 / ((1.0 - z * z) * pp * pp);
        weights[n - 1 - i] = weights[i];
    }
    GaussRule { nodes, weights }
}

/// Gauss–Chebyshev of the second kind on `[−1, 1]` for the weight `√(1 − x²)` (closed form):
/// `∫ f(cos ψ) sin²ψ dψ` over `[0, π]`, the polar angle of `S³`.
#[doc(hidden)]
pub fn gauss_chebyshev_second_kind(n: usize) -> GaussRule {
    let h = PI / (n as f64 + 1.0);
    let (nodes, weights) = (1..=n)
        .map(|i| {
            let t = i as f64 * h;
            (t.cos(), h * t.sin() * t.sin())
        })
        .unzip();
    GaussRule { nodes, weights }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ∫ x^{2k} e^{−x²} dx = Γ(k + ½) = (2k−1)!!/2^k √π.
    #[test]
    fn hermite_integrates_even_moments_exactly() {
        for n in [1usize, 2, 5, 16, 32, 64] {
            let rule = gauss_hermite(n);
            let mut exact = PI.sqrt();
            for k in 0..n {
                let got: f64 = rule
                    .nodes
                    .iter()
                    .zip(&rule.weights)
                    .map(|(x, w)| w * x.powi(2 * k as i32))
                    .sum();
                assert!(
                    (got - exact).abs() <= 1e-13 * exact,
                    "n = {n}, k = {k}: {got} vs {exact}"
                );
                exact *= (2 * k + 1) as f64 / 2.0;
            }
        }
    }

    /// ∫_{−1}^{1} x^{2k} dx = 2/(2k+1).
    #[test]
    fn legendre_integrates_polynomials_exactly() {
        for n in [1usize, 2, 7, 20, 64, 256] {
            let rule = gauss_legendre(n);
            for k in 0..n.min(40) {
                let got: f64 = rule
                    .nodes
                    .iter()
                    .zip(&rule.weights)
                    .map(|(x, w)| w * x.powi(2 * k as i32))
                    .sum();
                let exact = 2.0 / (2 * k + 1) as f64;
                assert!((got - exact).abs() <= 1e-14, "n = {n}, k = {k}: {got}");
            }
        }
    }

    /// ∫ x^{2k} √(1 − x²) dx = π (2k−1)!! / (2^k (k+1)!) … checked for k = 0, 1, 2: π/2, π/8, π/16.
    #[test]
    fn chebyshev_second_kind_moments() {
        let rule = gauss_chebyshev_second_kind(12);
        for (k, exact) in [(0, PI / 2.0), (1, PI / 8.0), (2, PI / 16.0)] {
            let got: f64 = rule
                .nodes
                .iter()
                .zip(&rule.weights)
                .map(|(x, w)| w * x.powi(2 * k))
                .sum();
            assert!((got - exact).abs() <= 1e-15, "k = {k}: {got}");
        }
    }
}
