//! The distribution of a Gaussian quadratic form: `Q = c + Σ_k λ_k (Z_k + δ_k)² + σZ₀` with
//! `Z_k` iid standard normal — a weighted sum of non-central χ²₁ variables with weights of either
//! sign plus a constant (the "generalised χ²"), and optionally an independent normal component
//! `σZ₀` (which appears when the linear part of a quadratic form is not in the range of its
//! matrix).
//!
//! Every quadratic form `xᵀAx + bᵀx + c` of a Gaussian vector whose linear part lies in the range
//! of `A` reduces to this shape by diagonalising `Σ^{1/2} A Σ^{1/2}`; chapter 05 uses it for the
//! exact law of the triplet statistic `τ = ‖a − p‖² − ‖a − n‖²`, chapter 07 for distances
//! between Gaussian embeddings.
//!
//! # Moments
//!
//! `E Q = c + Σ λ_k (1 + δ_k²)` and `Var Q = Σ 2λ_k² (1 + 2δ_k²) + σ²`.
//!
//! # Distribution function
//!
//! The moment generating function of `Q₀ = Q − c` is `e^{K₀(s)}` with
//! `K₀(s) = Σ_k [−½ ln(1 − 2λ_k s) + δ_k² λ_k s/(1 − 2λ_k s)] + σ²s²/2` (`cumulant.rs`). `P(Q ≤ x)`,
//! `P(Q > x)` and the density are contour integrals of `e^{K₀(s) − s(x − c)}` (Gil-Pelaez 1951,
//! Imhof 1961), taken along a parabola through the saddle point of the integrand and evaluated in
//! log space (Helstrom 1978; `inversion.rs`): the lower tail when `x` is below the mean, the upper
//! tail otherwise, the other side as its complement. The integral is computed by adaptive
//! Gauss–Kronrod ([`crate::quadrature`]) to relative `10⁻¹²`, so `ln P` carries an absolute error
//! of about `10⁻¹²` — a relative error far below `10⁻⁸` — from `P ≈ ½` down to
//! `ln P ≈ −2·10⁵` (the deepest tail proved), where a linear-space Imhof integral returns 0.
//!
//! The quadrature asks relative `10⁻¹²`, then `10⁻¹⁰` and `10⁻⁸` if rounding keeps it from the
//! first; if none is reached (never observed in the proofs) the CDF methods return NaN rather
//! than an unverified number.
//!
//! Weights are scaled to `max|λ_k| = 1` internally (the law of `Q/ℓ` at `x/ℓ`), so no intermediate
//! overflows for weights anywhere in the `f64` range.
//!
//! # Degenerate cases
//!
//! * all `λ_k = 0` (or no terms) and `σ = 0`: `Q ≡ c`, a point mass; `cdf(x) = 1` for `x ≥ c`,
//!   else 0.
//! * `σ = 0` and all `λ_k ≥ 0`: `Q ≥ c`, so `cdf(x) = 0` (ln −∞) for `x ≤ c`; all `λ_k ≤ 0`: `sf(x) = 0` for
//!   `x ≥ c`.
//!
//! # Accuracy
//!
//! See `proofs/gaussian_quadratic_form.rs`: one term against the closed form through Φ, equal
//! weights against central χ²_k (finite sums for even k), the sign flip `Q ↦ −Q`, a Monte Carlo
//! band, and the far tails against an independent mpmath computation
//! (`scripts/reference/gaussian_quadratic_form.py`).

mod cumulant;
mod inversion;
mod saddlepoint;

use crate::error::{require_finite, require_nonnegative, Error, Result};
use cumulant::{Cumulant, Term};
use inversion::{log_contour_integral, Kind};
use saddlepoint::saddle_point;

/// `Q = c + Σ_k λ_k (Z_k + δ_k)²`, `Z_k` iid `N(0, 1)`: a weighted sum of non-central χ²₁ terms
/// (`λ_k` of either sign, `δ_k²` the non-centralities) plus a constant offset `c`, and optionally
/// an independent normal component `σ Z₀` ([`with_normal`](Self::with_normal)).
///
/// # Formula
///
/// $$ Q = c + \sum_k \lambda_k (Z_k + \delta_k)^2,\qquad
///    E\\,e^{sQ} = e^{cs}\prod_k (1 - 2\lambda_k s)^{-1/2}
///    \exp\\!\Big(\frac{\delta_k^2 \lambda_k s}{1 - 2\lambda_k s}\Big) $$
///
/// The CDF is the Gil-Pelaez/Imhof inversion of this transform along a contour through the
/// saddle point (Helstrom's method), in log space; see the [module docs](self).
///
/// # Examples
///
/// ```
/// use probdml::gaussian_quadratic_form::GaussianQuadraticForm;
/// // χ²₂ = Z₁² + Z₂²: P(χ²₂ > x) = e^{−x/2}.
/// let q = GaussianQuadraticForm::new(&[1.0, 1.0], &[0.0, 0.0], 0.0).unwrap();
/// assert!((q.sf(3.0) - (-1.5f64).exp()).abs() < 1e-13);
/// assert_eq!((q.mean(), q.variance()), (2.0, 4.0));
/// // Far in the tail, in log space: ln P(χ²₂ > 2000) = −1000.
/// assert!((q.ln_sf(2000.0) + 1000.0).abs() < 1e-9);
/// // A difference of χ²₁ terms is symmetric: P(Z₁² − Z₂² ≤ 0) = ½.
/// let d = GaussianQuadraticForm::new(&[1.0, -1.0], &[0.0, 0.0], 0.0).unwrap();
/// assert!((d.cdf(0.0) - 0.5).abs() < 1e-13);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct GaussianQuadraticForm {
    /// The non-zero terms, weights divided by `scale`, and the normal component's variance
    /// divided by `scale²`.
    cumulant: Cumulant,
    /// `max(max_k |λ_k|, σ)` (1 when both are 0).
    scale: f64,
    offset: f64,
    mean: f64,
    variance: f64,
    /// `E Q₀` of the scaled form.
    scaled_mean: f64,
    /// The real interval `(s_lo, s_hi)` where the scaled `K₀` is finite.
    s_lo: f64,
    s_hi: f64,
}

impl GaussianQuadraticForm {
    /// The form `c + Σ_k λ_k (Z_k + δ_k)²` with `weights` `λ`, `shifts` `δ` and `offset` `c`.
    ///
    /// Zero weights are allowed (those terms contribute nothing); no terms at all gives the point
    /// mass at `c`.
    ///
    /// # Errors
    ///
    /// [`Error::DimensionMismatch`] naming `shifts` if its length differs from `weights`';
    /// [`Error::NotFiniteElement`] naming `weights` or `shifts` for a NaN or infinite element;
    /// [`Error::NotFinite`] naming `offset`; [`Error::OutOfDomain`] naming `weights` if the
    /// mean or variance overflows `f64`.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::gaussian_quadratic_form::GaussianQuadraticForm;
    /// assert!(GaussianQuadraticForm::new(&[1.0], &[0.0, 1.0], 0.0).is_err());
    /// assert!(GaussianQuadraticForm::new(&[f64::NAN], &[0.0], 0.0).is_err());
    /// let point = GaussianQuadraticForm::new(&[0.0], &[3.0], 2.0).unwrap();
    /// assert_eq!((point.cdf(1.999), point.cdf(2.0)), (0.0, 1.0));
    /// ```
    pub fn new(weights: &[f64], shifts: &[f64], offset: f64) -> Result<Self> {
        Self::with_normal(weights, shifts, offset, 0.0)
    }

    /// The form `c + Σ_k λ_k (Z_k + δ_k)² + σ Z₀` with an independent normal component of
    /// standard deviation `normal_sd = σ ≥ 0` (the general Gaussian quadratic form whose linear
    /// part is not in the range of its matrix; [`new`](Self::new) is `σ = 0`).
    ///
    /// # Errors
    ///
    /// As [`new`](Self::new), plus [`Error::NotFinite`] or [`Error::OutOfDomain`] naming
    /// `normal_sd` if it is not finite or negative.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::gaussian_quadratic_form::GaussianQuadraticForm;
    /// // A pure normal: P(1 + 2 Z₀ ≤ 0) = Φ(−½) = 0.308537538725986896…
    /// let q = GaussianQuadraticForm::with_normal(&[], &[], 1.0, 2.0).unwrap();
    /// assert!((q.cdf(0.0) - 0.3085375387259869).abs() < 1e-14);
    /// assert_eq!(q.variance(), 4.0);
    /// ```
    pub fn with_normal(
        weights: &[f64],
        shifts: &[f64],
        offset: f64,
        normal_sd: f64,
    ) -> Result<Self> {
        if shifts.len() != weights.len() {
            return Err(Error::DimensionMismatch {
                arg: "shifts",
                expected: weights.len(),
                got: shifts.len(),
            });
        }
        for (arg, values) in [("weights", weights), ("shifts", shifts)] {
            if let Some(index) = values.iter().position(|v| !v.is_finite()) {
                return Err(Error::NotFiniteElement {
                    arg,
                    index,
                    value: values[index],
                });
            }
        }
        require_finite("offset", offset)?;
        let normal_sd = require_nonnegative("normal_sd", normal_sd)?;
        let scale = weights.iter().fold(normal_sd, |m, w| m.max(w.abs()));
        let scale = if scale > 0.0 { scale } else { 1.0 };
        let terms: Vec<Term> = weights
            .iter()
            .zip(shifts)
            .filter(|(w, _)| **w != 0.0)
            .map(|(w, d)| Term {
                weight: w / scale,
                noncentrality: d * d,
            })
            .collect();
        let normal_variance = (normal_sd / scale) * (normal_sd / scale);
        let mut scaled_mean = 0.0;
        let mut scaled_variance = normal_variance;
        for t in &terms {
            scaled_mean += t.weight * (1.0 + t.noncentrality);
            scaled_variance += 2.0 * t.weight * t.weight * (1.0 + 2.0 * t.noncentrality);
        }
        let mean = offset + scale * scaled_mean;
        let variance = scale * scale * scaled_variance;
        if !mean.is_finite() || !variance.is_finite() {
            return Err(Error::OutOfDomain {
                arg: "weights",
                value: scale,
                rule: "the mean and variance of the form must be finite in f64",
            });
        }
        let min_weight = terms.iter().fold(0.0_f64, |m, t| m.min(t.weight));
        let max_weight = terms.iter().fold(0.0_f64, |m, t| m.max(t.weight));
        Ok(Self {
            cumulant: Cumulant {
                terms,
                normal_variance,
            },
            scale,
            offset,
            mean,
            variance,
            scaled_mean,
            s_lo: if min_weight < 0.0 {
                0.5 / min_weight
            } else {
                f64::NEG_INFINITY
            },
            s_hi: if max_weight > 0.0 {
                0.5 / max_weight
            } else {
                f64::INFINITY
            },
        })
    }

    /// Whether `Q` is the constant `c` (no term and no normal component).
    fn is_point_mass(&self) -> bool {
        self.cumulant.terms.is_empty() && self.cumulant.normal_variance == 0.0
    }

    /// Whether `Q − c` is `≥ 0` almost surely (no negative weight, no normal component).
    fn bounded_below(&self) -> bool {
        self.s_lo == f64::NEG_INFINITY && self.cumulant.normal_variance == 0.0
    }

    /// Whether `Q − c` is `≤ 0` almost surely.
    fn bounded_above(&self) -> bool {
        self.s_hi == f64::INFINITY && self.cumulant.normal_variance == 0.0
    }

    /// `E Q = c + Σ λ_k (1 + δ_k²)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::gaussian_quadratic_form::GaussianQuadraticForm;
    /// let q = GaussianQuadraticForm::new(&[2.0, -1.0], &[1.0, 0.0], 0.5).unwrap();
    /// assert_eq!(q.mean(), 0.5 + 2.0 * 2.0 - 1.0);
    /// ```
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// `Var Q = Σ 2λ_k² (1 + 2δ_k²) + σ²`.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::gaussian_quadratic_form::GaussianQuadraticForm;
    /// let q = GaussianQuadraticForm::new(&[2.0, -1.0], &[1.0, 0.0], 0.5).unwrap();
    /// assert_eq!(q.variance(), 2.0 * 4.0 * 3.0 + 2.0);
    /// ```
    pub fn variance(&self) -> f64 {
        self.variance
    }

    /// `σ`, the standard deviation of the normal component (0 unless built by
    /// [`with_normal`](Self::with_normal)).
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::gaussian_quadratic_form::GaussianQuadraticForm;
    /// let q = GaussianQuadraticForm::with_normal(&[1.0], &[0.0], 0.0, 0.5).unwrap();
    /// assert_eq!(q.normal_sd(), 0.5);
    /// ```
    pub fn normal_sd(&self) -> f64 {
        self.scale * self.cumulant.normal_variance.sqrt()
    }

    /// `(x − c)/ℓ`, the argument of the scaled form `Q₀/ℓ`.
    fn scaled(&self, x: f64) -> f64 {
        (x - self.offset) / self.scale
    }

    /// ln P(Q₀/ℓ ≤ x) for x strictly below the scaled mean.
    fn ln_lower(&self, x: f64) -> f64 {
        if self.bounded_below() && x <= 0.0 {
            return f64::NEG_INFINITY;
        }
        let saddle = saddle_point(&self.cumulant, x, self.s_lo, 0.0);
        let h = self.crossing_gap(self.s_lo);
        let r = saddle.min(-h);
        log_contour_integral(&self.cumulant, Kind::LowerTail, x, r, self.s_lo, self.s_hi)
    }

    /// ln P(Q₀/ℓ > x) for x at or above the scaled mean.
    fn ln_upper(&self, x: f64) -> f64 {
        if self.bounded_above() && x >= 0.0 {
            return f64::NEG_INFINITY;
        }
        let saddle = saddle_point(&self.cumulant, x, 0.0, self.s_hi);
        let h = self.crossing_gap(self.s_hi);
        let r = saddle.max(h);
        log_contour_integral(&self.cumulant, Kind::UpperTail, x, r, self.s_lo, self.s_hi)
    }

    /// The least distance of the crossing point from the pole at 0: one reciprocal standard
    /// deviation of the scaled form, at most half way to the branch point `edge`.
    fn crossing_gap(&self, edge: f64) -> f64 {
        let sd = self.cumulant.derivatives(0.0).1.sqrt();
        (1.0 / sd).min(0.5 * edge.abs())
    }

    /// `P(Q ≤ x)`.
    ///
    /// # Formula
    ///
    /// $$ P(Q \le x) = \frac{1}{2\pi i}\int_{r-i\infty}^{r+i\infty}
    ///    \frac{e^{K_0(s) - s(x-c)}}{-s}\\,ds,\quad r<0 $$
    ///
    /// below the mean, `1 − P(Q > x)` above it. NaN for NaN `x`.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::gaussian_quadratic_form::GaussianQuadraticForm;
    /// // 3·Z²: P(3Z² ≤ 3) = P(|Z| ≤ 1) = 0.682689492137085897…
    /// let q = GaussianQuadraticForm::new(&[3.0], &[0.0], 0.0).unwrap();
    /// assert!((q.cdf(3.0) - 0.6826894921370859).abs() < 1e-13);
    /// ```
    pub fn cdf(&self, x: f64) -> f64 {
        self.ln_cdf(x).exp()
    }

    /// `P(Q > x)`, computed directly in the upper tail (not as `1 − cdf`).
    ///
    /// # Formula
    ///
    /// $$ P(Q > x) = \frac{1}{2\pi i}\int_{r-i\infty}^{r+i\infty}
    ///    \frac{e^{K_0(s) - s(x-c)}}{s}\\,ds,\quad r>0 $$
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::gaussian_quadratic_form::GaussianQuadraticForm;
    /// // χ²₄: P(χ²₄ > x) = e^{−x/2}(1 + x/2); at x = 100: 51·e^{−50}.
    /// let q = GaussianQuadraticForm::new(&[1.0; 4], &[0.0; 4], 0.0).unwrap();
    /// let want = 51.0 * (-50.0f64).exp();
    /// assert!((q.sf(100.0) / want - 1.0).abs() < 1e-11);
    /// ```
    pub fn sf(&self, x: f64) -> f64 {
        self.ln_sf(x).exp()
    }

    /// `ln P(Q ≤ x)`, accurate in relative terms far into the lower tail.
    ///
    /// # Formula
    ///
    /// $$ \ln P(Q\le x) = K_0(r) - r(x-c) + \ln\frac1\pi\int_0^\infty
    ///    \operatorname{Im}\frac{e^{K_0(s)-s(x-c)-K_0(r)+r(x-c)}\\,s'(y)}{-s(y)}\\,dy $$
    ///
    /// with `s(y)` the parabola through the saddle point `r` (module docs of `inversion.rs`).
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::gaussian_quadratic_form::GaussianQuadraticForm;
    /// // −χ²₂: P(−χ²₂ ≤ −x) = e^{−x/2}; ln at x = 3000 is −1500.
    /// let q = GaussianQuadraticForm::new(&[-1.0, -1.0], &[0.0, 0.0], 0.0).unwrap();
    /// assert!((q.ln_cdf(-3000.0) / -1500.0 - 1.0).abs() < 1e-12);
    /// ```
    pub fn ln_cdf(&self, x: f64) -> f64 {
        if x.is_nan() {
            return f64::NAN;
        }
        if self.is_point_mass() {
            return if x >= self.offset {
                0.0
            } else {
                f64::NEG_INFINITY
            };
        }
        let xs = self.scaled(x);
        if xs == f64::INFINITY {
            return 0.0;
        }
        if xs == f64::NEG_INFINITY {
            return f64::NEG_INFINITY;
        }
        if xs < self.scaled_mean {
            self.ln_lower(xs)
        } else {
            (-self.ln_upper(xs).exp()).ln_1p()
        }
    }

    /// `ln P(Q > x)`, accurate in relative terms far into the upper tail.
    ///
    /// # Formula
    ///
    /// As [`ln_cdf`](Self::ln_cdf) with `1/s` in place of `1/(−s)` and `r > 0`.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::gaussian_quadratic_form::GaussianQuadraticForm;
    /// // Z² + 1 at 400: P(Z² > 399) = 2Φ(−√399); mpmath: log(2·ncdf(−sqrt(399))) =
    /// // −202.7227628140923226…; the offset 1 moves the threshold from 399 to 400.
    /// let q = GaussianQuadraticForm::new(&[1.0], &[0.0], 1.0).unwrap();
    /// let want = -202.7227628140923226;
    /// assert!((q.ln_sf(400.0) / want - 1.0).abs() < 1e-12);
    /// ```
    pub fn ln_sf(&self, x: f64) -> f64 {
        if x.is_nan() {
            return f64::NAN;
        }
        if self.is_point_mass() {
            return if x < self.offset {
                0.0
            } else {
                f64::NEG_INFINITY
            };
        }
        let xs = self.scaled(x);
        if xs == f64::INFINITY {
            return f64::NEG_INFINITY;
        }
        if xs == f64::NEG_INFINITY {
            return 0.0;
        }
        if xs >= self.scaled_mean {
            self.ln_upper(xs)
        } else {
            (-self.ln_lower(xs).exp()).ln_1p()
        }
    }

    /// The density of `Q` at `x` where it exists: 0 outside the support; `+∞` where it is
    /// unbounded (the support's edge `x = c` with one term, `x = c` for two terms of opposite
    /// signs, or a point mass at `c`).
    ///
    /// # Formula
    ///
    /// $$ f(x) = \frac{1}{2\pi i}\int_{\hat s-i\infty}^{\hat s+i\infty} e^{K_0(s) - s(x-c)}\\,ds,
    ///    \quad K_0'(\hat s) = x - c $$
    ///
    /// At the edge `x = c` of a one-signed form the limit is taken: `+∞` for one term,
    /// `e^{−(δ₁²+δ₂²)/2}/(2√(λ₁λ₂))` for two, 0 for three or more.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::gaussian_quadratic_form::GaussianQuadraticForm;
    /// // χ²₂ has density e^{−x/2}/2.
    /// let q = GaussianQuadraticForm::new(&[1.0, 1.0], &[0.0, 0.0], 0.0).unwrap();
    /// assert!((q.pdf(3.0) - 0.5 * (-1.5f64).exp()).abs() < 1e-13);
    /// assert_eq!(q.pdf(-1.0), 0.0);
    /// assert!((q.pdf(0.0) - 0.5).abs() < 1e-15);
    /// ```
    pub fn pdf(&self, x: f64) -> f64 {
        if x.is_nan() {
            return f64::NAN;
        }
        if self.is_point_mass() {
            return if x == self.offset { f64::INFINITY } else { 0.0 };
        }
        let xs = self.scaled(x);
        if xs.is_infinite() {
            return 0.0;
        }
        let one_signed_edge =
            (self.bounded_below() && xs <= 0.0) || (self.bounded_above() && xs >= 0.0);
        if one_signed_edge {
            if xs != 0.0 {
                return 0.0;
            }
            return match self.cumulant.terms.as_slice() {
                [_] => f64::INFINITY,
                [a, b] => {
                    (-0.5 * (a.noncentrality + b.noncentrality)).exp()
                        / (2.0 * (a.weight * b.weight).sqrt())
                        / self.scale
                }
                _ => 0.0,
            };
        }
        let mixed_pair = self.cumulant.terms.len() == 2 && self.cumulant.normal_variance == 0.0;
        if xs == 0.0 && mixed_pair {
            // λ₁(Z₁+δ₁)² − |λ₂|(Z₂+δ₂)² at 0: the level set is two crossing lines, and the
            // density has a logarithmic singularity there.
            return f64::INFINITY;
        }
        let saddle = saddle_point(&self.cumulant, xs, self.s_lo, self.s_hi);
        let ln_density = log_contour_integral(
            &self.cumulant,
            Kind::Density,
            xs,
            saddle,
            self.s_lo,
            self.s_hi,
        );
        ln_density.exp() / self.scale
    }
}
