//! Beyond the paper: a deterministic O(D) match probability, no random numbers.
//!
//! `‖Δ‖² = Q = Σ_k s_k (Z_k + δ_k/√s_k)²` (`s = σ₁² + σ₂²`, `δ = μ₁ − μ₂`) has cumulants
//! `κ_j = 2^{j−1}(j−1)! θ_j` with `θ_j = Σ_k (s_k^j + j δ_k² s_k^{j−1})` (zero-variance
//! coordinates add `δ_k²` to `θ₁` only). Jensen & Solomon (1972, after Wilson–Hilferty) choose
//! the power `h = 1 − 2θ₁θ₃/(3θ₂²)` that removes the skewness of `(Q/θ₁)^h` to first order and
//! treat it as normal with
//!
//! `E ≈ 1 + θ₂ h(h − 1)/θ₁²`,  `Var ≈ 2θ₂h²/θ₁²`
//!
//! (as `h → 0`, `ln(Q/θ₁) ~ N(−θ₂/θ₁², 2θ₂/θ₁²)`). Then `E sigmoid(−a√Q + b)` is a
//! one-dimensional Gaussian expectation, taken by a fixed 24-point Gauss–Hermite rule. Cost:
//! three sums over `D` and 24 evaluations of `sigmoid`; its error against the exact twin is
//! measured in `proofs/hib_moment_matched.rs` and stated in the registry.

use std::sync::OnceLock;

use crate::error::Result;
use crate::gauss_rule::{gauss_hermite, GaussRule};
use crate::hib::checks;
use crate::hib::logistic::sigmoid;
use crate::hib::soft_threshold::SoftThreshold;
use crate::Gaussian;

/// Nodes of the Gauss–Hermite rule in the normalised power.
const NODES: usize = 24;

fn rule() -> &'static GaussRule {
    static RULE: OnceLock<GaussRule> = OnceLock::new();
    RULE.get_or_init(|| gauss_hermite(NODES))
}

/// The Jensen–Solomon moments `(θ₁, θ₂, θ₃)` of `‖Δ‖²`.
pub(crate) fn power_moments(mu1: &[f64], var1: &[f64], mu2: &[f64], var2: &[f64]) -> [f64; 3] {
    let mut theta = [0.0; 3];
    for k in 0..mu1.len() {
        let delta2 = (mu1[k] - mu2[k]) * (mu1[k] - mu2[k]);
        let s = var1[k] + var2[k];
        theta[0] += s + delta2;
        theta[1] += s * (s + 2.0 * delta2);
        theta[2] += s * s * (s + 3.0 * delta2);
    }
    theta
}

impl SoftThreshold {
    /// The match probability of two Gaussian embeddings by the Jensen–Solomon normal approximation
    /// of `(‖Δ‖²/θ₁)^h` and a 24-point Gauss–Hermite rule: deterministic, O(D), no RNG. An
    /// approximation of [`exact::match_probability`](crate::hib::exact::match_probability) (same
    /// signature) whose measured error is in the registry (`hib::match_probability_moment_matched`).
    ///
    /// Exact when both embeddings are point masses (then `θ₂ = 0` and `‖Δ‖² = θ₁`).
    ///
    /// # Formula
    ///
    /// $$ h = 1 - \frac{2\theta_1\theta_3}{3\theta_2^2}, \quad \Big(\frac{\lVert\Delta\rVert^2}{\theta_1}\Big)^{h} \approx \mathcal N\Big(1 + \frac{\theta_2 h (h-1)}{\theta_1^2},\ \frac{2\theta_2 h^2}{\theta_1^2}\Big), \quad p \approx \sum_i \frac{w_i}{\sqrt\pi} \operatorname{sigmoid}\big(-a \sqrt{\theta_1}\\, y_i^{1/(2h)} + b\big) $$
    ///
    /// with `y_i` the Gauss–Hermite nodes mapped to that normal law.
    ///
    /// # Errors
    ///
    /// As [`exact::match_probability`](crate::hib::exact::match_probability).
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::hib::SoftThreshold;
    /// use probdml::Gaussian;
    /// let x1 = Gaussian { mu: &[0.0, 0.0], var: &[0.3, 0.3] };
    /// let x2 = Gaussian { mu: &[1.0, 0.5], var: &[0.2, 0.4] };
    /// let threshold = SoftThreshold { a: 2.0, b: 1.0 };
    /// let approx = threshold.match_probability_moment_matched(&x1, &x2)?;
    /// let exact = probdml::hib::exact::match_probability(x1.mu, x1.var, x2.mu, x2.var, 2.0, 1.0)?;
    /// assert!((approx - exact).abs() < 4e-3);
    /// # Ok::<(), probdml::Error>(())
    /// ```
    ///
    /// Cited: Jensen & Solomon, *A Gaussian approximation to the distribution of a definite
    /// quadratic form*, JASA 67 (1972); HIB eq. (4).
    pub fn match_probability_moment_matched(
        &self,
        x1: &Gaussian<'_>,
        x2: &Gaussian<'_>,
    ) -> Result<f64> {
        let SoftThreshold { a, b } = *self;
        let (mu1, var1, mu2, var2) = (x1.mu, x1.var, x2.mu, x2.var);
        checks::gaussian_pair(mu1, var1, mu2, var2, a, b)?;
        let [t1, t2, t3] = power_moments(mu1, var1, mu2, var2);
        if t2 == 0.0 {
            // Two point masses: ‖Δ‖² = θ₁ exactly.
            return Ok(sigmoid(-a * t1.sqrt() + b));
        }
        let h = 1.0 - 2.0 * t1 * t3 / (3.0 * t2 * t2);
        let ratio = t2 / (t1 * t1);
        let rule = rule();
        let mut p = 0.0;
        if h.abs() < 1e-4 {
            // The log-normal limit of the power transform.
            let (mean, sd) = (-ratio, (2.0 * ratio).sqrt());
            for (x, w) in rule.nodes.iter().zip(&rule.weights) {
                let ln_q = t1.ln() + mean + std::f64::consts::SQRT_2 * sd * x;
                p += w * sigmoid(-a * (0.5 * ln_q).exp() + b);
            }
        } else {
            let (mean, sd) = (1.0 + ratio * h * (h - 1.0), (2.0 * ratio).sqrt() * h.abs());
            for (x, w) in rule.nodes.iter().zip(&rule.weights) {
                let y = mean + std::f64::consts::SQRT_2 * sd * x;
                let term = if y > 0.0 {
                    sigmoid(-a * t1.sqrt() * y.powf(0.5 / h) + b)
                } else if h > 0.0 {
                    // y ≤ 0 stands for ‖Δ‖ = 0 when the power is increasing …
                    sigmoid(b)
                } else {
                    // … and for ‖Δ‖ = ∞ when it is decreasing.
                    0.0
                };
                p += w * term;
            }
        }
        Ok(p / std::f64::consts::PI.sqrt())
    }
}

/// The moment-matched match probability with the means, variances and the threshold's `a` and
/// `b` given by position, where a swap went unnoticed.
#[deprecated(
    since = "0.1.0",
    note = "name the inputs: `SoftThreshold { a, b }.match_probability_moment_matched(&Gaussian { mu: mu1, var: var1 }, &Gaussian { mu: mu2, var: var2 })`"
)]
pub fn match_probability_moment_matched(
    mu1: &[f64],
    var1: &[f64],
    mu2: &[f64],
    var2: &[f64],
    a: f64,
    b: f64,
) -> Result<f64> {
    SoftThreshold { a, b }.match_probability_moment_matched(
        &Gaussian { mu: mu1, var: var1 },
        &Gaussian { mu: mu2, var: var2 },
    )
}
