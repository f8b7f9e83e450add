//! The exact law of `τ = ‖a − p‖² − ‖a − n‖²` as a Gaussian quadratic form, and
//! `ln P(τ < −m)` from it.
//!
//! # Reduction (no normal component, except where only the anchor is random)
//!
//! `τ` depends on `(a, p, n)` only through `u = a − p` and `v = a − n`: `τ = Σ_d u_d² − v_d²`.
//! Per dimension `(u_d, v_d)` is Gaussian with mean `(μ_a − μ_p, μ_a − μ_n)` and covariance
//! `C = [[σ_a² + σ_p², σ_a²], [σ_a², σ_a² + σ_n²]]`, `det C = σ_a²σ_p² + σ_a²σ_n² + σ_p²σ_n²`,
//! independent across dimensions. The `3D × 3D` matrix of the quadratic form is singular (its null
//! direction `(1, 1, 1)`, a common translation, carries no linear term), but the 2-D reduction
//! is not, as long as two of the three variances are positive:
//!
//! * **two or three variances positive**: `C = LLᵀ` (Cholesky), `w = m + Lz`,
//!   `τ_d = zᵀ(LᵀJL)z + 2(LᵀJm)ᵀz + mᵀJm` with `J = diag(1, −1)`. `LᵀJL` has determinant
//!   `−det C < 0`: one positive and one negative eigenvalue `λ₁, λ₂`, eigenvectors `r₁, r₂`;
//!   completing the square with `b_i = r_iᵀLᵀJm` gives
//!   `τ_d = Σ_i λ_i (z_i + b_i/λ_i)² + mᵀJm − Σ_i b_i²/λ_i`: two non-central χ²₁ terms of
//!   opposite signs and **no normal component**.
//! * **only `σ_p² > 0`**: `τ_d = σ_p²(z + (μ_a−μ_p)/σ_p)² − (μ_a − μ_n)²`; **only `σ_n² > 0`**:
//!   `τ_d = (μ_a − μ_p)² − σ_n²(z + (μ_a−μ_n)/σ_n)²`.
//! * **only `σ_a² > 0`**: `u − v = n − p` is deterministic and
//!   `τ_d = (u − v)(u + v) = (μ_n − μ_p)(2a_d − μ_p − μ_n)` is *normal*, with variance
//!   `4σ_a²(μ_p − μ_n)²`. So "no normal component" holds only when every dimension has
//!   two random embeddings; this case is handled by the normal component of
//!   [`GaussianQuadraticForm::with_normal`].
//! * **no variance positive**: `τ_d` is the constant `(μ_a − μ_p)² − (μ_a − μ_n)²`.
//!
//! `P(τ < −m)` is then [`GaussianQuadraticForm::ln_cdf`] at `−m` (a continuous law, so `<` and
//! `≤` agree), except when every dimension is deterministic: then the strict indicator
//! `τ < −m`.

use crate::error::Result;
use crate::gaussian_quadratic_form::GaussianQuadraticForm;
use crate::triplet::input::{check_margin, check_triplet};

/// The χ²₁ terms, offset and normal variance collected over the dimensions.
#[derive(Default)]
struct Reduction {
    weights: Vec<f64>,
    shifts: Vec<f64>,
    offset: f64,
    normal_variance: f64,
}

impl Reduction {
    fn push(&mut self, weight: f64, shift: f64) {
        self.weights.push(weight);
        self.shifts.push(shift);
    }

    /// Adds `τ_d` for one dimension (the cases of the module docs).
    fn add_dimension(&mut self, ma: f64, va: f64, mp: f64, vp: f64, mn: f64, vn: f64) {
        let mu = ma - mp;
        let mv = ma - mn;
        match (va > 0.0, vp > 0.0, vn > 0.0) {
            (false, false, false) => self.offset += mu * mu - mv * mv,
            (false, true, false) => {
                let s = vp.sqrt();
                self.push(vp, mu / s);
                self.offset -= mv * mv;
            }
            (false, false, true) => {
                let s = vn.sqrt();
                self.push(-vn, mv / s);
                self.offset += mu * mu;
            }
            (true, false, false) => {
                self.offset += mu * mu - mv * mv;
                let diff = mu - mv;
                self.normal_variance += 4.0 * va * diff * diff;
            }
            _ => self.add_nonsingular(mu, mv, va, vp, vn),
        }
    }

    /// Two or three variances positive: the 2×2 eigen-reduction.
    fn add_nonsingular(&mut self, mu: f64, mv: f64, va: f64, vp: f64, vn: f64) {
        let c11 = va + vp;
        let det = va * vp + va * vn + vp * vn;
        let l11 = c11.sqrt();
        let l21 = va / l11;
        let l22 = (det / c11).sqrt();
        // M = LᵀJL, entries without cancellation: M₁₁ = σ_p²(σ_p² + 2σ_a²)/(σ_a² + σ_p²).
        let m11 = vp * (vp + 2.0 * va) / c11;
        let m12 = -l21 * l22;
        let m22 = -det / c11;
        // g = LᵀJm with Jm = (μ_u, −μ_v).
        let g1 = l11 * mu - l21 * mv;
        let g2 = -l22 * mv;
        // Eigenvalues: λ₁ of larger magnitude by the stable root, λ₂ = det M / λ₁ = −det C/λ₁.
        let half_trace = 0.5 * (m11 + m22);
        let root = (half_trace * half_trace + det).sqrt();
        let lambda1 = if half_trace >= 0.0 {
            half_trace + root
        } else {
            half_trace - root
        };
        let lambda2 = -det / lambda1;
        // Eigenvector of λ₁ from whichever row of (M − λ₁I) is better conditioned.
        let (x1, y1) = {
            let a = (m12, lambda1 - m11);
            let b = (lambda1 - m22, m12);
            let (x, y) = if a.0.hypot(a.1) >= b.0.hypot(b.1) {
                a
            } else {
                b
            };
            let norm = x.hypot(y);
            (x / norm, y / norm)
        };
        let (x2, y2) = (-y1, x1);
        let b1 = x1 * g1 + y1 * g2;
        let b2 = x2 * g1 + y2 * g2;
        self.push(lambda1, b1 / lambda1);
        self.push(lambda2, b2 / lambda2);
        self.offset += mu * mu - mv * mv - b1 * b1 / lambda1 - b2 * b2 / lambda2;
    }
}

/// The exact law of `τ = ‖a − p‖² − ‖a − n‖²` as a [`GaussianQuadraticForm`].
///
/// # Formula
///
/// $$ \tau = \sum_d \Big[\lambda_{d,1}(Z_{d,1} + \delta_{d,1})^2 +
///    \lambda_{d,2}(Z_{d,2} + \delta_{d,2})^2\Big] + c + \sigma Z_0,\qquad
///    \lambda_{d,1} > 0 > \lambda_{d,2} $$
///
/// by the per-dimension reduction of the module docs of `crates/probdml-reference/src/triplet/exact/distribution.rs` (`σ > 0` only for dimensions in
/// which the anchor is the only random embedding).
///
/// # Errors
///
/// As `triplet::moments`.
///
/// # Examples
///
/// ```
/// use probdml::triplet::exact::{moments, tau_distribution};
/// let (ma, va, mp, vp, mn, vn) = ([0.7], [0.5], [-0.4], [0.8], [1.3], [0.3]);
/// let tau = tau_distribution(&ma, &va, &mp, &vp, &mn, &vn).unwrap();
/// let (mean, var) = moments(&ma, &va, &mp, &vp, &mn, &vn).unwrap();
/// assert!((tau.mean() - mean).abs() < 1e-13 && (tau.variance() - var).abs() < 1e-12);
/// ```
pub fn tau_distribution(
    mu_a: &[f64],
    var_a: &[f64],
    mu_p: &[f64],
    var_p: &[f64],
    mu_n: &[f64],
    var_n: &[f64],
) -> Result<GaussianQuadraticForm> {
    let dim = check_triplet([mu_a, var_a, mu_p, var_p, mu_n, var_n])?;
    let mut reduction = Reduction::default();
    for d in 0..dim {
        reduction.add_dimension(mu_a[d], var_a[d], mu_p[d], var_p[d], mu_n[d], var_n[d]);
    }
    GaussianQuadraticForm::with_normal(
        &reduction.weights,
        &reduction.shifts,
        reduction.offset,
        reduction.normal_variance.sqrt(),
    )
}

/// `ln P(τ < −m)`, exactly: the generalised-χ² CDF of [`tau_distribution`] at `−m`.
///
/// # Formula
///
/// $$ \ln P(\tau < -m) = \ln F_\tau(-m),\qquad F_\tau(x) = \frac{1}{2\pi i}
///    \int_{r - i\infty}^{r + i\infty} \frac{e^{K_\tau(s) - s x}}{-s}\\,ds $$
///
/// (Gil-Pelaez/Imhof inversion along the saddle-point contour, in log space; see
/// [`crate::gaussian_quadratic_form`]). Accurate to `10⁻¹⁰·max(1, |ln P|)` (registry budget
/// `QUADRATIC_FORM`) from `P ≈ 1` down to `ln P ≈ −10⁵`. If all variances are 0, the strict
/// indicator of `τ < −m` (`0` or `−∞`).
///
/// # Errors
///
/// As `triplet::log_likelihood`.
///
/// # Examples
///
/// ```
/// use probdml::triplet::exact::log_likelihood;
/// // The worked 1-D point of book chapter 05, m = 0.5: a 2-D SciPy integral gives ln P = −1.2981483627948784
/// // (scripts/reference/triplet_values.txt); the CLT says −1.1747901920742457.
/// let ll = log_likelihood(&[0.7], &[0.5], &[-0.4], &[0.8], &[1.3], &[0.3], 0.5).unwrap();
/// assert!((ll - -1.2981483627948784).abs() < 1e-10);
/// ```
pub fn log_likelihood(
    mu_a: &[f64],
    var_a: &[f64],
    mu_p: &[f64],
    var_p: &[f64],
    mu_n: &[f64],
    var_n: &[f64],
    margin: f64,
) -> Result<f64> {
    let margin = check_margin(margin)?;
    let tau = tau_distribution(mu_a, var_a, mu_p, var_p, mu_n, var_n)?;
    if tau.variance() == 0.0 {
        return Ok(if tau.mean() < -margin {
            0.0
        } else {
            f64::NEG_INFINITY
        });
    }
    Ok(tau.ln_cdf(-margin))
}
