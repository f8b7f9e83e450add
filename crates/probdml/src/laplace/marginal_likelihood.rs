//! The Laplace marginal likelihood of the last layer and the prior precision that maximises it
//! (MacKay 1992; Immer et al. 2021, "Scalable marginal likelihood estimation for model selection
//! in deep learning"; the `laplace-torch` library's `optimize_prior_precision`), for a diagonal
//! curvature.
//!
//! # Derivation
//!
//! With the prior θ ~ N(0, δ⁻¹I) over P parameters, a mode θ* and the curvature H of the negative
//! log likelihood there, the Laplace approximation of the evidence is
//!
//!   ln p(D | δ) ≈ ln p(D | θ*) − (δ/2)‖θ*‖² + (P/2) ln δ − ½ ln det(H + δI),
//!
//! the model fit, the prior's scatter and the Occam factor ln det(δI)/det(H + δI). For a diagonal
//! H = diag(h), ln det(H + δI) = Σ_k ln(h_k + δ), and the derivative in δ is
//!
//!   d/dδ = ½ [P/δ − Σ_k 1/(h_k + δ) − ‖θ*‖²] = ½ [γ(δ)/δ − ‖θ*‖²],
//!   γ(δ) = Σ_k h_k/(h_k + δ)  (MacKay's effective number of parameters).
//!
//! So the maximiser solves **γ(δ) = δ‖θ*‖²**. The left side over δ, γ(δ)/δ = Σ h_k/(δ(h_k + δ)),
//! falls strictly from +∞ to 0 when some h_k > 0, so the root is unique and it is the global
//! maximum (the derivative changes sign once, from + to −). The root is bracketed by
//! δ(h_max + δ) ≥ Σh/‖θ*‖² (from γ/δ ≥ Σh/(δ(h_max + δ))) and δ ≤ P/‖θ*‖² (from γ ≤ P), and found
//! by Newton's method on ln(γ/δ) in t = ln δ, safeguarded by bisection.
//!
//! Degenerate inputs have no maximiser: with H = 0 the evidence increases as δ → 0 (no data
//! informs any weight), with θ* = 0 as δ → ∞; both are errors, not a silent boundary value.
//!
//! Why it matters for LAM: the post-hoc prior precision of the reference code is fixed at 1 and
//! ours at σ_prior⁻² from the configuration, so the posterior spread of the weights the data never
//! informs is set by hand; the evidence picks it from the data (book chapter 09).

use super::{check_finite_elements, check_len, check_prior_precision};
use crate::error::{require_finite, Error, Result};

/// Checks a diagonal curvature: non-empty, finite, every entry ≥ 0.
fn check_curvature(hessian_diagonal: &[f64]) -> Result<()> {
    if hessian_diagonal.is_empty() {
        return Err(Error::TooFew {
            arg: "hessian_diagonal",
            min: 1,
            got: 0,
        });
    }
    check_finite_elements("hessian_diagonal", hessian_diagonal)?;
    if let Some(&value) = hessian_diagonal.iter().find(|&&h| h < 0.0) {
        return Err(Error::OutOfDomain {
            arg: "hessian_diagonal",
            value,
            rule: "a Laplace curvature must be positive semi-definite: every diagonal entry >= 0 (clamp the GGN with ReLU first)",
        });
    }
    Ok(())
}

/// The Laplace log marginal likelihood of a diagonal-curvature last layer at prior precision δ.
///
/// # Formula
///
/// $$ \ln p(\mathcal D\mid\delta) \approx \ln p(\mathcal D\mid\theta^\ast) -
///    \tfrac{\delta}{2}\lVert\theta^\ast\rVert^2 + \tfrac P2\ln\delta -
///    \tfrac12\sum_{k=1}^P \ln(h_k + \delta) $$
///
/// (Immer et al. 2021, eq. (5) with a diagonal GGN; MacKay 1992.) The exact twin
/// [`exact::log_marginal_likelihood`](super::exact::log_marginal_likelihood) takes a dense H.
///
/// # Errors
///
/// * [`Error::NotFinite`] naming `log_likelihood`, or `prior_precision` / [`Error::OutOfDomain`]
///   unless δ is finite and > 0;
/// * [`Error::TooFew`], [`Error::NotFiniteElement`] or [`Error::OutOfDomain`] naming
///   `hessian_diagonal` unless it is non-empty, finite and ≥ 0;
/// * [`Error::DimensionMismatch`] naming `theta` unless it has one entry per curvature entry, and
///   [`Error::NotFiniteElement`] naming `theta` for a NaN or infinite entry.
///
/// # Examples
///
/// ```
/// use probdml::laplace::log_marginal_likelihood;
/// // One parameter, h = 3, θ* = 1, δ = 1: −½ + 0 − ½ ln 4.
/// let v = log_marginal_likelihood(0.0, &[1.0], &[3.0], 1.0).unwrap();
/// assert!((v - (-0.5 - 0.5 * 4f64.ln())).abs() < 1e-15);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn log_marginal_likelihood(
    log_likelihood: f64,
    theta: &[f64],
    hessian_diagonal: &[f64],
    prior_precision: f64,
) -> Result<f64> {
    require_finite("log_likelihood", log_likelihood)?;
    check_prior_precision(prior_precision)?;
    check_curvature(hessian_diagonal)?;
    check_len("theta", hessian_diagonal.len(), theta.len())?;
    check_finite_elements("theta", theta)?;
    let delta = prior_precision;
    let scatter: f64 = theta.iter().map(|t| t * t).sum();
    // Σ [ln δ − ln(h + δ)] = −Σ ln(1 + h/δ): the Occam factor without cancellation at large δ.
    let occam: f64 = hessian_diagonal.iter().map(|&h| (h / delta).ln_1p()).sum();
    Ok(log_likelihood - 0.5 * delta * scatter - 0.5 * occam)
}

/// The prior precision δ* that maximises [`log_marginal_likelihood`]: the root of MacKay's
/// fixed point γ(δ) = δ‖θ*‖².
///
/// # Formula
///
/// $$ \sum_{k=1}^P \frac{h_k}{h_k + \delta^\ast} = \delta^\ast\\,\lVert\theta^\ast\rVert^2 $$
///
/// solved to full precision by Newton's method in ln δ inside a proven bracket (module docs).
/// The exact twin [`exact::optimal_prior_precision`](super::exact::optimal_prior_precision)
/// maximises the dense objective by golden-section search instead.
///
/// # Errors
///
/// As [`log_marginal_likelihood`] for `theta` and `hessian_diagonal`, and
/// [`Error::Undefined`] when no maximiser exists: every h_k = 0 (the evidence grows as δ → 0) or
/// θ* = 0 (it grows as δ → ∞).
///
/// # Examples
///
/// ```
/// use probdml::laplace::optimal_prior_precision;
/// // One parameter: h/(h + δ) = δθ² ⇒ with h = 3, θ = 1: δ² + 3δ − 3 = 0.
/// let d = optimal_prior_precision(&[1.0], &[3.0]).unwrap();
/// assert!((d - (21f64.sqrt() - 3.0) / 2.0).abs() < 1e-15);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn optimal_prior_precision(theta: &[f64], hessian_diagonal: &[f64]) -> Result<f64> {
    check_curvature(hessian_diagonal)?;
    check_len("theta", hessian_diagonal.len(), theta.len())?;
    check_finite_elements("theta", theta)?;
    let scatter: f64 = theta.iter().map(|t| t * t).sum();
    let curvature_sum: f64 = hessian_diagonal.iter().sum();
    if curvature_sum == 0.0 {
        return Err(Error::Undefined {
            arg: "hessian_diagonal",
            quantity: "the evidence-maximising prior precision",
            reason: "every curvature entry is 0, so the evidence increases as the prior precision goes to 0",
        });
    }
    if scatter == 0.0 {
        return Err(Error::Undefined {
            arg: "theta",
            quantity: "the evidence-maximising prior precision",
            reason: "theta is 0, so the evidence increases as the prior precision goes to infinity",
        });
    }
    let (lo, hi) = log_bracket(hessian_diagonal, scatter);
    let (t, _steps) = root_in_log_delta(hessian_diagonal, scatter, lo, hi)?;
    Ok(t.exp())
}

/// Bounds on ln δ* (module docs): δ(h_max + δ) ≥ Σh/s and δ ≤ P/s, for a curvature with a
/// positive entry and s = ‖θ*‖² > 0.
fn log_bracket(hessian_diagonal: &[f64], scatter: f64) -> (f64, f64) {
    let c = hessian_diagonal.iter().sum::<f64>() / scatter;
    let h_max = hessian_diagonal.iter().copied().fold(0.0, f64::max);
    // hypot: h_max² overflows for curvatures above 10¹⁵⁴.
    let lower = 2.0 * c / (h_max + h_max.hypot(2.0 * c.sqrt()));
    let upper = hessian_diagonal.len() as f64 / scatter;
    (lower.ln(), upper.ln())
}

/// The root t = ln δ* of ψ(t) = ln(γ(e^t)/e^t) − ln s inside the bracket `[lo, hi]`, and the
/// number of steps it took.
///
/// Why the logarithm: γ(δ)/δ is Σh/δ² for δ ≫ h_max and P/δ for δ ≪ h_min, exponential in t, so
/// Newton's method on γ/δ − s overshoots out of the bracket from the side where it is flat and
/// ends up bisecting (about 50 steps). Its logarithm is close to linear in t in both regimes
/// (slope −2 and −1), and Newton's method on it, safeguarded by bisection, takes a few steps.
/// The step count is returned so that a test can hold the iteration to that rate: a slower
/// iteration that still reaches the root (a wrong slope, a lost bracket, a stopping rule that
/// never fires early) returns the same value and is visible only there.
fn root_in_log_delta(
    hessian_diagonal: &[f64],
    scatter: f64,
    lo: f64,
    hi: f64,
) -> Result<(f64, usize)> {
    let psi = |t: f64| -> (f64, f64) {
        let delta = t.exp();
        let (mut g, mut dg) = (0.0, 0.0);
        for &h in hessian_diagonal {
            let q = h / (h + delta);
            g += q;
            dg += q * (1.0 - q); // δ·d/dδ [h/(h+δ)] = −h δ/(h+δ)² = −q(1 − q)
        }
        // ln of the ratio γ/(δ s), which is near 1 at the root, so the value is accurate to a
        // few ulps absolute; ln γ − t − ln s would lose |t| ulps to cancellation.
        // d/dt ln(γ/δ) = (δ γ' − γ)/γ = −(Σq(1−q) + γ)/γ
        ((g / (delta * scatter)).ln(), -1.0 - dg / g)
    };
    // The bounds are computed in floating point, and one of them can be the root itself (the
    // lower bound is exact for one parameter or equal curvatures): widened by a few ulps, the
    // root lies strictly inside, so that Newton points near it are not taken for steps out of
    // the bracket (which would leave only bisection).
    let margin = 16.0 * f64::EPSILON * lo.abs().max(hi.abs()).max(1.0);
    let (mut lo, mut hi) = (lo - margin, hi + margin);
    let mut t = 0.5 * (lo + hi);
    for step in 1..=200 {
        let (value, slope) = psi(t);
        if value == 0.0 {
            return Ok((t, step));
        }
        if value > 0.0 {
            lo = t;
        } else {
            hi = t;
        }
        let newton = t - value / slope;
        // A negligible Newton step ends the iteration before the bracket test: near the root
        // the Newton point can equal the end just set from the previous iterate, which the test
        // would take for a step out of the bracket.
        if (newton - t).abs() <= 4.0 * f64::EPSILON * t.abs().max(1.0) {
            return Ok((newton, step));
        }
        let next = if newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        if hi - lo <= f64::EPSILON * t.abs().max(1.0) {
            return Ok((next, step));
        }
        t = next;
    }
    Err(Error::NoConvergence {
        method: "safeguarded Newton for the evidence-maximising prior precision",
        iterations: 200,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (θ, h) problems over the regimes of the bracket: one parameter, equal curvatures (a
    /// one-point bracket when h ≫ P/‖θ‖²), curvatures spread over many decades, tiny and huge
    /// scatters.
    fn problems() -> Vec<(Vec<f64>, Vec<f64>)> {
        let mut out = Vec::new();
        for &p in &[1usize, 3, 50, 1000] {
            for &theta_scale in &[1e-6, 0.03, 1.0, 40.0] {
                for &(h_low, decades) in &[
                    (1e-8, 0.0),
                    (0.5, 0.0),
                    (1e12, 0.0),
                    (1e-6, 12.0),
                    (1e-3, 3.0),
                ] {
                    let theta: Vec<f64> = (0..p)
                        .map(|k| theta_scale * (1.0 + 0.5 * ((k * 7 % 11) as f64 / 11.0)))
                        .collect();
                    let h: Vec<f64> = (0..p)
                        .map(|k| h_low * 10f64.powf(decades * (k * 13 % 17) as f64 / 16.0))
                        .collect();
                    out.push((theta, h));
                }
            }
        }
        out
    }

    #[test]
    fn newton_converges_in_few_steps_to_the_fixed_point() {
        let (mut worst, mut total) = (0, 0);
        for (theta, h) in problems() {
            let s: f64 = theta.iter().map(|t| t * t).sum();
            let (lo, hi) = log_bracket(&h, s);
            let (t, steps) = root_in_log_delta(&h, s, lo, hi).unwrap();
            worst = worst.max(steps);
            total += steps;
            // The fixed point γ(δ) = δ s. The stopping rule holds t = ln δ to 4 ulps of
            // max(|t|, 1), so δ to that relative error and γ/δ (whose logarithmic slope in δ is
            // between −2 and −1) to twice it, plus the rounding of the sums.
            let delta = t.exp();
            let gamma: f64 = h.iter().map(|&hk| hk / (hk + delta)).sum();
            let budget = (8.0 * t.abs().max(1.0) + 4.0 * h.len() as f64) * f64::EPSILON;
            assert!(
                (gamma - delta * s).abs() <= budget * gamma.max(delta * s),
                "P = {}, γ = {gamma}, δs = {}",
                h.len(),
                delta * s
            );
        }
        // Newton's rate: the steps this iteration takes on the grid (80 problems), pinned. A
        // bisection-only or slope-less iteration reaching the same roots takes 40–50 steps
        // each; Newton on γ/δ − s instead of its logarithm took up to 51.
        println!("steps: worst {worst}, total {total}");
        assert!(worst <= 12 && total <= 306, "worst {worst}, total {total}");
    }

    #[test]
    fn equal_curvatures_have_a_quadratic_root() {
        // P equal curvatures h, ‖θ‖² = s: P h/(h + δ) = δ s ⇒ s δ² + s h δ − P h = 0.
        let (p, h) = (50usize, 7.5);
        let theta = vec![0.3; p];
        let s = 0.09 * p as f64;
        let expected = (-s * h + ((s * h).powi(2) + 4.0 * s * p as f64 * h).sqrt()) / (2.0 * s);
        let d = optimal_prior_precision(&theta, &vec![h; p]).unwrap();
        assert!(
            (d - expected).abs() <= 4.0 * f64::EPSILON * expected,
            "{d} vs {expected}"
        );
    }

    #[test]
    fn degenerate_inputs_are_errors() {
        assert!(matches!(
            optimal_prior_precision(&[1.0, 2.0], &[0.0, 0.0]),
            Err(Error::Undefined {
                arg: "hessian_diagonal",
                ..
            })
        ));
        assert!(matches!(
            optimal_prior_precision(&[0.0, 0.0], &[1.0, 0.0]),
            Err(Error::Undefined { arg: "theta", .. })
        ));
        assert!(matches!(
            log_marginal_likelihood(0.0, &[1.0], &[-1.0], 1.0),
            Err(Error::OutOfDomain {
                arg: "hessian_diagonal",
                ..
            })
        ));
        assert!(matches!(
            log_marginal_likelihood(0.0, &[1.0], &[1.0], 0.0),
            Err(Error::OutOfDomain {
                arg: "prior_precision",
                ..
            })
        ));
        assert!(matches!(
            log_marginal_likelihood(0.0, &[1.0, 2.0], &[1.0], 1.0),
            Err(Error::DimensionMismatch { arg: "theta", .. })
        ));
    }
}
