//! Mean direction and mean resultant length of unit vectors (LAM App. C), and the LAM
//! uncertainty summary `1/κ̂`.

use super::input::{check_samples, MeanResultant};
use crate::compensated::norm2;
use crate::error::{Error, Result};

/// Rows per naive block in the cascade sum.
const BLOCK_ROWS: usize = 32;

/// `Σ xᵢ` by cascade (pairwise) summation over blocks of 32 rows: error
/// `≤ γ_{32 + ⌈log₂(n/32)⌉} Σ|xᵢ|` per coordinate instead of `γ_n Σ|xᵢ|`.
fn resultant_sum(samples: &[f64], dim: usize) -> Vec<f64> {
    let mut levels: Vec<Option<Vec<f64>>> = Vec::new();
    let mut spare: Vec<Vec<f64>> = Vec::new();
    for block in samples.chunks(BLOCK_ROWS * dim) {
        let mut acc = spare.pop().unwrap_or_else(|| vec![0.0; dim]);
        acc.iter_mut().for_each(|a| *a = 0.0);
        for row in block.chunks_exact(dim) {
            for (a, &x) in acc.iter_mut().zip(row) {
                *a += x;
            }
        }
        let mut level = 0;
        loop {
            if level == levels.len() {
                levels.push(None);
            }
            match levels[level].take() {
                None => {
                    levels[level] = Some(acc);
                    break;
                }
                Some(prev) => {
                    for (a, p) in acc.iter_mut().zip(&prev) {
                        *a += p;
                    }
                    spare.push(prev);
                    level += 1;
                }
            }
        }
    }
    let mut total = vec![0.0; dim];
    for partial in levels.into_iter().flatten() {
        for (t, p) in total.iter_mut().zip(&partial) {
            *t += p;
        }
    }
    total
}

/// `(Σxᵢ, ‖Σxᵢ‖, n)` after validation.
fn resultant(samples: &[f64], dim: usize) -> Result<(Vec<f64>, f64, usize)> {
    let (n, samples) = check_samples(samples, dim)?;
    let sum = resultant_sum(&samples, dim);
    let norm = norm2(&sum);
    Ok((sum, norm, n))
}

/// Builds the [`MeanResultant`] from a resultant vector, or fails when it is zero.
pub(crate) fn finish(sum: Vec<f64>, norm: f64, n: usize) -> Result<MeanResultant> {
    if norm == 0.0 {
        return Err(Error::OutOfDomain {
            arg: "samples",
            value: 0.0,
            rule: "the resultant Σx is zero, so the mean direction is undefined",
        });
    }
    let direction = sum.into_iter().map(|s| s / norm).collect();
    Ok(MeanResultant {
        direction,
        rbar: norm / n as f64,
        n,
    })
}

/// Mean direction and mean resultant length of `n` unit vectors in `ℝ^M`.
///
/// # Formula
///
/// $$ \hat\mu = \frac{\sum_i x_i}{\lVert\sum_i x_i\rVert},\qquad
///    \bar R = \frac{\lVert\sum_i x_i\rVert}{n} $$
///
/// (LAM App. C; Sra 2012 §2). `samples` is row-major `n × dim`. The sum is a cascade (pairwise)
/// sum over blocks of 32 rows, so its error grows like `log₂ n`, not `n`.
///
/// # Errors
///
/// * [`Error::InvalidDimension`] if `dim < 2`;
/// * [`Error::TooFew`] if `samples` is empty;
/// * [`Error::DimensionMismatch`] if `len(samples)` is not a multiple of `dim`;
/// * [`Error::NotFiniteElement`] (with its flat index) / [`Error::NotUnitRow`] (with its row)
///   if a row is not a finite unit vector (within
///   [`unit_norm_tolerance`](super::unit_norm_tolerance));
/// * [`Error::OutOfDomain`] if `Σxᵢ = 0` exactly (the direction is undefined; `R̄ = 0`).
///
/// # Examples
///
/// ```
/// use probdml::vmf::mean_resultant;
/// let s = 0.5_f64.sqrt();
/// let samples = [1.0, 0.0, s, s, 0.0, 1.0];
/// let mr = mean_resultant(&samples, 2).unwrap();
/// // Σx = (1 + s, 1 + s): direction (s, s), R̄ = √2 (1 + s) / 3.
/// assert!((mr.direction[0] - s).abs() < 1e-16 && (mr.direction[1] - s).abs() < 1e-16);
/// assert!((mr.rbar - 2.0_f64.sqrt() * (1.0 + s) / 3.0).abs() < 1e-15);
/// assert_eq!(mr.n, 3);
/// assert!(mean_resultant(&[1.0, 0.0, -1.0, 0.0], 2).is_err());
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn mean_resultant(samples: &[f64], dim: usize) -> Result<MeanResultant> {
    let (sum, norm, n) = resultant(samples, dim)?;
    finish(sum, norm, n)
}

/// LAM's uncertainty summary: `1/κ̂` with Banerjee's `κ̂₀` (what LAM reports; LAM App. C).
pub(crate) fn inverse_banerjee(dim: usize, rbar: f64) -> f64 {
    if rbar >= 1.0 {
        return 0.0;
    }
    if rbar == 0.0 {
        return f64::INFINITY;
    }
    let m = dim as f64;
    (1.0 - rbar) * (1.0 + rbar) / (rbar * (m - rbar * rbar))
}

/// LAM's uncertainty of an embedding from `S` sampled embeddings: `1/κ̂₀`, the inverse of
/// Banerjee's concentration estimate from their mean resultant length.
///
/// # Formula
///
/// $$ u = \frac{1}{\hat\kappa_0} = \frac{(1-\bar R)(1+\bar R)}{\bar R\\,(M - \bar R^2)} $$
///
/// (LAM App. C: "embed through S sampled networks, fit a vMF, report 1/κ̂"; κ̂₀ is
/// [`kappa_sra`](super::kappa_sra)`(M, R̄, 0)`). It is `+∞` when `Σx = 0` (`R̄ = 0`, no
/// concentration) and `0` when all samples coincide (`R̄` rounds to 1).
///
/// # Errors
///
/// As [`mean_resultant`], except that `Σx = 0` is not an error.
///
/// # Examples
///
/// ```
/// use probdml::vmf::{kappa_sra, lam_uncertainty, mean_resultant};
/// let s = 0.6_f64;
/// let samples = [1.0, 0.0, 0.8, s, 0.8, -s];
/// let u = lam_uncertainty(&samples, 2).unwrap();
/// let rbar = mean_resultant(&samples, 2).unwrap().rbar; // (1 + 1.6)/3
/// assert!((u - 1.0 / kappa_sra(2, rbar, 0).unwrap()).abs() < 1e-15);
/// assert_eq!(lam_uncertainty(&[1.0, 0.0, -1.0, 0.0], 2).unwrap(), f64::INFINITY);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn lam_uncertainty(samples: &[f64], dim: usize) -> Result<f64> {
    let (_, norm, n) = resultant(samples, dim)?;
    Ok(inverse_banerjee(dim, norm / n as f64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The cascade's error bound, `γ_{32 + ⌈log₂(n/32)⌉} Σ|xᵢ|` per coordinate, against the
    /// sum in double-double (TwoSum, Knuth): on 2²⁰ rows near `e₁`, and on 2²⁰ copies of one
    /// row, where pairwise sums of equal blocks are exact while a running sum of the blocks
    /// rounds the same way at every step (planted: 3.0·10⁻⁸ off, nine times the bound; on the
    /// rows near `e₁`, 1.3 times).
    #[test]
    fn resultant_sum_meets_the_cascade_bound() {
        let (n, dim) = (1usize << 20, 3);
        let mut rng = ChaCha8Rng::seed_from_u64(93);
        let mut near_e1 = Vec::with_capacity(n * dim);
        for _ in 0..n {
            let (a, b) = (rng.random_range(-0.1..0.1), rng.random_range(-0.1..0.1));
            let norm = (1.0f64 + a * a + b * b).sqrt();
            near_e1.extend([1.0 / norm, a / norm, b / norm]);
        }
        let one_row = [0.6f64, 0.0, 0.8].repeat(n);
        for samples in [one_row, near_e1] {
            within_the_cascade_bound(&samples, dim);
        }
    }

    fn within_the_cascade_bound(samples: &[f64], dim: usize) {
        let n = samples.len() / dim;
        let sum = resultant_sum(samples, dim);
        let depth = BLOCK_ROWS as f64 + (n as f64 / BLOCK_ROWS as f64).log2().ceil();
        let gamma = depth * f64::EPSILON / 2.0 / (1.0 - depth * f64::EPSILON / 2.0);
        for j in 0..dim {
            let (mut hi, mut lo, mut abs) = (0.0f64, 0.0f64, 0.0f64);
            for row in samples.chunks_exact(dim) {
                let x = row[j];
                let s = hi + x;
                let v = s - hi;
                lo += (hi - (s - v)) + (x - v);
                hi = s;
                abs += x.abs();
            }
            let err = (sum[j] - (hi + lo)).abs();
            assert!(
                err <= gamma * abs,
                "coordinate {j}: error {err:e}, bound {:e}",
                gamma * abs
            );
        }
    }
}
