//! The crate's side of the Bayesian-triplet-loss row of `scripts/compare-peers.sh`: writes a
//! batch of B = 256 triplets at D = 2048 (isotropic variances, as the BTL listing takes them)
//! to `target/peers/btl_inputs.bin`, times `triplet::nll_gradient` on one thread (best of 20),
//! and writes the mean NLL and the full gradient to `target/peers/btl_crate.bin`.
//! `scripts/peers/btl_listing.py` runs the paper's PyTorch listing on the same inputs.
//!
//! Layout of both files: little-endian f64. Inputs: B, D, then μ_a, μ_p, μ_n (B×D row-major)
//! and σ²_a, σ²_p, σ²_n (B values each). Output: NLL, then ∂/∂μ_a, ∂/∂μ_p, ∂/∂μ_n (B×D) and
//! ∂/∂σ²_a, ∂/∂σ²_p, ∂/∂σ²_n summed over the D dimensions of each triplet (B values each: the
//! listing's isotropic variance is one parameter per embedding).

use std::fs;
use std::io::Write;
use std::time::Instant;

use probdml::triplet::{nll_gradient_into, TripletGradient};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const BATCH: usize = 256;
const DIM: usize = 2048;

fn write_all(path: &str, values: &[f64]) -> std::io::Result<()> {
    let mut file = fs::File::create(path)?;
    for v in values {
        file.write_all(&v.to_le_bytes())?;
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    fs::create_dir_all("target/peers")?;
    let mut rng = ChaCha8Rng::seed_from_u64(0x05_b7_1e);
    // Means of size s and variances of size s², with σ²_n = σ²_p in each triplet (otherwise
    // D(σ²_p − σ²_n) dominates E τ), so that z = (−E τ)/√Var τ is O(1): the listing's clamps
    // (σ + 1e−8, Φ + 1e−8) then change nothing visible and both sides compute the same function.
    let mut means = |scale: f64| -> Vec<f64> {
        (0..BATCH * DIM)
            .map(|_| scale * (rng.random::<f64>() - 0.5))
            .collect()
    };
    let (mu_a, mu_p, mu_n) = (means(0.5), means(0.5), means(0.5));
    let mut rng = ChaCha8Rng::seed_from_u64(0x05_b7_1f);
    let mut variances = || -> Vec<f64> {
        (0..BATCH)
            .map(|_| 0.02 * (0.5 + rng.random::<f64>()))
            .collect()
    };
    let (s_a, s_p) = (variances(), variances());
    let s_n = s_p.clone();
    let expand = |s: &[f64]| -> Vec<f64> {
        s.iter()
            .flat_map(|&v| std::iter::repeat_n(v, DIM))
            .collect()
    };
    let (var_a, var_p, var_n) = (expand(&s_a), expand(&s_p), expand(&s_n));

    let mut inputs = vec![BATCH as f64, DIM as f64];
    for part in [&mu_a, &mu_p, &mu_n, &s_a, &s_p, &s_n] {
        inputs.extend_from_slice(part);
    }
    write_all("target/peers/btl_inputs.bin", &inputs)?;

    let mut out = TripletGradient::default();
    let mut best = f64::INFINITY;
    for _ in 0..20 {
        let start = Instant::now();
        nll_gradient_into(
            &mu_a, &var_a, &mu_p, &var_p, &mu_n, &var_n, DIM, 0.0, &mut out,
        )?;
        best = best.min(start.elapsed().as_secs_f64());
    }
    let per_triplet =
        |g: &[f64]| -> Vec<f64> { g.chunks(DIM).map(|row| row.iter().sum()).collect() };
    let mut result = vec![out.nll];
    result.extend_from_slice(&out.mu_a);
    result.extend_from_slice(&out.mu_p);
    result.extend_from_slice(&out.mu_n);
    for g in [&out.var_a, &out.var_p, &out.var_n] {
        result.extend(per_triplet(g));
    }
    write_all("target/peers/btl_crate.bin", &result)?;
    println!("btl_crate_seconds={best:e}");
    println!("btl_crate_nll={:.17e}", out.nll);
    Ok(())
}
