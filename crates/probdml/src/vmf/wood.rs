//! Wood's (1994) rejection step for the cosine `w = μᵀX` of a vMF sample, one proposal at a
//! time ([`Wood::draw`], every single draw) or eight at a time in lanes ([`Cosines`], the
//! cosines of [`sample_n_into`](super::VonMisesFisher::sample_n_into)).
//!
//! **One proposal** (module docs of the sampler): `Z = G₁/(G₁ + G₂)` with `Gᵢ ~ Gamma(a, 1)`,
//! `a = (M − 1)/2` (rand_distr's `Gamma`), and a uniform `U`, accepted when
//! `2κb(G₂ − G₁)/((1+b)(G₂ + bG₁)) + (M−1) ln((1+b)(G₁+G₂)/(2(G₂ + bG₁))) ≥ ln U`.
//!
//! **Eight proposals** (`M ≥ 3`, so `a ≥ 1`). A round draws the sixteen Gamma variates by
//! Marsaglia & Tsang's (2000) method, the one rand_distr's `Gamma` uses for `a ≥ 1`:
//! `d = a − ⅓`, `c = 1/√(9d)`, a standard normal `x` and a uniform `u`, `v = (1 + cx)³`,
//! accepted as `G = dv` when `1 + cx > 0` and `u < 1 − 0.0331x⁴` (the squeeze, which takes
//! nearly every draw) or `ln u < x²/2 + d(1 − v + ln v)`. A lane whose two variates are both
//! accepted then runs Wood's test; the others are dropped, as is a rejected proposal. The test
//! takes its two logarithms from [`ln_normal_f64`] (straight-line code, so the lanes
//! vectorise; absolute error `< 2·10⁻¹⁶` plus the rounding of the result) and is decided there
//! unless the two sides are within `10⁻¹²` times the sum of their terms' magnitudes (with
//! `M − 1` added for the error of the logarithm it multiplies), where the scalar test above
//! decides instead. Beyond that margin the lanes' and the scalar test's sides differ by far
//! less than the margin, so the lanes accept exactly the proposals that the scalar test
//! accepts.
//!
//! **Random stream of a round**: sixteen normals by one call of the crate's ziggurat
//! (`ziggurat::fill_standard_normal`), normal `k` for variate `k` (lanes 0–7 are `G₁`, 8–15
//! are `G₂`); then 24 words by one `fill`, words `0–15` the Gamma uniforms and `16–23` Wood's,
//! each `u = (word >> 11)·2⁻⁵³` (a squeeze miss's full test reuses its `u`). The accepted
//! cosines are used in lane order; a round runs whenever one is needed and none is left, and
//! those left at the end of a call are dropped.

use rand::distr::Distribution;
use rand::{Rng, RngExt};
use rand_distr::Gamma;

use crate::special::logarithm::ln_normal_f64;
use crate::ziggurat::{fill_blocks, uniform, BLOCK};

/// Proposals per round of [`Cosines`].
const LANES: usize = 8;

/// The relative margin within which the lanes leave Wood's decision to the scalar test: far
/// above the logarithms' error (`ln_normal_f64`, `2·10⁻¹⁶` absolute plus half an ulp) times
/// the `M − 1` that multiplies one of them, and the roundings of the sum.
const MARGIN: f64 = 1e-12;

/// Wood's constants, precomputed.
#[derive(Debug, Clone)]
pub(super) struct Wood {
    b: f64,
    /// `2κb/(1 + b)`.
    slope: f64,
    /// `M − 1`.
    m1: f64,
    /// `ln((1 + b)/2)`.
    ln_half_one_plus_b: f64,
    gamma: Gamma<f64>,
    /// Marsaglia & Tsang's `d = a − ⅓` and `c = 1/√(9d)`, `a = (M − 1)/2` (used for `a ≥ 1`).
    mt_d: f64,
    mt_c: f64,
}

impl Wood {
    #[inline(always)]
    pub(super) fn new(dim: usize, kappa: f64) -> Self {
        let m1 = (dim - 1) as f64;
        // b = (M−1)/(2κ + √((M−1)² + 4κ²)) and κb; above 10³⁰⁰ the same quantities are written
        // with t = (M−1)/(2κ) ≤ 1 so that 2κ cannot overflow (at κ = f64::MAX the first form
        // gives b = 0, κb = NaN, and the rejection loop would never accept).
        let (b, kappa_b) = if kappa < 1e300 {
            let b = m1 / (2.0 * kappa + m1.hypot(2.0 * kappa));
            (b, kappa * b)
        } else {
            let t = 0.5 * m1 / kappa;
            let d = 1.0 + t.hypot(1.0);
            (t / d, 0.5 * m1 / d)
        };
        let mt_d = 0.5 * m1 - 1.0 / 3.0;
        Self {
            b,
            slope: 2.0 * kappa_b / (1.0 + b),
            m1,
            ln_half_one_plus_b: b.ln_1p() - std::f64::consts::LN_2,
            gamma: Gamma::new(0.5 * m1, 1.0).expect("shape (M−1)/2 > 0"),
            mt_d,
            mt_c: 1.0 / (9.0 * mt_d).sqrt(),
        }
    }

    /// One accepted `(W, √(1 − W²))`.
    #[inline(always)]
    pub(super) fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> (f64, f64) {
        loop {
            let g1 = self.gamma.sample(rng);
            let g2 = self.gamma.sample(rng);
            let u: f64 = rng.random();
            if let Some(accepted) = self.try_proposal(g1, g2, u) {
                return accepted;
            }
        }
    }

    /// Wood's test of the proposal `Z = G₁/(G₁ + G₂)` with the uniform `u`:
    /// `Some((W, √(1 − W²)))` if accepted.
    #[inline(always)]
    fn try_proposal(&self, g1: f64, g2: f64, u: f64) -> Option<(f64, f64)> {
        let den = self.b.mul_add(g1, g2);
        if den.is_nan() || den <= 0.0 {
            return None;
        }
        let exponent = self.slope * (g2 - g1) / den
            + self.m1 * (self.ln_half_one_plus_b + ((g1 + g2) / den).ln());
        (exponent >= u.ln()).then(|| self.cosine(g1, g2, den))
    }

    /// `(W, √(1 − W²))` of the proposal, free of cancellation (sampler module docs).
    #[inline(always)]
    fn cosine(&self, g1: f64, g2: f64, den: f64) -> (f64, f64) {
        let w = (-self.b).mul_add(g1, g2) / den;
        let r = 2.0 * (self.b * g1 * g2).sqrt() / den;
        (w, r)
    }
}

/// Wood's cosines drawn eight proposals at a time (module docs), handed out one by one.
pub(super) struct Cosines {
    w: [f64; LANES],
    r: [f64; LANES],
    len: usize,
    next: usize,
}

impl Cosines {
    /// None drawn yet.
    #[inline(always)]
    pub(super) fn new() -> Self {
        Self {
            w: [0.0; LANES],
            r: [0.0; LANES],
            len: 0,
            next: 0,
        }
    }

    /// The next accepted `(W, √(1 − W²))`, running rounds until one is there; `M ≥ 3`.
    #[inline(always)]
    pub(super) fn next<R: Rng + ?Sized>(
        &mut self,
        wood: &Wood,
        rng: &mut R,
        words: &mut [u64; BLOCK],
    ) -> (f64, f64) {
        while self.next == self.len {
            self.round(wood, rng, words);
        }
        let k = self.next;
        self.next += 1;
        (self.w[k], self.r[k])
    }

    /// One round of eight proposals (module docs); keeps the accepted ones, in lane order.
    #[inline(always)]
    fn round<R: Rng + ?Sized>(&mut self, wood: &Wood, rng: &mut R, words: &mut [u64; BLOCK]) {
        let mut x = [0.0; 2 * LANES];
        fill_blocks(rng, &mut x, words);
        let mut bits = [0u64; 3 * LANES];
        rng.fill(&mut bits);
        let u: [f64; 3 * LANES] = bits.map(uniform);

        // The Gamma variates: the squeeze in lanes, its rare misses by the full test.
        let (mut v, mut x_sqr) = ([0.0; 2 * LANES], [0.0; 2 * LANES]);
        let (mut positive, mut gamma_ok) = ([false; 2 * LANES], [false; 2 * LANES]);
        for k in 0..2 * LANES {
            let v_cbrt = wood.mt_c.mul_add(x[k], 1.0);
            v[k] = v_cbrt * v_cbrt * v_cbrt;
            x_sqr[k] = x[k] * x[k];
            positive[k] = v_cbrt > 0.0;
            gamma_ok[k] = positive[k] && u[k] < 1.0 - 0.0331 * x_sqr[k] * x_sqr[k];
        }
        for k in 0..2 * LANES {
            if !gamma_ok[k] && positive[k] {
                gamma_ok[k] = u[k].ln() < 0.5 * x_sqr[k] + wood.mt_d * (1.0 - v[k] + v[k].ln());
            }
        }
        let g = v.map(|v| wood.mt_d * v);

        // Wood's test in lanes: `lhs − ln u` against the margin (module docs).
        let (mut w, mut r) = ([0.0; LANES], [0.0; LANES]);
        let (mut accept, mut decided) = ([false; LANES], [false; LANES]);
        for l in 0..LANES {
            let (g1, g2, u) = (g[l], g[l + LANES], u[2 * LANES + l]);
            let den = wood.b.mul_add(g1, g2);
            let linear = wood.slope * (g2 - g1) / den;
            let ln_q = ln_normal_f64((g1 + g2) / den);
            let ln_u = ln_normal_f64(u);
            let log_term = wood.m1 * (wood.ln_half_one_plus_b + ln_q);
            let gap = (linear + log_term) - ln_u;
            // The `M − 1` in front of ln q multiplies its absolute error too: hence the 1.
            let scale = 1.0
                + linear.abs()
                + wood.m1 * (1.0 + wood.ln_half_one_plus_b.abs() + ln_q.abs())
                + ln_u.abs();
            accept[l] = gap > 0.0;
            decided[l] = gap.abs() > MARGIN * scale;
            (w[l], r[l]) = wood.cosine(g1, g2, den);
        }
        self.len = 0;
        self.next = 0;
        for l in 0..LANES {
            if !(gamma_ok[l] && gamma_ok[l + LANES]) {
                continue;
            }
            let (g1, g2, u) = (g[l], g[l + LANES], u[2 * LANES + l]);
            // u = 0 (ln u = −∞ accepts) is below `ln_normal_f64`'s domain: the scalar test.
            let accepted = if decided[l] && u > 0.0 {
                accept[l]
            } else {
                wood.try_proposal(g1, g2, u).is_some()
            };
            if accepted {
                self.w[self.len] = w[l];
                self.r[self.len] = r[l];
                self.len += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// The lanes' decision equals the scalar test's on every proposal of 20 000 rounds, and
    /// both decide some proposals each way, over M and κ where Wood's acceptance is low and
    /// high (the lanes' Gamma variates and uniforms recomputed here from the same words).
    #[test]
    fn lanes_decide_as_the_scalar_test() {
        for (dim, kappa) in [(3usize, 0.5), (3, 50.0), (10, 5.0), (128, 50.0), (128, 1e4)] {
            let wood = Wood::new(dim, kappa);
            let (mut accepted, mut rejected) = (0, 0);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(dim as u64);
            let mut words = [0; BLOCK];
            for _ in 0..20_000 {
                let mut replay = rng.clone();
                let mut cosines = Cosines::new();
                cosines.round(&wood, &mut rng, &mut words);
                // The same round by hand: the scalar test on every proposal whose variates
                // pass Marsaglia & Tsang's full test (squeeze or not).
                let mut x = [0.0; 2 * LANES];
                fill_blocks(&mut replay, &mut x, &mut words);
                let mut bits = [0u64; 3 * LANES];
                replay.fill(&mut bits);
                let gamma = |k: usize| {
                    let v_cbrt = wood.mt_c.mul_add(x[k], 1.0);
                    let v = v_cbrt * v_cbrt * v_cbrt;
                    let (x_sqr, u) = (x[k] * x[k], uniform(bits[k]));
                    let ok = v_cbrt > 0.0
                        && (u < 1.0 - 0.0331 * x_sqr * x_sqr
                            || u.ln() < 0.5 * x_sqr + wood.mt_d * (1.0 - v + v.ln()));
                    ok.then_some(wood.mt_d * v)
                };
                let mut want = vec![];
                for l in 0..LANES {
                    let (Some(g1), Some(g2)) = (gamma(l), gamma(l + LANES)) else {
                        continue;
                    };
                    match wood.try_proposal(g1, g2, uniform(bits[2 * LANES + l])) {
                        Some(wr) => want.push(wr),
                        None => rejected += 1,
                    }
                }
                accepted += want.len();
                let got: Vec<(f64, f64)> = (0..cosines.len)
                    .map(|k| (cosines.w[k], cosines.r[k]))
                    .collect();
                assert_eq!(got, want, "M = {dim}, κ = {kappa}");
            }
            assert!(
                accepted > 1000 && rejected > 0,
                "M = {dim}, κ = {kappa}: {accepted}, {rejected}"
            );
        }
    }
}
