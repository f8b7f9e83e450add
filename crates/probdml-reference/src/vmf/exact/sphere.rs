//! Integrals over the sphere `S^{M−1}` reduced to one or two angles (book chapter 06): the exact tool
//! behind the references of the vMF divergences (`nivmf::exact::kl_vmf`,
//! `nivmf::exact::log_ppk`) and the normalisation proofs of the nivMF density.
//!
//! # The two-coordinate reduction
//!
//! Let `μ₁, μ₂ ∈ S^{M−1}` and `F(s, t)` a function of the two projections `s = μ₁ᵀx`,
//! `t = μ₂ᵀx`. Pick an orthonormal pair `p, q` spanning a plane that contains `μ₁` and `μ₂`
//! (the *pole* `p` is free: put it where the integrand peaks), so that
//! `μᵢ = cos αᵢ p + sin αᵢ q`. Every `x ∈ S^{M−1}` is, for `M ≥ 3`,
//!
//! `x = cos θ p + sin θ (cos ψ q + sin ψ w)`,  `θ, ψ ∈ [0, π]`,  `w ∈ S^{M−3} ⟂ p, q`.
//!
//! Slicing the sphere at height `cos θ` along `p` leaves a sphere `S^{M−2}` of radius `sin θ`
//! (surface element `sin^{M−2}θ dθ dσ_{M−2}`); slicing that one along `q` at height `cos ψ`
//! leaves `S^{M−3}` of radius `sin ψ` (element `sin^{M−3}ψ dψ dσ_{M−3}`). `F` does not depend on
//! `w`, whose sphere contributes its area `|S^{M−3}| = 2π^{(M−2)/2}/Γ((M−2)/2)`:
//!
//! $$ \int_{S^{M-1}} F(\mu_1^\top x, \mu_2^\top x)\\,dx = |S^{M-3}| \int_0^\pi\\!\\!\int_0^\pi
//!    F(s, t)\\,\sin^{M-2}\theta\\,\sin^{M-3}\psi\\,d\psi\\,d\theta,\qquad
//!    s = \cos\theta\cos\alpha_1 + \sin\theta\cos\psi\sin\alpha_1 $$
//!
//! (and `t` with `α₂`). In the plane coordinates `(u, v) = (pᵀx, qᵀx)`, the same measure is
//! `|S^{M−3}| (1 − u² − v²)^{(M−4)/2} du dv` on the unit disc — the `(M−4)/2` weight of book chapter 06,
//! which is singular on the circle for `M = 3`; the angles make every case smooth.
//!
//! * **`M = 3`**: `S⁰ = {±1}`, `|S⁰| = 2`, the ψ-weight is 1: ordinary spherical coordinates
//!   with the azimuth folded onto `[0, π]` (`F` depends on `cos ψ` only).
//! * **`M = 4`**: `|S¹| = 2π`, weights `sin²θ sin ψ`.
//! * **`M = 2`**: the circle, no `w` and no ψ: `x = cos θ p + sin θ q`, `θ ∈ [−π, π]`,
//!   `∫_{S¹} F = ∫_{−π}^{π} F(cos(θ − α₁), cos(θ − α₂)) dθ`.
//!
//! Check of the constants: with `F = 1` the right-hand side is
//! `|S^{M−3}|·B(½, (M−1)/2)·B(½, (M−2)/2) = |S^{M−1}|`.
//!
//! # Peaked integrands in log space
//!
//! The integrands of chapter 06 are `e^{κ pᵀx}` times something mild, with `κ` up to `10⁴`
//! and `M` up to 512: `e^{κ}` overflows and `sin^{M−2}θ` underflows far from the mode. So the
//! integrand is written as a *tilt* `e^{κ(pᵀx − 1)}` times `h(s, t)`, and the θ-weight
//! `e^{φ(θ)}`, `φ(θ) = κ(cos θ − 1) + (M − 2) ln sin θ`, is evaluated relative to its mode `θ*`
//! (the vMF marginal kernel of `vmf::exact`, accurate to a few ulps relative near the mode).
//! [`SpherePair::integrate`] returns the *scaled* integral
//!
//! `V = ∫∫ e^{φ(θ) − φ(θ*)} h(s, t) sin^{M−3}ψ dψ dθ`, so that
//! `∫ e^{κ(pᵀx−1)} h dx = V · e^{log_scale}`, `log_scale = ln|S^{M−3}| + φ(θ*)`.
//!
//! Both angles are integrated by the crate's adaptive Gauss–Kronrod
//! ([`integrate_breakpoints`]), with breakpoints at the mode and at
//! a ladder `mode ± 2ᵏσ` (`σ` the width of the peak) so that no peak hides between nodes: θ
//! around `θ*`, ψ around `π/2` (the mode of `sin^{M−3}ψ`, width `(M − 3)^{−1/2}`). The inner
//! ψ-integral is asked for a tenth of the outer relative tolerance (but at least `2.5·10⁻¹⁴`,
//! above the driver's rounding floor) and for `absolute/(2πw(θ))`, `w(θ) ≤ 1` the θ-weight; on
//! an interval of length π the inner errors then add at most half the outer absolute target.
//!
//! [`integrate_s2`] and [`integrate_circle`] integrate a general function of `x` on `S²` and
//! `S¹` (the nivMF density is not a function of two projections), in the same coordinates.

use super::marginal::{ladder, Kernel};
use super::sphere_area::log_sphere_area;
use crate::error::{require_finite, require_nonnegative, require_sphere_dim, Error, Result};
use crate::quadrature::{integrate_breakpoints, Estimate, Tolerance};
use std::f64::consts::{FRAC_PI_2, PI};

/// The inner (ψ) integral is asked for this fraction of the outer tolerance…
const INNER_SHARE: f64 = 0.1;
/// …but never for less than this relative accuracy: the Gauss–Kronrod driver's rounding floor is
/// `50ε ≈ 1.1·10⁻¹⁴` of `∫|f|` (see the parent module).
const INNER_RELATIVE_MIN: f64 = 2.5e-14;

/// Two unit vectors `μᵢ = cos αᵢ p + sin αᵢ q` in the plane of a pole `p`, and a tilt
/// `e^{κ(pᵀx − 1)}`: the frame of the two-coordinate reduction (module docs).
#[derive(Debug, Clone)]
pub struct SpherePair {
    dim: usize,
    cos1: f64,
    sin1: f64,
    cos2: f64,
    sin2: f64,
    alpha1: f64,
    alpha2: f64,
    kappa: f64,
    kernel: Kernel,
    log_scale: f64,
    theta_points: Vec<f64>,
    psi_points: Vec<f64>,
}

impl SpherePair {
    /// The frame on `S^{M−1}` for vectors at angles `alpha1`, `alpha2` (radians, measured from
    /// the pole towards `q`) and a tilt of concentration `kappa ≥ 0` along the pole.
    ///
    /// # Formula
    ///
    /// $$ \int_{S^{M-1}} e^{\kappa(p^\top x - 1)} h(\mu_1^\top x, \mu_2^\top x)\\,dx =
    ///    e^{\lambda} \int_0^\pi\\!\\!\int_0^\pi e^{\varphi(\theta)-\varphi(\theta_0)}
    ///    h(s,t)\\,\sin^{M-3}\psi\\,d\psi\\,d\theta $$
    ///
    /// with `φ(θ) = κ(cos θ − 1) + (M−2) ln sin θ`, `θ₀` its mode and
    /// `λ = log_scale = ln|S^{M−3}| + φ(θ₀)` (book chapter 06; module docs for `M = 2`).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidDimension`] for `dim < 2`; [`Error::NotFinite`] for a non-finite angle;
    /// [`Error::OutOfDomain`] for `kappa` negative (or [`Error::NotFinite`] for NaN, ∞).
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::quadrature::Tolerance;
    /// use probdml::vmf::exact::sphere::SpherePair;
    /// // The area of S⁷ (M = 8) is π⁴/3: integrate h = 1 with no tilt.
    /// let frame = SpherePair::new(8, 0.0, 1.0, 0.0).unwrap();
    /// let est = frame.integrate(|_, _, _| 1.0, Tolerance::relative(1e-13)).unwrap();
    /// let area = est.value * frame.log_scale().exp();
    /// assert!((area / (std::f64::consts::PI.powi(4) / 3.0) - 1.0).abs() < 1e-13);
    /// ```
    pub fn new(dim: usize, alpha1: f64, alpha2: f64, kappa: f64) -> Result<Self> {
        require_sphere_dim("dim", dim)?;
        require_finite("alpha1", alpha1)?;
        require_finite("alpha2", alpha2)?;
        require_nonnegative("kappa", kappa)?;
        let kernel = Kernel::at_peak(dim, kappa);
        let (theta_points, psi_points, log_scale) = if dim == 2 {
            let mut points = vec![-PI, PI];
            points.extend(ladder(2, kappa, -PI, PI));
            for &t in ladder(2, kappa, 0.0, PI).iter() {
                points.push(-t);
            }
            points.push(0.0);
            (sorted(points), Vec::new(), kernel.offset())
        } else {
            let mut theta = vec![0.0, PI];
            theta.extend(ladder(dim, kappa, 0.0, PI));
            let mut psi = vec![0.0, PI];
            if dim > 3 {
                psi.push(FRAC_PI_2);
                let sigma = 1.0 / ((dim - 3) as f64).sqrt();
                for k in -2..=6 {
                    let d = sigma * 2f64.powi(k);
                    for p in [FRAC_PI_2 - d, FRAC_PI_2 + d] {
                        if p > 0.0 && p < PI {
                            psi.push(p);
                        }
                    }
                }
            }
            (
                sorted(theta),
                sorted(psi),
                log_sphere_area(dim - 2) + kernel.offset(),
            )
        };
        Ok(Self {
            dim,
            cos1: alpha1.cos(),
            sin1: alpha1.sin(),
            cos2: alpha2.cos(),
            sin2: alpha2.sin(),
            alpha1,
            alpha2,
            kappa,
            kernel,
            log_scale,
            theta_points,
            psi_points,
        })
    }

    /// `log_scale = ln|S^{M−3}| + φ(θ*)` (`φ(θ*)` alone for `M = 2`): the true integral is the
    /// scaled value times `e^{log_scale}`.
    pub fn log_scale(&self) -> f64 {
        self.log_scale
    }

    /// The dimension `M`.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The tilt's concentration `κ`.
    pub fn kappa(&self) -> f64 {
        self.kappa
    }

    /// The scaled integral `V = e^{−log_scale} ∫_{S^{M−1}} e^{κ(pᵀx − 1)} h(μ₁ᵀx, μ₂ᵀx, pᵀx) dx`
    /// of a finite `h`, to `tol` (which applies to `V`).
    ///
    /// `h` receives `(s, t, c) = (μ₁ᵀx, μ₂ᵀx, pᵀx)`. The third is a function of the first two
    /// (the pole lies in their plane), passed so that a caller can divide its integrand by the
    /// tilt `e^{κ(c − 1)}` without solving for `c`.
    ///
    /// # Formula
    ///
    /// See [`SpherePair::new`] and the module docs.
    ///
    /// # Errors
    ///
    /// Those of [`integrate_breakpoints`]: an invalid tolerance, a
    /// non-finite value of `h`, or no convergence.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::quadrature::Tolerance;
    /// use probdml::vmf::exact::sphere::SpherePair;
    /// // E[μ₁ᵀx] under the uniform law on S² is 0 and E[(μ₁ᵀx)(μ₂ᵀx)] = μ₁ᵀμ₂/3.
    /// let frame = SpherePair::new(3, 0.3, 1.2, 0.0).unwrap();
    /// let area = 4.0 * std::f64::consts::PI;
    /// let tol = Tolerance { absolute: 1e-14, relative: 1e-13 };
    /// let m = frame.integrate(|s, t, _| s * t, tol).unwrap().value * frame.log_scale().exp() / area;
    /// assert!((m - (0.9f64).cos() / 3.0).abs() < 1e-13);
    /// ```
    pub fn integrate<F: FnMut(f64, f64, f64) -> f64>(
        &self,
        mut h: F,
        tol: Tolerance,
    ) -> Result<Estimate> {
        if self.dim == 2 {
            let kernel = self.kernel;
            let (a1, a2) = (self.alpha1, self.alpha2);
            return integrate_breakpoints(
                |theta| {
                    kernel.relative(theta).exp()
                        * h((theta - a1).cos(), (theta - a2).cos(), theta.cos())
                },
                &self.theta_points,
                tol,
            );
        }
        let inner_relative = (INNER_SHARE * tol.relative).max(INNER_RELATIVE_MIN);
        let weight_power = (self.dim - 3) as i32;
        let mut inner_results = InnerResults::default();
        let outer = integrate_breakpoints(
            |theta| {
                if inner_results.failed() {
                    return 0.0;
                }
                let w = self.kernel.relative(theta).exp();
                if w == 0.0 {
                    return 0.0;
                }
                let (st, ct) = theta.sin_cos();
                // The inner error is multiplied by w ≤ 1 in the outer integral: an absolute
                // error of absolute/(2πw) at this θ costs at most absolute/(2π) there.
                let inner_tol = Tolerance {
                    absolute: (0.5 * tol.absolute / (PI * w)).min(f64::MAX),
                    relative: inner_relative,
                };
                let inner = integrate_breakpoints(
                    |psi| {
                        let (sp, cp) = psi.sin_cos();
                        let radial = st * cp;
                        let s = ct * self.cos1 + radial * self.sin1;
                        let t = ct * self.cos2 + radial * self.sin2;
                        h(s, t, ct) * sp.powi(weight_power)
                    },
                    &self.psi_points,
                    inner_tol,
                );
                inner_results.weigh(inner, w)
            },
            &self.theta_points,
            tol,
        );
        inner_results.finish(outer)
    }
}

/// The inner integrals of a nested quadrature: their evaluations, and the first failure (after
/// which the outer integrand returns 0 and the failure is reported).
#[derive(Default)]
struct InnerResults {
    failure: Option<Error>,
    evaluations: usize,
}

impl InnerResults {
    fn failed(&self) -> bool {
        self.failure.is_some()
    }

    /// `weight × inner value`, recording the evaluations or the failure.
    fn weigh(&mut self, inner: Result<Estimate>, weight: f64) -> f64 {
        match inner {
            Ok(est) => {
                self.evaluations += est.evaluations;
                weight * est.value
            }
            Err(e) => {
                self.failure = Some(e);
                0.0
            }
        }
    }

    /// The outer estimate with the total count of integrand evaluations, or the first failure.
    fn finish(self, outer: Result<Estimate>) -> Result<Estimate> {
        if let Some(e) = self.failure {
            return Err(e);
        }
        let mut est = outer?;
        est.evaluations = self.evaluations;
        Ok(est)
    }
}

fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(f64::total_cmp);
    v.dedup();
    v
}

/// Breakpoints on `[0, π]` around the pole for a peak of concentration `kappa` (width
/// `κ^{−1/2}`), plus the ends.
fn polar_points(kappa: f64) -> Vec<f64> {
    let mut points = vec![0.0, PI];
    if kappa > 0.0 {
        let sigma = kappa.sqrt().recip();
        for k in -3..=60 {
            let d = sigma * 2f64.powi(k);
            if d >= PI {
                break;
            }
            points.push(d);
        }
    }
    sorted(points)
}

/// `∫_{S²} f(x) dx` for a finite `f`, in spherical coordinates about the unit `pole`, with
/// breakpoints for a peak of concentration `kappa` at the pole.
///
/// # Formula
///
/// $$ \int_{S^2} f\\,dx = \int_0^\pi \sin\theta \int_0^{2\pi}
///    f(\cos\theta\\,p + \sin\theta(\cos\phi\\,q + \sin\phi\\,r))\\,d\phi\\,d\theta $$
///
/// with `(p, q, r)` a right-handed orthonormal frame (book chapter 06).
///
/// # Errors
///
/// [`Error::NotUnitVector`] if `|‖pole‖ − 1| > 10⁻¹²`; [`Error::OutOfDomain`] for `kappa < 0`;
/// the errors of [`integrate_breakpoints`].
///
/// # Examples
///
/// ```
/// use probdml::quadrature::Tolerance;
/// use probdml::vmf::exact::sphere::integrate_s2;
/// // ∫_{S²} x₃² dx = 4π/3.
/// let est = integrate_s2([0.0, 0.0, 1.0], 0.0, |x| x[2] * x[2], Tolerance::relative(1e-13)).unwrap();
/// assert!((est.value - 4.0 * std::f64::consts::PI / 3.0).abs() < 1e-13);
/// ```
pub fn integrate_s2<F: FnMut([f64; 3]) -> f64>(
    pole: [f64; 3],
    kappa: f64,
    mut f: F,
    tol: Tolerance,
) -> Result<Estimate> {
    require_nonnegative("kappa", kappa)?;
    let p = unit_pole(&pole)?;
    // q: the unit vector orthogonal to p built from the axis least aligned with p.
    let axis = (0..3)
        .min_by(|&i, &j| p[i].abs().total_cmp(&p[j].abs()))
        .unwrap_or(0);
    let mut e = [0.0; 3];
    e[axis] = 1.0;
    let d = p[0] * e[0] + p[1] * e[1] + p[2] * e[2];
    let mut q = [e[0] - d * p[0], e[1] - d * p[1], e[2] - d * p[2]];
    let nq = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2]).sqrt();
    q.iter_mut().for_each(|v| *v /= nq);
    let r = [
        p[1] * q[2] - p[2] * q[1],
        p[2] * q[0] - p[0] * q[2],
        p[0] * q[1] - p[1] * q[0],
    ];
    let inner_tol = Tolerance {
        absolute: 0.5 * tol.absolute / PI,
        relative: (INNER_SHARE * tol.relative).max(INNER_RELATIVE_MIN),
    };
    let phi_points = [0.0, FRAC_PI_2, PI, 1.5 * PI, 2.0 * PI];
    let mut inner_results = InnerResults::default();
    let outer = integrate_breakpoints(
        |theta| {
            if inner_results.failed() {
                return 0.0;
            }
            let (st, ct) = theta.sin_cos();
            let inner = integrate_breakpoints(
                |phi| {
                    let (sp, cp) = phi.sin_cos();
                    let (a, b) = (st * cp, st * sp);
                    f([
                        ct * p[0] + a * q[0] + b * r[0],
                        ct * p[1] + a * q[1] + b * r[1],
                        ct * p[2] + a * q[2] + b * r[2],
                    ])
                },
                &phi_points,
                inner_tol,
            );
            inner_results.weigh(inner, st)
        },
        &polar_points(kappa),
        tol,
    );
    inner_results.finish(outer)
}

/// `∫_{S¹} f(x) dx` for a finite `f`, by the angle from the unit `pole`, with breakpoints for a
/// peak of concentration `kappa` there.
///
/// # Formula
///
/// $$ \int_{S^1} f\\,dx = \int_{-\pi}^{\pi} f(\cos\theta\\,p + \sin\theta\\,p^\perp)\\,d\theta,\qquad
///    p^\perp = (-p_2, p_1) $$
///
/// # Errors
///
/// As [`integrate_s2`].
///
/// # Examples
///
/// ```
/// use probdml::quadrature::Tolerance;
/// use probdml::vmf::exact::sphere::integrate_circle;
/// // ∫_{S¹} e^{2x₁} dx = 2π I₀(2) = 2π · 2.2795853023360673.
/// let est = integrate_circle([1.0, 0.0], 2.0, |x| (2.0 * x[0]).exp(), Tolerance::relative(1e-13))
///     .unwrap();
/// assert!((est.value / (2.0 * std::f64::consts::PI * 2.2795853023360673) - 1.0).abs() < 1e-13);
/// ```
pub fn integrate_circle<F: FnMut([f64; 2]) -> f64>(
    pole: [f64; 2],
    kappa: f64,
    mut f: F,
    tol: Tolerance,
) -> Result<Estimate> {
    require_nonnegative("kappa", kappa)?;
    let p = unit_pole(&pole)?;
    let mut points: Vec<f64> = polar_points(kappa);
    let negatives: Vec<f64> = points.iter().map(|t| -t).collect();
    points.extend(negatives);
    integrate_breakpoints(
        |theta| {
            let (s, c) = theta.sin_cos();
            f([c * p[0] - s * p[1], c * p[1] + s * p[0]])
        },
        &sorted(points),
        tol,
    )
}

/// The pole, renormalised, after checking it is unit to `10⁻¹²`.
fn unit_pole<const N: usize>(pole: &[f64; N]) -> Result<[f64; N]> {
    for &v in pole {
        require_finite("pole", v)?;
    }
    let norm = pole.iter().map(|v| v * v).sum::<f64>().sqrt();
    if (norm - 1.0).abs() > 1e-12 {
        return Err(Error::NotUnitVector {
            arg: "pole",
            norm,
            tolerance: 1e-12,
        });
    }
    let mut p = *pole;
    p.iter_mut().for_each(|v| *v /= norm);
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vmf::exact::log_norm_const;

    #[test]
    fn areas_for_every_small_dimension() {
        for dim in 2..=12usize {
            let frame = SpherePair::new(dim, 0.4, 2.0, 0.0).unwrap();
            let est = frame
                .integrate(|_, _, _| 1.0, Tolerance::relative(1e-13))
                .unwrap();
            let ln_area = est.value.ln() + frame.log_scale();
            assert!(
                (ln_area - log_sphere_area(dim)).abs() < 1e-13,
                "M = {dim}: {ln_area} vs {}",
                log_sphere_area(dim)
            );
        }
    }

    #[test]
    fn vmf_mass_with_a_tilt() {
        // ∫ e^{κ(pᵀx − 1)} dx = e^{−κ}/C_M(κ).
        for &(dim, kappa) in &[(2usize, 5.0), (3, 50.0), (64, 1e3), (512, 1e4), (512, 1e-3)] {
            let frame = SpherePair::new(dim, 0.0, 1.0, kappa).unwrap();
            let est = frame
                .integrate(|_, _, _| 1.0, Tolerance::relative(1e-13))
                .unwrap();
            let got = est.value.ln() + frame.log_scale();
            let want = -kappa - log_norm_const(dim, kappa);
            assert!(
                (got - want).abs() < 1e-12 * want.abs().max(1.0),
                "M = {dim}, κ = {kappa}"
            );
        }
    }
}
