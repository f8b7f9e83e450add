//! The paper's Monte Carlo match probability (HIB eq. 5): `K` draws per mixture component of
//! each input, all `(KC)²` pairs, stratified over components; and the self-mismatch (eq. 9)
//! estimated the same way.

use rand::{Rng, RngExt};
use rand_distr::StandardNormal;

use crate::error::Result;
use crate::hib::checks;
use crate::hib::embedding::HedgedEmbedding;
use crate::hib::logistic::sigmoid;
use crate::hib::soft_threshold::SoftThreshold;

/// Fills `out` (length `K·C·D`, row-major) with `K` reparametrised draws
/// `z = μ_c + σ_c ⊙ ε`, `ε ~ N(0, I)`, from each component `c` in turn: stratified sampling,
/// the same number from every component (HIB §2.2).
pub(crate) fn draw_stratified<R: Rng + ?Sized>(
    x: &HedgedEmbedding,
    samples: usize,
    rng: &mut R,
    out: &mut Vec<f64>,
) {
    out.clear();
    let dim = x.dim();
    out.reserve(samples * x.components() * dim);
    for c in 0..x.components() {
        let (mean, variance) = (x.mu(c), x.var(c));
        for _ in 0..samples {
            for d in 0..dim {
                let eps: f64 = rng.sample(StandardNormal);
                out.push(mean[d] + variance[d].sqrt() * eps);
            }
        }
    }
}

/// The Euclidean distance between two rows, summed in one pass.
#[inline]
pub(crate) fn distance(z1: &[f64], z2: &[f64]) -> f64 {
    z1.iter()
        .zip(z2)
        .map(|(p, q)| (p - q) * (p - q))
        .sum::<f64>()
        .sqrt()
}

/// `(1/(n₁n₂)) Σ_ij f(‖z1_i − z2_j‖)` over all pairs of rows.
fn mean_over_pairs(z1: &[f64], z2: &[f64], dim: usize, f: impl Fn(f64) -> f64) -> f64 {
    let (n1, n2) = (z1.len() / dim, z2.len() / dim);
    let mut total = 0.0;
    for row1 in z1.chunks_exact(dim) {
        for row2 in z2.chunks_exact(dim) {
            total += f(distance(row1, row2));
        }
    }
    total / (n1 * n2) as f64
}

impl SoftThreshold {
    /// The match probability of two hedged embeddings by Monte Carlo (HIB eq. 5): the fast twin of
    /// [`exact::match_probability`](crate::hib::exact::match_probability) and
    /// [`exact::mixture_match_probability`](crate::hib::exact::mixture_match_probability).
    ///
    /// `n_samples` = `K` draws per mixture component, so `KC` per input (the paper's `K = 8` at
    /// `C = 1`), and the estimate averages all `(KC)²` pairs. The draws come from `rng`: first the
    /// `KC·D` standard normals of `x1` (component by component, draw by draw, coordinate by
    /// coordinate), then those of `x2`. It is unbiased; its variance is `A/K + B/K²` with
    /// `A, B ≥ 0` (a two-sample V-statistic), checked in `proofs/hib_monte_carlo.rs`.
    ///
    /// # Formula
    ///
    /// $$ \hat p(m \mid x_1, x_2) = \frac{1}{(KC)^2} \sum_{i=1}^{KC} \sum_{j=1}^{KC} \operatorname{sigmoid}\big(-a \lVert z_1^{(i)} - z_2^{(j)} \rVert + b\big), \quad z^{(i)} = \mu_{c(i)} + \sigma_{c(i)} \odot \varepsilon^{(i)} $$
    ///
    /// # Errors
    ///
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if the dimensions differ;
    /// [`Error::TooFew`](crate::Error::TooFew) for `n_samples = 0`;
    /// [`Error::OutOfDomain`](crate::Error::OutOfDomain) for `a ≤ 0`;
    /// [`Error::NotFinite`](crate::Error::NotFinite) for a non-finite `a` or `b`.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::hib::{HedgedEmbedding, SoftThreshold};
    /// use probdml::rand::SeedableRng;
    /// let x1 = HedgedEmbedding::from_gaussian(probdml::Gaussian { mu: &[0.0, 0.0], var: &[0.3, 0.3] })?;
    /// let x2 = HedgedEmbedding::from_gaussian(probdml::Gaussian { mu: &[1.0, 0.5], var: &[0.2, 0.4] })?;
    /// let mut rng = probdml::rand::rngs::StdRng::seed_from_u64(7);
    /// let threshold = SoftThreshold { a: 2.0, b: 1.0 };
    /// let p = threshold.match_probability(&x1, &x2, 8, &mut rng)?;
    /// let exact = probdml::hib::exact::mixture_match_probability(&x1, &x2, 2.0, 1.0)?;
    /// assert!((p - exact).abs() < 0.1); // one K = 8 estimate
    /// # Ok::<(), probdml::Error>(())
    /// ```
    ///
    /// Cited: HIB eq. (4)–(5), §2.2 (stratified sampling for MoG).
    pub fn match_probability<R: Rng + ?Sized>(
        &self,
        x1: &HedgedEmbedding,
        x2: &HedgedEmbedding,
        n_samples: usize,
        rng: &mut R,
    ) -> Result<f64> {
        let SoftThreshold { a, b } = *self;
        x1.check_same_dim("x2", x2)?;
        checks::samples(n_samples)?;
        checks::soft_threshold(a, b)?;
        let (mut z1, mut z2) = (Vec::new(), Vec::new());
        draw_stratified(x1, n_samples, rng, &mut z1);
        draw_stratified(x2, n_samples, rng, &mut z2);
        Ok(mean_over_pairs(&z1, &z2, x1.dim(), |d| sigmoid(-a * d + b)))
    }
}

/// The Monte Carlo match probability with the threshold's `a` and `b` given by position, where
/// a swap went unnoticed.
#[deprecated(
    since = "0.1.0",
    note = "name the threshold: `SoftThreshold { a, b }.match_probability(x1, x2, n_samples, rng)`"
)]
pub fn match_probability<R: Rng + ?Sized>(
    x1: &HedgedEmbedding,
    x2: &HedgedEmbedding,
    a: f64,
    b: f64,
    n_samples: usize,
    rng: &mut R,
) -> Result<f64> {
    SoftThreshold { a, b }.match_probability(x1, x2, n_samples, rng)
}

impl SoftThreshold {
    /// The self-mismatch `η(x) = 1 − p(m | x, x)` by Monte Carlo (HIB eq. 9 with eq. 5): two
    /// independent sets of `KC` draws from the same `p(z | x)`, all `(KC)²` pairs. Fast twin of
    /// [`exact::self_mismatch`](crate::hib::exact::self_mismatch).
    ///
    /// Each pair contributes `1 − sigmoid(−ad + b) = sigmoid(ad − b)`, summed as such (no
    /// cancellation when `η` is small).
    ///
    /// # Formula
    ///
    /// $$ \hat\eta(x) = \frac{1}{(KC)^2} \sum_{i,j} \operatorname{sigmoid}\big(a \lVert z^{(i)} - z'^{(j)} \rVert - b\big) $$
    ///
    /// `η ≥ 1 − sigmoid(b)`, with equality exactly for a point mass (HIB's "`η(x) ≥ 0`" is true
    /// but not sharp; `η = 0` for a point mass would be false).
    ///
    /// # Errors
    ///
    /// [`Error::TooFew`](crate::Error::TooFew) for `n_samples = 0`;
    /// [`Error::OutOfDomain`](crate::Error::OutOfDomain) for `a ≤ 0`;
    /// [`Error::NotFinite`](crate::Error::NotFinite) for a non-finite `a` or `b`.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::hib::{HedgedEmbedding, SoftThreshold};
    /// use probdml::rand::SeedableRng;
    /// let point = HedgedEmbedding::from_gaussian(probdml::Gaussian { mu: &[0.4, -1.0], var: &[0.0, 0.0] })?;
    /// let mut rng = probdml::rand::rngs::StdRng::seed_from_u64(1);
    /// let eta = SoftThreshold { a: 2.0, b: 1.5 }.self_mismatch(&point, 8, &mut rng)?;
    /// assert!((eta - 0.18242552380635635).abs() < 1e-15); // 1 − sigmoid(1.5)
    /// # Ok::<(), probdml::Error>(())
    /// ```
    ///
    /// Cited: HIB eq. (9), §2.4.
    pub fn self_mismatch<R: Rng + ?Sized>(
        &self,
        x: &HedgedEmbedding,
        n_samples: usize,
        rng: &mut R,
    ) -> Result<f64> {
        let SoftThreshold { a, b } = *self;
        checks::samples(n_samples)?;
        checks::soft_threshold(a, b)?;
        let (mut z1, mut z2) = (Vec::new(), Vec::new());
        draw_stratified(x, n_samples, rng, &mut z1);
        draw_stratified(x, n_samples, rng, &mut z2);
        Ok(mean_over_pairs(&z1, &z2, x.dim(), |d| sigmoid(a * d - b)))
    }
}

/// The Monte Carlo self-mismatch with the threshold's `a` and `b` given by position.
#[deprecated(
    since = "0.1.0",
    note = "name the threshold: `SoftThreshold { a, b }.self_mismatch(x, n_samples, rng)`"
)]
pub fn self_mismatch<R: Rng + ?Sized>(
    x: &HedgedEmbedding,
    a: f64,
    b: f64,
    n_samples: usize,
    rng: &mut R,
) -> Result<f64> {
    SoftThreshold { a, b }.self_mismatch(x, n_samples, rng)
}
