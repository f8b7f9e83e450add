//! The reflection that carries samples drawn around e₁ to samples around μ (book chapter 02: a
//! Householder reflection, never Gram–Schmidt against a random vector), and the placement of a
//! drawn cosine w = μᵀX on the sphere, for Wood's sampler. Its inverse-CDF twin places the
//! sample by projecting a Gaussian onto μ^⊥ instead, so that the proofs compare this code too.

use rand::Rng;
use rand_distr::StandardNormal;

use crate::compensated::{dot2, norm2, sum_sq2};

/// Q = −s(I − τuuᵀ) with u = μ + s‖μ‖e₁ and s = sign(μ₀), so that Q e₁ = μ/‖μ‖; choosing the
/// sign of μ₀ avoids cancellation in u₀.
#[derive(Debug, Clone)]
pub(crate) struct ReflectionToMean {
    u: Vec<f64>,
    tau: f64,
    sign: f64,
}

impl ReflectionToMean {
    /// For a unit (or nearly unit) `mu` with at least one entry.
    #[inline(always)]
    pub(crate) fn new(mu: &[f64]) -> Self {
        let sign = if mu[0] >= 0.0 { 1.0 } else { -1.0 };
        let mut u = mu.to_vec();
        u[0] += sign * norm2(mu);
        let tau = 2.0 / sum_sq2(&u);
        Self { u, tau, sign }
    }

    /// `out ← Q out`.
    #[inline(always)]
    pub(crate) fn apply(&self, out: &mut [f64]) {
        let alpha = self.tau * dot2(&self.u, out);
        let s = self.sign;
        for (x, &u) in out.iter_mut().zip(&self.u) {
            *x = -s * (-alpha).mul_add(u, *x);
        }
    }
}

/// Writes X = (w, r v) with v uniform on the unit sphere of ℝ^{M−1} (normalised standard
/// normals), `r = √(1 − w²)` passed in by the caller (who can form it without cancellation).
#[inline(always)]
pub(crate) fn place_around_e1<R: Rng + ?Sized>(rng: &mut R, w: f64, r: f64, out: &mut [f64]) {
    let tail = &mut out[1..];
    let ss = loop {
        for v in tail.iter_mut() {
            *v = rng.sample(StandardNormal);
        }
        let ss = sum_sq2(tail);
        if ss > 0.0 {
            break ss;
        }
    };
    let scale = r / ss.sqrt();
    tail.iter_mut().for_each(|v| *v *= scale);
    out[0] = w;
}
