//! The reflection that carries samples drawn around e₁ to samples around μ (book chapter 02: a
//! Householder reflection, never Gram–Schmidt against a random vector), and the placement of a
//! drawn cosine w = μᵀX on the sphere, for Wood's sampler. Its inverse-CDF twin places the
//! sample by projecting a Gaussian onto μ^⊥ instead, so that the proofs compare this code too.

use rand::Rng;

#[cfg(test)]
use crate::compensated::dot2;
use crate::compensated::{
    norm2, sum_sq2, two_prod, two_sum, ExtractedSumSqAndDot, EXTRACTION_LANES as LANES,
};
#[cfg(test)]
use crate::ziggurat::fill_standard_normal;
use crate::ziggurat::{fill_blocks, BLOCK, MAX_ABS};

/// Q = −s(I − τuuᵀ) with u = μ + s‖μ‖e₁ and s = sign(μ₀), so that Q e₁ = μ/‖μ‖; choosing the
/// sign of μ₀ avoids cancellation in u₀.
#[derive(Debug, Clone)]
pub(crate) struct ReflectionToMean {
    u: Vec<f64>,
    tau: f64,
    sign: f64,
    /// The offset of the dot product `u_{1:}ᵀv` in [`ExtractedSumSqAndDot`]: a power of two at
    /// least twice the largest `Σ|vᵢuᵢ|` a lane can hold, `MAX_ABS·√(lane length)·‖u_{1:}‖`.
    k_dot: f64,
}

/// The offset of `‖v‖²` in [`ExtractedSumSqAndDot`]: a power of two at least `MAX_ABS²`.
const K_SQ: f64 = 256.0;
const _: () = assert!(MAX_ABS * MAX_ABS <= K_SQ);

impl ReflectionToMean {
    /// For a unit (or nearly unit) `mu` with at least one entry.
    #[inline(always)]
    pub(crate) fn new(mu: &[f64]) -> Self {
        let sign = if mu[0] >= 0.0 { 1.0 } else { -1.0 };
        let mut u = mu.to_vec();
        u[0] += sign * norm2(mu);
        let tau = 2.0 / sum_sq2(&u);
        // Cauchy–Schwarz in each lane, with a margin for the rounding of the norm; the smallest
        // power of two above (doubling the exponent field).
        let lane_len = (mu.len() - 1).div_ceil(LANES).max(1) as f64;
        let bound = 2.0 * MAX_ABS * lane_len.sqrt() * norm2(&u[1..]).max(1.0) * 1.01;
        let k_dot = f64::from_bits(((bound.to_bits() >> 52) + 1) << 52);
        Self {
            u,
            tau,
            sign,
            k_dot,
        }
    }

    /// `out ← Q out`.
    #[cfg(test)]
    pub(crate) fn apply(&self, out: &mut [f64]) {
        let alpha = self.tau * dot2(&self.u, out);
        let s = self.sign;
        for (x, &u) in out.iter_mut().zip(&self.u) {
            *x = -s * (-alpha).mul_add(u, *x);
        }
    }

    /// Writes `X = Q y`, `y = (w, r v/‖v‖)` with `v` standard normal in ℝ^{M−1} (uniform on the
    /// unit sphere once normalised): `r = √(1 − w²)` is passed in by the caller (who can form it
    /// without cancellation), and `out.len() = M ≥ 2`.
    ///
    /// The normals are drawn into `out[1..]` in one call of the ziggurat
    /// ([`fill_standard_normal`]'s body), then one pass folds them into `‖v‖²` and `u_{1:}ᵀv`
    /// (compensated to Dot2's accuracy by error-free extraction, [`ExtractedSumSqAndDot`], in
    /// eight lanes: every normal is below `MAX_ABS`), so that `uᵀy = u₀w + c·u_{1:}ᵀv` with
    /// `c = r/‖v‖` needs no pass over `y`; a last pass writes `X_i = −s(c vᵢ − τ(uᵀy) uᵢ)`. (Scaling `v`
    /// first and reflecting it after costs two more passes.) The products `u₀w` and
    /// `c·(u_{1:}ᵀv)` are summed error-free, so `uᵀy` is as accurate as the compensated dot
    /// product over `y`.
    #[inline(always)]
    pub(crate) fn place<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        (w, r): (f64, f64),
        out: &mut [f64],
        words: &mut [u64; BLOCK],
    ) {
        let tail = &mut out[1..];
        let u_tail = &self.u[1..];
        let (ss, dot) = loop {
            fill_blocks(rng, tail, words);
            let mut lanes = ExtractedSumSqAndDot::new(K_SQ, self.k_dot);
            lanes.push_slices(tail, u_tail);
            let (ss, dot) = lanes.finish();
            if ss > 0.0 {
                break (ss, dot);
            }
        };
        let c = r / ss.sqrt();
        let (p0, e0) = two_prod(self.u[0], w);
        let (p1, e1) = two_prod(c, dot);
        let (h, l) = two_sum(p0, p1);
        let alpha = self.tau * (h + (l + (e0 + e1)));
        // X = −s(y − αu) with s = ±1, written as `(sα)uᵢ + (−sc)vᵢ`: negating an operand of a
        // correctly rounded operation negates its result, so these are the same bits.
        let (s_alpha, minus_s_c) = (self.sign * alpha, -self.sign * c);
        out[0] = s_alpha.mul_add(self.u[0], -self.sign * w);
        for (x, &u) in out[1..].iter_mut().zip(u_tail) {
            *x = s_alpha.mul_add(u, minus_s_c * *x);
        }
    }
}

/// Writes X = (w, r v) with v uniform on the unit sphere of ℝ^{M−1} (normalised standard
/// normals), `r = √(1 − w²)` passed in by the caller (who can form it without cancellation).
#[cfg(test)]
pub(crate) fn place_around_e1<R: Rng + ?Sized>(rng: &mut R, w: f64, r: f64, out: &mut [f64]) {
    let tail = &mut out[1..];
    let ss = loop {
        fill_standard_normal(rng, tail);
        let ss = sum_sq2(tail);
        if ss > 0.0 {
            break ss;
        }
    };
    let scale = r / ss.sqrt();
    tail.iter_mut().for_each(|v| *v *= scale);
    out[0] = w;
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The one-pass placement and reflection against scaling the normals, then reflecting them
    /// (the same random stream): a few ulps apart, and unit vectors to 10⁻¹⁵.
    #[test]
    fn place_is_scaling_then_reflecting() {
        for dim in [3, 4, 5, 128, 2048] {
            let mut mu: Vec<f64> = (0..dim).map(|i| (i as f64 * 0.7 + 0.3).cos()).collect();
            let norm = norm2(&mu);
            mu.iter_mut().for_each(|v| *v /= norm);
            let reflection = ReflectionToMean::new(&mu);
            let (mut fused, mut passes) = (vec![0.0; dim], vec![0.0; dim]);
            for (i, w) in [-0.999_f64, -0.3, 0.0, 0.5, 0.999_999]
                .into_iter()
                .enumerate()
            {
                let r = ((1.0 - w) * (1.0 + w)).sqrt();
                reflection.place(
                    &mut ChaCha8Rng::seed_from_u64(i as u64),
                    (w, r),
                    &mut fused,
                    &mut [0; BLOCK],
                );
                place_around_e1(&mut ChaCha8Rng::seed_from_u64(i as u64), w, r, &mut passes);
                reflection.apply(&mut passes);
                for (a, b) in fused.iter().zip(&passes) {
                    assert!(
                        (a - b).abs() <= 4.0 * f64::EPSILON,
                        "M = {dim}, w = {w}: {a} vs {b}"
                    );
                }
                assert!((norm2(&fused) - 1.0).abs() <= 1e-15, "M = {dim}, w = {w}");
            }
        }
    }

    /// The dot product's offset: a power of two, at least twice the Cauchy–Schwarz bound
    /// `MAX_ABS·√(lane length)·‖u_{1:}‖` of a lane's `Σ|vᵢuᵢ|` (and never below it when the
    /// bound is itself a power of two), for short, long and odd dimensions.
    #[test]
    fn dot_offset_is_a_power_of_two_above_the_lane_bound() {
        for dim in [2, 3, 9, 10, 128, 2048, 100_001] {
            for mu0 in [1.0_f64, 0.6, 0.0, -0.8] {
                let mut mu = vec![0.0; dim];
                mu[0] = mu0;
                mu[dim - 1] += (1.0 - mu0 * mu0).sqrt();
                let k = ReflectionToMean::new(&mu).k_dot;
                assert_eq!(k.to_bits() & ((1u64 << 52) - 1), 0, "M = {dim}: {k}");
                let lane_len = (dim - 1).div_ceil(LANES).max(1) as f64;
                let bound = MAX_ABS * lane_len.sqrt() * norm2(&mu[1..]).max(1.0);
                assert!(
                    k >= 2.0 * bound && k <= 8.0 * bound,
                    "M = {dim}: {k} vs {bound}"
                );
            }
        }
    }
}
