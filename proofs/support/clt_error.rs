//! The CLT-versus-exact comparison of chapter 05, shared by `proofs/triplet_likelihood.rs` (which
//! prints and checks the table) and `examples/triplet_clt_plot.rs` (which draws it).
//!
//! For each dimension `D`, [`TRIPLETS`] seeded random triplets: means uniform in
//! `[−1, 1]/√D` per coordinate (embeddings of norm ≈ 0.6, as under the `N(0, I/D)` prior),
//! variances uniform in `[0.05, 1]/D`. Each triplet's exact law of `τ`
//! (`triplet::exact::tau_distribution`) is evaluated at the thresholds `x = E τ + k·√Var τ` for
//! `k ∈ THRESHOLDS`, where the CLT says `P(τ < x) = Φ(k)`; the row reports the largest
//! `|Φ(k) − P|` and `|ln Φ(k) − ln P|` over the triplets and thresholds.
#![allow(dead_code)]

use probdml::special::log_normal_cdf;
use probdml::triplet::exact;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The dimensions of the table in book chapter 05.
pub const DIMS: [usize; 9] = [1, 2, 4, 8, 16, 32, 128, 512, 2048];
/// Thresholds in standard deviations from the mean.
pub const THRESHOLDS: [f64; 8] = [-6.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0];
/// Random triplets per dimension.
pub const TRIPLETS: usize = 4;

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    pub dim: usize,
    /// max |Φ(k) − P(τ < E τ + k σ)|.
    pub max_abs_p: f64,
    /// max |ln Φ(k) − ln P(τ < E τ + k σ)|.
    pub max_abs_ln_p: f64,
    /// max |…| in ln P restricted to k ≥ −2 (the body of the distribution).
    pub max_abs_ln_p_body: f64,
}

/// Six vectors of length `dim` for one random triplet.
pub fn random_triplet(dim: usize, rng: &mut ChaCha8Rng) -> [Vec<f64>; 6] {
    let scale = 1.0 / (dim as f64).sqrt();
    std::array::from_fn(|k| {
        (0..dim)
            .map(|_| {
                if k % 2 == 0 {
                    rng.random_range(-1.0..1.0) * scale
                } else {
                    rng.random_range(0.05..1.0) * scale * scale
                }
            })
            .collect()
    })
}

/// The row for `dim`.
pub fn row(dim: usize) -> Row {
    let mut rng = ChaCha8Rng::seed_from_u64(0x0005_0c17 + dim as u64);
    let mut out = Row {
        dim,
        max_abs_p: 0.0,
        max_abs_ln_p: 0.0,
        max_abs_ln_p_body: 0.0,
    };
    for _ in 0..TRIPLETS {
        let t = random_triplet(dim, &mut rng);
        let tau = exact::tau_distribution(&t[0], &t[1], &t[2], &t[3], &t[4], &t[5]).unwrap();
        let (mean, sd) = (tau.mean(), tau.variance().sqrt());
        for k in THRESHOLDS {
            let ln_exact = tau.ln_cdf(mean + k * sd);
            let ln_clt = log_normal_cdf(k);
            let dp = (ln_clt.exp() - ln_exact.exp()).abs();
            let dln = (ln_clt - ln_exact).abs();
            out.max_abs_p = out.max_abs_p.max(dp);
            out.max_abs_ln_p = out.max_abs_ln_p.max(dln);
            if k >= -2.0 {
                out.max_abs_ln_p_body = out.max_abs_ln_p_body.max(dln);
            }
        }
    }
    out
}
