//! HIB's match model as a value: the soft threshold `p(m | z₁, z₂) = sigmoid(−a‖z₁ − z₂‖ + b)`
//! (HIB eq. 2), whose two parameters name themselves at the call.

use crate::error::Result;
use crate::hib::checks;
use crate::hib::logistic::sigmoid;

/// The soft threshold of HIB eq. (2): two embeddings match with probability
/// `sigmoid(−a‖z₁ − z₂‖ + b)`, a scale `a > 0` of the distance and an offset `b`.
///
/// Every fast HIB quantity that depends on the threshold is a method of it: the match
/// probability by Monte Carlo ([`match_probability`](Self::match_probability)) and by moment
/// matching ([`match_probability_moment_matched`](Self::match_probability_moment_matched)), the
/// self-mismatch and the VIB loss. `a` and `b` are both `f64`: given by position, a swap
/// returned a wrong probability without an error; named, it cannot happen. (The exact twins in
/// [`hib::exact`](crate::hib::exact) keep the positional form of the reference; pass them
/// `threshold.a, threshold.b`.)
///
/// # Formula
///
/// $$ p(m \mid z_1, z_2) = \operatorname{sigmoid}\big(-a \lVert z_1 - z_2 \rVert + b\big), \qquad a > 0 $$
///
/// # Errors
///
/// Every method checks the threshold first: [`Error::NotFinite`](crate::Error::NotFinite) for a
/// non-finite `a` or `b`, [`Error::OutOfDomain`](crate::Error::OutOfDomain) for `a ≤ 0`, each
/// naming `a` or `b`.
///
/// # Examples
///
/// ```
/// use probdml::hib::{HedgedEmbedding, SoftThreshold};
/// use probdml::Gaussian;
/// let threshold = SoftThreshold { a: 2.0, b: 1.0 };
/// // Two point masses at distance 1: sigmoid(−2 + 1).
/// assert!((threshold.probability(1.0)? - 0.2689414213699951).abs() < 1e-16);
/// let (x1, x2) = (
///     Gaussian { mu: &[0.0, 0.0], var: &[0.3, 0.3] },
///     Gaussian { mu: &[1.0, 0.5], var: &[0.2, 0.4] },
/// );
/// let approx = threshold.match_probability_moment_matched(&x1, &x2)?;
/// let (a, b) = (threshold.a, threshold.b);
/// let exact = probdml::hib::exact::match_probability(x1.mu, x1.var, x2.mu, x2.var, a, b)?;
/// assert!((approx - exact).abs() < 4e-3);
/// # Ok::<(), probdml::Error>(())
/// ```
///
/// The positional form, where `(a, b)` and `(b, a)` both compiled, does not compile:
///
/// ```compile_fail,E0061
/// use probdml::hib::{HedgedEmbedding, SoftThreshold};
/// use probdml::rand::SeedableRng;
/// let x = HedgedEmbedding::from_gaussian(probdml::Gaussian { mu: &[0.0], var: &[0.5] }).unwrap();
/// let mut rng = probdml::rand::rngs::StdRng::seed_from_u64(1);
/// let threshold = SoftThreshold { a: 2.0, b: 1.0 };
/// let _ = threshold.match_probability(&x, &x, 1.0, 2.0, 8, &mut rng);
/// ```
///
/// Cited: Oh et al., *Modeling Uncertainty with Hedged Instance Embedding* (HIB), eq. (2).
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SoftThreshold {
    /// The scale `a > 0` of the distance.
    pub a: f64,
    /// The offset `b`.
    pub b: f64,
}

impl SoftThreshold {
    /// The match probability `sigmoid(−a·distance + b)` of two embeddings at a distance.
    ///
    /// # Errors
    ///
    /// As for the type, and [`Error::OutOfDomain`](crate::Error::OutOfDomain) for a distance
    /// that is negative or NaN.
    pub fn probability(&self, distance: f64) -> Result<f64> {
        checks::soft_threshold(self.a, self.b)?;
        if distance >= 0.0 {
            Ok(sigmoid(-self.a * distance + self.b))
        } else {
            Err(crate::Error::OutOfDomain {
                arg: "distance",
                value: distance,
                rule: "a distance must be >= 0",
            })
        }
    }
}

/// `SoftThreshold(a = …, b = …)`, the numbers written as
/// [`VonMisesFisher`](crate::vmf::VonMisesFisher)'s `Display` writes them.
///
/// ```
/// use probdml::hib::SoftThreshold;
/// assert_eq!(SoftThreshold { a: 2.0, b: -0.5 }.to_string(), "SoftThreshold(a = 2, b = -0.5)");
/// ```
impl std::fmt::Display for SoftThreshold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SoftThreshold(a = ")?;
        probdml_core::display::number(f, self.a)?;
        f.write_str(", b = ")?;
        probdml_core::display::number(f, self.b)?;
        f.write_str(")")
    }
}
