//! Reference vMF sampler: inverse-CDF sampling of the angle to `μ` from the tabulated marginal.
//!
//! `U ~ U[0, 1)`, `θ = F⁻¹(U)` where `F(θ) = ∫_0^θ e^{κ cos t} sin^{M−2} t dt / ∫_0^π (…)` is
//! integrated by [`CosineMarginal`] (adaptive Gauss–Legendre, inverted by safeguarded Newton).
//! Then `X = cos θ · μ + sin θ · v`, `v` uniform on the unit sphere of `μ`'s orthogonal
//! complement: a standard Gaussian vector of `ℝ^M` projected onto `μ^⊥` (twice, so that
//! `μᵀv` is at rounding level) and normalised. This is the definition of the vMF as a law of
//! `(μᵀX, direction of the rest)`, and shares nothing with the fast sampler's Householder
//! reflection. Slow (hundreds of integrand evaluations per draw) but with nothing to get wrong:
//! no envelope, no acceptance constant.
//!
//! Random stream: one `rng.random::<f64>()` for `U`, then `M` standard normals (again `M` if
//! the projection vanishes, with probability 0).

use rand::distr::Distribution;
use rand::{Rng, RngExt};

use super::marginal::CosineMarginal;
use rand_distr::StandardNormal;

use crate::compensated::dot2;
use crate::compensated::exact::norm2;
use crate::error::{require_nonnegative, require_sphere_dim, Error, Result};
use crate::vmf::input::require_unit;

/// Reference twin of `crate::vmf::VonMisesFisher`, sampling by inverse CDF.
///
/// # Formula
///
/// $$ \theta = F^{-1}(U),\quad X = \cos\theta\\,\mu + \sin\theta\\, v,\ v \perp \mu,\quad
///    F(\theta) = \frac{\int_0^\theta e^{\kappa\cos t}\sin^{M-2}t\\,dt}{\int_0^\pi e^{\kappa\cos t}\sin^{M-2}t\\,dt} $$
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::VonMisesFisher;
/// use probdml::rand::SeedableRng;
/// let vmf = VonMisesFisher::new(&[0.0, 1.0, 0.0], 5.0).unwrap();
/// let mut rng = probdml::rand::rngs::StdRng::seed_from_u64(3);
/// let x = vmf.sample(&mut rng);
/// let norm: f64 = x.iter().map(|v| v * v).sum::<f64>().sqrt();
/// assert!((norm - 1.0).abs() < 1e-15);
/// ```
#[derive(Debug, Clone)]
pub struct VonMisesFisher {
    mu: Vec<f64>,
    kappa: f64,
    law: CosineMarginal,
}

impl VonMisesFisher {
    /// Reference twin of `crate::vmf::VonMisesFisher::new`; tabulates the marginal CDF.
    ///
    /// # Errors
    ///
    /// As `crate::vmf::VonMisesFisher::new`.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::vmf::exact::VonMisesFisher;
    /// let vmf = VonMisesFisher::new(&[0.0, 0.0, 1.0], 2.0).unwrap();
    /// // The tabulated marginal is the M = 3 law: mean coth 2 − 1/2.
    /// assert!((vmf.marginal().mean() - (1.0 / 2.0_f64.tanh() - 0.5)).abs() < 1e-14);
    /// assert!(VonMisesFisher::new(&[0.0, 0.0, 1.1], 2.0).is_err());
    /// ```
    pub fn new(mu: &[f64], kappa: f64) -> Result<Self> {
        require_sphere_dim("mu", mu.len())?;
        require_nonnegative("kappa", kappa)?;
        let mu = require_unit("mu", mu)?;
        Self::build(&mu, kappa)
    }

    /// Reference twin of `crate::vmf::VonMisesFisher::from_natural`.
    ///
    /// # Formula
    ///
    /// $$ \kappa = \lVert\nu\rVert,\qquad \mu = \nu/\lVert\nu\rVert $$
    ///
    /// # Errors
    ///
    /// As `crate::vmf::VonMisesFisher::from_natural`.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::vmf::exact::VonMisesFisher;
    /// let vmf = VonMisesFisher::from_natural(&[0.0, 3.0, 4.0]).unwrap();
    /// assert_eq!((vmf.kappa(), vmf.mu()), (5.0, &[0.0, 0.6, 0.8][..]));
    /// ```
    pub fn from_natural(nu: &[f64]) -> Result<Self> {
        require_sphere_dim("nu", nu.len())?;
        if let Some(&bad) = nu.iter().find(|x| !x.is_finite()) {
            return Err(Error::NotFinite {
                arg: "nu",
                value: bad,
            });
        }
        let kappa = norm2(nu);
        if !kappa.is_finite() {
            return Err(Error::NotFinite {
                arg: "nu",
                value: kappa,
            });
        }
        if kappa == 0.0 {
            let mut e1 = vec![0.0; nu.len()];
            e1[0] = 1.0;
            return Self::build(&e1, 0.0);
        }
        let mu: Vec<f64> = nu.iter().map(|v| v / kappa).collect();
        Self::build(&mu, kappa)
    }

    fn build(mu: &[f64], kappa: f64) -> Result<Self> {
        let norm = norm2(mu);
        let mu: Vec<f64> = mu.iter().map(|v| v / norm).collect();
        let law = CosineMarginal::new(mu.len(), kappa)?;
        Ok(Self { mu, kappa, law })
    }

    /// The mean direction `μ` (unit).
    pub fn mu(&self) -> &[f64] {
        &self.mu
    }

    /// The concentration `κ`.
    pub fn kappa(&self) -> f64 {
        self.kappa
    }

    /// The ambient dimension `M`.
    pub fn dim(&self) -> usize {
        self.mu.len()
    }

    /// The tabulated law of `μᵀX` (its exact CDF, quantiles and moments).
    pub fn marginal(&self) -> &CosineMarginal {
        &self.law
    }

    /// Draws `w = μᵀX = cos F⁻¹(U)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::vmf::exact::VonMisesFisher;
    /// use probdml::rand::SeedableRng;
    /// let vmf = VonMisesFisher::new(&[1.0, 0.0], 1e5).unwrap();
    /// let mut rng = probdml::rand::rngs::StdRng::seed_from_u64(2);
    /// let w = vmf.sample_cosine(&mut rng);
    /// assert!(w > 0.999 && w <= 1.0);
    /// ```
    pub fn sample_cosine<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        let u: f64 = rng.random();
        self.law.quantile_angle(u).cos()
    }

    /// Draws one sample into `out`.
    ///
    /// # Errors
    ///
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if
    /// `out.len() != self.dim()`; `out` is left untouched.
    pub fn sample_into<R: Rng + ?Sized>(&self, rng: &mut R, out: &mut [f64]) -> crate::Result<()> {
        let dim = self.mu.len();
        if out.len() != dim {
            return Err(crate::Error::DimensionMismatch {
                arg: "out",
                expected: dim,
                got: out.len(),
            });
        }
        self.fill(rng, out);
        Ok(())
    }

    /// The sampler proper; `out.len() == self.dim()` is the caller's to guarantee.
    fn fill<R: Rng + ?Sized>(&self, rng: &mut R, out: &mut [f64]) {
        let u: f64 = rng.random();
        let theta = self.law.quantile_angle(u);
        let v = loop {
            let mut g: Vec<f64> = (0..self.mu.len())
                .map(|_| rng.sample(StandardNormal))
                .collect();
            for _ in 0..2 {
                let along = dot2(&self.mu, &g);
                g.iter_mut()
                    .zip(&self.mu)
                    .for_each(|(x, m)| *x -= along * m);
            }
            let norm = norm2(&g);
            if norm > 0.0 {
                break g.into_iter().map(|x| x / norm).collect::<Vec<f64>>();
            }
        };
        let (w, r) = (theta.cos(), theta.sin());
        for ((o, m), v) in out.iter_mut().zip(&self.mu).zip(&v) {
            *o = w.mul_add(*m, r * v);
        }
    }

    /// Draws one sample.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Vec<f64> {
        let mut out = vec![0.0; self.mu.len()];
        self.fill(rng, &mut out);
        out
    }
}

impl Distribution<Vec<f64>> for VonMisesFisher {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Vec<f64> {
        VonMisesFisher::sample(self, rng)
    }
}
