//! # The law of the EL-nivMF Monte Carlo draws, with measured power (nivMF §3; Wood 1994)
//!
//! **Claim.** `nivmf::el_nivmf_draws(κ, M, n, seed, row)` returns pairs `(w_i, g_i)` from
//! which the EL-nivMF loss builds `x_i = w_i ẑ + √(1 − w_i²) t_i/‖t_i‖`,
//! `t_i = g_i − (ẑᵀg_i)ẑ`; the claim is `x_i ~ vMF(ẑ, κ)` for every unit `ẑ` — the whole law —
//! with `g_i ~ N(0, I_M)`.
//!
//! **Test.** The whole-law vMF battery of `support/vmf_law.rs` (`W`, a tangent coordinate, the
//! azimuth, the tangent given `W`; exact CDFs from `vmf::exact::CosineMarginal`) on the `x_i`
//! for a random `ẑ`, and the Gaussian battery of `support/gaussian_law.rs` on the `g_i`
//! (marginals, pairs, `‖g‖²` against `χ²_M`), each KS at `α = SAMPLER_ALPHA = 10⁻⁶`, at
//! `(M, κ, n) = (4, 10, 200 000)` and `(10, 50, 50 000)`, fixed seeds.
//!
//! **Negative control:** draws at `1.03κ` must be rejected. `δ`, the KS distance of `W`'s law
//! under `1.03κ` from the claimed one (maximum over 4000 quantiles), and the power bound
//! `1 − 2e^{−2n(δ−c)²}` (`support/ks_power.rs`, Dvoretzky–Kiefer–Wolfowitz–Massart):
//!
//! | `M` | `κ` | `n` | `δ` | power ≥ |
//! |---|---|---|---|---|
//! | 4 | 10 | 200 000 | 1.33·10⁻² | 1 − 10⁻⁸ |
//! | 10 | 50 | 50 000 | 2.37·10⁻² | 0.999997 |
//!
//! The control asserts its bound before it runs. The `n` for power `0.999` are 122 170 and 38 442. Run time:
//! 13 s for the whole target (`cargo test --release --test proofs -- nivmf_el_draws_law::`, two shared
//! cores).

use crate::gaussian_law;
use crate::ks_power;
use crate::statistic;
use crate::vmf_law;
use gaussian_law::gaussian_statistics;
use ks_power::{distance_on_grid, power_lower_bound};
use probdml::nivmf::el_nivmf_draws;
use probdml::vmf::exact::CosineMarginal;
use probdml_proofs::registry::budget::SAMPLER_ALPHA;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use statistic::{describe, smallest_p, Statistic};
use vmf_law::{vmf_statistics, TangentFrame};

const POWER: f64 = 0.999;
/// `(M, κ, n)`.
const CELLS: [(usize, f64, usize); 2] = [(4, 10.0, 200_000), (10, 50.0, 50_000)];

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn gaussian(dim: usize, rng: &mut ChaCha8Rng) -> Vec<f64> {
    (0..dim).map(|_| rng.sample(StandardNormal)).collect()
}

/// `x = wẑ + √(1 − w²) t/‖t‖`, `t = g − (ẑᵀg)ẑ`, as the loss builds it.
fn point(w: f64, g: &[f64], z: &[f64]) -> Vec<f64> {
    let zg = dot(z, g);
    let t: Vec<f64> = g.iter().zip(z).map(|(gi, zi)| gi - zg * zi).collect();
    let nt = dot(&t, &t).sqrt();
    let s = ((1.0 - w) * (1.0 + w)).max(0.0).sqrt();
    z.iter()
        .zip(&t)
        .map(|(zi, ti)| w * zi + s * ti / nt)
        .collect()
}

/// Both batteries for the draws made at `kappa_drawn`, judged against `vMF(ẑ, kappa)`.
fn battery(dim: usize, kappa: f64, kappa_drawn: f64, n: usize, seed: u64) -> Vec<Statistic> {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    let g0 = gaussian(dim, &mut r);
    let z: Vec<f64> = g0.iter().map(|v| v / dot(&g0, &g0).sqrt()).collect();
    let frame = TangentFrame::around(&z, &gaussian(dim, &mut r), &gaussian(dim, &mut r));
    let draws = el_nivmf_draws(kappa_drawn, dim, n, seed, 3).unwrap();
    let xs: Vec<Vec<f64>> = draws.iter().map(|(w, g)| point(*w, g, &z)).collect();
    let gs: Vec<Vec<f64>> = draws.into_iter().map(|(_, g)| g).collect();
    let identity: Vec<f64> = (0..dim * dim)
        .map(|k| if k / dim == k % dim { 1.0 } else { 0.0 })
        .collect();
    let mut stats = vmf_statistics(&xs, &z, kappa, &frame);
    stats.extend(gaussian_statistics(
        &gs,
        &vec![0.0; dim],
        &identity,
        &identity,
    ));
    stats
}

/// Claim: both batteries accept in every cell.
#[test]
fn draws_have_the_vmf_law() {
    for &(dim, kappa, n) in &CELLS {
        let stats = battery(dim, kappa, kappa, n, 0x0e1_0000 + dim as u64);
        println!(
            "M = {dim}, κ = {kappa}: smallest p = {:.3e}",
            smallest_p(&stats)
        );
        assert!(
            smallest_p(&stats) >= SAMPLER_ALPHA,
            "M = {dim}, κ = {kappa}: {}",
            describe(&stats)
        );
    }
}

/// Negative control: draws at `1.03κ` are rejected, with the power bound computed first.
#[test]
fn control_kappa_three_percent_high_is_rejected() {
    for &(dim, kappa, n) in &CELLS {
        let law = CosineMarginal::new(dim, kappa).unwrap();
        let wrong = CosineMarginal::new(dim, 1.03 * kappa).unwrap();
        let points: Vec<f64> = (1..4000).map(|i| law.quantile(i as f64 / 4000.0)).collect();
        let delta = distance_on_grid(&points, |t| law.cdf(t), |t| wrong.cdf(t));
        let power = power_lower_bound(delta, n, SAMPLER_ALPHA);
        println!(
            "κ × 1.03, M = {dim}, κ = {kappa}: δ ≥ {delta:.4e}, power ≥ {power:.6} at n = {n} \
             (n for {POWER}: {})",
            ks_power::smallest_n(delta, SAMPLER_ALPHA, POWER)
        );
        assert!(
            power >= POWER,
            "M = {dim}, κ = {kappa}: power bound {power}"
        );
        let stats = battery(dim, kappa, 1.03 * kappa, n, 0x0e1_1000 + dim as u64);
        assert!(
            smallest_p(&stats) < SAMPLER_ALPHA,
            "M = {dim}, κ = {kappa}: the batteries missed κ × 1.03: {}",
            describe(&stats)
        );
    }
}
