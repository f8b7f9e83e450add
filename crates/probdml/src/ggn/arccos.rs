//! The Arccos split: model = g with raw output y, loss t(1 − ŷ_iᵀŷ_j) (LAM
//! App. F). For a linear last layer its GGN is the exact Hessian.

use super::check_raw_output;
use super::input::check_pair_points;
use crate::error::{require_finite, Result};

/// The output Hessian of the Arccos split for one pair, row-major (2M)×(2M) over (y_i, y_j).
///
/// # Formula
///
/// With r = ‖y‖, ŷ = y/r, c = ŷ_iᵀŷ_j, P = I − ŷŷᵀ:
///
/// $$ H_{ii} = \frac{t}{r_i^2}\left(cI + \hat y_i\hat y_j^\top + \hat y_j\hat y_i^\top -
///    3c\\,\hat y_i\hat y_i^\top\right),\quad H_{ij} = -\frac{t}{r_ir_j}P_iP_j,\quad
///    H_{ji} = H_{ij}^\top $$
///
/// and H_jj likewise with i ↔ j. Unlike the Euclidean H it is not PSD for t > 0
/// (`proofs/ggn_approximations.rs`).
///
/// # Errors
///
/// Lengths differ or are zero, a non-finite entry or target, or a zero raw output (ŷ undefined).
///
/// # Examples
///
/// ```
/// // Orthogonal unit outputs in the plane, t = 1: c = 0.
/// let h = probdml::ggn::arccos_output_hessian(&[1.0, 0.0], &[0.0, 1.0], 1.0).unwrap();
/// // H_ii = ŷ_iŷ_jᵀ + ŷ_jŷ_iᵀ = [[0, 1], [1, 0]]; H_ij = −P_iP_j = −[[0,0],[0,1]][[1,0],[0,0]] = 0.
/// assert_eq!(&h[0..4], &[0.0, 1.0, 0.0, 0.0]);
/// assert_eq!(&h[4..8], &[1.0, 0.0, 0.0, 0.0]);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn arccos_output_hessian(y_i: &[f64], y_j: &[f64], target: f64) -> Result<Vec<f64>> {
    let m = check_pair_points(y_i, y_j)?;
    require_finite("target", target)?;
    let r_i = check_raw_output("y_i", y_i)?;
    let r_j = check_raw_output("y_j", y_j)?;
    let u: Vec<f64> = y_i.iter().map(|v| v / r_i).collect();
    let v: Vec<f64> = y_j.iter().map(|w| w / r_j).collect();
    let c: f64 = u.iter().zip(&v).map(|(a, b)| a * b).sum();
    let n = 2 * m;
    let mut h = vec![0.0; n * n];
    let proj = |w: &[f64], a: usize, b: usize| if a == b { 1.0 } else { 0.0 } - w[a] * w[b];
    for a in 0..m {
        for b in 0..m {
            let delta = if a == b { 1.0 } else { 0.0 };
            h[a * n + b] = target * (c * delta + u[a] * v[b] + v[a] * u[b] - 3.0 * c * u[a] * u[b])
                / (r_i * r_i);
            h[(m + a) * n + m + b] = target
                * (c * delta + v[a] * u[b] + u[a] * v[b] - 3.0 * c * v[a] * v[b])
                / (r_j * r_j);
            let pp: f64 = (0..m).map(|q| proj(&u, a, q) * proj(&v, q, b)).sum();
            h[a * n + m + b] = -target * pp / (r_i * r_j);
            h[(m + b) * n + a] = h[a * n + m + b];
        }
    }
    Ok(h)
}

/// The gradient of t(1 − ŷ_iᵀŷ_j) in (y_i, y_j), length 2M: (−t P_iŷ_j/r_i, −t P_jŷ_i/r_j).
///
/// # Errors
///
/// As [`arccos_output_hessian`].
pub fn arccos_output_gradient(y_i: &[f64], y_j: &[f64], target: f64) -> Result<Vec<f64>> {
    check_pair_points(y_i, y_j)?;
    require_finite("target", target)?;
    let r_i = check_raw_output("y_i", y_i)?;
    let r_j = check_raw_output("y_j", y_j)?;
    let u: Vec<f64> = y_i.iter().map(|v| v / r_i).collect();
    let v: Vec<f64> = y_j.iter().map(|w| w / r_j).collect();
    let c: f64 = u.iter().zip(&v).map(|(a, b)| a * b).sum();
    let mut g: Vec<f64> = u
        .iter()
        .zip(&v)
        .map(|(a, b)| -target * (b - c * a) / r_i)
        .collect();
    g.extend(u.iter().zip(&v).map(|(a, b)| -target * (a - c * b) / r_j));
    Ok(g)
}
