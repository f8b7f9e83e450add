//! The hedged instance embedding `p(z | x)`: a Gaussian `N(μ, diag σ²)` in `ℝ^D`, or a mixture
//! of `C` such Gaussians with equal weights (HIB §2.2, "Mixture of Gaussians (MoG) embedding").

use crate::error::{Error, Result};
use crate::gaussians::Gaussian;
use crate::hib::checks;

/// A mixture of `C ≥ 1` diagonal Gaussians with equal weights `1/C` in `ℝ^D` (`C = 1`: the
/// single Gaussian embedding of HIB §2.2). A variance of 0 is allowed: that coordinate of that
/// component is a point mass (the point embedding is the case `σ² = 0` everywhere).
///
/// # Formula
///
/// $$ p(z \mid x) = \frac{1}{C} \sum_{c=1}^{C} \mathcal N\big(z;\\, \mu_c(x),\\, \operatorname{diag} \sigma_c^2(x)\big) $$
///
/// # Errors
///
/// [`Error::TooFew`] for `D = 0` or `C = 0`; [`Error::RaggedRows`] when the means are not a
/// whole number of rows of width `dim`; [`Error::DimensionMismatch`] when the variances do not
/// have the shape of the means; [`Error::NotFiniteElement`] for NaN or ±∞;
/// [`Error::OutOfDomain`] for a negative variance.
///
/// # Examples
///
/// ```
/// use probdml::hib::HedgedEmbedding;
/// // Two components in ℝ² ("17" or "47", HIB Fig. 1): rows are components.
/// let x = HedgedEmbedding::from_components(probdml::Gaussian { mu: &[0.0, 1.0, 3.0, 1.0], var: &[0.1, 0.1, 0.2, 0.2] }, 2)?;
/// assert_eq!((x.components(), x.dim()), (2, 2));
/// assert_eq!(x.mu(1), &[3.0, 1.0]);
/// assert!(HedgedEmbedding::from_gaussian(probdml::Gaussian { mu: &[0.0], var: &[-1.0] }).is_err());
/// # Ok::<(), probdml::Error>(())
/// ```
///
/// Cited: Oh et al., *Modeling Uncertainty with Hedged Instance Embedding* (HIB), §2.2.
#[derive(Debug, Clone, PartialEq)]
pub struct HedgedEmbedding {
    dim: usize,
    means: Vec<f64>,
    variances: Vec<f64>,
}

impl HedgedEmbedding {
    /// The single Gaussian embedding `N(mu, diag var)`, owned.
    ///
    /// # Errors
    ///
    /// As for the type: an empty `mu`, lengths that differ, NaN/±∞, a negative variance (its
    /// index in the error).
    pub fn from_gaussian(g: Gaussian<'_>) -> Result<Self> {
        let Gaussian { mu, var } = g;
        checks::gaussian("mu", mu, "var", var)?;
        Ok(Self {
            dim: mu.len(),
            means: mu.to_vec(),
            variances: var.to_vec(),
        })
    }

    /// [`HedgedEmbedding::from_gaussian`] with the mean and the variances given by position.
    ///
    /// # Errors
    ///
    /// As for the type.
    #[deprecated(
        since = "0.1.0",
        note = "name the inputs: `HedgedEmbedding::from_gaussian(Gaussian { mu, var })`"
    )]
    pub fn gaussian(mu: &[f64], var: &[f64]) -> Result<Self> {
        Self::from_gaussian(Gaussian { mu, var })
    }

    /// The equal-weight mixture whose component `c` has mean `mu[c·dim..(c+1)·dim]` and
    /// variances `var[c·dim..(c+1)·dim]`: the rows of `components` (row-major, one row per
    /// component), owned.
    ///
    /// # Errors
    ///
    /// As for the type.
    pub fn from_components(components: Gaussian<'_>, dim: usize) -> Result<Self> {
        let Gaussian {
            mu: means,
            var: variances,
        } = components;
        if dim == 0 {
            return Err(Error::TooFew {
                arg: "dim",
                min: 1,
                got: 0,
            });
        }
        if means.is_empty() {
            return Err(Error::TooFew {
                arg: "mu",
                min: dim,
                got: 0,
            });
        }
        if means.len() % dim != 0 {
            return Err(Error::RaggedRows {
                arg: "mu",
                len: means.len(),
                dim,
            });
        }
        checks::same_length("var", means.len(), variances.len())?;
        checks::all_finite("mu", means)?;
        checks::variances("var", variances)?;
        Ok(Self {
            dim,
            means: means.to_vec(),
            variances: variances.to_vec(),
        })
    }

    /// [`HedgedEmbedding::from_components`] with the means and the variances given by position.
    ///
    /// # Errors
    ///
    /// As for the type.
    #[deprecated(
        since = "0.1.0",
        note = "name the inputs: `HedgedEmbedding::from_components(Gaussian { mu, var }, dim)`"
    )]
    pub fn mixture(mu: &[f64], var: &[f64], dim: usize) -> Result<Self> {
        Self::from_components(Gaussian { mu, var }, dim)
    }

    /// The equal-weight mixture of the rows of a batch of Gaussians (one row per component);
    /// [`from_gaussian`](Self::from_gaussian) is the case of one row.
    ///
    /// # Errors
    ///
    /// None beyond those [`Gaussians::from_rows`](crate::Gaussians::from_rows) already checked; the
    /// `Result` keeps the constructors alike.
    pub fn from_gaussians(components: &crate::Gaussians<'_>) -> Result<Self> {
        let rows = Gaussian {
            mu: components.mu(),
            var: components.var(),
        };
        Self::from_components(rows, components.dim())
    }

    /// The dimension `D` of the embedding space.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The number `C` of mixture components.
    pub fn components(&self) -> usize {
        self.means.len() / self.dim
    }

    /// The mean `μ_c` of component `c` (panics if `c ≥ C`, like slice indexing).
    pub fn mu(&self, c: usize) -> &[f64] {
        &self.means[c * self.dim..(c + 1) * self.dim]
    }

    /// The variances `σ_c²` of component `c` (panics if `c ≥ C`, like slice indexing).
    pub fn var(&self, c: usize) -> &[f64] {
        &self.variances[c * self.dim..(c + 1) * self.dim]
    }

    /// The mean `μ_c` of component `c`: the former name of [`mu`](Self::mu).
    #[deprecated(since = "0.2.0", note = "renamed `mu`, the crate's name for a mean")]
    pub fn mean(&self, c: usize) -> &[f64] {
        self.mu(c)
    }

    /// The variances `σ_c²` of component `c`: the former name of [`var`](Self::var).
    #[deprecated(
        since = "0.2.0",
        note = "renamed `var`, the crate's name for a variance"
    )]
    pub fn variance(&self, c: usize) -> &[f64] {
        self.var(c)
    }

    /// Checks that `other` lives in the same space, naming `arg` in the error.
    #[doc(hidden)]
    pub fn check_same_dim(&self, arg: &'static str, other: &Self) -> Result<()> {
        checks::same_length(arg, self.dim, other.dim)
    }
}

/// A single Gaussian as [`Gaussian`]'s `Display` writes it, `N(mu = […], var = […])`; a mixture
/// as `MoG(N(…), N(…), …)`, one term per component.
///
/// ```
/// use probdml::hib::HedgedEmbedding;
/// use probdml::Gaussian;
/// let x = HedgedEmbedding::from_gaussian(Gaussian { mu: &[0.5], var: &[0.25] })?;
/// assert_eq!(x.to_string(), "N(mu = [0.5], var = [0.25])");
/// let rows = Gaussian { mu: &[0.0, 1.0, 3.0, 1.0], var: &[0.1, 0.1, 0.2, 0.2] };
/// let mixture = HedgedEmbedding::from_components(rows, 2)?;
/// assert_eq!(
///     mixture.to_string(),
///     "MoG(N(mu = [0, 1], var = [0.1, 0.1]), N(mu = [3, 1], var = [0.2, 0.2]))"
/// );
/// # Ok::<(), probdml::Error>(())
/// ```
impl std::fmt::Display for HedgedEmbedding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let component = |c: usize| Gaussian {
            mu: self.mu(c),
            var: self.var(c),
        };
        if self.components() == 1 {
            return std::fmt::Display::fmt(&component(0), f);
        }
        f.write_str("MoG(")?;
        for c in 0..self.components() {
            if c > 0 {
                f.write_str(", ")?;
            }
            std::fmt::Display::fmt(&component(c), f)?;
        }
        f.write_str(")")
    }
}
