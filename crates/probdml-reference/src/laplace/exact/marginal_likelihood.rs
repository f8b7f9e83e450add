//! Dense twins of the Laplace evidence and its maximiser: ln det by Cholesky (`faer`), the
//! maximiser by golden-section search on the objective itself — no fixed-point formula, so the
//! proof that the fast root is the maximum is a real check.

use super::square_side;
use crate::error::{require_finite, Error, Result};
use crate::laplace::input::{check_finite_elements, check_len, check_prior_precision};

/// ln det(I + H/δ) of a symmetric positive semi-definite H (row-major n×n) by Cholesky.
fn log_det_occam(hessian: &[f64], n: usize, delta: f64) -> Result<f64> {
    let a = faer::Mat::<f64>::from_fn(n, n, |i, j| {
        hessian[i * n + j] / delta + if i == j { 1.0 } else { 0.0 }
    });
    let llt = a.llt(faer::Side::Lower).map_err(|_| Error::Undefined {
        arg: "hessian",
        quantity: "the Laplace evidence",
        reason: "H + δI is not positive definite: the curvature must be positive semi-definite",
    })?;
    let l = llt.L();
    Ok((0..n).map(|k| 2.0 * l[(k, k)].ln()).sum())
}

/// Validates a dense curvature: square, finite, symmetric (to 10⁻¹² of its largest entry).
fn check_dense_curvature(hessian: &[f64]) -> Result<usize> {
    let n = square_side("hessian", hessian)?;
    check_finite_elements("hessian", hessian)?;
    let scale = hessian.iter().fold(0.0_f64, |m, h| m.max(h.abs()));
    for i in 0..n {
        for j in 0..i {
            if (hessian[i * n + j] - hessian[j * n + i]).abs() > 1e-12 * scale {
                return Err(Error::Undefined {
                    arg: "hessian",
                    quantity: "the Laplace evidence",
                    reason: "the curvature matrix must be symmetric",
                });
            }
        }
    }
    Ok(n)
}

/// Twin of `crate::laplace::log_marginal_likelihood` for a dense curvature H (row-major P×P):
/// ln p(D|θ*) − (δ/2)‖θ*‖² − ½ ln det(I + H/δ), the last term by Cholesky.
///
/// # Formula
///
/// $$ \ln p(\mathcal D\mid\delta) \approx \ln p(\mathcal D\mid\theta^\ast) -
///    \tfrac{\delta}{2}\lVert\theta^\ast\rVert^2 - \tfrac12\ln\det(I + H/\delta) $$
///
/// # Errors
///
/// As the fast twin with `hessian` for `hessian_diagonal`; [`Error::Undefined`] naming `hessian`
/// if it is not symmetric or H + δI is not positive definite.
///
/// # Examples
///
/// ```
/// use probdml::laplace::exact::log_marginal_likelihood;
/// // H = [[2, 1], [1, 2]] (eigenvalues 1, 3), θ* = (1, 0), δ = 1: −½ − ½ ln(2·4).
/// let v = log_marginal_likelihood(0.0, &[1.0, 0.0], &[2.0, 1.0, 1.0, 2.0], 1.0).unwrap();
/// assert!((v - (-0.5 - 0.5 * 8f64.ln())).abs() < 1e-14);
/// ```
pub fn log_marginal_likelihood(
    log_likelihood: f64,
    theta: &[f64],
    hessian: &[f64],
    prior_precision: f64,
) -> Result<f64> {
    require_finite("log_likelihood", log_likelihood)?;
    check_prior_precision(prior_precision)?;
    let n = check_dense_curvature(hessian)?;
    check_len("theta", n, theta.len())?;
    check_finite_elements("theta", theta)?;
    let scatter: f64 = theta.iter().map(|t| t * t).sum();
    let occam = log_det_occam(hessian, n, prior_precision)?;
    Ok(log_likelihood - 0.5 * prior_precision * scatter - 0.5 * occam)
}

/// Twin of `crate::laplace::optimal_prior_precision` for a dense curvature: the maximiser of
/// the dense evidence, bracketed by doubling steps from δ = 1 and golden-section search on the
/// objective in t = ln δ, then pinned by bisection on the sign of the dense derivative
/// dF/dt = ½[P − δ tr((H + δI)⁻¹) − δ‖θ*‖²] (Cholesky solves, `faer`). Function values alone
/// resolve a maximum only to about √ε; the derivative's sign resolves it to rounding.
///
/// # Errors
///
/// As [`log_marginal_likelihood`]; [`Error::Undefined`] naming `hessian` when the evidence has
/// no interior maximum for δ in [e⁻⁷⁰⁰, e⁷⁰⁰] (H = 0 or θ* = 0).
///
/// # Examples
///
/// ```
/// use probdml::laplace::exact::optimal_prior_precision;
/// let d = optimal_prior_precision(&[1.0], &[3.0]).unwrap();
/// assert!((d - (21f64.sqrt() - 3.0) / 2.0).abs() < 1e-7);
/// ```
pub fn optimal_prior_precision(theta: &[f64], hessian: &[f64]) -> Result<f64> {
    let n = check_dense_curvature(hessian)?;
    check_len("theta", n, theta.len())?;
    check_finite_elements("theta", theta)?;
    let scatter: f64 = theta.iter().map(|t| t * t).sum();
    // The two cases without an interior maximum, decided on the inputs: far out, the objective
    // is flat to rounding and a search would stop on a plateau.
    if scatter == 0.0 {
        return Err(Error::Undefined {
            arg: "theta",
            quantity: "the evidence-maximising prior precision",
            reason: "theta is 0, so the evidence increases as the prior precision goes to infinity",
        });
    }
    if hessian.iter().all(|&h| h == 0.0) {
        return Err(Error::Undefined {
            arg: "hessian",
            quantity: "the evidence-maximising prior precision",
            reason:
                "the curvature is 0, so the evidence increases as the prior precision goes to 0",
        });
    }
    let objective = |t: f64| -> Result<f64> {
        let delta = t.exp();
        Ok(-0.5 * delta * scatter - 0.5 * log_det_occam(hessian, n, delta)?)
    };
    let no_maximum = || Error::Undefined {
        arg: "hessian",
        quantity: "the evidence-maximising prior precision",
        reason: "the evidence has no interior maximum (a zero curvature or a zero theta)",
    };
    // Bracket a maximum: find a < b < c with f(b) ≥ f(a), f(b) ≥ f(c).
    let (mut a, mut b) = (-1.0_f64, 0.0_f64);
    let (mut fa, mut fb) = (objective(a)?, objective(b)?);
    if fa > fb {
        std::mem::swap(&mut a, &mut b);
        std::mem::swap(&mut fa, &mut fb);
    }
    let mut step = b - a;
    let (mut c, mut fc) = (b + step, objective(b + step)?);
    while fc > fb {
        step *= 2.0;
        a = b;
        b = c;
        fb = fc;
        c = b + step;
        if c.abs() > 700.0 {
            return Err(no_maximum());
        }
        fc = objective(c)?;
    }
    let (mut lo, mut hi) = (a.min(c), a.max(c));
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut x1 = hi - ratio * (hi - lo);
    let mut x2 = lo + ratio * (hi - lo);
    let (mut f1, mut f2) = (objective(x1)?, objective(x2)?);
    while hi - lo > 1e-3 {
        if f1 < f2 {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + ratio * (hi - lo);
            f2 = objective(x2)?;
        } else {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - ratio * (hi - lo);
            f1 = objective(x1)?;
        }
    }
    // δ·dF/dδ·2 = P − δ tr((H + δI)⁻¹) − δ s, decreasing in t through the maximum.
    let slope = |t: f64| -> Result<f64> {
        let delta = t.exp();
        let a = faer::Mat::<f64>::from_fn(n, n, |i, j| {
            hessian[i * n + j] + if i == j { delta } else { 0.0 }
        });
        let llt = a.llt(faer::Side::Lower).map_err(|_| Error::Undefined {
            arg: "hessian",
            quantity: "the Laplace evidence",
            reason: "H + δI is not positive definite: the curvature must be positive semi-definite",
        })?;
        let inverse = faer::linalg::solvers::DenseSolveCore::inverse(&llt);
        let trace: f64 = (0..n).map(|k| inverse[(k, k)]).sum();
        Ok(n as f64 - delta * trace - delta * scatter)
    };
    let (mut lo, mut hi) = (lo - 1e-3, hi + 1e-3);
    while slope(lo)? <= 0.0 {
        lo -= 1.0;
    }
    while slope(hi)? >= 0.0 {
        hi += 1.0;
    }
    while hi - lo > 4.0 * f64::EPSILON * (1.0 + lo.abs().max(hi.abs())) {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if slope(mid)? > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok((0.5 * (lo + hi)).exp())
}
