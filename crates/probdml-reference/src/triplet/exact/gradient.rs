//! The gradient of the batch NLL by forward-mode dual numbers (`num-dual`) through the dense
//! quadratic-form moments and the 256-bit `ln Φ` — the reference for
//! [`triplet::nll_gradient`](crate::triplet::nll_gradient).
//!
//! For each of the `6D` inputs of a triplet, one pass seeds that input's dual part with 1 and
//! evaluates
//!
//! `E τ = Σ_i Q_ii σ_i² + Σ_ij m_i Q_ij m_j`, `Var τ = 2 Σ_ij Q_ij² σ_i² σ_j² + 4 Σ_j (Qm)_j² σ_j²`
//!
//! (the identities `tr(QΣ) + mᵀQm` and `2tr(QΣQΣ) + 4mᵀQΣQm` written out for diagonal `Σ`, over
//! the dense `3D × 3D` matrix `Q`: `O(D²)` per pass), then `z = (−m − E τ)/√Var τ` and
//! `−ln Φ(z)`, whose derivative is `−(φ/Φ)(z)·ż` with `φ/Φ` from the exact `ln Φ`. No
//! closed-form derivative is used.

use num_dual::{Dual64, DualNum};

use crate::error::{Error, Result};
use crate::special::exact::log_normal_cdf;
use crate::triplet::input::check_margin;
use crate::triplet::input::{check_batch, moments_overflow, TripletGradient};

/// `ln √(2π)`.
const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_8;

/// The dense `Q` of `τ = xᵀQx`, `x = (a, p, n)`, row-major `3D × 3D`.
fn dense_q(dim: usize) -> Vec<f64> {
    let n = 3 * dim;
    let mut q = vec![0.0; n * n];
    for d in 0..dim {
        let (a, p, m) = (d, dim + d, 2 * dim + d);
        q[p * n + p] = 1.0;
        q[m * n + m] = -1.0;
        for (i, j, v) in [(a, p, -1.0), (a, m, 1.0)] {
            q[i * n + j] = v;
            q[j * n + i] = v;
        }
    }
    q
}

/// `(E τ, Var τ)` for `θ = (μ_a, σ²_a, μ_p, σ²_p, μ_n, σ²_n)` (each of length `D`) in any
/// dual-number type.
fn dense_moments<T: DualNum<Primitive = f64> + Copy>(q: &[f64], theta: &[T], dim: usize) -> (T, T) {
    let n = 3 * dim;
    let block = |k: usize| &theta[k * dim..(k + 1) * dim];
    let m: Vec<T> = [block(0), block(2), block(4)].concat();
    let s: Vec<T> = [block(1), block(3), block(5)].concat();
    let zero = T::from(0.0);
    let mut mean = zero;
    let mut var = zero;
    let mut qm = vec![zero; n];
    for i in 0..n {
        mean += s[i] * T::from(q[i * n + i]);
        for j in 0..n {
            let qij = q[i * n + j];
            if qij != 0.0 {
                qm[i] += m[j] * T::from(qij);
                var += s[i] * s[j] * T::from(2.0 * qij * qij);
            }
        }
        mean += m[i] * qm[i];
    }
    for j in 0..n {
        var += qm[j] * qm[j] * s[j] * T::from(4.0);
    }
    (mean, var)
}

/// Mean NLL and its gradient for `B` triplets, reference implementation by dual numbers.
///
/// # Formula
///
/// $$ \frac{\partial}{\partial\theta}\Big(-\frac1B\sum_b \ln\Phi(z_b)\Big),\quad
///    z_b = \frac{-m - \mathbb E\tau_b}{\sqrt{\operatorname{Var}\tau_b}} $$
///
/// with the moments of the dense quadratic form and forward-mode derivatives (module docs).
/// Cost `O(B·D³)`: a reference for small `D`.
///
/// # Errors
///
/// As `triplet::nll_gradient`.
///
/// # Examples
///
/// ```
/// use probdml::triplet::{exact, nll_gradient};
/// let (ma, va, mp, vp, mn, vn) = ([0.7], [0.5], [-0.4], [0.8], [1.3], [0.3]);
/// let fast = nll_gradient(&ma, &va, &mp, &vp, &mn, &vn, 1, 0.5).unwrap();
/// let reference = exact::nll_gradient(&ma, &va, &mp, &vp, &mn, &vn, 1, 0.5).unwrap();
/// assert!((fast.mu_a[0] - reference.mu_a[0]).abs() < 1e-13);
/// assert!((fast.var_n[0] - reference.var_n[0]).abs() < 1e-13);
/// ```
#[allow(clippy::too_many_arguments)]
pub fn nll_gradient(
    mu_a: &[f64],
    var_a: &[f64],
    mu_p: &[f64],
    var_p: &[f64],
    mu_n: &[f64],
    var_n: &[f64],
    dim: usize,
    margin: f64,
) -> Result<TripletGradient> {
    let slices = [mu_a, var_a, mu_p, var_p, mu_n, var_n];
    let batch = check_batch(slices, dim)?;
    let margin = check_margin(margin)?;
    let q = dense_q(dim);
    let len = mu_a.len();
    let mut grads: [Vec<f64>; 6] = std::array::from_fn(|_| vec![0.0; len]);
    let mut total = 0.0;
    for b in 0..batch {
        let theta: Vec<f64> = slices
            .iter()
            .flat_map(|s| s[b * dim..(b + 1) * dim].iter().copied())
            .collect();
        let (mean, var) = dense_moments(&q, &theta, dim);
        if !mean.is_finite() || !var.is_finite() {
            let rows = b * dim..(b + 1) * dim;
            return Err(moments_overflow(slices.map(|s| &s[rows.clone()]), b * dim));
        }
        if var <= 0.0 {
            if mean < -margin {
                continue; // NLL 0 and gradient 0 near a satisfied deterministic triplet
            }
            return Err(Error::Undefined {
                arg: "var_a",
                quantity: "the CLT negative log-likelihood",
                reason: "a triplet with all variances 0 violates the constraint: its NLL is +inf",
            });
        }
        let z = (-margin - mean) / var.sqrt();
        let ln_phi = log_normal_cdf(z);
        total -= ln_phi;
        let hazard = (-0.5 * z * z - LN_SQRT_2PI - ln_phi).exp();
        for k in 0..6 * dim {
            let dual: Vec<Dual64> = theta
                .iter()
                .enumerate()
                .map(|(i, &v)| Dual64::new(v, if i == k { 1.0 } else { 0.0 }))
                .collect();
            let (m_dual, v_dual) = dense_moments(&q, &dual, dim);
            let z_dual = (-m_dual - margin) / v_dual.sqrt();
            grads[k / dim][b * dim + k % dim] = -hazard * z_dual.eps / batch as f64;
        }
    }
    let [g_ma, g_va, g_mp, g_vp, g_mn, g_vn] = grads;
    Ok(TripletGradient {
        nll: total / batch as f64,
        mu_a: g_ma,
        var_a: g_va,
        mu_p: g_mp,
        var_p: g_vp,
        mu_n: g_mn,
        var_n: g_vn,
    })
}
