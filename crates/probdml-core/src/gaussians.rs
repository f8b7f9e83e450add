//! A batch of diagonal Gaussian embeddings `N(μ_b, diag σ²_b)` in `ℝ^D`, given as two row-major
//! `B × D` matrices: the input of the Bayesian triplet loss (BTL §3, one Gaussian per image) and
//! of the hedged instance embedding (HIB §2.2, one Gaussian per mixture component).
//!
//! A mean and a variance travel together and are checked once, so that a function taking a
//! `Gaussians` cannot receive a variance where a mean belongs: the six positional slices of
//! `triplet::log_likelihood` become three `Triplets` fields. [`Gaussian`] is one such
//! embedding, built with its fields named.

use crate::error::{Error, Result};

/// `B ≥ 1` diagonal Gaussians in `ℝ^D`, borrowed: row `b` of `mu` is the mean `μ_b`, row `b` of
/// `var` its variances `σ²_b`. A variance of 0 is allowed (a point mass in that coordinate).
///
/// # Errors
///
/// [`Gaussians::from_rows`] returns [`Error::InvalidDimension`] naming `dim` for `D = 0`;
/// [`Error::Empty`] naming `mu` for `B = 0`; [`Error::RaggedRows`] naming `mu` unless it is a
/// whole number of rows; [`Error::DimensionMismatch`] naming `var` unless it has the shape of
/// `mu`; [`Error::NotFiniteElement`] with the flat index for NaN or ±∞; and
/// [`Error::OutOfDomainElement`] with the flat index for a negative variance.
///
/// # Examples
///
/// ```
/// use probdml::{Gaussian, Gaussians};
/// // Two Gaussians in ℝ²: N((0, 1), diag(0.1, 0.2)) and N((3, 1), diag(0.3, 0.4)).
/// let (mu, var) = ([0.0, 1.0, 3.0, 1.0], [0.1, 0.2, 0.3, 0.4]);
/// let g = Gaussians::from_rows(Gaussian { mu: &mu, var: &var }, 2)?;
/// assert_eq!((g.len(), g.dim()), (2, 2));
/// assert_eq!(g.row(1), (&[3.0, 1.0][..], &[0.3, 0.4][..]));
/// // The variance of row 1, coordinate 0 is negative: flat index 2.
/// let var = [0.1, 0.2, -0.3, 0.4];
/// let err = Gaussians::from_rows(Gaussian { mu: &[0.0; 4], var: &var }, 2).unwrap_err();
/// assert!(err.to_string().contains("element 2"));
/// # Ok::<(), probdml::Error>(())
/// ```
///
/// The means and the variances are named: the positional call, where a swap went unnoticed
/// whenever the means were `≥ 0`, does not compile.
///
/// ```compile_fail,E0061
/// use probdml::Gaussians;
/// let (mu, var) = ([0.5, 1.0], [0.1, 0.2]);
/// let _ = Gaussians::from_rows(&var, &mu, 2);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gaussians<'a> {
    mu: &'a [f64],
    var: &'a [f64],
    dim: usize,
}

impl<'a> Gaussians<'a> {
    /// The batch whose row `b` is `N(mu[b·dim..(b+1)·dim], diag var[b·dim..(b+1)·dim])`, the
    /// matrices given as one [`Gaussian`] (`B` independent Gaussians in `ℝ^D` are one diagonal
    /// Gaussian in `ℝ^{BD}`), so that the means and the variances are named at the call.
    ///
    /// # Errors
    ///
    /// As for the type.
    pub fn from_rows(rows: Gaussian<'a>, dim: usize) -> Result<Self> {
        let Gaussian { mu, var } = rows;
        if dim == 0 {
            return Err(Error::InvalidDimension {
                arg: "dim",
                dim,
                rule: "a Gaussian embedding needs dimension D >= 1",
            });
        }
        if mu.is_empty() {
            return Err(Error::Empty {
                arg: "mu",
                rule: "a batch needs at least one Gaussian",
            });
        }
        if !mu.len().is_multiple_of(dim) {
            return Err(Error::RaggedRows {
                arg: "mu",
                len: mu.len(),
                dim,
            });
        }
        if var.len() != mu.len() {
            return Err(Error::DimensionMismatch {
                arg: "var",
                expected: mu.len(),
                got: var.len(),
            });
        }
        for (arg, values) in [("mu", mu), ("var", var)] {
            if let Some(index) = values.iter().position(|v| !v.is_finite()) {
                return Err(Error::NotFiniteElement {
                    arg,
                    index,
                    value: values[index],
                });
            }
        }
        if let Some(index) = var.iter().position(|&v| v < 0.0) {
            return Err(Error::OutOfDomainElement {
                arg: "var",
                index,
                value: var[index],
                rule: "a variance must be >= 0",
            });
        }
        Ok(Self { mu, var, dim })
    }

    /// [`Gaussians::from_rows`] with the matrices given by position, where a swap of the means
    /// and the variances went unnoticed whenever the means were `≥ 0`.
    ///
    /// # Errors
    ///
    /// As for the type.
    #[deprecated(
        since = "0.1.0",
        note = "name the matrices: `Gaussians::from_rows(Gaussian { mu, var }, dim)`"
    )]
    pub fn new(mu: &'a [f64], var: &'a [f64], dim: usize) -> Result<Self> {
        Self::from_rows(Gaussian { mu, var }, dim)
    }

    /// The means, row-major `B × D`.
    pub fn mu(&self) -> &'a [f64] {
        self.mu
    }

    /// The variances, row-major `B × D`.
    pub fn var(&self) -> &'a [f64] {
        self.var
    }

    /// The dimension `D`.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The number `B ≥ 1` of Gaussians.
    pub fn len(&self) -> usize {
        self.mu.len() / self.dim
    }

    /// Always `false`: a batch holds at least one Gaussian (clippy's `len` companion).
    pub fn is_empty(&self) -> bool {
        self.mu.is_empty()
    }

    /// `(μ_b, σ²_b)` of row `b` (panics if `b ≥ B`, like slice indexing).
    pub fn row(&self, b: usize) -> (&'a [f64], &'a [f64]) {
        let range = b * self.dim..(b + 1) * self.dim;
        (&self.mu[range.clone()], &self.var[range])
    }
}

/// One diagonal Gaussian embedding `N(mu, diag var)` in `ℝ^D`, borrowed: BTL's output for one
/// image. Built with its fields named, so that a mean cannot be passed where a variance belongs:
/// `Gaussian { mu: &mu, var: &var }`. It is checked where it is used (equal lengths `D ≥ 1`,
/// finite entries, variances `≥ 0`), with the error naming the role and the field.
///
/// # Examples
///
/// ```
/// use probdml::Gaussian;
/// let (mu, var) = ([0.7, -0.1], [0.5, 0.2]);
/// let g = Gaussian { mu: &mu, var: &var };
/// assert_eq!(g.dim(), 2);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gaussian<'a> {
    /// The mean `μ`, length `D`.
    pub mu: &'a [f64],
    /// The variances `σ²` of the coordinates, length `D`.
    pub var: &'a [f64],
}

impl Gaussian<'_> {
    /// The dimension `D`, the length of the mean.
    pub fn dim(&self) -> usize {
        self.mu.len()
    }
}

/// `N(mu = [μ₁, …], var = [σ₁², …])`, the numbers written as `VonMisesFisher`'s `Display` writes
/// them.
///
/// ```
/// use probdml::Gaussian;
/// let g = Gaussian { mu: &[0.5, -1.0], var: &[0.25, 1e-20] };
/// assert_eq!(g.to_string(), "N(mu = [0.5, -1], var = [0.25, 1e-20])");
/// ```
impl std::fmt::Display for Gaussian<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("N(mu = ")?;
        crate::display::vector(f, self.mu)?;
        f.write_str(", var = ")?;
        crate::display::vector(f, self.var)?;
        f.write_str(")")
    }
}
