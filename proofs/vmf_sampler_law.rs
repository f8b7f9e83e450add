//! # The whole law of Wood's vMF sampler, with measured power (Wood 1994, §2; LAM App. C)
//!
//! **Claim.** `VonMisesFisher::sample` draws from `vMF(μ, κ)` on `S^{M−1}`: not only the cosine
//! `W = μᵀX`, but the whole law `X = Wμ + √(1 − W²)V`, `V` uniform on the sphere of `μ^⊥` and
//! independent of `W`. So does `VonMisesFisher::sample_n_into`, whose cosines come from Wood's
//! test in lanes (`sample_n_into_whole_law`).
//!
//! **Test.** The battery of `support/vmf_law.rs`: four KS statistics for `M ≥ 3` (`W`, a
//! tangent coordinate `U = bᵀV`, the azimuth in a tangent plane, `U` on the draws with `W`
//! above its median), three for `M = 2` (the signed angle, `W`, `|θ|` given the sign), against
//! exact reference CDFs (`vmf::exact::CosineMarginal`: quadrature of the density, no part of
//! Wood's algorithm); and the mean direction, `T = n‖(I − μμᵀ)X̄‖²/τ²` against `χ²_{M−1}`
//! (`τ² = E[1 − W²]/(M − 1)` by the same quadrature), which sees a turn of `μ` towards any
//! tangent direction at first order. Random `μ` and tangent frame, fixed seeds (`ChaCha8Rng`),
//! `n` per cell below.
//!
//! **Level.** Each statistic rejects at `p < α = SAMPLER_ALPHA = 10⁻⁶` (the KS p-values by
//! Kolmogorov's law with Stephens' correction; `T`'s by the χ² law, asymptotic with an `O(1/n)`
//! error, `support/vmf_law.rs`). The claim tests compute 67 statistics (19 on the grid, 29 of
//! `sample_n_into`, 19 at the edges), so the chance that a correct sampler fails this file is
//! at most `67·10⁻⁶` (Bonferroni); the seeds are fixed, so a run is the same every time.
//!
//! **Negative controls** (the same battery, same `n` and `α`, fed by a wrong sampler) must
//! reject, in every cell:
//!
//! * `κ × 1.03`: the KS distance `δ` of `W`'s law under `1.03κ` from the claimed one, the
//!   maximum of `|F_{1.03κ} − F_κ|` over 4000 quantiles of `F_κ` (a lower bound on the sup);
//!   with `c(n, α)` the KS critical value, the miss probability is at most `2e^{−2n(δ−c)²}`
//!   (`support/ks_power.rs`: Dvoretzky–Kiefer–Wolfowitz–Massart, no asymptotics);
//! * `μ` turned by 2° towards `b`, towards `c` (`M ≥ 3`) and towards a unit `d` orthogonal to
//!   `μ`, `b` and `c` (`M ≥ 4`; for `M = 3`, `μ^⊥ = span(b, c)`). The mean direction catches
//!   all three alike: the test misses only if `T ≤ q`, `q` the `χ²_{M−1}` quantile at `α`, which
//!   forces `uᵀX̄ ≤ ‖(I − μμᵀ)X̄‖ ≤ t = √(qτ²/n)` for the unit `u ⟂ μ` of the turn; but
//!   `E[uᵀX] = A_M(κ) sin 2°` and `uᵀX ∈ [−1, 1]`, so by Hoeffding's inequality the miss
//!   probability is at most `e^{−n(A_M(κ) sin 2° − t)²/2}` (no asymptotics in the bound; `A_M`
//!   by `CosineMarginal`). Towards `b` the KS statistics see it too: for `M ≥ 3`,
//!   `δ ≥ P(U > 0) − ½ = E[1 − G(−tan 2°·W/√(1 − W²))] − ½` (`G` the tangent coordinate's CDF,
//!   the expectation by adaptive quadrature over `W`'s quantiles); for `M = 2`, the signed
//!   angle's `δ = max|F(t − 2°) + P(θ > π − 2°) − F(t)|`.
//!
//! Each control asserts that its bound puts the power at `≥ 0.999` for the cell's `n` before
//! it runs, and that the statistic the bound is for rejects:
//!
//! | `M` | `κ` | `n` | `δ` (κ × 1.03) | power ≥ | `δ` (2° towards `b`) | power ≥ | mean direction, 2° towards any `u`: power ≥ |
//! |---|---|---|---|---|---|---|---|
//! | 2 | 5 | 400 000 | 7.63·10⁻³ | 0.99978 | 3.03·10⁻² (signed angle) | 1 − 10⁻²³⁴ | 1 − 10⁻⁶⁷ (`b` only) |
//! | 3 | 10 | 200 000 | 1.09·10⁻² | 0.99984 | 4.22·10⁻² | 1 − 10⁻²²⁷ | 1 − 10⁻³³ (`b`, `c`) |
//! | 10 | 50 | 50 000 | 2.37·10⁻² | 0.999997 | 9.35·10⁻² | 1 − 10⁻²⁸⁷ | 1 − 10⁻⁸ |
//! | 128 | 1000 | 20 000 | 9.07·10⁻² | 1 − 10⁻⁸⁹ | 0.358 | 1 − 10⁻¹⁹⁹⁰ | 0.99984 |
//!
//! The `n` for power `0.999` are 369 727, 182 254, 38 442, 2 613 (κ × 1.03), 23 521, 12 063,
//! 2 461, 167 (2° towards `b`, KS) and 34 423, 28 407, 21 029, 16 201 (2° towards any `u`, mean direction):
//! `κ × 1.03` sets `n`. Run time: 8.6 s for the whole target
//! (`cargo test --release --test proofs -- vmf_sampler_law::`, two shared cores).
//!
//! (`cargo test --release --test proofs -- vmf_sampler_law:: --nocapture` prints the table.) Cells where
//! no affordable `n` has that power against these controls (`κ = 0.1`, where a 3 % change of
//! `κ` moves the law by `~10⁻³`) are tested for fit only, in `whole_law_at_the_edges`.

// derivation: vmf::VonMisesFisher::sample
// derivation: vmf::VonMisesFisher::sample_n_into

use crate::chi_squared;
use crate::ks_power;
use crate::statistic;
use crate::vmf_law;
use chi_squared::chi_squared_upper_quantile;
use ks_power::{distance_on_grid, power_lower_bound};
use probdml::quadrature::{integrate, Tolerance};
use probdml::vmf::exact::CosineMarginal;
use probdml::vmf::VonMisesFisher;
use probdml_proofs::registry::budget::SAMPLER_ALPHA;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use statistic::{describe, smallest_p, Statistic};
use vmf_law::{
    mean_direction_statistic, orthonormalise, tangent_variance, vmf_statistics, TangentFrame,
};

/// The power every control must have.
const POWER: f64 = 0.999;
/// The turn of the mean direction in the second control.
const TURN_DEGREES: f64 = 2.0;

/// `(M, κ, n)`.
const CELLS: [(usize, f64, usize); 4] = [
    (2, 5.0, 400_000),
    (3, 10.0, 200_000),
    (10, 50.0, 50_000),
    (128, 1000.0, 20_000),
];

fn rng(test: u64, dim: usize) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(0x57a7_0000 ^ (test << 32) ^ dim as u64)
}

fn gaussian(dim: usize, rng: &mut ChaCha8Rng) -> Vec<f64> {
    (0..dim).map(|_| rng.sample(StandardNormal)).collect()
}

/// A seeded unit `μ` and tangent frame for a cell.
fn setup(dim: usize, rng: &mut ChaCha8Rng) -> (Vec<f64>, TangentFrame) {
    let g = gaussian(dim, rng);
    let n = g.iter().map(|v| v * v).sum::<f64>().sqrt();
    let mu: Vec<f64> = g.iter().map(|v| v / n).collect();
    let frame = TangentFrame::around(&mu, &gaussian(dim, rng), &gaussian(dim, rng));
    (mu, frame)
}

/// The battery of the module docs: the KS statistics and the mean direction.
fn battery(xs: &[Vec<f64>], mu: &[f64], kappa: f64, frame: &TangentFrame) -> Vec<Statistic> {
    let mut stats = vmf_statistics(xs, mu, kappa, frame);
    stats.push(mean_direction_statistic(xs, mu, kappa));
    stats
}

fn draws(law: &VonMisesFisher, n: usize, rng: &mut ChaCha8Rng) -> Vec<Vec<f64>> {
    (0..n).map(|_| law.sample(rng)).collect()
}

/// `cos δ μ + sin δ u`.
fn turned(mu: &[f64], b: &[f64], degrees: f64) -> Vec<f64> {
    let (s, c) = degrees.to_radians().sin_cos();
    mu.iter().zip(b).map(|(m, bi)| c * m + s * bi).collect()
}

/// The KS distance of `W`'s law under `1.03κ` from that under `κ` (4000 quantiles).
fn delta_kappa(dim: usize, kappa: f64) -> f64 {
    let law = CosineMarginal::new(dim, kappa).unwrap();
    let wrong = CosineMarginal::new(dim, 1.03 * kappa).unwrap();
    let points: Vec<f64> = (1..4000).map(|i| law.quantile(i as f64 / 4000.0)).collect();
    distance_on_grid(&points, |t| law.cdf(t), |t| wrong.cdf(t))
}

/// A lower bound on the KS distance of the turned sampler's law from the claimed one (module
/// docs), on the statistic that sees the turn first.
fn delta_turn(dim: usize, kappa: f64) -> f64 {
    let law = CosineMarginal::new(dim, kappa).unwrap();
    let d = TURN_DEGREES.to_radians();
    if dim == 2 {
        let signed = |t: f64| 0.5 + 0.5 * t.signum() * law.cdf_angle(t.abs());
        let wrapped = 1.0 - signed(std::f64::consts::PI - d);
        let points: Vec<f64> = (1..4000)
            .map(|i| {
                -std::f64::consts::PI + d + (2.0 * std::f64::consts::PI - d) * i as f64 / 4000.0
            })
            .collect();
        return distance_on_grid(&points, signed, |t| signed(t - d) + wrapped);
    }
    let tangent = CosineMarginal::new(dim - 1, 0.0).unwrap();
    let tan = d.tan();
    let positive = integrate(
        |p: f64| {
            let w = law.quantile(p);
            let r = ((1.0 - w) * (1.0 + w)).sqrt();
            1.0 - tangent.cdf(-tan * w / r)
        },
        0.0,
        1.0,
        Tolerance::absolute(1e-9),
    )
    .unwrap();
    positive.value - positive.abs_error - 0.5
}

/// The natural logarithm of the Hoeffding bound on the chance that the mean direction misses a
/// turn by `TURN_DEGREES` towards any tangent direction, at `n` draws (module docs):
/// `−n(A sin θ − t)²/2`, `t = √(qτ²/n)`; `+∞` (no bound) where `A sin θ ≤ t`.
fn ln_turn_miss(dim: usize, kappa: f64, n: usize) -> f64 {
    let a = CosineMarginal::new(dim, kappa).unwrap().mean();
    let q = chi_squared_upper_quantile(dim - 1, SAMPLER_ALPHA);
    let t = (q * tangent_variance(dim, kappa) / n as f64).sqrt();
    let gap = a * TURN_DEGREES.to_radians().sin() - t;
    if gap <= 0.0 {
        return f64::INFINITY;
    }
    -0.5 * n as f64 * gap * gap
}

/// The smallest `n` at which the mean direction's power bound reaches `POWER` (by doubling,
/// then bisection; the bound improves with `n`).
fn turn_smallest_n(dim: usize, kappa: f64) -> usize {
    let enough = |n: usize| ln_turn_miss(dim, kappa, n) <= (1.0 - POWER).ln();
    ks_power::smallest_n_where(enough)
}

/// The unit tangent directions of the turn controls: `b`, `c` (`M ≥ 3`) and a `d ⟂ μ, b, c`
/// (`M ≥ 4`).
fn turn_directions(
    mu: &[f64],
    frame: &TangentFrame,
    rng: &mut ChaCha8Rng,
) -> Vec<(&'static str, Vec<f64>)> {
    let mut out = vec![("b", frame.b.clone())];
    if let Some(c) = &frame.c {
        out.push(("c", c.clone()));
        if mu.len() >= 4 {
            let d = orthonormalise(&gaussian(mu.len(), rng), &[mu, &frame.b, c]);
            out.push(("d ⟂ b, c", d));
        }
    }
    out
}

/// Claim: the mean direction's variance `τ² = E[1 − W²]/(M − 1)` is `A_M(κ)/κ`
/// (`E[W²] = 1 − (M − 1)A_M(κ)/κ`), with `A_M` from the 256-bit Bessel ratio, and `1/M` at
/// `κ = 0`: two routes to the same number.
#[test]
fn tangent_variance_identity() {
    for &(dim, kappa) in &[
        (2usize, 5.0),
        (3, 10.0),
        (10, 50.0),
        (128, 1000.0),
        (2048, 1e5),
    ] {
        let want = probdml::vmf::exact::mean_resultant_length(dim, kappa) / kappa;
        let got = tangent_variance(dim, kappa);
        assert!(
            (got / want - 1.0).abs() < 1e-9,
            "M = {dim}, κ = {kappa}: {got} vs {want}"
        );
    }
    let got = tangent_variance(3, 0.0);
    assert!((got * 3.0 - 1.0).abs() < 1e-12, "κ = 0: {got}");
}

/// Claim: the battery accepts the sampler in every cell.
#[test]
fn whole_law_on_the_grid() {
    for &(dim, kappa, n) in &CELLS {
        let mut r = rng(1, dim);
        let (mu, frame) = setup(dim, &mut r);
        let xs = draws(&VonMisesFisher::new(&mu, kappa).unwrap(), n, &mut r);
        let stats = battery(&xs, &mu, kappa, &frame);
        println!("M = {dim}, κ = {kappa}: {}", describe(&stats));
        assert!(
            smallest_p(&stats) >= SAMPLER_ALPHA,
            "M = {dim}, κ = {kappa}: {}",
            describe(&stats)
        );
    }
}

/// Claim: the battery accepts the draws of `sample_n_into` in every cell and at two edges
/// (small κ, and huge `M` with huge κ). They are a stream of their own for `M ≥ 3`, `κ > 0`:
/// Wood's cosines are drawn eight proposals at a time, with the Gamma variates by
/// Marsaglia & Tsang and the acceptance test in lanes (`vmf/wood.rs`); the controls above
/// bound the battery's power whichever sampler feeds it.
#[test]
fn sample_n_into_whole_law() {
    let cells = CELLS
        .iter()
        .copied()
        .chain([(10, 0.1, 20_000), (2048, 1e5, 20_000)]);
    for (dim, kappa, n) in cells {
        let mut r = rng(5, dim);
        let (mu, frame) = setup(dim, &mut r);
        let mut rows = vec![0.0; n * dim];
        VonMisesFisher::new(&mu, kappa)
            .unwrap()
            .sample_n_into(&mut r, n, &mut rows)
            .unwrap();
        let xs: Vec<Vec<f64>> = rows.chunks_exact(dim).map(<[f64]>::to_vec).collect();
        let stats = battery(&xs, &mu, kappa, &frame);
        println!(
            "sample_n_into, M = {dim}, κ = {kappa}: {}",
            describe(&stats)
        );
        assert!(
            smallest_p(&stats) >= SAMPLER_ALPHA,
            "sample_n_into, M = {dim}, κ = {kappa}: {}",
            describe(&stats)
        );
    }
}

/// Claim at the edges of the domain (fit only): near-uniform, huge `M`, huge `κ`.
#[test]
fn whole_law_at_the_edges() {
    for &(dim, kappa) in &[(3usize, 0.0), (10, 0.1), (2048, 1e5), (2, 1e5)] {
        let mut r = rng(2, dim);
        let (mu, frame) = setup(dim, &mut r);
        let xs = draws(&VonMisesFisher::new(&mu, kappa).unwrap(), 20_000, &mut r);
        let stats = battery(&xs, &mu, kappa, &frame);
        println!("M = {dim}, κ = {kappa}: {}", describe(&stats));
        assert!(
            smallest_p(&stats) >= SAMPLER_ALPHA,
            "M = {dim}, κ = {kappa}: {}",
            describe(&stats)
        );
    }
}

/// Negative control: draws at `1.03κ` are rejected as `vMF(μ, κ)`, with the power bound
/// computed first.
#[test]
fn control_kappa_three_percent_high_is_rejected() {
    let bounds: Vec<f64> = CELLS
        .iter()
        .map(|&(dim, kappa, n)| {
            let delta = delta_kappa(dim, kappa);
            let power = power_lower_bound(delta, n, SAMPLER_ALPHA);
            println!(
                "κ × 1.03, M = {dim}, κ = {kappa}: δ ≥ {delta:.4e}, power ≥ {power:.6} at n = {n} \
                 (n for {POWER}: {})",
                ks_power::smallest_n(delta, SAMPLER_ALPHA, POWER)
            );
            power
        })
        .collect();
    for (&(dim, kappa, n), power) in CELLS.iter().zip(bounds) {
        assert!(
            power >= POWER,
            "M = {dim}, κ = {kappa}: power bound {power}"
        );
        let mut r = rng(3, dim);
        let (mu, frame) = setup(dim, &mut r);
        let xs = draws(&VonMisesFisher::new(&mu, 1.03 * kappa).unwrap(), n, &mut r);
        let stats = battery(&xs, &mu, kappa, &frame);
        assert!(
            smallest_p(&stats) < SAMPLER_ALPHA,
            "M = {dim}, κ = {kappa}: the battery missed κ × 1.03: {}",
            describe(&stats)
        );
    }
}

/// Negative control: draws around `μ` turned by 2° are rejected as `vMF(μ, κ)`, whichever
/// tangent direction the turn takes (`b`, `c`, or `d ⟂ b, c`): the mean direction rejects each,
/// and towards `b` the KS statistics' bound holds as well.
#[test]
fn control_mean_turned_two_degrees_is_rejected() {
    let bounds: Vec<(f64, f64)> = CELLS
        .iter()
        .map(|&(dim, kappa, n)| {
            let delta = delta_turn(dim, kappa);
            let power = power_lower_bound(delta, n, SAMPLER_ALPHA);
            let ln_miss = ln_turn_miss(dim, kappa, n);
            println!(
                "2° turn, M = {dim}, κ = {kappa}: towards b, KS δ ≥ {delta:.4e}, power ≥ \
                 {power:.6} at n = {n} (n for {POWER}: {}); towards any u, mean direction: \
                 power ≥ 1 − 10^{:.1} (n for {POWER}: {})",
                ks_power::smallest_n(delta, SAMPLER_ALPHA, POWER),
                ln_miss / std::f64::consts::LN_10,
                turn_smallest_n(dim, kappa),
            );
            (power, ln_miss)
        })
        .collect();
    for (&(dim, kappa, n), (power, ln_miss)) in CELLS.iter().zip(bounds) {
        assert!(
            power >= POWER,
            "M = {dim}, κ = {kappa}: KS power bound {power}"
        );
        assert!(
            ln_miss <= (1.0 - POWER).ln(),
            "M = {dim}, κ = {kappa}: mean-direction power bound 1 − e^{ln_miss}"
        );
        let mut r = rng(4, dim);
        let (mu, frame) = setup(dim, &mut r);
        for (towards, u) in turn_directions(&mu, &frame, &mut r) {
            let wrong = turned(&mu, &u, TURN_DEGREES);
            let xs = draws(&VonMisesFisher::new(&wrong, kappa).unwrap(), n, &mut r);
            let stats = battery(&xs, &mu, kappa, &frame);
            let mean_direction = stats.last().expect("the battery ends with it");
            // The KS statistics see a turn towards d only through W, at order θ²: printed to
            // show what the mean direction adds.
            println!(
                "2° turn towards {towards}, M = {dim}, κ = {kappa}: mean direction T = {:.1} \
                 (p = {:.1e}); smallest KS p = {:.1e}",
                mean_direction.d,
                mean_direction.p,
                smallest_p(&stats[..stats.len() - 1])
            );
            assert!(
                mean_direction.p < SAMPLER_ALPHA,
                "M = {dim}, κ = {kappa}: the mean direction missed a 2° turn towards {towards}: \
                 {}",
                describe(&stats)
            );
            if towards == "b" {
                let ks = &stats[..stats.len() - 1];
                assert!(
                    smallest_p(ks) < SAMPLER_ALPHA,
                    "M = {dim}, κ = {kappa}: the KS statistics missed a 2° turn towards b: {}",
                    describe(&stats)
                );
            }
        }
    }
}
