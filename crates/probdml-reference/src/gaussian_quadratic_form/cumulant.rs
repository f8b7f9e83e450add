//! The cumulant generating function of `Q₀ = Σ_k λ_k (Z_k + δ_k)² + σ Z₀` on the real line and
//! in the complex plane, and its first two derivatives on the real line.
//!
//! For one term, `E e^{s λ (Z+δ)²} = (1 − 2λs)^{−1/2} exp(δ² λ s / (1 − 2λs))` for
//! `Re(1 − 2λs) > 0` (the non-central χ²₁ moment generating function), and
//! `E e^{s σ Z₀} = e^{σ² s²/2}`, so
//!
//! `K₀(s) = Σ_k [ −½ ln(1 − 2λ_k s) + δ_k² λ_k s / (1 − 2λ_k s) ] + σ² s²/2`,
//!
//! analytic in the plane cut along the real axis outside `(s_lo, s_hi)`, with
//! `s_lo = 1/(2 λ_min)` (or −∞ if no weight is negative) and `s_hi = 1/(2 λ_max)` (or +∞).
//! With `ζ = −2λs`, each term is `−½ ln(1 + ζ) − ½ δ² ζ/(1 + ζ)`, and `ln(1 + ζ)` is formed from
//! `ln1p` so that small `|ζ|` keeps its relative accuracy.

use num_complex::Complex64;

/// One term of `Q₀`: weight `λ ≠ 0` and non-centrality `δ²`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[doc(hidden)]
pub struct Term {
    #[doc(hidden)]
    pub weight: f64,
    #[doc(hidden)]
    pub noncentrality: f64,
}

/// `K₀`: the χ²₁ terms and the variance `σ²` of the normal component (0 for none).
#[derive(Debug, Clone, PartialEq)]
#[doc(hidden)]
pub struct Cumulant {
    #[doc(hidden)]
    pub terms: Vec<Term>,
    #[doc(hidden)]
    pub normal_variance: f64,
}

/// `ln(1 + ζ)` for complex `ζ` with `1 + ζ` off the closed negative real axis: the modulus by
/// `ln1p(2 Re ζ + |ζ|²)/2`, which keeps relative accuracy for small `ζ`.
fn ln_1p(zeta: Complex64) -> Complex64 {
    let modulus = 0.5 * (2.0 * zeta.re + zeta.norm_sqr()).ln_1p();
    Complex64::new(modulus, zeta.im.atan2(1.0 + zeta.re))
}

impl Cumulant {
    /// `K₀(r)` at real `r ∈ (s_lo, s_hi)`.
    #[doc(hidden)]
    pub fn real(&self, r: f64) -> f64 {
        let chi: f64 = self
            .terms
            .iter()
            .map(|t| {
                let zeta = -2.0 * t.weight * r;
                -0.5 * zeta.ln_1p() - 0.5 * t.noncentrality * zeta / (1.0 + zeta)
            })
            .sum();
        chi + 0.5 * self.normal_variance * r * r
    }

    /// `(K₀'(r), K₀''(r))` at real `r ∈ (s_lo, s_hi)`:
    /// `K₀' = Σ λ/w + δ²λ/w² + σ²r`, `K₀'' = Σ 2λ²/w² + 4δ²λ²/w³ + σ²`, `w = 1 − 2λr`.
    #[doc(hidden)]
    pub fn derivatives(&self, r: f64) -> (f64, f64) {
        let mut first = self.normal_variance * r;
        let mut second = self.normal_variance;
        for t in &self.terms {
            let w = 1.0 - 2.0 * t.weight * r;
            let a = t.weight / w;
            first += a * (1.0 + t.noncentrality / w);
            second += 2.0 * a * a * (1.0 + 2.0 * t.noncentrality / w);
        }
        (first, second)
    }
}

/// `K₀` re-expanded about a real point `r`: `w_k(s) = w_k(r)(1 + ξ_k)` with
/// `ξ_k = −2λ_k (s − r)/w_k(r)`, so that, with `Δ = s − r`,
///
/// `K₀(s) − K₀(r) = Σ_k [ −½ ln(1 + ξ_k) − ½ (δ_k²/w_k(r)) ξ_k/(1 + ξ_k) ] + σ²(rΔ + Δ²/2)`.
///
/// Why: far in a tail `r` sits next to a branch point and `w_k(r) = 1 − 2λ_k r` is tiny (3·10⁻⁵
/// at `ln P ≈ −3·10⁴`); forming `1 − 2λ_k s` afresh at every `s` would add a rounding noise of
/// `ε/w_k(r)` to the integrand, which stalls adaptive quadrature. About `r`, `w_k(r)` is rounded
/// once (a fixed, smooth perturbation) and `ξ_k` is formed from the small increment `s − r`
/// with full relative accuracy.
#[doc(hidden)]
pub struct Expansion {
    /// `(−2λ_k/w_k(r), δ_k²/w_k(r))` per term.
    coefficients: Vec<(f64, f64)>,
    r: f64,
    normal_variance: f64,
}

impl Expansion {
    #[doc(hidden)]
    pub fn new(cumulant: &Cumulant, r: f64) -> Self {
        let coefficients = cumulant
            .terms
            .iter()
            .map(|t| {
                let w = 1.0 - 2.0 * t.weight * r;
                (-2.0 * t.weight / w, t.noncentrality / w)
            })
            .collect();
        Self {
            coefficients,
            r,
            normal_variance: cumulant.normal_variance,
        }
    }

    /// `K₀(r + Δ) − K₀(r)` on the principal branch (continuous from the real interval).
    #[doc(hidden)]
    pub fn increment(&self, delta: Complex64) -> Complex64 {
        let mut sum = (delta * self.r + delta * delta * 0.5) * self.normal_variance;
        for &(c, n) in &self.coefficients {
            let xi = delta * c;
            sum += ln_1p(xi) * -0.5 - xi / (xi + 1.0) * (0.5 * n);
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::{Cumulant, Term};

    /// The derivatives steer the saddle-point search and the contour, so a wrong `K₀''` would
    /// only slow them down and leave the probabilities right: check both derivatives directly
    /// against five-point central differences of `K₀` and `K₀'` (step 2e-4: truncation error
    /// ≈ h⁴·f⁽⁵⁾/30 and rounding ≈ ε·|f|/h, both below 1e-9 relative on these points, the
    /// nearest branch point being at w = 0.28).
    #[test]
    fn derivatives_are_those_of_the_cumulant() {
        let cumulant = Cumulant {
            terms: vec![
                Term {
                    weight: 0.7,
                    noncentrality: 1.3,
                },
                Term {
                    weight: -0.4,
                    noncentrality: 0.25,
                },
                Term {
                    weight: 1.0,
                    noncentrality: 0.0,
                },
            ],
            normal_variance: 0.6,
        };
        let h = 2e-4;
        let central = |f: &dyn Fn(f64) -> f64, r: f64| {
            (8.0 * (f(r + h) - f(r - h)) - (f(r + 2.0 * h) - f(r - 2.0 * h))) / (12.0 * h)
        };
        for r in [-0.9, -0.2, 0.0, 0.2, 0.35] {
            let (first, second) = cumulant.derivatives(r);
            let first_fd = central(&|s| cumulant.real(s), r);
            let second_fd = central(&|s| cumulant.derivatives(s).0, r);
            assert!(
                (first - first_fd).abs() <= 1e-9 * first.abs().max(1.0),
                "K0'({r}) = {first}, finite difference {first_fd}"
            );
            assert!(
                (second - second_fd).abs() <= 1e-9 * second.abs().max(1.0),
                "K0''({r}) = {second}, finite difference {second_fd}"
            );
        }
    }
}
