//! The BTL negative log-likelihood of a batch of triplets and its gradient with respect to every
//! mean and variance, in closed form (what a training loop calls).
//!
//! # Derivation
//!
//! For one triplet, `NLL = −ln Φ(z)`, `z = (−m − μ)/σ`, `μ = Σ_d E τ_d`, `σ² = Σ_d Var τ_d`.
//! With the hazard `h = φ(z)/Φ(z)` ([`normal_hazard`]),
//!
//! `∂NLL/∂θ = (h/σ)·∂μ/∂θ + (h z/(2σ²))·∂σ²/∂θ`.
//!
//! Per dimension, with `d_p = μ_p − μ_a`, `d_n = μ_n − μ_a`, `e = μ_p − μ_n` (module `moments`:
//! `E τ_d = d_p² − d_n² + σ_p² − σ_n²`, `Var τ_d = 2σ_p⁴ + 2σ_n⁴ + 4σ_p²d_p² + 4σ_n²d_n² +
//! 4σ_a²(σ_p² + σ_n² + e²)`):
//!
//! ```text
//! ∂/∂μ_p:  ∂E = 2d_p,          ∂Var = 8(σ_p² d_p + σ_a² e)
//! ∂/∂μ_n:  ∂E = −2d_n,         ∂Var = 8(σ_n² d_n − σ_a² e)
//! ∂/∂μ_a:  −(∂/∂μ_p + ∂/∂μ_n)   (τ is invariant under a common translation)
//! ∂/∂σ_p²: ∂E = 1,             ∂Var = 4(σ_p² + d_p² + σ_a²)
//! ∂/∂σ_n²: ∂E = −1,            ∂Var = 4(σ_n² + d_n² + σ_a²)
//! ∂/∂σ_a²: ∂E = 0,             ∂Var = 4(σ_p² + σ_n² + e²)
//! ```
//!
//! About 40 flops per dimension in two passes (the moments, then the gradient); nothing is
//! allocated when the caller reuses a [`TripletGradient`].
//!
//! The batch loss is the **mean** NLL over the `B` triplets (as the BTL listing's
//! `nll.mean()`), and the gradients are those of the mean.

use super::input::check_margin;
use super::input::{check_batch, TripletGradient};
use super::likelihood::clt_log_likelihood;
use super::moments::finite_moments;
use crate::error::{Error, Result};
use crate::special::normal_hazard;

/// Mean NLL and its full gradient for `B` triplets given as row-major `B × D` matrices.
///
/// # Formula
///
/// $$ \mathrm{NLL} = -\frac1B\sum_{b=1}^{B} \ln\Phi(z_b),\quad
///    z_b = \frac{-m - \mu_b}{\sigma_b},\quad
///    \frac{\partial\\,\mathrm{NLL}}{\partial\theta} = \frac1B\Big(\frac{h_b}{\sigma_b}
///    \frac{\partial\mu_b}{\partial\theta} + \frac{h_b z_b}{2\sigma_b^2}
///    \frac{\partial\sigma_b^2}{\partial\theta}\Big),\quad h = \varphi/\Phi $$
///
/// (BTL eqs. (8), (11) and supplement eq. (26); the per-dimension derivatives are in the
/// the module docs of `crates/probdml/src/triplet/batch.rs`). Checked against forward-mode dual numbers through the dense exact
/// moments ([`exact::nll_gradient`](super::exact::nll_gradient)).
///
/// # Errors
///
/// As [`moments`](super::moments) (naming the slice), plus [`Error::InvalidDimension`] for
/// `dim = 0`, [`Error::RaggedRows`] if the length is not a multiple of `dim`, the margin checks
/// of [`log_likelihood`](super::log_likelihood), and [`Error::Undefined`] naming `var_a` when a
/// triplet has all variances 0 and violates the constraint (its NLL is `+∞`).
///
/// # Examples
///
/// ```
/// use probdml::triplet::nll_gradient;
/// // BTL Fig. 2, left: a correctly ordered 1-D triplet (a = 0, p = 0.5, n = 2).
/// let g = nll_gradient(&[0.0], &[0.1], &[0.5], &[0.1], &[2.0], &[0.1], 1, 0.0).unwrap();
/// assert!(g.mu_p[0] > 0.0 && g.mu_n[0] < 0.0); // p moves towards a (down), n away (up)
/// assert!(g.var_a[0] > 0.0 && g.var_p[0] > 0.0 && g.var_n[0] > 0.0); // every variance shrinks
/// ```
#[allow(clippy::too_many_arguments)]
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
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
    let mut out = TripletGradient::default();
    nll_gradient_into(mu_a, var_a, mu_p, var_p, mu_n, var_n, dim, margin, &mut out)?;
    Ok(out)
}

/// [`nll_gradient`] into a reused [`TripletGradient`] (its vectors are resized, never
/// reallocated once large enough). Returns the mean NLL, also stored in `out.nll`.
///
/// # Formula
///
/// As [`nll_gradient`].
///
/// # Errors
///
/// As [`nll_gradient`]; on error `out` holds no meaningful values.
///
/// # Examples
///
/// ```
/// use probdml::triplet::{nll_gradient, nll_gradient_into, TripletGradient};
/// let (ma, va, mp, vp, mn, vn) = ([0.1, 0.2], [0.3, 0.1], [0.0, 0.5], [0.2, 0.2], [1.0, -1.0], [0.1, 0.4]);
/// let mut out = TripletGradient::default();
/// let nll = nll_gradient_into(&ma, &va, &mp, &vp, &mn, &vn, 1, 0.1, &mut out).unwrap();
/// assert_eq!(out, nll_gradient(&ma, &va, &mp, &vp, &mn, &vn, 1, 0.1).unwrap());
/// assert_eq!(nll, out.nll);
/// ```
#[allow(clippy::too_many_arguments)]
pub fn nll_gradient_into(
    mu_a: &[f64],
    var_a: &[f64],
    mu_p: &[f64],
    var_p: &[f64],
    mu_n: &[f64],
    var_n: &[f64],
    dim: usize,
    margin: f64,
    out: &mut TripletGradient,
) -> Result<f64> {
    let slices = [mu_a, var_a, mu_p, var_p, mu_n, var_n];
    let batch = check_batch(slices, dim)?;
    let margin = check_margin(margin)?;
    let len = mu_a.len();
    for v in [
        &mut out.mu_a,
        &mut out.var_a,
        &mut out.mu_p,
        &mut out.var_p,
        &mut out.mu_n,
        &mut out.var_n,
    ] {
        v.resize(len, 0.0);
    }
    let inv_batch = 1.0 / batch as f64;
    let mut total = 0.0;
    for b in 0..batch {
        let rows = b * dim..(b + 1) * dim;
        let row: [&[f64]; 6] = slices.map(|s| &s[rows.clone()]);
        let (mean, variance) = finite_moments(row, b * dim)?;
        let ll = clt_log_likelihood(mean, variance, margin);
        if ll == f64::NEG_INFINITY && variance == 0.0 {
            return Err(Error::Undefined {
                arg: "var_a",
                quantity: "the CLT negative log-likelihood",
                reason: "a triplet with all variances 0 violates the constraint: its NLL is +inf",
            });
        }
        total -= ll;
        let (g_mean, g_var) = if variance > 0.0 {
            let sigma = variance.sqrt();
            let z = (-margin - mean) / sigma;
            let h = normal_hazard(z);
            (inv_batch * h / sigma, inv_batch * h * z / (2.0 * variance))
        } else {
            // Deterministic and satisfied: NLL = 0 in a neighbourhood, gradient 0.
            (0.0, 0.0)
        };
        write_row_gradient(row, g_mean, g_var, out, rows);
    }
    out.nll = total * inv_batch;
    Ok(out.nll)
}

/// The second pass: `∂/∂θ = g_mean·∂E/∂θ + g_var·∂Var/∂θ` for one row (module docs).
#[inline]
fn write_row_gradient(
    row: [&[f64]; 6],
    g_mean: f64,
    g_var: f64,
    out: &mut TripletGradient,
    rows: std::ops::Range<usize>,
) {
    let n = row[0].len();
    // Every slice re-sliced to the same length n: the loop below then has no bounds checks and
    // vectorises.
    let [ma, va, mp, vp, mn, vn] = row.map(|x| &x[..n]);
    let d_ma = &mut out.mu_a[rows.clone()][..n];
    let d_va = &mut out.var_a[rows.clone()][..n];
    let d_mp = &mut out.mu_p[rows.clone()][..n];
    let d_vp = &mut out.var_p[rows.clone()][..n];
    let d_mn = &mut out.mu_n[rows.clone()][..n];
    let d_vn = &mut out.var_n[rows][..n];
    let two_gm = 2.0 * g_mean;
    let four_gv = 4.0 * g_var;
    let eight_gv = 8.0 * g_var;
    for i in 0..n {
        let dp = mp[i] - ma[i];
        let dn = mn[i] - ma[i];
        let e = mp[i] - mn[i];
        let ae = va[i] * e;
        let gp = two_gm * dp + eight_gv * (vp[i] * dp + ae);
        let gn = -two_gm * dn + eight_gv * (vn[i] * dn - ae);
        d_mp[i] = gp;
        d_mn[i] = gn;
        d_ma[i] = -(gp + gn);
        d_vp[i] = g_mean + four_gv * (vp[i] + dp * dp + va[i]);
        d_vn[i] = -g_mean + four_gv * (vn[i] + dn * dn + va[i]);
        d_va[i] = four_gv * (vp[i] + vn[i] + e * e);
    }
}
