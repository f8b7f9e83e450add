//! The cumulant generating function of `Q₀ = Σ_k λ_k (Z_k + δ_k)²` on the real line and in the
//! complex plane, and its first two derivatives on the real line.
//!
//! For one term, `E e^{s λ (Z+δ)²} = (1 − 2λs)^{−1/2} exp(δ² λ s / (1 − 2λs))` for
//! `Re(1 − 2λs) > 0` (the non-central χ²₁ moment generating function), so
//!
//! `K₀(s) = Σ_k [ −½ ln(1 − 2λ_k s) + δ_k² λ_k s / (1 − 2λ_k s) ]`,
//!
//! analytic in the plane cut along the real axis outside `(s_lo, s_hi)`, with
//! `s_lo = 1/(2 λ_min)` (or −∞ if no weight is negative) and `s_hi = 1/(2 λ_max)` (or +∞).
//! With `ζ = −2λs`, each term is `−½ ln(1 + ζ) − ½ δ² ζ/(1 + ζ)`, and `ln(1 + ζ)` is formed from
//! `ln1p` so that small `|ζ|` keeps its relative accuracy.

use num_complex::Complex64;

/// One term of `Q₀`: weight `λ ≠ 0` and non-centrality `δ²`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Term {
    pub(crate) weight: f64,
    pub(crate) noncentrality: f64,
}

/// `ln(1 + ζ)` for complex `ζ` with `1 + ζ` off the closed negative real axis: the modulus by
/// `ln1p(2 Re ζ + |ζ|²)/2`, which keeps relative accuracy for small `ζ`.
fn ln_1p(zeta: Complex64) -> Complex64 {
    let modulus = 0.5 * (2.0 * zeta.re + zeta.norm_sqr()).ln_1p();
    Complex64::new(modulus, zeta.im.atan2(1.0 + zeta.re))
}

/// The terms re-expanded about a real point `r`: `w_k(s) = w_k(r)(1 + ξ_k)` with
/// `ξ_k = −2λ_k (s − r)/w_k(r)`, so that
///
/// `K₀(s) − K₀(r) = Σ_k [ −½ ln(1 + ξ_k) − ½ (δ_k²/w_k(r)) ξ_k/(1 + ξ_k) ]`.
///
/// Why: far in a tail `r` sits next to a branch point and `w_k(r) = 1 − 2λ_k r` is tiny (3·10⁻⁵
/// at `ln P ≈ −3·10⁴`); forming `1 − 2λ_k s` afresh at every `s` would add a rounding noise of
/// `ε/w_k(r)` to the integrand, which stalls adaptive quadrature. About `r`, `w_k(r)` is rounded
/// once (a fixed, smooth perturbation) and `ξ_k` is formed from the small increment `s − r`
/// with full relative accuracy.
pub(crate) struct Expansion {
    /// `(−2λ_k/w_k(r), δ_k²/w_k(r))` per term.
    coefficients: Vec<(f64, f64)>,
}

impl Expansion {
    pub(crate) fn new(terms: &[Term], r: f64) -> Self {
        let coefficients = terms
            .iter()
            .map(|t| {
                let w = 1.0 - 2.0 * t.weight * r;
                (-2.0 * t.weight / w, t.noncentrality / w)
            })
            .collect();
        Self { coefficients }
    }

    /// `K₀(r + Δ) − K₀(r)` on the principal branch (continuous from the real interval).
    pub(crate) fn increment(&self, delta: Complex64) -> Complex64 {
        let mut sum = Complex64::new(0.0, 0.0);
        for &(c, n) in &self.coefficients {
            let xi = delta * c;
            sum += ln_1p(xi) * -0.5 - xi / (xi + 1.0) * (0.5 * n);
        }
        sum
    }
}

/// `K₀(r)` at real `r ∈ (s_lo, s_hi)`.
pub(crate) fn cumulant_real(terms: &[Term], r: f64) -> f64 {
    terms
        .iter()
        .map(|t| {
            let zeta = -2.0 * t.weight * r;
            -0.5 * zeta.ln_1p() - 0.5 * t.noncentrality * zeta / (1.0 + zeta)
        })
        .sum()
}

/// `(K₀'(r), K₀''(r))` at real `r ∈ (s_lo, s_hi)`:
/// `K₀' = Σ λ/w + δ²λ/w²`, `K₀'' = Σ 2λ²/w² + 4δ²λ²/w³`, `w = 1 − 2λr`.
pub(crate) fn cumulant_derivatives(terms: &[Term], r: f64) -> (f64, f64) {
    let mut first = 0.0;
    let mut second = 0.0;
    for t in terms {
        let w = 1.0 - 2.0 * t.weight * r;
        let a = t.weight / w;
        first += a * (1.0 + t.noncentrality / w);
        second += 2.0 * a * a * (1.0 + 2.0 * t.noncentrality / w);
    }
    (first, second)
}
