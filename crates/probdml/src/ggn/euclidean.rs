//! The Euclidean split: model = normalise ∘ g with output z = y/‖y‖, loss (t/2)‖z_i − z_j‖²
//! (LAM §3, eqs. 7–9).

use super::check_raw_output;
use super::input::check_pair_points;
use crate::error::{require_finite, Error, Result};

/// The output Hessian of the Euclidean split for one pair, as a row-major (2M)×(2M) matrix over
/// (z_i, z_j).
///
/// # Formula
///
/// $$ H = t \begin{pmatrix} I & -I \\\\ -I & I \end{pmatrix} $$
///
/// constant in z (the loss is quadratic); its eigenvalues are 0 and 2t, each M times (LAM eq. 8
/// for t > 0, eq. 9 for t < 0). The points are taken only to fix M and to share the signature of
/// [`super::exact::euclidean_output_hessian`].
///
/// # Errors
///
/// `z_i`, `z_j` of different or zero length, non-finite entries or target.
///
/// # Examples
///
/// ```
/// let h = probdml::ggn::euclidean_output_hessian(&[1.0, 0.0], &[0.0, 1.0], 0.5).unwrap();
/// assert_eq!(h[0], 0.5);       // (H_ii)_00 = t
/// assert_eq!(h[2], -0.5);      // (H_ij)_00 = −t
/// assert_eq!(h[1], 0.0);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn euclidean_output_hessian(z_i: &[f64], z_j: &[f64], target: f64) -> Result<Vec<f64>> {
    let m = check_pair_points(z_i, z_j)?;
    require_finite("target", target)?;
    let n = 2 * m;
    let mut h = vec![0.0; n * n];
    for k in 0..m {
        h[k * n + k] = target;
        h[(m + k) * n + m + k] = target;
        h[k * n + m + k] = -target;
        h[(m + k) * n + k] = -target;
    }
    Ok(h)
}

/// The gradient of (t/2)‖z_i − z_j‖² in (z_i, z_j): t(z_i − z_j, z_j − z_i), length 2M.
///
/// # Errors
///
/// As [`euclidean_output_hessian`].
pub fn euclidean_output_gradient(z_i: &[f64], z_j: &[f64], target: f64) -> Result<Vec<f64>> {
    check_pair_points(z_i, z_j)?;
    require_finite("target", target)?;
    let mut g: Vec<f64> = z_i.iter().zip(z_j).map(|(a, b)| target * (a - b)).collect();
    g.extend(z_i.iter().zip(z_j).map(|(a, b)| target * (b - a)));
    Ok(g)
}

/// The Jacobian of the normalisation y ↦ y/‖y‖, row-major M×M.
///
/// # Formula
///
/// $$ \frac{\partial z}{\partial y} = \frac{P_y}{\Vert y\Vert},\qquad P_y = I - \hat y\hat y^\top $$
///
/// # Errors
///
/// `y` empty, zero or non-finite.
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn normalisation_jacobian(y: &[f64]) -> Result<Vec<f64>> {
    if y.is_empty() {
        return Err(Error::TooFew {
            arg: "y",
            min: 1,
            got: 0,
        });
    }
    let r = check_raw_output("y", y)?;
    let m = y.len();
    let mut p = vec![0.0; m * m];
    for a in 0..m {
        for b in 0..m {
            let delta = if a == b { 1.0 } else { 0.0 };
            p[a * m + b] = (delta - (y[a] / r) * (y[b] / r)) / r;
        }
    }
    Ok(p)
}
