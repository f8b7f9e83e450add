//! `VonMisesFisher` as a distribution object: the quantities a user asks of a law (density,
//! entropy, mean, divergences, a fit from data) as methods, in the statrs / rand_distr habit.
//! Each method is a thin checked call of the free kernel that defines it, so the registry's
//! budgets and proofs of those kernels cover it; this file adds no numerics of its own.
use super::{
    entropy, kappa_mle, kl_to_uniform, log_density, mean_resultant, mean_resultant_length,
    VonMisesFisher,
};
use crate::error::{require_nonnegative, require_sphere_dim, Error, Result};

impl VonMisesFisher {
    /// The law of unit vectors along a non-zero direction `v` (any length, e.g. an `f32`
    /// embedding converted to `f64`): `vMF(v/‖v‖, κ)`.
    ///
    /// [`new`](Self::new) insists on `|‖μ‖ − 1| ≤` [`unit_norm_tolerance`](super::unit_norm_tolerance)
    /// (vectors normalised in `f32` pass) so that a wrong input (a raw network output, a mean
    /// that was never normalised) is caught; this constructor is for a direction of any length.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidDimension`] if `len(v) < 2`; [`Error::NotFinite`] if an entry of `v` or
    /// `κ` is not finite; [`Error::OutOfDomain`] if `κ < 0` or `v = 0`.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::vmf::VonMisesFisher;
    /// // Any non-zero direction, e.g. an unnormalised embedding; `new` refuses it.
    /// let v = [3.0, 4.0];
    /// assert!(VonMisesFisher::new(&v, 2.0).is_err());
    /// let law = VonMisesFisher::from_direction(&v, 2.0).unwrap();
    /// assert_eq!(law.mu(), &[0.6, 0.8]);
    /// let norm = law.mu().iter().map(|m| m * m).sum::<f64>().sqrt();
    /// assert!((norm - 1.0).abs() < 1e-15);
    /// assert!(VonMisesFisher::from_direction(&[0.0, 0.0], 2.0).is_err());
    /// ```
    pub fn from_direction(v: &[f64], kappa: f64) -> Result<Self> {
        require_sphere_dim("v", v.len())?;
        require_nonnegative("kappa", kappa)?;
        if let Some(&bad) = v.iter().find(|x| !x.is_finite()) {
            return Err(Error::NotFinite {
                arg: "v",
                value: bad,
            });
        }
        // Scale by the largest magnitude first so that ‖v‖² neither overflows nor underflows.
        let scale = v.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
        if scale == 0.0 {
            return Err(Error::OutOfDomain {
                arg: "v",
                value: 0.0,
                rule: "the direction must be non-zero",
            });
        }
        let norm = v
            .iter()
            .map(|x| (x / scale) * (x / scale))
            .sum::<f64>()
            .sqrt();
        let mu: Vec<f64> = v.iter().map(|x| (x / scale) / norm).collect();
        Self::new(&mu, kappa)
    }

    /// The maximum-likelihood fit to unit vectors `samples` (row-major `n × dim`):
    /// `μ̂ = Σx/‖Σx‖` and `κ̂` the root of `A_M(κ̂) = R̄` ([`mean_resultant`], [`kappa_mle`]).
    ///
    /// # Errors
    ///
    /// Those of [`mean_resultant`] (a row that is not a finite unit vector names its row) and
    /// of [`kappa_mle`] (`R̄ = 1`: every sample equal, `κ̂ = ∞`).
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::rand::{rngs::StdRng, SeedableRng};
    /// use probdml::vmf::VonMisesFisher;
    /// let truth = VonMisesFisher::new(&[0.0, 0.6, 0.8], 20.0).unwrap();
    /// let mut rng = StdRng::seed_from_u64(3);
    /// let rows: Vec<f64> = (0..4000).flat_map(|_| truth.sample(&mut rng)).collect();
    /// let fit = VonMisesFisher::fit(&rows, 3).unwrap();
    /// // κ̂ has standard error ≈ κ/√n = 0.32 here; μ̂ is within ~1/√(nκ) = 0.004 rad.
    /// assert!((fit.kappa() - 20.0).abs() < 2.0);
    /// assert!(fit.mu()[1] * 0.6 + fit.mu()[2] * 0.8 > 0.9999);
    /// ```
    pub fn fit(samples: &[f64], dim: usize) -> Result<Self> {
        let resultant = mean_resultant(samples, dim)?;
        let kappa = kappa_mle(dim, resultant.rbar)?;
        Self::new(&resultant.direction, kappa)
    }

    /// `ln f(x) = ln C_M(κ) + κμᵀx` ([`log_density`]).
    ///
    /// # Errors
    ///
    /// [`Error::DimensionMismatch`] if `len(x) ≠ M`; [`Error::NotUnitVector`] /
    /// [`Error::NotFinite`] if `x` is not a finite unit vector.
    pub fn ln_pdf(&self, x: &[f64]) -> Result<f64> {
        log_density(x, self.mu(), self.kappa())
    }

    /// Differential entropy `−ln C_M(κ) − κA_M(κ)` w.r.t. the surface measure ([`entropy`]).
    pub fn entropy(&self) -> f64 {
        entropy(self.dim(), self.kappa())
    }

    /// `A_M(κ)`, the length of the mean ([`mean_resultant_length`]).
    pub fn mean_resultant_length(&self) -> f64 {
        mean_resultant_length(self.dim(), self.kappa())
    }

    /// The mean `E X = A_M(κ)μ`, which is not on the sphere (nivMF Supp. E uses `μ`; see
    /// [`kl_vmf_paper`](super::kl_vmf_paper)).
    pub fn mean(&self) -> Vec<f64> {
        let a = self.mean_resultant_length();
        self.mu().iter().map(|m| a * m).collect()
    }

    /// The natural parameter `ν = κμ` (the inverse of [`from_natural`](Self::from_natural)).
    pub fn natural(&self) -> Vec<f64> {
        self.mu().iter().map(|m| self.kappa() * m).collect()
    }

    /// `KL(self ‖ uniform on S^{M−1})` ([`kl_to_uniform`]).
    pub fn kl_to_uniform(&self) -> f64 {
        kl_to_uniform(self.dim(), self.kappa())
    }

    /// `KL(self ‖ other)` ([`kl_vmf`](super::kl_vmf)).
    ///
    /// # Errors
    ///
    /// [`Error::DimensionMismatch`] if the two laws live on spheres of different dimension.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::vmf::VonMisesFisher;
    /// let (a, b) = (1.0_f64.cos(), 1.0_f64.sin());
    /// let z = VonMisesFisher::new(&[1.0, 0.0, 0.0], 5.0).unwrap();
    /// let p = VonMisesFisher::new(&[a, b, 0.0], 2.0).unwrap();
    /// // nivMF Supp. E's example: 1.033723 by quadrature (the paper's formula gives 1.817246).
    /// assert!((z.kl(&p).unwrap() - 1.033723).abs() < 5e-7);
    /// assert_eq!(z.kl(&z).unwrap(), 0.0);
    /// ```
    pub fn kl(&self, other: &Self) -> Result<f64> {
        super::kl_vmf(self.mu(), self.kappa(), other.mu(), other.kappa())
    }

    /// The Bhattacharyya distance `−ln PPK_½` ([`bhattacharyya_distance`](super::bhattacharyya_distance)).
    ///
    /// # Errors
    ///
    /// [`Error::DimensionMismatch`] if the two laws live on spheres of different dimension.
    pub fn bhattacharyya(&self, other: &Self) -> Result<f64> {
        super::bhattacharyya_distance(&self.natural(), &other.natural())
    }
}
