//! # The whole law of the nivMF push-forward sampler, with measured power (nivMF eq. (4); Supp. B)
//!
//! **Claim.** `NonIsotropicVmf::new(μ, diag κ).sample` draws `X = K⁻¹Y/‖K⁻¹Y‖`,
//! `Y ~ vMF(Kμ/κ̃, κ̃)`, `κ̃ = ‖Kμ‖`, whose density on `S^{M−1}` is
//! `f(x) = C_M(κ̃)·det K/‖Kx‖^M·exp(κ̃ s(Kx, Kμ))` (`s` the cosine similarity).
//!
//! **Tests**, each KS at `α = SAMPLER_ALPHA = 10⁻⁶`, fixed seeds:
//!
//! 1. **The push-forward, inverted.** `g(x) = Kx/‖Kx‖` is a bijection of the sphere with
//!    `g(X) = Y`, so `X` has the claimed law iff `g(X) ~ vMF(Kμ/κ̃, κ̃)`: the whole-law vMF
//!    battery of `support/vmf_law.rs` (`W`, a tangent coordinate, the azimuth, the tangent given
//!    `W`) on `g(X)`, at `M = 3`, `μ = (1, 1, 1)/√3` with `K = diag(2, 5, 9)` (the nivMF Supp. B point,
//!    `n = N = 100 000`) and `K = diag(20, 50, 90)` (the control point, `n = N_CONTROL =
//!    850 000`), and at `M = 10` with random `K` and `μ` (`n = 50 000`).
//! 2. **The density.** At both `M = 3` points, three projections `vᵀX` (`v = μ`, `v = e₃`, and a generic
//!    `v`) against CDFs integrated from `f` itself: by Archimedes the surface element of `S²` is
//!    `dt dφ` in `t = vᵀx` and the azimuth `φ` around `v`, so the marginal density of `t` is
//!    `∫_0^{2π} f dφ` (256-point trapezoid rule, exponentially accurate for this periodic
//!    analytic integrand), integrated in `t` by 4-point Gauss–Legendre on each of 2000 equal
//!    cells of `[−1, 1]`. The formula is written here, not taken from `nivmf`; its mass
//!    (`C_3(κ̃)` from `vmf::exact::log_norm_const`) is asserted to be 1 to `10⁻¹⁰`. The KS
//!    statistic is taken on the 1999 cell edges (`ks_power::ks_on_grid`: conservative under the
//!    claim, and the power bound below holds for it).
//!
//! **Negative controls** at the control point, same tests, `n = N_CONTROL` and `α`:
//!
//! | control | `δ` (largest over the three projections, on the grid) | power ≥ |
//! |---|---|---|
//! | `κ₃ × 1.03` | 5.14·10⁻³ | 0.99954 |
//! | `μ` turned by 2° towards `e₁ − e₂` | 5.57·10⁻² | 1 − 10⁻²⁰⁰⁰ |
//!
//! `δ = max_i |F_wrong(t_i) − F(t_i)|`, both CDFs by the quadrature of part 2 (with the wrong
//! `K` or `μ` in `f`); the miss probability is at most `2e^{−2n(δ−c)²}`, `c` the KS critical value
//! (`support/ks_power.rs`, Dvoretzky–Kiefer–Wolfowitz–Massart). The `n` for power `0.999`
//! are 815 619 (`κ₃ × 1.03`) and 6 941 (the turn), hence `N_CONTROL = 850 000`; at the Supp. B
//! point, ten times less concentrated, a 3 % change of one `κ_m` moves these projections by
//! `3.4·10⁻³` only (1.8 million draws), so that point is tested for fit. Each control asserts its
//! bound before it runs. Run time: 49 s for the whole target
//! (`cargo test --release --test nivmf_sampler_law`, two shared cores).

// derivation: nivmf::NonIsotropicVmf::sample

#[path = "support/ks.rs"]
mod ks;
#[path = "support/ks_power.rs"]
mod ks_power;
#[path = "support/statistic.rs"]
mod statistic;
#[path = "support/vmf_law.rs"]
mod vmf_law;

use ks_power::{ks_on_grid, power_lower_bound};
use probdml::nivmf::NonIsotropicVmf;
use probdml::registry::budget::SAMPLER_ALPHA;
use probdml::vmf;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use statistic::{describe, smallest_p, Statistic};
use vmf_law::{vmf_statistics, TangentFrame};

/// Draws at the Supp. B point.
const N: usize = 100_000;
/// Draws at the control point: 815 619 give power 0.999 against `κ₃ × 1.03` (module docs).
const N_CONTROL: usize = 850_000;
/// The power every control must have.
const POWER: f64 = 0.999;
/// The Supp. B point's concentrations (tested for fit).
const KAPPAS: [f64; 3] = [2.0, 5.0, 9.0];
/// Ten times more concentrated: the point of the controls (tested for fit as well).
const KAPPAS_CONTROL: [f64; 3] = [20.0, 50.0, 90.0];
/// Cells of `[−1, 1]` for the projection CDFs.
const CELLS: usize = 2000;

fn normalise(v: &[f64]) -> Vec<f64> {
    let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    v.iter().map(|x| x / n).collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn spec_mu() -> Vec<f64> {
    normalise(&[1.0, 1.0, 1.0])
}

/// The three projection directions of part 2.
fn directions() -> [Vec<f64>; 3] {
    [spec_mu(), vec![0.0, 0.0, 1.0], normalise(&[0.2, -0.5, 0.9])]
}

/// `g(x) = Kx/‖Kx‖`.
fn push(x: &[f64], kappas: &[f64]) -> Vec<f64> {
    normalise(&x.iter().zip(kappas).map(|(a, k)| a * k).collect::<Vec<_>>())
}

/// Part 1: the vMF battery on `g(X)`.
fn push_forward_statistics(
    xs: &[Vec<f64>],
    mu: &[f64],
    kappas: &[f64],
    seed: u64,
) -> Vec<Statistic> {
    let k_mu: Vec<f64> = mu.iter().zip(kappas).map(|(a, k)| a * k).collect();
    let kappa_tilde = dot(&k_mu, &k_mu).sqrt();
    let mu_tilde = normalise(&k_mu);
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    let dim = mu.len();
    let g =
        |r: &mut ChaCha8Rng| -> Vec<f64> { (0..dim).map(|_| r.sample(StandardNormal)).collect() };
    let frame = TangentFrame::around(&mu_tilde, &g(&mut r), &g(&mut r));
    let ys: Vec<Vec<f64>> = xs.iter().map(|x| push(x, kappas)).collect();
    vmf_statistics(&ys, &mu_tilde, kappa_tilde, &frame)
}

/// `ln C_3(κ̃)`, `κ̃ = ‖Kμ‖` (the 256-bit reference normaliser, once per law).
fn log_norm_const(mu: &[f64], kappas: &[f64]) -> f64 {
    let kt = mu
        .iter()
        .zip(kappas)
        .map(|(a, k)| (a * k).powi(2))
        .sum::<f64>()
        .sqrt();
    vmf::exact::log_norm_const(3, kt)
}

/// `f(x)` on `S²` from the formula of the module docs, given `ln C_3(κ̃)`.
fn density(x: &[f64], mu: &[f64], kappas: &[f64], ln_c: f64) -> f64 {
    let kx: Vec<f64> = x.iter().zip(kappas).map(|(a, k)| a * k).collect();
    let kmu: Vec<f64> = mu.iter().zip(kappas).map(|(a, k)| a * k).collect();
    let nkx = dot(&kx, &kx).sqrt();
    let det: f64 = kappas.iter().product();
    (ln_c + det.ln() - 3.0 * nkx.ln() + dot(&kx, &kmu) / nkx).exp()
}

/// `F(t_i) = P(vᵀX ≤ t_i)` at the cell edges `t_i = −1 + 2i/CELLS`, `i = 1 … CELLS − 1`, and the
/// total mass.
fn projection_cdf(v: &[f64], mu: &[f64], kappas: &[f64]) -> (Vec<f64>, Vec<f64>, f64) {
    let q = normalise(&[v[1], -v[0], 0.0]);
    let q = if q.iter().all(|x| x.is_finite()) {
        q
    } else {
        vec![1.0, 0.0, 0.0]
    };
    let r = [
        v[1] * q[2] - v[2] * q[1],
        v[2] * q[0] - v[0] * q[2],
        v[0] * q[1] - v[1] * q[0],
    ];
    let ln_c = log_norm_const(mu, kappas);
    let marginal = |t: f64| {
        let s = ((1.0 - t) * (1.0 + t)).max(0.0).sqrt();
        let m = 256;
        let h = 2.0 * std::f64::consts::PI / m as f64;
        (0..m)
            .map(|j| {
                let (sp, cp) = (j as f64 * h).sin_cos();
                let x: Vec<f64> = (0..3)
                    .map(|i| t * v[i] + s * (cp * q[i] + sp * r[i]))
                    .collect();
                density(&x, mu, kappas, ln_c)
            })
            .sum::<f64>()
            * h
    };
    // 4-point Gauss–Legendre on [−1, 1].
    let nodes = [
        (-0.861_136_311_594_052_6, 0.347_854_845_137_453_9),
        (-0.339_981_043_584_856_3, 0.652_145_154_862_546_1),
        (0.339_981_043_584_856_3, 0.652_145_154_862_546_1),
        (0.861_136_311_594_052_6, 0.347_854_845_137_453_9),
    ];
    let width = 2.0 / CELLS as f64;
    let (mut points, mut cdf, mut acc) = (Vec::new(), Vec::new(), 0.0);
    for i in 0..CELLS {
        let (a, b) = (-1.0 + i as f64 * width, -1.0 + (i + 1) as f64 * width);
        let (mid, half) = (0.5 * (a + b), 0.5 * (b - a));
        acc += nodes
            .iter()
            .map(|&(x, w)| w * marginal(mid + half * x))
            .sum::<f64>()
            * half;
        if i + 1 < CELLS {
            points.push(b);
            cdf.push(acc);
        }
    }
    (points, cdf, acc)
}

/// Part 2: grid-KS of the three projections.
fn density_statistics(xs: &[Vec<f64>], kappas: &[f64]) -> Vec<Statistic> {
    directions()
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let (points, cdf, mass) = projection_cdf(v, &spec_mu(), kappas);
            assert!((mass - 1.0).abs() < 1e-10, "∫f = {mass}");
            let mut t: Vec<f64> = xs.iter().map(|x| dot(v, x)).collect();
            let (d, p) = ks_on_grid(&mut t, &points, &cdf);
            Statistic {
                name: format!("projection {k} against ∫f"),
                n: t.len(),
                d,
                p,
            }
        })
        .collect()
}

fn draws(mu: &[f64], kappas: &[f64], n: usize, seed: u64) -> Vec<Vec<f64>> {
    let law = NonIsotropicVmf::new(mu, kappas).unwrap();
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|_| law.sample(&mut r)).collect()
}

/// Parts 1 and 2 against `nivMF(Supp. B μ, diag kappas)`.
fn battery(xs: &[Vec<f64>], kappas: &[f64]) -> Vec<Statistic> {
    let mut stats = push_forward_statistics(xs, &spec_mu(), kappas, 0x06_0001);
    stats.extend(density_statistics(xs, kappas));
    stats
}

/// Claim at the two `M = 3` points: both parts accept.
#[test]
fn whole_law_on_s2() {
    for (kappas, n, seed) in [
        (KAPPAS, N, 0x06_0002),
        (KAPPAS_CONTROL, N_CONTROL, 0x06_0008),
    ] {
        let stats = battery(&draws(&spec_mu(), &kappas, n, seed), &kappas);
        println!("M = 3, K = {kappas:?}: {}", describe(&stats));
        assert!(smallest_p(&stats) >= SAMPLER_ALPHA, "{}", describe(&stats));
    }
}

/// Claim at `M = 10`, random `K ∈ [1, 50]^M` and `μ`: part 1 accepts.
#[test]
fn push_forward_in_ten_dimensions() {
    let mut r = ChaCha8Rng::seed_from_u64(0x06_0003);
    let g: Vec<f64> = (0..10).map(|_| r.sample(StandardNormal)).collect();
    let mu = normalise(&g);
    let kappas: Vec<f64> = (0..10).map(|_| 50f64.powf(r.random::<f64>())).collect();
    let xs = draws(&mu, &kappas, 50_000, 0x06_0004);
    let stats = push_forward_statistics(&xs, &mu, &kappas, 0x06_0005);
    println!("M = 10: {}", describe(&stats));
    assert!(smallest_p(&stats) >= SAMPLER_ALPHA, "{}", describe(&stats));
}

/// `δ` of a wrong law from the claimed one over the three projections.
fn control_delta(mu: &[f64], kappas: &[f64]) -> f64 {
    directions()
        .iter()
        .map(|v| {
            let (_, right, _) = projection_cdf(v, &spec_mu(), &KAPPAS_CONTROL);
            let (_, wrong, _) = projection_cdf(v, mu, kappas);
            right
                .iter()
                .zip(&wrong)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max)
        })
        .fold(0.0, f64::max)
}

fn control(label: &str, mu: &[f64], kappas: &[f64], seed: u64) {
    let delta = control_delta(mu, kappas);
    let power = power_lower_bound(delta, N_CONTROL, SAMPLER_ALPHA);
    println!(
        "{label}: δ ≥ {delta:.4e}, power ≥ {power:.6} at n = {N_CONTROL} (n for {POWER}: {})",
        ks_power::smallest_n(delta, SAMPLER_ALPHA, POWER)
    );
    assert!(power >= POWER, "{label}: power bound {power}");
    let stats = battery(&draws(mu, kappas, N_CONTROL, seed), &KAPPAS_CONTROL);
    assert!(
        smallest_p(&stats) < SAMPLER_ALPHA,
        "{label}: the battery missed the wrong sampler: {}",
        describe(&stats)
    );
}

/// Negative control: `κ₃ × 1.03` in the sampler.
#[test]
fn control_one_concentration_three_percent_high() {
    let mut wrong = KAPPAS_CONTROL;
    wrong[2] *= 1.03;
    control("κ₃ × 1.03", &spec_mu(), &wrong, 0x06_0006);
}

/// Negative control: `μ` turned by 2° (towards `e₁ − e₂`) in the sampler.
#[test]
fn control_mean_turned_two_degrees() {
    let mu = spec_mu();
    let b = normalise(&[1.0, -1.0, 0.0]);
    let (s, c) = 2f64.to_radians().sin_cos();
    let turned: Vec<f64> = mu.iter().zip(&b).map(|(m, bi)| c * m + s * bi).collect();
    control("μ turned by 2°", &turned, &KAPPAS_CONTROL, 0x06_0007);
}
