//! Sampling the nivMF by pushing a vMF through `g⁻¹(y) = K⁻¹y/‖K⁻¹y‖` (book chapter 06).

use super::input::require_concentrations;
use crate::compensated::norm2;
use crate::error::{require_sphere_dim, Result};
use crate::vmf::{require_unit, VonMisesFisher};
use rand::Rng;

/// `nivMF(μ, K)`, `K = diag(κ)`, as the law of `X = K⁻¹Y/‖K⁻¹Y‖` with
/// `Y ~ vMF(Kμ/‖Kμ‖, ‖Kμ‖)`.
///
/// # Formula
///
/// $$ Y \sim \mathrm{vMF}(\tilde\mu, \tilde\kappa),\quad X = g^{-1}(Y) = \frac{K^{-1}Y}{\lVert K^{-1}Y\rVert}
///    \\;\Longrightarrow\\; X \sim f(x) = C_M(\tilde\kappa)\frac{\det K}{\lVert Kx\rVert^M}
///    e^{\tilde\kappa s(Kx, K\mu)} $$
///
/// (the density is [`ln_pdf`](Self::ln_pdf)). The KS test of
/// `proofs/nivmf_density.rs` checks the samples against that density on `S²`.
///
/// # Examples
///
/// ```
/// use probdml::nivmf::NonIsotropicVmf;
/// use probdml::rand::SeedableRng;
/// let law = NonIsotropicVmf::new(&[0.0, 0.0, 1.0], &[2.0, 5.0, 9.0]).unwrap();
/// let mut rng = probdml::rand::rngs::StdRng::seed_from_u64(1);
/// let x = law.sample(&mut rng);
/// assert!((x.iter().map(|v| v * v).sum::<f64>() - 1.0).abs() < 1e-15);
/// ```
///
/// The density takes the point alone: the mean direction is the distribution's, so the two unit
/// vectors that the positional `nivmf::log_density(x, mu, kappas)` let a caller swap without an
/// error cannot be swapped here.
///
/// ```compile_fail,E0061
/// use probdml::nivmf::NonIsotropicVmf;
/// let law = NonIsotropicVmf::new(&[0.0, 0.0, 1.0], &[2.0, 5.0, 9.0]).unwrap();
/// let _ = law.ln_pdf(&[0.6, 0.0, 0.8], &[0.0, 0.0, 1.0]);
/// ```
#[derive(Debug, Clone)]
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub struct NonIsotropicVmf {
    mu: Vec<f64>,
    kappas: Vec<f64>,
    base: VonMisesFisher,
}

impl NonIsotropicVmf {
    /// `nivMF(μ, diag(kappas))`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidDimension`](crate::Error::InvalidDimension) if `len(μ) < 2`;
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if `len(kappas) ≠ len(μ)`;
    /// [`Error::OutOfDomain`](crate::Error::OutOfDomain) /
    /// [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) for a concentration `≤ 0` or
    /// not finite; [`Error::NotUnitVector`](crate::Error::NotUnitVector) if `μ` is not unit.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::nivmf::NonIsotropicVmf;
    /// assert!(NonIsotropicVmf::new(&[1.0, 0.0], &[1.0, 2.0]).is_ok());
    /// assert!(NonIsotropicVmf::new(&[1.0, 0.0], &[1.0, -2.0]).is_err());
    /// assert!(NonIsotropicVmf::new(&[1.0, 0.0], &[1.0]).is_err());
    /// ```
    pub fn new(mu: &[f64], kappas: &[f64]) -> Result<Self> {
        let dim = require_sphere_dim("mu", mu.len())?;
        require_concentrations("kappas", kappas, dim)?;
        let mu = require_unit("mu", mu)?;
        let k_mu: Vec<f64> = mu.iter().zip(kappas).map(|(m, k)| m * k).collect();
        let base = VonMisesFisher::from_natural(&k_mu)?;
        Ok(Self {
            mu: mu.into_owned(),
            kappas: kappas.to_vec(),
            base,
        })
    }

    /// `nivMF(v/‖v‖, diag(kappas))` for any finite non-zero direction `v`, of any length
    /// ([`new`](Self::new) accepts only vectors normalised in `f32` or better).
    ///
    /// # Errors
    ///
    /// [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) naming `v` for NaN or ±∞;
    /// [`Error::OutOfDomain`](crate::Error::OutOfDomain) naming `v` if it is zero; otherwise as
    /// [`new`](Self::new).
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::nivmf::NonIsotropicVmf;
    /// let law = NonIsotropicVmf::from_direction(&[3.0, 4.0], &[1.0, 2.0])?;
    /// assert_eq!(law.mu(), &[0.6, 0.8]);
    /// assert_eq!(law.dim(), 2);
    /// assert_eq!(law.ln_pdf(&[0.6, 0.8])?, law.log_density(&[0.6, 0.8])?);
    /// # Ok::<(), probdml::Error>(())
    /// ```
    pub fn from_direction(v: &[f64], kappas: &[f64]) -> Result<Self> {
        if let Some(index) = v.iter().position(|x| !x.is_finite()) {
            return Err(crate::Error::NotFiniteElement {
                arg: "v",
                index,
                value: v[index],
            });
        }
        let n = norm2(v);
        if n == 0.0 {
            return Err(crate::Error::OutOfDomain {
                arg: "v",
                value: 0.0,
                rule: "a direction must be non-zero",
            });
        }
        let mu: Vec<f64> = v.iter().map(|x| x / n).collect();
        Self::new(&mu, kappas)
    }

    /// The dimension `M` of the ambient space (the sphere is `S^{M−1}`).
    pub fn dim(&self) -> usize {
        self.mu.len()
    }

    /// The exactly normalised log density at `x` (formula, error budget and errors at
    /// [`nivmf::log_density`](super::log_density)), under the statrs name that
    /// [`VonMisesFisher::ln_pdf`](crate::vmf::VonMisesFisher::ln_pdf) also carries.
    ///
    /// # Errors
    ///
    /// As [`nivmf::log_density`](super::log_density) for `x`.
    pub fn ln_pdf(&self, x: &[f64]) -> Result<f64> {
        super::density::ln_pdf_at(x, &self.mu, &self.kappas)
    }

    /// The paper's heuristic log "density" at `x`, which does not integrate to 1 (formula and
    /// total mass at [`nivmf::log_density_heuristic`](super::log_density_heuristic)).
    ///
    /// # Errors
    ///
    /// As [`nivmf::log_density`](super::log_density) for `x`.
    pub fn ln_pdf_heuristic(&self, x: &[f64]) -> Result<f64> {
        super::density::ln_pdf_heuristic_at(x, &self.mu, &self.kappas)
    }

    /// The mean direction parameter `μ`.
    pub fn mu(&self) -> &[f64] {
        &self.mu
    }

    /// The diagonal of `K`.
    pub fn kappas(&self) -> &[f64] {
        &self.kappas
    }

    /// The log density at `x`: [`ln_pdf`](Self::ln_pdf) under a second name.
    ///
    /// # Errors
    ///
    /// As [`ln_pdf`](Self::ln_pdf).
    #[deprecated(since = "0.1.0", note = "the statrs name: `ln_pdf`")]
    pub fn log_density(&self, x: &[f64]) -> Result<f64> {
        self.ln_pdf(x)
    }

    /// One sample, a unit vector of length `M`.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Vec<f64> {
        let mut y = self.base.sample(rng);
        for (v, k) in y.iter_mut().zip(&self.kappas) {
            *v /= k;
        }
        let n = norm2(&y);
        y.iter_mut().for_each(|v| *v /= n);
        y
    }
}

/// `nivMF(mu = [μ₁, …], kappas = [κ₁, …])`, the numbers written as
/// [`VonMisesFisher`]'s `Display` writes them.
///
/// ```
/// use probdml::nivmf::NonIsotropicVmf;
/// let law = NonIsotropicVmf::new(&[0.0, 0.0, 1.0], &[2.0, 5.0, 9.0]).unwrap();
/// assert_eq!(law.to_string(), "nivMF(mu = [0, 0, 1], kappas = [2, 5, 9])");
/// ```
impl std::fmt::Display for NonIsotropicVmf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("nivMF(mu = ")?;
        probdml_core::display::vector(f, &self.mu)?;
        f.write_str(", kappas = ")?;
        probdml_core::display::vector(f, &self.kappas)?;
        f.write_str(")")
    }
}
