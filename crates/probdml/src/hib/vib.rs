//! The VIB objective for a pair (HIB eq. 8): soft contrastive NLL of the Monte Carlo
//! match probability plus `β` times the KL of each embedding to `N(0, I)`, with its gradient
//! by the reparametrisation trick (HIB §2.2).
//!
//! # Gradient
//!
//! With `s_ij = sigmoid(−a d_ij + b)`, `t_ij = 1 − s_ij = sigmoid(a d_ij − b)`,
//! `d_ij = ‖z1_i − z2_j‖`, `z_i = μ + σ ⊙ ε_i`:
//!
//! * `m̂ = 1`: `L = −ln((1/K₁K₂) Σ s_ij)`, `∂L/∂d_ij = a w_ij t_ij`, `w = softmax(ln s)`;
//! * `m̂ = 0`: `L = −ln((1/K₁K₂) Σ t_ij)`, `∂L/∂d_ij = −a v_ij s_ij`, `v = softmax(ln t)`;
//!
//! then `∂L/∂a = Σ (∂L/∂d_ij) d_ij / a`, `∂L/∂b = −Σ (∂L/∂d_ij)/a`,
//! `∂d_ij/∂z1_i = (z1_i − z2_j)/d_ij` (0 at `d = 0`, a subgradient), `∂z/∂μ = 1`,
//! `∂z/∂ln σ² = σ ε/2`; and `∂KL/∂μ = μ`, `∂KL/∂ln σ² = (σ² − 1)/2`. The weights `w`, `v` and
//! the factors `s`, `t` come from log-sigmoids, so nothing is NaN when `sigmoid` saturates.

use crate::error::Result;
use crate::hib::divergence::kl_to_standard_normal;
use crate::hib::input::vib::{check_vib, VibLoss, VibPair};
use crate::hib::logistic::{log_sigmoid, log_sum_exp};
use crate::hib::monte_carlo::distance;
use crate::hib::soft_threshold::SoftThreshold;

/// The reparametrised draws `z_i = μ + σ ⊙ ε_i`, row-major.
fn reparametrise(mean: &[f64], variance: &[f64], noise: &[f64]) -> Vec<f64> {
    let sd: Vec<f64> = variance.iter().map(|v| v.sqrt()).collect();
    noise
        .chunks_exact(mean.len())
        .flat_map(|eps| {
            (0..mean.len())
                .map(|k| mean[k] + sd[k] * eps[k])
                .collect::<Vec<_>>()
        })
        .collect()
}

impl SoftThreshold {
    /// The VIB loss of one pair and its gradient (HIB eq. 8): fast twin of
    /// [`exact::vib_loss`](crate::hib::exact::vib_loss), which differentiates the same function by
    /// dual numbers.
    ///
    /// The match probability is the `K₁K₂`-pair Monte Carlo estimate (HIB eq. 5) on the given
    /// draws; the NLL is `−ln` of it (`−ln p(m = m̂ | x₁, x₂)`, as HIB's pipeline (Fig. 2) computes; HIB eq. 8 prints
    /// `−E ln p(m | z₁, z₂)`, which by Jensen is ≥ this), computed as a log-sum-exp of
    /// log-sigmoids: finite for every finite input, never NaN, never `−∞`. The gradient is with
    /// respect to the means, the log-variances (the usual network outputs) and `a`, `b`.
    ///
    /// # Formula
    ///
    /// $$ L = -\ln \frac{1}{K_1K_2} \sum_{i,j} \operatorname{sigmoid}\big(\pm(-a \lVert z_1^{(i)} - z_2^{(j)} \rVert + b)\big) + \beta \big[\operatorname{KL}(p(z_1|x_1) \Vert  \mathcal N(0,I)) + \operatorname{KL}(p(z_2|x_2) \Vert  \mathcal N(0,I))\big] $$
    ///
    /// with `+` for a matching pair and `−` otherwise.
    ///
    /// # Errors
    ///
    /// [`Error::TooFew`](crate::Error::TooFew) for empty means or noise; [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if lengths differ;
    /// [`Error::RaggedRows`](crate::Error::RaggedRows) if a noise slice is not a whole number of rows of width `D`;
    /// [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) / [`Error::NotFinite`](crate::Error::NotFinite) for NaN or ±∞;
    /// [`Error::OutOfDomain`](crate::Error::OutOfDomain) for a variance `≤ 0`, `a ≤ 0` or `β < 0`.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::hib::{SoftThreshold, VibPair};
    /// let pair = VibPair {
    ///     mu1: &[0.0, 0.0], var1: &[1.0, 1.0],
    ///     mu2: &[30.0, 0.0], var2: &[1.0, 1.0],
    ///     noise1: &[0.0, 0.0], noise2: &[0.0, 0.0],
    ///     is_match: true,
    /// };
    /// // sigmoid(−10·30 + 0) = e^{−300}: a naive −ln(sigmoid) in f32 or of a rounded p would be +∞
    /// // or NaN; here it is 300 + ln(1 + e^{−300}).
    /// let out = SoftThreshold { a: 10.0, b: 0.0 }.vib_loss(&pair, 0.0)?;
    /// assert_eq!(out.nll, 300.0);
    /// assert_eq!(out.grad_mu1, vec![-10.0, 0.0]);
    /// # Ok::<(), probdml::Error>(())
    /// ```
    ///
    /// Cited: HIB eq. (3), (5), (8).
    pub fn vib_loss(&self, pair: &VibPair<'_>, beta: f64) -> Result<VibLoss> {
        let SoftThreshold { a, b } = *self;
        let (dim, k1, k2) = check_vib(pair, a, b, beta)?;
        let z1 = reparametrise(pair.mu1, pair.var1, pair.noise1);
        let z2 = reparametrise(pair.mu2, pair.var2, pair.noise2);
        let pairs = k1 * k2;
        let mut dist = Vec::with_capacity(pairs);
        let mut ln_s = Vec::with_capacity(pairs);
        let mut ln_t = Vec::with_capacity(pairs);
        for i in 0..k1 {
            for j in 0..k2 {
                let d = distance(&z1[i * dim..(i + 1) * dim], &z2[j * dim..(j + 1) * dim]);
                dist.push(d);
                ln_s.push(log_sigmoid(-a * d + b));
                ln_t.push(log_sigmoid(a * d - b));
            }
        }
        let ln_pairs = (pairs as f64).ln();
        // g_ij = ∂NLL/∂d_ij, from the softmax weights of the log terms.
        let (nll, grad_d): (f64, Vec<f64>) = if pair.is_match {
            let lse = log_sum_exp(&ln_s);
            let g = (0..pairs)
                .map(|p| a * (ln_s[p] - lse).exp() * ln_t[p].exp())
                .collect();
            (ln_pairs - lse, g)
        } else {
            let lse = log_sum_exp(&ln_t);
            let g = (0..pairs)
                .map(|p| -a * (ln_t[p] - lse).exp() * ln_s[p].exp())
                .collect();
            (ln_pairs - lse, g)
        };
        let mut grad_z1 = vec![0.0; k1 * dim];
        let mut grad_z2 = vec![0.0; k2 * dim];
        let (mut grad_a, mut grad_b) = (0.0, 0.0);
        for i in 0..k1 {
            for j in 0..k2 {
                let p = i * k2 + j;
                let g = grad_d[p];
                grad_a += g * dist[p] / a;
                grad_b -= g / a;
                if dist[p] > 0.0 {
                    let scale = g / dist[p];
                    for k in 0..dim {
                        let u = scale * (z1[i * dim + k] - z2[j * dim + k]);
                        grad_z1[i * dim + k] += u;
                        grad_z2[j * dim + k] -= u;
                    }
                }
            }
        }
        let chain = |mean: &[f64], variance: &[f64], noise: &[f64], grad_z: &[f64]| {
            let mut grad_mean = vec![0.0; dim];
            let mut grad_log_var = vec![0.0; dim];
            for (eps, gz) in noise.chunks_exact(dim).zip(grad_z.chunks_exact(dim)) {
                for k in 0..dim {
                    grad_mean[k] += gz[k];
                    grad_log_var[k] += gz[k] * eps[k] * variance[k].sqrt() * 0.5;
                }
            }
            for k in 0..dim {
                grad_mean[k] += beta * mean[k];
                grad_log_var[k] += beta * 0.5 * (variance[k] - 1.0);
            }
            (grad_mean, grad_log_var)
        };
        let (grad_mu1, grad_log_var1) = chain(pair.mu1, pair.var1, pair.noise1, &grad_z1);
        let (grad_mu2, grad_log_var2) = chain(pair.mu2, pair.var2, pair.noise2, &grad_z2);
        let kl = kl_to_standard_normal(pair.mu1, pair.var1)?
            + kl_to_standard_normal(pair.mu2, pair.var2)?;
        Ok(VibLoss {
            loss: nll + beta * kl,
            nll,
            kl,
            grad_mu1,
            grad_log_var1,
            grad_mu2,
            grad_log_var2,
            grad_a,
            grad_b,
        })
    }
}

/// The VIB loss with the threshold's `a` and `b` given by position, where a swap went
/// unnoticed.
#[deprecated(
    since = "0.1.0",
    note = "name the threshold: `SoftThreshold { a, b }.vib_loss(pair, beta)`"
)]
pub fn vib_loss(pair: &VibPair<'_>, a: f64, b: f64, beta: f64) -> Result<VibLoss> {
    SoftThreshold { a, b }.vib_loss(pair, beta)
}
