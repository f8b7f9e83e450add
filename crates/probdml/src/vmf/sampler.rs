//! Sampling `vMF(μ, κ)` on `S^{M−1}` by Wood's (1994) rejection algorithm.
//!
//! **The cosine.** `w = μᵀX` has density `∝ e^{κw}(1 − w²)^{(M−3)/2}` on `[−1, 1]`. Wood
//! proposes `W = (1 − (1+b)Z)/(1 − (1−b)Z)`, `Z ~ Beta((M−1)/2, (M−1)/2)`, and accepts when
//! `κW + (M−1) ln(1 − x₀W) − c ≥ ln U`, with `x₀ = (1−b)/(1+b)`,
//! `c = κx₀ + (M−1) ln(1 − x₀²)` and
//!
//! $$ b = \frac{-2\kappa + \sqrt{4\kappa^2 + (M-1)^2}}{M-1} = \frac{M-1}{2\kappa + \sqrt{4\kappa^2 + (M-1)^2}} , $$
//!
//! the second form free of the cancellation that ruins the first for `κ ≫ M`.
//!
//! Here `Z = G₁/(G₁ + G₂)` with independent `Gᵢ ~ Gamma((M−1)/2, 1)`, which gives `Z` *and*
//! `1 − Z` to full relative precision and turns every quantity into a cancellation-free ratio:
//!
//! * `W = (G₂ − bG₁)/(G₂ + bG₁)`, `√(1 − W²) = 2√(bG₁G₂)/(G₂ + bG₁)`;
//! * the acceptance exponent `κ(W − x₀) + (M−1) ln((1 − x₀W)/(1 − x₀²))` is
//!   `2κb(G₂ − G₁)/((1+b)(G₂ + bG₁)) + (M−1) ln((1+b)(G₁+G₂)/(2(G₂ + bG₁)))`.
//!
//! (Both follow by substituting `Z` and `x₀` and clearing denominators.) At `κ = 10⁵`, `M = 2`,
//! `1 − W ≈ 10⁻⁵` is thus known to ~1 ulp rather than to `10⁻¹¹`.
//!
//! **The rest of the vector.** `X = Q(W, √(1 − W²) v)` with `v` uniform on `S^{M−2}` (normalised
//! Gaussian) and `Q` the Householder reflection `−s(I − τuuᵀ)`, `u = μ + s‖μ‖e₁`,
//! `s = sign μ₁`, `τ = 2/uᵀu`, which maps `e₁` to `μ/‖μ‖` with no cancellation in `u`
//! (Golub & Van Loan §5.1.2). It is orthogonal by construction, unlike a Gram–Schmidt basis
//! completed from a random vector. Sums of squares and `uᵀy` are compensated, so every
//! sample has `|‖X‖ − 1| ≤ 10⁻¹⁵` at `M = 2048` without renormalisation.
//!
//! **Special cases.** `κ = 0`: `X` is a normalised Gaussian vector. `M = 2`: the tangent
//! sphere `S⁰ = {±1}`, so `X = Wμ ± √(1 − W²)μ^⊥` with a fair sign.
//!
//! **Random stream** of a single draw (what the value-stability proofs reproduce): each
//! proposal draws `G₁`, `G₂` (rand_distr `Gamma`) then `U` (`rng.random::<f64>()`); after
//! acceptance, `M − 1` standard normals by one
//! [`fill_standard_normal`](crate::ziggurat::fill_standard_normal) call (`M > 2`) or one
//! `bool` (`M = 2`). At `κ = 0`, `sample_into` draws `M` standard normals by one such call.
//! [`VonMisesFisher::sample_n_into`] draws its cosines eight proposals at a time instead
//! (`vmf/wood.rs`, and its own docs).

use rand::distr::Distribution;
use rand::{Rng, RngExt};

use super::householder::ReflectionToMean;
use super::input::require_unit;
use super::wood::{Cosines, Wood};
use crate::compensated::{norm2, sum_sq2};
use crate::error::{require_nonnegative, require_sphere_dim, Error, Result};
use crate::ziggurat::{fill_blocks, BLOCK};

/// A von Mises–Fisher distribution `vMF(μ, κ)` on `S^{M−1}`, sampled by Wood's algorithm.
///
/// Everything that does not depend on the draw (Wood's `b`, the acceptance constants, the
/// Householder vector) is computed in the constructor; [`sample_into`](Self::sample_into)
/// allocates nothing.
///
/// # Formula
///
/// $$ f(x;\mu,\kappa) = C_M(\kappa)\\,e^{\kappa\mu^\top x},\qquad
///    X = Q\bigl(W,\ \sqrt{1-W^2}\\,v\bigr),\ v\sim U(S^{M-2}),\ Qe_1 = \mu $$
///
/// (Wood 1994; LAM App. C; the algorithm is described in the module docs).
///
/// # Examples
///
/// ```
/// use probdml::vmf::VonMisesFisher;
/// use probdml::rand::SeedableRng;
/// let vmf = VonMisesFisher::new(&[0.0, 0.6, 0.8], 50.0).unwrap();
/// let mut rng = probdml::rand::rngs::StdRng::seed_from_u64(7);
/// let x = vmf.sample(&mut rng);
/// let norm: f64 = x.iter().map(|v| v * v).sum::<f64>().sqrt();
/// assert!((norm - 1.0).abs() < 1e-15);
/// // Concentrated near μ: 1 − μᵀx is of order (M−1)/(2κ) = 0.02.
/// assert!(0.6 * x[1] + 0.8 * x[2] > 0.8);
/// ```
#[derive(Clone)]
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub struct VonMisesFisher {
    mu: Vec<f64>,
    kappa: f64,
    reflection: ReflectionToMean,
    wood: Wood,
}

impl VonMisesFisher {
    /// `vMF(μ, κ)` with `μ` a unit vector of length `M ≥ 2` and `κ ≥ 0`.
    ///
    /// `μ` is stored renormalised (`μ/‖μ‖`, one rounding), so that samples are unit vectors to
    /// `10⁻¹⁵` even when `μ` is unit only to the accepted tolerance.
    ///
    /// # Errors
    ///
    /// * [`Error::InvalidDimension`] if `len(μ) < 2`;
    /// * [`Error::NotFinite`] / [`Error::OutOfDomain`] if `κ` is NaN, infinite or negative, or
    ///   an entry of `μ` is not finite;
    /// * [`Error::NotUnitVector`] if `|‖μ‖ − 1|` exceeds
    ///   [`unit_norm_tolerance`](super::unit_norm_tolerance).
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::vmf::VonMisesFisher;
    /// assert!(VonMisesFisher::new(&[1.0, 0.0], 1.0).is_ok());
    /// // An embedding normalised in f32 and cast to f64 (norm 1 + 9.5·10⁻⁹) is accepted, and
    /// // renormalised in f64.
    /// let mu: Vec<f64> = [0.36_f32, 0.48, 0.8].iter().map(|&x| f64::from(x)).collect();
    /// let law = VonMisesFisher::new(&mu, 1.0).unwrap();
    /// let norm = law.mu().iter().map(|m| m * m).sum::<f64>().sqrt();
    /// assert!((norm - 1.0).abs() < 1e-15);
    /// assert!(VonMisesFisher::new(&[1.0, 1.0], 1.0).is_err());
    /// assert!(VonMisesFisher::new(&[1.0, 0.0], -1.0).is_err());
    /// assert!(VonMisesFisher::new(&[1.0], 1.0).is_err());
    /// ```
    pub fn new(mu: &[f64], kappa: f64) -> Result<Self> {
        require_sphere_dim("mu", mu.len())?;
        require_nonnegative("kappa", kappa)?;
        let mu = require_unit("mu", mu)?;
        Ok(Self::build(&mu, kappa))
    }

    /// `vMF` from its natural parameter `ν = κμ` (the nivMF duality: an unnormalised embedding
    /// `z` is `vMF(z/‖z‖, ‖z‖)`); `ν = 0` is the uniform law (μ is then taken as `e₁`).
    ///
    /// # Formula
    ///
    /// $$ \kappa = \lVert\nu\rVert,\qquad \mu = \nu/\lVert\nu\rVert $$
    ///
    /// # Errors
    ///
    /// [`Error::InvalidDimension`] if `len(ν) < 2`; [`Error::NotFinite`] if an entry is not
    /// finite or `‖ν‖` overflows.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::vmf::VonMisesFisher;
    /// let vmf = VonMisesFisher::from_natural(&[0.0, 3.0, 4.0]).unwrap();
    /// assert_eq!(vmf.kappa(), 5.0);
    /// assert_eq!(vmf.mu(), &[0.0, 0.6, 0.8]);
    /// assert_eq!(VonMisesFisher::from_natural(&[0.0, 0.0]).unwrap().kappa(), 0.0);
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
            return Ok(Self::build(&e1, 0.0));
        }
        let mu: Vec<f64> = nu.iter().map(|v| v / kappa).collect();
        Ok(Self::build(&mu, kappa))
    }

    #[inline(always)]
    fn build(mu: &[f64], kappa: f64) -> Self {
        let norm = norm2(mu);
        let mu: Vec<f64> = mu.iter().map(|v| v / norm).collect();
        Self {
            wood: Wood::new(mu.len(), kappa),
            reflection: ReflectionToMean::new(&mu),
            mu,
            kappa,
        }
    }

    /// The mean direction `μ` (unit).
    pub fn mu(&self) -> &[f64] {
        &self.mu
    }

    /// The concentration `κ`.
    pub fn kappa(&self) -> f64 {
        self.kappa
    }

    /// The ambient dimension `M` (samples lie on `S^{M−1}`).
    pub fn dim(&self) -> usize {
        self.mu.len()
    }

    /// Draws `w = μᵀX` only (Wood's rejection step), the statistic the goodness-of-fit proofs
    /// test against the exact marginal.
    ///
    /// # Formula
    ///
    /// $$ p(w) \propto e^{\kappa w}(1-w^2)^{(M-3)/2},\qquad w\in[-1,1] $$
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::vmf::VonMisesFisher;
    /// use probdml::rand::SeedableRng;
    /// let vmf = VonMisesFisher::new(&[1.0, 0.0, 0.0], 10.0).unwrap();
    /// let mut rng = probdml::rand::rngs::StdRng::seed_from_u64(1);
    /// let mean = (0..20_000).map(|_| vmf.sample_cosine(&mut rng)).sum::<f64>() / 20_000.0;
    /// // E[w] = A_3(10) = coth 10 − 1/10 = 0.9000000082…; the standard error is ~7e−4.
    /// assert!((mean - 0.9).abs() < 5e-3);
    /// ```
    pub fn sample_cosine<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        crate::instruction_set::dispatch(
            #[inline(always)]
            || self.wood.draw(rng).0,
        )
    }

    /// Draws one sample into `out` without allocating.
    ///
    /// # Formula
    ///
    /// $$ X = Q\bigl(W,\ \sqrt{1-W^2}\\,v\bigr),\qquad Q = -s(I - \tau uu^\top),\ u = \mu + s e_1 $$
    ///
    /// # Errors
    ///
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if
    /// `out.len() != self.dim()`; `out` is left untouched.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::vmf::VonMisesFisher;
    /// use probdml::rand::SeedableRng;
    /// let s = 0.5_f64.sqrt();
    /// let vmf = VonMisesFisher::new(&[s, -s], 0.0).unwrap(); // κ = 0: uniform on the circle
    /// let mut rng = probdml::rand::rngs::StdRng::seed_from_u64(11);
    /// let mut x = [0.0; 2];
    /// vmf.sample_into(&mut rng, &mut x).unwrap();
    /// assert!(vmf.sample_into(&mut rng, &mut [0.0; 3]).is_err());
    /// assert!((x[0].hypot(x[1]) - 1.0).abs() < 1e-15);
    /// ```
    pub fn sample_into<R: Rng + ?Sized>(&self, rng: &mut R, out: &mut [f64]) -> crate::Result<()> {
        crate::instruction_set::dispatch(
            #[inline(always)]
            || {
                let dim = self.mu.len();
                if out.len() != dim {
                    return Err(crate::Error::DimensionMismatch {
                        arg: "out",
                        expected: dim,
                        got: out.len(),
                    });
                }
                self.fill(rng, out, &mut [0; BLOCK]);
                Ok(())
            },
        )
    }

    /// The sampler proper; `out.len() == self.dim()` is the caller's to guarantee.
    /// Draws `n` samples into the rows of `out` (`n × M`, row-major) without allocating, from
    /// the law of [`sample_into`](Self::sample_into), with Wood's rejection step run on eight
    /// proposals at a time.
    ///
    /// The Householder reflection to `μ` and Wood's constants are formed once at construction
    /// and shared by every draw, as in the single-draw call. This entry point chooses the
    /// instruction set once for all `n` draws, and draws the cosines `w = μᵀX` by rounds of
    /// eight proposals: sixteen Gamma variates by Marsaglia & Tsang's method and Wood's
    /// acceptance test, both in lanes, the test decided as the single-draw sampler's scalar test
    /// decides it (`vmf/wood.rs`).
    ///
    /// **Random stream.** For `M = 2` or `κ = 0`, the same bits, in the same order, as `n`
    /// calls of [`sample_into`](Self::sample_into) with the same generator. Otherwise a stream
    /// of its own: each row takes the next accepted cosine, running a round (sixteen normals
    /// by one call of the crate's ziggurat, then 24 words) when none is left, then draws its
    /// `M − 1` normals as [`sample_into`](Self::sample_into) does; cosines left at the end of
    /// the call are dropped. A seed thus gives other draws here than through a loop of
    /// `sample_into`, from the same law (`proofs/vmf_sampler_law.rs` tests both).
    ///
    /// # When to prefer it
    ///
    /// Whenever more than one draw of one `(μ, κ)` is wanted (Monte Carlo estimates, the
    /// peers table's 10⁵ draws): the cost per draw is then the `M − 1` standard normals plus a
    /// few passes over the row and an eighth of a round (the peers table of book chapter 08
    /// times both). The normals' words come by blocks through `fill`, so a generator that makes
    /// words in bulk, such as
    /// [`Xoshiro256PlusPlusX8`](crate::xoshiro_x8::Xoshiro256PlusPlusX8), serves them at its
    /// bulk speed.
    ///
    /// # Errors
    ///
    /// [`Error::DimensionMismatch`] if `out.len() ≠ n·M`.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::vmf::VonMisesFisher;
    /// use probdml::rand::SeedableRng;
    /// let vmf = VonMisesFisher::new(&[0.6, 0.8, 0.0], 20.0).unwrap();
    /// let mut rows = vec![0.0; 1000 * 3];
    /// vmf.sample_n_into(&mut probdml::rand::rngs::StdRng::seed_from_u64(3), 1000, &mut rows).unwrap();
    /// for row in rows.chunks_exact(3) {
    ///     assert!((row.iter().map(|v| v * v).sum::<f64>().sqrt() - 1.0).abs() < 1e-15);
    /// }
    /// // E[μᵀX] = A_3(20) = coth 20 − 1/20 = 0.95; the standard error is about 1.6·10⁻³.
    /// let mean = rows.chunks_exact(3).map(|x| 0.6 * x[0] + 0.8 * x[1]).sum::<f64>() / 1000.0;
    /// assert!((mean - 0.95).abs() < 0.01);
    /// assert!(vmf.sample_n_into(&mut probdml::rand::rngs::StdRng::seed_from_u64(3), 4, &mut [0.0; 11]).is_err());
    /// ```
    pub fn sample_n_into<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        n: usize,
        out: &mut [f64],
    ) -> Result<()> {
        let dim = self.mu.len();
        let expected = n.checked_mul(dim).ok_or(Error::DimensionMismatch {
            arg: "out",
            expected: usize::MAX,
            got: out.len(),
        })?;
        if out.len() != expected {
            return Err(Error::DimensionMismatch {
                arg: "out",
                expected,
                got: out.len(),
            });
        }
        crate::instruction_set::dispatch(
            #[inline(always)]
            || {
                let mut words = [0; BLOCK];
                if self.kappa == 0.0 || dim == 2 {
                    for row in out.chunks_exact_mut(dim) {
                        self.fill(rng, row, &mut words);
                    }
                    return;
                }
                let mut cosines = Cosines::new();
                for row in out.chunks_exact_mut(dim) {
                    let cosine = cosines.next(&self.wood, rng, &mut words);
                    self.reflection.place(rng, cosine, row, &mut words);
                }
            },
        );
        Ok(())
    }

    #[inline(always)]
    fn fill<R: Rng + ?Sized>(&self, rng: &mut R, out: &mut [f64], words: &mut [u64; BLOCK]) {
        let dim = self.mu.len();
        if self.kappa == 0.0 {
            loop {
                fill_blocks(rng, out, words);
                let ss = sum_sq2(out);
                if ss > 0.0 {
                    let inv = ss.sqrt().recip();
                    out.iter_mut().for_each(|v| *v *= inv);
                    return;
                }
            }
        }
        let (w, r) = self.wood.draw(rng);
        if dim == 2 {
            let s = if rng.random::<bool>() { r } else { -r };
            let (m0, m1) = (self.mu[0], self.mu[1]);
            out[0] = w.mul_add(m0, -s * m1);
            out[1] = w.mul_add(m1, s * m0);
            return;
        }
        self.reflection.place(rng, (w, r), out, words);
    }

    /// Draws one sample (allocates the output; see [`sample_into`](Self::sample_into)).
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::vmf::VonMisesFisher;
    /// use probdml::rand::distr::Distribution;
    /// use probdml::rand::SeedableRng;
    /// let vmf = VonMisesFisher::new(&[1.0, 0.0, 0.0, 0.0], 1e5).unwrap();
    /// let mut rng = probdml::rand::rngs::StdRng::seed_from_u64(5);
    /// // Through the `Distribution` trait as well: 1 − μᵀx ≈ (M−1)/(2κ) = 1.5·10⁻⁵.
    /// let x: Vec<f64> = Distribution::sample(&vmf, &mut rng);
    /// assert!(1.0 - x[0] < 1.5e-4);
    /// ```
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Vec<f64> {
        crate::instruction_set::dispatch(
            #[inline(always)]
            || {
                let mut out = vec![0.0; self.mu.len()];
                self.fill(rng, &mut out, &mut [0; BLOCK]);
                out
            },
        )
    }
}

impl Distribution<Vec<f64>> for VonMisesFisher {
    #[inline(always)]
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Vec<f64> {
        VonMisesFisher::sample(self, rng)
    }
}

/// The parameters only: Wood's constants and the reflection are derived from them.
///
/// ```
/// use probdml::vmf::VonMisesFisher;
/// let vmf = VonMisesFisher::new(&[0.0, 0.6, 0.8], 50.0).unwrap();
/// assert_eq!(format!("{vmf:?}"), "VonMisesFisher { mu: [0.0, 0.6, 0.8], kappa: 50.0, .. }");
/// ```
impl std::fmt::Debug for VonMisesFisher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VonMisesFisher")
            .field("mu", &self.mu)
            .field("kappa", &self.kappa)
            .finish_non_exhaustive()
    }
}

/// `vMF(mu = [μ₁, …, μ_M], kappa = κ)`: each number in its shortest exact form, in scientific
/// notation outside `[10⁻⁴, 10¹⁶)`; a precision applies to every number; past eight entries
/// `mu` shows its first and last three.
///
/// ```
/// use probdml::vmf::VonMisesFisher;
/// let vmf = VonMisesFisher::new(&[0.0, 0.6, 0.8], 50.0).unwrap();
/// assert_eq!(vmf.to_string(), "vMF(mu = [0, 0.6, 0.8], kappa = 50)");
/// assert_eq!(format!("{vmf:.2}"), "vMF(mu = [0.00, 0.60, 0.80], kappa = 50.00)");
/// let sharp = VonMisesFisher::new(&[0.0, 0.6, 0.8], 1e300).unwrap();
/// assert_eq!(sharp.to_string(), "vMF(mu = [0, 0.6, 0.8], kappa = 1e300)");
/// ```
impl std::fmt::Display for VonMisesFisher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("vMF(mu = ")?;
        probdml_core::display::vector(f, &self.mu)?;
        f.write_str(", kappa = ")?;
        probdml_core::display::number(f, self.kappa)?;
        f.write_str(")")
    }
}
