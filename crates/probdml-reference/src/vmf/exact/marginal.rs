//! The law of the cosine `t = μᵀX` under `X ~ vMF(μ, κ)` on `S^{M−1}`, by quadrature.
//!
//! Slicing the sphere at height `t = cos θ` gives a copy of `S^{M−2}` of radius `sin θ`, so
//! (Wood 1994 eq. 2)
//!
//! $$ \int_{S^{M-1}} h(\mu^\top x)\\,dx = |S^{M-2}| \int_0^\pi h(\cos\theta)\\,\sin^{M-2}\theta\\,d\theta . $$
//!
//! In the angle `θ` the density `∝ e^{κ cos θ} sin^{M−2} θ` is smooth for every `M ≥ 2` (in
//! `t` it has the endpoint singularity `(1 − t²)^{−1/2}` at `M = 2`). It is integrated in log
//! space as `exp(φ(θ) − max φ)` with `φ(θ) = −2κ sin²(θ/2) + (M−2) ln sin θ`, which is the
//! exponent `κ(cos θ − 1)` written without cancellation, so that nothing overflows at
//! `κ = 10⁵` and `1 − A_M(κ) = E[2 sin²(θ/2)]` keeps its relative accuracy for any `κ`.
//!
//! Nothing here calls a Bessel function: this is the independent reference against which the
//! closed forms `ln C_M`, `A_M`, the entropy and the KL divergence are checked.

use super::quadrature::{gauss_legendre, integrate_log, Integral};
use crate::compensated::Neumaier;
use crate::error::{require_nonnegative, require_sphere_dim, Result};
use std::f64::consts::PI;

/// The log kernel `φ(θ) = κ(cos θ − 1) + (M−2) ln sin θ`, evaluated *relative to a reference
/// angle* `θ_r` (normally its mode):
///
/// `φ(θ) − φ(θ_r) = −2κ sin((θ−θ_r)/2) sin((θ+θ_r)/2) + (M−2) ln(1 + 2cos((θ+θ_r)/2) sin((θ−θ_r)/2)/sin θ_r)`.
///
/// Both pieces are products of small, accurately computed factors near `θ_r`, so the integrand
/// `exp(φ − φ(θ_r))` has relative error ~`2⁻⁵³` where it matters. Evaluating `φ` itself and
/// subtracting would not do: at `M = 2048`, `κ = 10⁵`, `φ ≈ −4500` carries an absolute rounding
/// error of ~`10⁻¹²`, which becomes a relative error of the integrand and shows in `1 − A_M`.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub struct Kernel {
    dim: usize,
    kappa: f64,
    theta_r: f64,
    sin_r: f64,
    ln_sin_r: f64,
    phi_r: f64,
}

impl Kernel {
    /// The kernel relative to `θ_r` (with `sin θ_r > 0` when `M > 2`).
    #[doc(hidden)]
    pub fn new(dim: usize, kappa: f64, theta_r: f64) -> Self {
        let sin_r = theta_r.sin();
        let ln_sin_r = sin_r.ln();
        let h = (0.5 * theta_r).sin();
        let phi_r = if dim == 2 {
            -2.0 * kappa * h * h
        } else {
            -2.0 * kappa * h * h + (dim - 2) as f64 * ln_sin_r
        };
        Self {
            dim,
            kappa,
            theta_r,
            sin_r,
            ln_sin_r,
            phi_r,
        }
    }

    /// The kernel relative to its mode (`θ* = 0` for `M = 2`).
    #[doc(hidden)]
    pub fn at_peak(dim: usize, kappa: f64) -> Self {
        let theta_r = match peak(dim, kappa) {
            Some((theta, _)) => theta,
            None if dim == 2 => 0.0,
            None => std::f64::consts::FRAC_PI_2,
        };
        Self::new(dim, kappa, theta_r)
    }

    /// `φ(θ_r)`.
    #[doc(hidden)]
    pub fn offset(&self) -> f64 {
        self.phi_r
    }

    /// `φ(θ) − φ(θ_r)`.
    #[inline]
    #[doc(hidden)]
    pub fn relative(&self, theta: f64) -> f64 {
        let half_diff = 0.5 * (theta - self.theta_r);
        let half_sum = 0.5 * (theta + self.theta_r);
        let sd = half_diff.sin();
        // sin²(θ/2) − sin²(θ_r/2) = sin((θ−θ_r)/2) sin((θ+θ_r)/2).
        let exponent = -2.0 * self.kappa * sd * half_sum.sin();
        if self.dim == 2 {
            return exponent;
        }
        // sin θ / sin θ_r − 1 = 2 cos((θ+θ_r)/2) sin((θ−θ_r)/2) / sin θ_r.
        let q = 2.0 * half_sum.cos() * sd / self.sin_r;
        let ln_ratio = if q > -0.5 {
            q.ln_1p()
        } else {
            theta.sin().ln() - self.ln_sin_r
        };
        exponent + (self.dim - 2) as f64 * ln_ratio
    }
}

/// The mode `θ*` of `φ` and the width `σ = (−φ''(θ*))^{−1/2}`, as quadrature hints.
///
/// `κ sin² θ = (M−2) cos θ` at the mode, so `cos θ* = 2κ / ((M−2) + √((M−2)² + 4κ²))`.
#[doc(hidden)]
pub fn peak(dim: usize, kappa: f64) -> Option<(f64, f64)> {
    if dim == 2 {
        return (kappa > 0.0).then(|| (0.0, kappa.sqrt().recip()));
    }
    let m2 = (dim - 2) as f64;
    let root = m2.hypot(2.0 * kappa);
    let den = m2 + root;
    let c = 2.0 * kappa / den;
    // 1 − c = (m2 + root − 2κ)/den, with root − 2κ = m2²/(root + 2κ).
    let one_minus_c = (m2 + m2 * m2 / (root + 2.0 * kappa)) / den;
    let s2 = one_minus_c * (1.0 + c);
    let theta = s2.sqrt().atan2(c);
    let curvature = kappa * c + m2 / s2;
    Some((theta, curvature.sqrt().recip()))
}

/// Hints for [`integrate_log`]: the peak and a ladder of peak ± 2ᵏσ inside `[lo, hi]`.
#[doc(hidden)]
pub fn ladder(dim: usize, kappa: f64, lo: f64, hi: f64) -> Vec<f64> {
    let mut hints = Vec::new();
    if let Some((theta, sigma)) = peak(dim, kappa) {
        hints.push(theta);
        for k in -3..=60 {
            let d = sigma * 2f64.powi(k);
            for h in [theta - d, theta + d] {
                if h > lo && h < hi {
                    hints.push(h);
                }
            }
            if d > hi - lo {
                break;
            }
        }
    }
    hints
}

/// `ln ∫_0^π g(θ) e^{φ(θ) − φ(θ*)} dθ` for a positive weight `g` given as `ln g`, relative to the
/// same offset `φ(θ*)` as [`CosineMarginal`]'s table, so that ratios of moments never pass
/// through the large number `φ(θ*)` (≈ −5000 at `M = 2048`, `κ = 10⁵`, where one ulp of it is
/// `10⁻¹²` of a ratio).
fn log_moment_relative<G: Fn(f64) -> f64>(kernel: &Kernel, dim: usize, kappa: f64, ln_g: G) -> f64 {
    let hints = ladder(dim, kappa, 0.0, PI);
    integrate_log(|t| ln_g(t) + kernel.relative(t), 0.0, PI, &hints).log_value()
}

/// The distribution of `t = μᵀX`, `X ~ vMF(μ, κ)` on `S^{M−1}`, tabulated by adaptive
/// quadrature in the angle `θ = arccos t`: the exact reference for the samplers and for the
/// closed forms of chapter 02.
///
/// # Formula
///
/// $$ p(t) = |S^{M-2}|\\, C_M(\kappa)\\, e^{\kappa t} (1-t^2)^{(M-3)/2},\qquad t\in[-1,1] $$
///
/// (Wood 1994, eq. 2). Construction costs a few thousand evaluations of
/// `e^{κ cos θ} sin^{M−2} θ`; [`cdf`](Self::cdf) and [`quantile`](Self::quantile) then cost a
/// binary search plus one or a few 20-point Gauss–Legendre panels.
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::CosineMarginal;
/// // M = 3: t is exponential-like, P(t ≤ x) = (e^{κx} − e^{−κ}) / (e^{κ} − e^{−κ}).
/// let law = CosineMarginal::new(3, 2.0).unwrap();
/// let want = ((2.0_f64 * 0.5).exp() - (-2.0_f64).exp()) / (2.0_f64.exp() - (-2.0_f64).exp());
/// assert!((law.cdf(0.5) - want).abs() < 1e-14);
/// // Its mean is A_3(κ) = coth κ − 1/κ.
/// assert!((law.mean() - (1.0 / 2.0_f64.tanh() - 0.5)).abs() < 1e-14);
/// ```
#[derive(Debug, Clone)]
pub struct CosineMarginal {
    dim: usize,
    kappa: f64,
    kernel: Kernel,
    integral: Integral,
    cumulative: Vec<f64>,
}

/// The largest κ the reference quadrature accepts (beyond it the exact twins return NaN or an
/// error; the fast twins have no such limit).
pub const KAPPA_MAX: f64 = 1e300;

impl CosineMarginal {
    /// Tabulates the law for `M = dim ≥ 2`, `0 ≤ κ ≤` [`KAPPA_MAX`].
    ///
    /// # Errors
    ///
    /// [`crate::Error::InvalidDimension`] for `dim < 2`; [`crate::Error::NotFinite`] or
    /// [`crate::Error::OutOfDomain`] for `κ` NaN, infinite or negative, or above
    /// [`KAPPA_MAX`] (where the angular scale 1/√κ of the peak leaves the range the
    /// quadrature's panels can resolve).
    pub fn new(dim: usize, kappa: f64) -> Result<Self> {
        require_sphere_dim("dim", dim)?;
        require_nonnegative("kappa", kappa)?;
        if kappa > KAPPA_MAX {
            return Err(crate::Error::OutOfDomain {
                arg: "kappa",
                value: kappa,
                rule: "the reference quadrature covers κ ≤ 1e300",
            });
        }
        let hints = ladder(dim, kappa, 0.0, PI);
        let kernel = Kernel::at_peak(dim, kappa);
        let integral = integrate_log(|t| kernel.relative(t), 0.0, PI, &hints);
        let mut cumulative = Vec::with_capacity(integral.panels.len() + 1);
        let mut acc = Neumaier::new();
        cumulative.push(0.0);
        for p in &integral.panels {
            acc.add(p.value);
            cumulative.push(acc.total());
        }
        Ok(Self {
            dim,
            kappa,
            kernel,
            integral,
            cumulative,
        })
    }

    /// `M`.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// `κ`.
    pub fn kappa(&self) -> f64 {
        self.kappa
    }

    fn total(&self) -> f64 {
        *self.cumulative.last().expect("at least one panel")
    }

    /// `ln C_M(κ)` by quadrature: minus the log of `∫_{S^{M−1}} e^{κ μᵀx} dx`.
    ///
    /// # Formula
    ///
    /// $$ \ln C_M(\kappa) = -\ln|S^{M-2}| - \kappa - \ln\int_0^\pi e^{\kappa(\cos\theta-1)}\sin^{M-2}\theta\\,d\theta $$
    pub fn log_norm_const(&self) -> f64 {
        let ln_area = super::sphere_area::log_sphere_area(self.dim - 1);
        // ln ∫ e^{φ} = φ(θ_r) + shift + ln(total), and φ = κ(cos θ − 1) + ….
        let mut acc = Neumaier::new();
        acc.add(-ln_area);
        acc.add(-self.kappa);
        acc.add(-self.kernel.offset());
        acc.add(-self.integral.shift);
        acc.add(-self.total().ln());
        acc.total()
    }

    /// `ln ∫_0^π e^{κ(cos θ − 1)} sin^{M−2} θ dθ`.
    #[doc(hidden)]
    pub fn log_reduced_mass(&self) -> f64 {
        self.kernel.offset() + self.integral.log_value()
    }

    /// `∫_0^θ e^{φ} / ∫_0^π e^{φ}`, the probability that the angle to `μ` is at most `θ`.
    pub fn cdf_angle(&self, theta: f64) -> f64 {
        if theta.is_nan() {
            return f64::NAN;
        }
        if theta <= 0.0 {
            return 0.0;
        }
        if theta >= PI {
            return 1.0;
        }
        let panels = &self.integral.panels;
        let i = panels
            .partition_point(|p| p.b <= theta)
            .min(panels.len() - 1);
        let p = panels[i];
        let partial = if theta <= p.a {
            0.0
        } else {
            gauss_legendre(
                &|t| self.kernel.relative(t),
                self.integral.shift,
                p.a,
                theta,
            )
        };
        ((self.cumulative[i] + partial) / self.total()).clamp(0.0, 1.0)
    }

    /// `P(μᵀX ≤ t)`.
    ///
    /// # Formula
    ///
    /// $$ F(t) = \int_{\arccos t}^{\pi} e^{\kappa\cos\theta}\sin^{M-2}\theta\\,d\theta \Big/ \int_0^\pi e^{\kappa\cos\theta}\sin^{M-2}\theta\\,d\theta $$
    pub fn cdf(&self, t: f64) -> f64 {
        if t.is_nan() {
            return f64::NAN;
        }
        if t >= 1.0 {
            return 1.0;
        }
        if t <= -1.0 {
            return 0.0;
        }
        1.0 - self.cdf_angle(angle_of_cosine(t))
    }

    /// The angle `θ ∈ [0, π]` with `P(angle ≤ θ) = p`, by safeguarded Newton on the tabulated
    /// cumulative integral (the derivative is the integrand itself).
    pub fn quantile_angle(&self, p: f64) -> f64 {
        if p.is_nan() {
            return f64::NAN;
        }
        if p <= 0.0 {
            return 0.0;
        }
        if p >= 1.0 {
            return PI;
        }
        let target = p * self.total();
        let i = self
            .cumulative
            .partition_point(|&c| c <= target)
            .clamp(1, self.integral.panels.len())
            - 1;
        let panel = self.integral.panels[i];
        let need = target - self.cumulative[i];
        let ln_f = |t: f64| self.kernel.relative(t);
        let shift = self.integral.shift;
        let (mut lo, mut hi) = (panel.a, panel.b);
        let mut x = panel.a + (panel.b - panel.a) * (need / panel.value).clamp(0.0, 1.0);
        for _ in 0..200 {
            let g = gauss_legendre(&ln_f, shift, panel.a, x) - need;
            if g > 0.0 {
                hi = x;
            } else {
                lo = x;
            }
            let density = (ln_f(x) - shift).exp();
            let mut next = x - g / density;
            if !(next > lo && next < hi) {
                next = 0.5 * (lo + hi);
            }
            if next == x || hi <= lo || (hi - lo) <= 2.0 * f64::EPSILON * hi.abs() {
                x = next;
                break;
            }
            x = next;
        }
        x
    }

    /// The `p`-quantile of `t = μᵀX`: `cos` of the `(1 − p)`-quantile of the angle.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::vmf::exact::CosineMarginal;
    /// // M = 3, κ = 0: t is uniform on [−1, 1] (Archimedes), so the p-quantile is 2p − 1.
    /// let law = CosineMarginal::new(3, 0.0).unwrap();
    /// assert!((law.quantile(0.75) - 0.5).abs() < 1e-14);
    /// ```
    pub fn quantile(&self, p: f64) -> f64 {
        self.quantile_angle(1.0 - p).cos()
    }

    /// `1 − A_M(κ) = E[1 − μᵀX] = E[2 sin²(θ/2)]`, relatively accurate for every `κ`.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::vmf::exact::CosineMarginal;
    /// // M = 3: 1 − A_3(κ) = 1/κ − (coth κ − 1) = 1/κ to e^{−2κ} at κ = 10⁶.
    /// let law = CosineMarginal::new(3, 1e6).unwrap();
    /// assert!((law.mean_complement() / 1e-6 - 1.0).abs() < 1e-14);
    /// ```
    pub fn mean_complement(&self) -> f64 {
        let ln_num = log_moment_relative(&self.kernel, self.dim, self.kappa, |t| {
            let h = (0.5 * t).sin();
            (2.0 * h * h).ln()
        });
        (ln_num - self.integral.log_value()).exp()
    }

    /// `A_M(κ) = E[μᵀX]`. For `A ≤ ½` the integral is folded onto `[0, π/2]`, where the
    /// integrand `2 cos θ sinh(κ cos θ) sin^{M−2} θ` is positive (no cancellation between the
    /// two hemispheres as `κ → 0`); otherwise `1 −` [`mean_complement`](Self::mean_complement).
    pub fn mean(&self) -> f64 {
        let complement = self.mean_complement();
        if complement < 0.5 {
            return 1.0 - complement;
        }
        if self.kappa == 0.0 {
            return 0.0;
        }
        let (dim, kappa, kernel) = (self.dim, self.kappa, self.kernel);
        // e^{−κ}·2 sinh(κ cos θ)·sin^{M−2}θ = (1 − e^{−2κ cos θ})·e^{φ(θ)}, relative to φ(θ*).
        let ln_num = integrate_log(
            |t| {
                let c = t.cos();
                c.ln() + (-(-2.0 * kappa * c).exp_m1()).ln() + kernel.relative(t)
            },
            0.0,
            0.5 * PI,
            &ladder(dim, kappa, 0.0, 0.5 * PI),
        )
        .log_value();
        (ln_num - self.integral.log_value()).exp()
    }

    /// `Var[μᵀX] = E[(s − E s)²]`, `s = 2 sin²(θ/2)`, integrated directly (no `E[s²] − E[s]²`
    /// cancellation). Equals `A_M'(κ) = 1 − A² − (M−1)A/κ`.
    pub fn variance(&self) -> f64 {
        let mean_s = self.mean_complement();
        let ln_num = log_moment_relative(&self.kernel, self.dim, self.kappa, |t| {
            let h = (0.5 * t).sin();
            let d = 2.0 * h * h - mean_s;
            (d * d).ln()
        });
        (ln_num - self.integral.log_value()).exp()
    }
}

/// `ln(2 sinh x)` for `x ≥ 0` without overflow: `x + ln(1 − e^{−2x})`.
#[doc(hidden)]
pub fn log_two_sinh(x: f64) -> f64 {
    x + (-(-2.0 * x).exp_m1()).ln()
}

/// `arccos t` accurately near `t = ±1`, where `1 ∓ t` is exact (Sterbenz) and
/// `arccos t = 2 arcsin √((1 − t)/2)`.
#[doc(hidden)]
pub fn angle_of_cosine(t: f64) -> f64 {
    if t > 0.5 {
        2.0 * (0.5 * (1.0 - t)).sqrt().asin()
    } else if t < -0.5 {
        PI - 2.0 * (0.5 * (1.0 + t)).sqrt().asin()
    } else {
        t.acos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn m3_closed_forms() {
        // M = 3: C_3(κ) = κ / (4π sinh κ), A_3(κ) = coth κ − 1/κ.
        for &k in &[1e-3_f64, 0.1, 1.0, 10.0, 100.0, 1e3, 1e5] {
            let law = CosineMarginal::new(3, k).unwrap();
            let ln_c = k.ln() - (4.0 * PI).ln() - (k + (-(-2.0 * k).exp_m1()).ln() - 2f64.ln());
            assert!(
                (law.log_norm_const() - ln_c).abs() <= 1e-14 * ln_c.abs().max(1.0),
                "κ={k}"
            );
            // coth κ − 1/κ cancels for small κ; use its series there.
            let a = if k < 0.1 {
                k / 3.0 - k.powi(3) / 45.0 + 2.0 * k.powi(5) / 945.0
            } else {
                1.0 / k.tanh() - 1.0 / k
            };
            let rel = (law.mean() - a).abs() / a;
            assert!(rel < 1e-13, "κ={k}: mean {} vs {a} ({rel:e})", law.mean());
            // 1 − A_3(κ) = 1 − coth κ + 1/κ; at κ ≥ 10 coth κ − 1 = 2e^{−2κ}/(1 − e^{−2κ}).
            let coth_minus_1 = 2.0 * (-2.0 * k).exp() / (-(-2.0 * k).exp_m1());
            let comp = 1.0 / k - coth_minus_1;
            let rel = (law.mean_complement() - comp).abs() / comp;
            assert!(rel < 1e-13, "κ={k}: complement rel {rel:e}");
        }
    }

    #[test]
    fn m2_is_the_von_mises_circle() {
        // M = 2: ∫_0^π e^{κ cos θ} dθ = π I_0(κ); I_0(10) = 2815.716628466254.
        let law = CosineMarginal::new(2, 10.0).unwrap();
        let want = -(2.0 * PI * 2_815.716_628_466_254_f64).ln();
        assert!((law.log_norm_const() - want).abs() < 1e-14 * want.abs());
    }

    #[test]
    fn quantile_inverts_cdf() {
        for &(m, k) in &[(2, 0.0), (2, 1e5), (3, 1.0), (10, 50.0), (2048, 1e3)] {
            let law = CosineMarginal::new(m, k).unwrap();
            for &p in &[1e-9, 0.01, 0.3, 0.5, 0.9, 0.999_999] {
                let t = law.quantile_angle(p);
                let back = law.cdf_angle(t);
                assert!((back - p).abs() < 1e-13, "M={m} κ={k} p={p}: {back}");
            }
        }
    }

    #[test]
    fn variance_matches_riccati_identity() {
        // A' = 1 − A² − (M−1)A/κ = Var t. The right side amplifies errors in A by up to ~600
        // here, so it is evaluated with the reference Bessel ratio, not the quadrature's mean.
        for &(m, k) in &[(3, 1.0), (10, 5.0), (128, 50.0)] {
            let law = CosineMarginal::new(m, k).unwrap();
            let a = crate::vmf::exact::mean_resultant_length(m, k);
            let riccati = 1.0 - a * a - (m as f64 - 1.0) * a / k;
            assert!(
                (law.variance() - riccati).abs() < 1e-13 * riccati,
                "M={m} κ={k}"
            );
        }
    }
}
