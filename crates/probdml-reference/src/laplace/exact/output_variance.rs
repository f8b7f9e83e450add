//! Dense twin of the output variance: tr(J Λ⁻¹ Jᵀ) for any symmetric positive-definite
//! precision Λ over θ = (W, b), by Cholesky (`faer`) and forward substitution.

use super::square_side;
use crate::error::{Error, Result};
use crate::laplace::input::{check_finite_elements, check_len};

/// Twin of `crate::laplace::output_variance` for a dense precision Λ (row-major P×P over
/// θ = (W row-major M×F, then b), P = M·F + M): tr Cov(y) = tr(J Λ⁻¹ Jᵀ) with J = ∂y/∂θ =
/// [I_M ⊗ xᵀ, I_M].
///
/// With Λ = LLᵀ, tr(J Λ⁻¹ Jᵀ) = Σ_k ‖L⁻¹ J_kᵀ‖², one forward substitution per output k. No
/// entry of Λ is assumed zero, so the twin also holds for a full or Kronecker-factored
/// posterior; with a diagonal Λ it must equal the fast twin.
///
/// # Formula
///
/// $$ \operatorname{tr}\operatorname{Cov}(y) = \operatorname{tr}\big(J\Lambda^{-1}J^\top\big)
///    = \sum_{k=1}^M \lVert L^{-1} J_k^\top\rVert^2, \qquad \Lambda = LL^\top $$
///
/// # Errors
///
/// * [`Error::Empty`] naming `features` if F = 0 (the fast twin's error for the same input);
///   then [`Error::InvalidDimension`] naming `dim` (the output width M) if M = 0;
/// * [`Error::DimensionMismatch`] naming `precision` unless it is (M·F + M)²;
/// * [`Error::NotFiniteElement`] naming `precision` or `features`;
/// * [`Error::Undefined`] naming `precision` if it is not positive definite.
///
/// # Examples
///
/// ```
/// use probdml::laplace::exact::output_variance;
/// // M = F = 1, θ = (w, b), Λ = [[2, 1], [1, 2]]: Λ⁻¹ = [[2, −1], [−1, 2]]/3, y = 3w + b,
/// // Var y = (9·2 − 2·3·1 + 2)/3 = 14/3.
/// let v = output_variance(&[2.0, 1.0, 1.0, 2.0], 1, &[3.0]).unwrap();
/// assert!((v - 14.0 / 3.0).abs() < 1e-14);
/// ```
pub fn output_variance(precision: &[f64], dim: usize, features: &[f64]) -> Result<f64> {
    // `features` first, as the fast twin checks it: the same empty input, the same error.
    if features.is_empty() {
        return Err(Error::Empty {
            arg: "features",
            rule: "the last layer needs at least one feature (F >= 1)",
        });
    }
    if dim == 0 {
        return Err(Error::InvalidDimension {
            arg: "dim",
            dim: 0,
            rule: "the last layer needs at least one output (M >= 1)",
        });
    }
    let (m, f) = (dim, features.len());
    let p = m * f + m;
    let n = square_side("precision", precision)?;
    check_len("precision", p * p, n * n)?;
    check_finite_elements("precision", precision)?;
    check_finite_elements("features", features)?;
    let l = super::precision_cholesky(precision, p)?;
    let mut total = 0.0;
    let mut v = vec![0.0; p];
    for k in 0..m {
        // J_kᵀ: x in the block of W's row k, 1 at b_k, 0 elsewhere.
        let jk = |i: usize| -> f64 {
            if i >= k * f && i < (k + 1) * f {
                features[i - k * f]
            } else if i == m * f + k {
                1.0
            } else {
                0.0
            }
        };
        // Forward substitution L v = J_kᵀ.
        for i in 0..p {
            let mut acc = jk(i);
            for (j, vj) in v.iter().enumerate().take(i) {
                acc -= l[(i, j)] * vj;
            }
            v[i] = acc / l[(i, i)];
        }
        total += v.iter().map(|x| x * x).sum::<f64>();
    }
    Ok(total)
}
