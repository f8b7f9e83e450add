//! The exact match probability of two Gaussian embeddings, and of two mixtures.

use crate::error::Result;
use crate::hib::checks;
use crate::hib::embedding::HedgedEmbedding;
use crate::hib::exact::difference::DifferenceLaw;
use crate::hib::exact::logistic::log_sigmoid;
use crate::hib::exact::{isotropic, polar, quadratic_form};

/// `ln p` of a law: `ln sigmoid(−a√c + b)` when no coordinate is random, else `route`.
fn ln_with_route(
    law: &DifferenceLaw,
    a: f64,
    b: f64,
    route: impl FnOnce(&DifferenceLaw) -> Result<f64>,
) -> Result<f64> {
    if law.random_dim() == 0 {
        Ok(log_sigmoid(-a * law.offset.sqrt() + b))
    } else {
        route(law)
    }
}

/// `ln p` for an already-checked pair of Gaussians: a point mass in closed form, the isotropic
/// route when all random coordinates share one variance, else the quadratic-form route.
#[doc(hidden)]
pub fn log_match_probability_checked(
    mu1: &[f64],
    var1: &[f64],
    mu2: &[f64],
    var2: &[f64],
    a: f64,
    b: f64,
) -> Result<f64> {
    let law = DifferenceLaw::new(mu1, var1, mu2, var2);
    ln_with_route(&law, a, b, |law| match law.common_variance() {
        Some(s) => isotropic::log_match_probability(law, s, a, b),
        None => quadratic_form::log_match_probability(law, a, b),
    })
}

/// The mean of the exact match probability over all component pairs of two mixtures (checked
/// inputs): the mixture's match probability, and `1 − η` when both are the same embedding.
#[doc(hidden)]
pub fn mean_over_component_pairs(
    x1: &HedgedEmbedding,
    x2: &HedgedEmbedding,
    a: f64,
    b: f64,
) -> Result<f64> {
    let mut total = 0.0;
    for c1 in 0..x1.components() {
        for c2 in 0..x2.components() {
            let (mu1, var1) = (x1.mu(c1), x1.var(c1));
            let (mu2, var2) = (x2.mu(c2), x2.var(c2));
            total += log_match_probability_checked(mu1, var1, mu2, var2, a, b)?.exp();
        }
    }
    Ok(total / (x1.components() * x2.components()) as f64)
}

/// The match probability of two Gaussian embeddings, exactly (HIB eq. 4): the reference for
/// the Monte Carlo estimator `hib::match_probability`.
///
/// `Δ = z₁ − z₂ ~ N(μ₁ − μ₂, diag(σ₁² + σ₂²))`, so `‖Δ‖² = c + Σ_k s_k (Z_k + δ_k/√s_k)²` and
/// `p` is a one-dimensional integral against the law of `‖Δ‖²`:
///
/// * every variance 0: `sigmoid(−a‖μ₁ − μ₂‖ + b)`;
/// * all non-zero `s_k` equal (isotropic): against the scaled non-central χ²_D density;
/// * otherwise: `p = a ∫_0^∞ sigmoid(−ar + b) sigmoid(ar − b) P(‖Δ‖² ≤ r²) dr` (an integration
///   by parts: `−d sigmoid(−ar + b)/dr` is that product), with the CDF of the quadratic form
///   from [`crate::gaussian_quadratic_form`] (chapter 05), in log space.
///
/// Every integrand is positive and log-concave and is integrated relative to its peak, so the
/// result is accurate to `10⁻⁹` absolute and to `10⁻⁶` relative (far better in practice) down to
/// probabilities of `10⁻³⁰⁰`. `proofs/hib_exact_routes.rs` checks the routes against each other
/// and against the polar route [`match_probability_polar`](crate::hib::exact::match_probability_polar).
///
/// # Formula
///
/// $$ p(m \mid x_1, x_2) = \mathbb E\\,\operatorname{sigmoid}\big(-a\lVert\Delta\rVert + b\big) = \int_0^\infty \operatorname{sigmoid}(-a\sqrt q + b)\\, dF_{\lVert\Delta\rVert^2}(q) $$
///
/// # Errors
///
/// [`Error::TooFew`](crate::Error::TooFew) for `D = 0`;
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if lengths differ;
/// [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) /
/// [`Error::NotFinite`](crate::Error::NotFinite) for NaN or ±∞;
/// [`Error::OutOfDomain`](crate::Error::OutOfDomain) for a negative variance or `a ≤ 0`;
/// [`Error::NoConvergence`](crate::Error::NoConvergence) if a quadrature fails (never seen on
/// the tested domain).
///
/// # Examples
///
/// ```
/// use probdml::hib::exact::match_probability;
/// // Point masses at distance 1: sigmoid(−2 + 1).
/// let p = match_probability(&[0.0], &[0.0], &[1.0], &[0.0], 2.0, 1.0)?;
/// assert!((p - 0.2689414213699951).abs() < 1e-16);
/// // D = 1, Δ ~ N(0, 1): E sigmoid(−|Δ|) (mpmath, scripts/reference/hib_values.py).
/// let p = match_probability(&[0.0], &[0.5], &[0.0], &[0.5], 1.0, 0.0)?;
/// assert!((p - 0.32514317473302410).abs() < 1e-12);
/// # Ok::<(), probdml::Error>(())
/// ```
///
/// Cited: HIB eq. (2), (4).
pub fn match_probability(
    mu1: &[f64],
    var1: &[f64],
    mu2: &[f64],
    var2: &[f64],
    a: f64,
    b: f64,
) -> Result<f64> {
    checks::gaussian_pair(mu1, var1, mu2, var2, a, b)?;
    Ok(log_match_probability_checked(mu1, var1, mu2, var2, a, b)?.exp())
}

/// The match probability by the polar route (`Δ = r u` around the origin, Gauss rules over the
/// sphere, adaptive quadrature along each ray): the independent check of
/// [`match_probability`] for `D ≤ 4` (counting only coordinates with `σ₁² + σ₂² > 0`).
///
/// # Formula
///
/// $$ p = \int_{S^{D-1}} \int_0^\infty \operatorname{sigmoid}(-a r + b)\\, r^{D-1} \varphi_s(r u - \delta)\\, dr\\, d\sigma(u) $$
///
/// # Errors
///
/// As [`match_probability`]; [`Error::TooMany`](crate::Error::TooMany) beyond 4 random
/// coordinates; [`Error::NoConvergence`](crate::Error::NoConvergence) when the law is so
/// concentrated far from the origin that the angular rule does not converge (use
/// [`match_probability`]).
///
/// # Examples
///
/// ```
/// use probdml::hib::exact::{match_probability, match_probability_polar};
/// let args = (&[0.3, -0.2, 0.1][..], &[0.2, 0.5, 0.1][..], &[0.0, 0.4, 0.0][..], &[0.3, 0.1, 0.2][..]);
/// let polar = match_probability_polar(args.0, args.1, args.2, args.3, 1.5, 0.5)?;
/// let reference = match_probability(args.0, args.1, args.2, args.3, 1.5, 0.5)?;
/// assert!((polar - reference).abs() < 1e-10);
/// # Ok::<(), probdml::Error>(())
/// ```
///
/// Cited: book chapter 07 (second route for `D ≤ 4`).
pub fn match_probability_polar(
    mu1: &[f64],
    var1: &[f64],
    mu2: &[f64],
    var2: &[f64],
    a: f64,
    b: f64,
) -> Result<f64> {
    checks::gaussian_pair(mu1, var1, mu2, var2, a, b)?;
    let law = DifferenceLaw::new(mu1, var1, mu2, var2);
    if law.random_dim() > polar::POLAR_MAX_DIM {
        return Err(crate::Error::TooMany {
            arg: "var1",
            max: polar::POLAR_MAX_DIM,
            got: law.random_dim(),
        });
    }
    Ok(ln_with_route(&law, a, b, |law| polar::log_match_probability(law, a, b))?.exp())
}

/// The match probability by the quadratic-form route whatever the variances (the integration by
/// parts against chapter 05's CDF of `‖Δ‖²`): [`match_probability`] takes it only for unequal
/// variances; forcing it on isotropic ones checks it against the non-central χ² route.
///
/// # Formula
///
/// $$ p = a \int_0^\infty \operatorname{sigmoid}(-ar + b)\\, \operatorname{sigmoid}(ar - b)\\, P(\lVert\Delta\rVert^2 \le r^2)\\, dr $$
///
/// # Errors
///
/// As [`match_probability`].
///
/// # Examples
///
/// ```
/// use probdml::hib::exact::{match_probability, match_probability_by_quadratic_form};
/// let (mu, var) = ([0.5, -0.3, 0.2], [0.4, 0.4, 0.4]);
/// let chi2 = match_probability(&mu, &var, &[0.0; 3], &var, 1.0, 1.0)?;
/// let form = match_probability_by_quadratic_form(&mu, &var, &[0.0; 3], &var, 1.0, 1.0)?;
/// assert!((chi2 - form).abs() < 1e-12);
/// # Ok::<(), probdml::Error>(())
/// ```
///
/// Cited: book chapter 07 (reuse of chapter 05's machinery).
pub fn match_probability_by_quadratic_form(
    mu1: &[f64],
    var1: &[f64],
    mu2: &[f64],
    var2: &[f64],
    a: f64,
    b: f64,
) -> Result<f64> {
    checks::gaussian_pair(mu1, var1, mu2, var2, a, b)?;
    let law = DifferenceLaw::new(mu1, var1, mu2, var2);
    Ok(ln_with_route(&law, a, b, |law| {
        quadratic_form::log_match_probability(law, a, b)
    })?
    .exp())
}

/// The match probability of two mixture embeddings (equal weights), exactly: the mean of the
/// Gaussian [`match_probability`] over all `C₁C₂` component pairs. The reference for
/// `hib::match_probability` with `C > 1`.
///
/// # Formula
///
/// $$ p(m \mid x_1, x_2) = \frac{1}{C_1 C_2} \sum_{c=1}^{C_1} \sum_{c'=1}^{C_2} \mathbb E\\, \operatorname{sigmoid}\big(-a \lVert z_{1c} - z_{2c'} \rVert + b\big) $$
///
/// # Errors
///
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if the dimensions differ;
/// [`Error::OutOfDomain`](crate::Error::OutOfDomain) for `a ≤ 0`;
/// [`Error::NotFinite`](crate::Error::NotFinite) for a non-finite `a` or `b`.
///
/// # Examples
///
/// ```
/// use probdml::hib::{exact, HedgedEmbedding};
/// let g = HedgedEmbedding::from_gaussian(probdml::Gaussian { mu: &[0.0, 0.0], var: &[0.2, 0.2] })?;
/// let x = HedgedEmbedding::from_components(probdml::Gaussian { mu: &[0.0, 0.0, 0.0, 0.0], var: &[0.2, 0.2, 0.2, 0.2] }, 2)?;
/// // A mixture of two copies of the same Gaussian is that Gaussian.
/// let p_mix = exact::mixture_match_probability(&x, &g, 1.0, 0.5)?;
/// let p = exact::match_probability(&[0.0, 0.0], &[0.2, 0.2], &[0.0, 0.0], &[0.2, 0.2], 1.0, 0.5)?;
/// assert!((p_mix - p).abs() < 1e-15);
/// # Ok::<(), probdml::Error>(())
/// ```
///
/// Cited: HIB §2.2 (MoG embedding), eq. (4).
pub fn mixture_match_probability(
    x1: &HedgedEmbedding,
    x2: &HedgedEmbedding,
    a: f64,
    b: f64,
) -> Result<f64> {
    x1.check_same_dim("x2", x2)?;
    checks::soft_threshold(a, b)?;
    mean_over_component_pairs(x1, x2, a, b)
}
