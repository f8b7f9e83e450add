//! `E τ` and `Var τ` from the dense quadratic form in `x = (a, p, n) ∈ ℝ^{3D}` (BTL supplement eqs. 5, 17, 18, 26, checked independently).
//!
//! `τ = ‖a − p‖² − ‖a − n‖² = xᵀQx` with the symmetric `3D × 3D` matrix
//!
//! ```text
//!       a    p    n
//! a [   0   −I   +I ]
//! p [  −I   +I    0 ]
//! n [  +I    0   −I ]
//! ```
//!
//! (`(a−p)² − (a−n)² = p² − n² − 2ap + 2an`), and `x ~ N(m, Σ)` with `m = (μ_a, μ_p, μ_n)`,
//! `Σ = diag(σ²_a, σ²_p, σ²_n)`. For any Gaussian quadratic form (Mathai & Provost 1992,
//! Thm. 3.2b.2):
//!
//! `E xᵀQx = tr(QΣ) + mᵀQm`, `Var xᵀQx = 2 tr(QΣQΣ) + 4 mᵀQΣQm`.
//!
//! Everything is formed densely with `faer` — two `3D × 3D` products — so nothing of the
//! per-dimension algebra of the fast twin is used. Cost `O(D³)`: a reference for `D ≲ 200`.

use faer::Mat;

use crate::error::Result;
use crate::triplet::input::{check_triplet, moments_overflow};

/// The matrix `Q` of `τ = xᵀQx`, `x = (a, p, n)`.
fn quadratic_form_matrix(dim: usize) -> Mat<f64> {
    let (a, p, n) = (0, dim, 2 * dim);
    let mut q = Mat::<f64>::zeros(3 * dim, 3 * dim);
    for d in 0..dim {
        q[(p + d, p + d)] = 1.0;
        q[(n + d, n + d)] = -1.0;
        for (i, j, v) in [(a, p, -1.0), (a, n, 1.0)] {
            q[(i + d, j + d)] = v;
            q[(j + d, i + d)] = v;
        }
    }
    q
}

/// `(E τ, Var τ)` by the dense quadratic-form identities, reference implementation.
///
/// # Formula
///
/// $$ \mathbb E\tau = \operatorname{tr}(Q\Sigma) + m^\top Q m,\qquad
///    \operatorname{Var}\tau = 2\operatorname{tr}(Q\Sigma Q\Sigma) + 4\\,m^\top Q\Sigma Q m $$
///
/// with `Q`, `m`, `Σ` of the module docs of `crates/probdml-reference/src/triplet/exact/moments.rs`.
///
/// # Errors
///
/// As `triplet::moments`.
///
/// # Examples
///
/// ```
/// use probdml::triplet::exact::moments;
/// let (mean, var) = moments(&[0.7], &[0.5], &[-0.4], &[0.8], &[1.3], &[0.3]).unwrap();
/// assert!((mean - 1.35).abs() < 1e-14 && (var - 13.744).abs() < 1e-13);
/// ```
pub fn moments(
    mu_a: &[f64],
    var_a: &[f64],
    mu_p: &[f64],
    var_p: &[f64],
    mu_n: &[f64],
    var_n: &[f64],
) -> Result<(f64, f64)> {
    let dim = check_triplet([mu_a, var_a, mu_p, var_p, mu_n, var_n])?;
    let n = 3 * dim;
    let q = quadratic_form_matrix(dim);
    let stacked_mean: Vec<f64> = [mu_a, mu_p, mu_n].concat();
    let stacked_var: Vec<f64> = [var_a, var_p, var_n].concat();
    let m = Mat::<f64>::from_fn(n, 1, |i, _| stacked_mean[i]);
    let sigma = Mat::<f64>::from_fn(n, n, |i, j| if i == j { stacked_var[i] } else { 0.0 });
    let q_sigma = &q * &sigma;
    let q_sigma_q_sigma = &q_sigma * &q_sigma;
    let qm = &q * &m;
    let sigma_qm = &sigma * &qm;
    let mut trace_qs = 0.0;
    let mut trace_qsqs = 0.0;
    for i in 0..n {
        trace_qs += q_sigma[(i, i)];
        trace_qsqs += q_sigma_q_sigma[(i, i)];
    }
    let mut mqm = 0.0;
    let mut mqsqm = 0.0;
    for i in 0..n {
        mqm += m[(i, 0)] * qm[(i, 0)];
        mqsqm += qm[(i, 0)] * sigma_qm[(i, 0)];
    }
    let (mean, var) = (trace_qs + mqm, 2.0 * trace_qsqs + 4.0 * mqsqm);
    if !mean.is_finite() || !var.is_finite() {
        return Err(moments_overflow([mu_a, var_a, mu_p, var_p, mu_n, var_n], 0));
    }
    Ok((mean, var))
}
