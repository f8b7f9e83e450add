//! # The whole law of the nivMF push-forward sampler, with measured power (nivMF eq. (4); Supp. B)
//!
//! **Claim.** `NonIsotropicVmf::new(μ, diag κ).sample` draws `X = K⁻¹Y/‖K⁻¹Y‖`,
//! `Y ~ vMF(Kμ/κ̃, κ̃)`, `κ̃ = ‖Kμ‖`, whose density on `S^{M−1}` is
//! `f(x) = C_M(κ̃)·det K/‖Kx‖^M·exp(κ̃ s(Kx, Kμ))` (`s` the cosine similarity).
//!
//! **Tests**, fixed seeds:
//!
//! 1. **The push-forward, inverted.** `g(x) = Kx/‖Kx‖` is a bijection of the sphere with
//!    `g(X) = Y`, so `X` has the claimed law iff `g(X) ~ vMF(Kμ/κ̃, κ̃)`: the whole-law vMF
//!    battery of `support/vmf_law.rs` (`W`, a tangent coordinate, the azimuth, the tangent given
//!    `W`: KS) on `g(X)`, at `M = 3`, `μ = (1, 1, 1)/√3` with `K = diag(2, 5, 9)` (the nivMF
//!    Supp. B point, `n = N = 100 000`) and `K = diag(20, 50, 90)` (the control point,
//!    `n = N_CONTROL = 450 000`), and at `M = 10` with random `K` and `μ` (`n = 50 000`).
//! 2. **The density.** At both `M = 3` points, three projections `vᵀX` (`v = μ`, `v = e₃`, and a
//!    generic `v`) against CDFs integrated from `f` itself: by Archimedes the surface element of
//!    `S²` is `dt dφ` in `t = vᵀx` and the azimuth `φ` around `v`, so the marginal density of `t`
//!    is `∫_0^{2π} f dφ` (256-point trapezoid rule, exponentially accurate for this periodic
//!    analytic integrand), integrated in `t` by 4-point Gauss–Legendre on each of 2000 equal
//!    cells of `[−1, 1]`. The formula is written here, not taken from `nivmf`; its mass
//!    (`C_3(κ̃)` from `vmf::exact::log_norm_const`) is asserted to be 1 to `10⁻¹⁰`. The KS
//!    statistic is taken on the 1999 cell edges (`ks_power::ks_on_grid`: conservative under the
//!    claim, and the power bound below holds for it).
//! 3. **The scores.** At both `M = 3` points, the sample means of the scores
//!    `S_m = ∂ ln f/∂ ln κ_m` (`m = 1, 2, 3`) and of their sum (the score of a common scale of
//!    `K`), differentiated by hand from `f` (`score_identities` checks them against central
//!    differences of `ln f`). Under the claim each has mean 0 (the score of a normalised
//!    density; checked by quadrature to `10⁻⁹` of its standard deviation) and the variance
//!    `E S²` (the rule of part 2 about the pole `e₃`, on 250 cells); each is bounded on the
//!    sphere (`Scores::bounds`), so Bernstein's inequality gives a p-value that holds at every
//!    `n` (`support/bernstein.rs`). A score is the locally most powerful statistic against a
//!    change of its concentration (Rao's score test).
//!
//! **Level.** Each statistic rejects at `p < α = SAMPLER_ALPHA = 10⁻⁶` (KS p-values by
//! Kolmogorov's law with Stephens' correction; Bernstein's without asymptotics). The claim tests
//! compute 26 statistics (at each `M = 3` point four of part 1, three of part 2, four scores;
//! four at `M = 10`), so a correct sampler fails this file with probability at most `26·10⁻⁶`
//! (Bonferroni).
//!
//! **Negative controls** (same tests, same `n` and `α`, on a wrong sampler) must reject.
//!
//! At the control point, `n = N_CONTROL`:
//!
//! | control | KS `δ` (largest over the three projections, on the grid) | KS power ≥ | best score: power ≥ |
//! |---|---|---|---|
//! | `κ₃ × 1.03` | 5.14·10⁻³ | 0.36 | 0.99968 (`ln κ₃`) |
//! | `μ` turned by 2° towards `e₁ − e₂` | 5.57·10⁻² | 1 − 10⁻²⁰⁰⁰ | 1 − 10⁻³⁶ (`ln κ₂`) |
//!
//! At the Supp. B point, `n = N`, a concentration 5 % off (the variance of the tangent law about
//! 5 % off): the KS statistics move by `δ ≈ 5.7·10⁻³` for `κ₂` or `κ₃` (about 660 000 draws
//! for power 0.999), but the score of that concentration by 0.040–0.054 standard deviations
//! per draw:
//!
//! | control | score | power ≥ | `n` for 0.999 |
//! |---|---|---|---|
//! | `κ₁ × 1.05` | `ln κ₁` | 1 − 10⁻²⁶ | 31 104 |
//! | `κ₂ × 1.05` | `ln κ₂` | 1 − 10⁻²² | 34 698 |
//! | `κ₃ × 1.05` | `ln κ₃` | 1 − 10⁻¹¹ | 53 589 |
//! | `K × 1.05` | common scale | 1 − 10⁻¹⁹ | 38 502 |
//! | `κ₁ ÷ 1.05` | `ln κ₁` | 1 − 10⁻²⁵ | 30 604 |
//! | `κ₂ ÷ 1.05` | `ln κ₂` | 1 − 10⁻²² | 33 591 |
//! | `κ₃ ÷ 1.05` | `ln κ₃` | 1 − 10⁻¹¹ | 50 325 |
//! | `K ÷ 1.05` | common scale | 1 − 10⁻¹⁸ | 37 739 |
//!
//! KS: `δ = max_i |F_wrong(t_i) − F(t_i)|`, both CDFs by the quadrature of part 2 (with the
//! wrong `K` or `μ` in `f`); the miss probability is at most `2e^{−2n(δ−c)²}`, `c` the KS
//! critical value (`support/ks_power.rs`, Dvoretzky–Kiefer–Wolfowitz–Massart). Scores: the
//! wrong law's mean `m'` and variance of the claimed score by the quadrature, the miss
//! probability at most `exp(−ng²/(2σ'² + 2b'g/3))` with `g = |m'| − ε*`, `ε*` the Bernstein
//! threshold at `α` (`support/bernstein.rs`). `κ₃ × 1.03` at the control point sets
//! `N_CONTROL`: its score needs 425 134 draws for power 0.999, the KS statistics 815 619.
//! Each control asserts its bound before it runs, and that the statistic it is for rejects
//! (for the control point, the battery). Run time: 11 s for the whole target
//! (`cargo test --release --test proofs -- nivmf_sampler_law::`, two shared cores).

// derivation: nivmf::NonIsotropicVmf::sample

use crate::bernstein;
use crate::ks_power;
use crate::statistic;
use crate::vmf_law;
use bernstein::{bernstein_ln_miss, bernstein_p_value, bernstein_threshold};
use ks_power::{ks_on_grid, power_lower_bound};
use probdml::nivmf::NonIsotropicVmf;
use probdml::vmf;
use probdml_proofs::registry::budget::SAMPLER_ALPHA;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use statistic::{describe, smallest_p, Statistic};
use std::sync::{Arc, Mutex};
use vmf_law::{vmf_statistics, TangentFrame};

/// Draws at the Supp. B point.
const N: usize = 100_000;
/// Draws at the control point: 425 134 give the score of `κ₃` power 0.999 against
/// `κ₃ × 1.03` (module docs).
const N_CONTROL: usize = 450_000;
/// The power every control must have.
const POWER: f64 = 0.999;
/// The Supp. B point's concentrations (tested for fit).
const KAPPAS: [f64; 3] = [2.0, 5.0, 9.0];
/// Ten times more concentrated: the point of the controls (tested for fit as well).
const KAPPAS_CONTROL: [f64; 3] = [20.0, 50.0, 90.0];
/// Cells of `[−1, 1]` for the projection CDFs.
const CELLS: usize = 2000;
/// Cells of `[−1, 1]` for the moments of the scores (smooth integrands: `score_identities`
/// checks the rule).
const MOMENT_CELLS: usize = 250;

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

/// The projection CDFs of the claimed law at the Supp. B `μ` and `kappas`, in the order of
/// `directions()`; computed once per point of the claim (the controls run the battery eight
/// times against the same claim).
fn claimed_cdfs(kappas: &[f64]) -> Arc<Vec<(Vec<f64>, Vec<f64>, f64)>> {
    static CACHE: Mutex<Vec<(Vec<f64>, Arc<Vec<(Vec<f64>, Vec<f64>, f64)>>)>> =
        Mutex::new(Vec::new());
    let mut cache = CACHE.lock().unwrap();
    if let Some((_, cdfs)) = cache.iter().find(|(k, _)| k == kappas) {
        return Arc::clone(cdfs);
    }
    let cdfs: Arc<Vec<_>> = Arc::new(
        directions()
            .iter()
            .map(|v| projection_cdf(v, &spec_mu(), kappas))
            .collect(),
    );
    cache.push((kappas.to_vec(), Arc::clone(&cdfs)));
    cdfs
}

/// Part 2: grid-KS of the three projections.
fn density_statistics(xs: &[Vec<f64>], kappas: &[f64]) -> Vec<Statistic> {
    let cdfs = claimed_cdfs(kappas);
    directions()
        .iter()
        .zip(cdfs.iter())
        .enumerate()
        .map(|(k, (v, (points, cdf, mass)))| {
            assert!((mass - 1.0).abs() < 1e-10, "∫f = {mass}");
            let mut t: Vec<f64> = xs.iter().map(|x| dot(v, x)).collect();
            let (d, p) = ks_on_grid(&mut t, points, cdf);
            Statistic {
                name: format!("projection {k} against ∫f"),
                n: t.len(),
                d,
                p,
            }
        })
        .collect()
}

/// The scores of part 3: `∂ ln f/∂ ln κ_m` for `m = 1, 2, 3` and their sum (the score of a
/// common scale of `K`), written from the density of the module docs.
struct Scores {
    mu: Vec<f64>,
    kappas: Vec<f64>,
    /// `κ̃ = ‖Kμ‖`.
    kappa_tilde: f64,
    /// `A_3(κ̃)` (the 256-bit reference ratio), `−d ln C_3/dκ̃`.
    a: f64,
}

impl Scores {
    fn new(mu: &[f64], kappas: &[f64]) -> Self {
        let kappa_tilde = mu
            .iter()
            .zip(kappas)
            .map(|(m, k)| (m * k).powi(2))
            .sum::<f64>()
            .sqrt();
        Self {
            mu: mu.to_vec(),
            kappas: kappas.to_vec(),
            kappa_tilde,
            a: vmf::exact::mean_resultant_length(3, kappa_tilde),
        }
    }

    /// `[S₁, S₂, S₃, S₁ + S₂ + S₃]` at `x`: with `ln f = ln C_3(κ̃) + Σ ln κ_j − 3 ln‖Kx‖ +
    /// (Kx)ᵀ(Kμ)/‖Kx‖` and `∂κ̃/∂ln κ_m = κ_m²μ_m²/κ̃`,
    /// `S_m = −A_3(κ̃)κ_m²μ_m²/κ̃ + 1 − 3κ_m²x_m²/‖Kx‖² + 2κ_m²x_mμ_m/‖Kx‖
    /// − (Kx)ᵀ(Kμ)κ_m²x_m²/‖Kx‖³`.
    fn at(&self, x: &[f64]) -> [f64; 4] {
        let k = &self.kappas;
        let kx2: f64 = (0..3).map(|j| (k[j] * x[j]).powi(2)).sum();
        let nkx = kx2.sqrt();
        let cross: f64 = (0..3).map(|j| k[j] * k[j] * x[j] * self.mu[j]).sum();
        let mut out = [0.0; 4];
        for m in 0..3 {
            let k2 = k[m] * k[m];
            let s = -self.a * k2 * self.mu[m].powi(2) / self.kappa_tilde + 1.0
                - 3.0 * k2 * x[m] * x[m] / kx2
                + 2.0 * k2 * x[m] * self.mu[m] / nkx
                - cross * k2 * x[m] * x[m] / (kx2 * nkx);
            out[m] = s;
            out[3] += s;
        }
        out
    }

    /// Bounds on `|S|` over the sphere. In `r = Kx/‖Kx‖` (a unit vector; `x ↦ r` is a
    /// bijection of the sphere), with `a = κ_mμ_m`, `c = −A_3(κ̃)a²/κ̃` and `q = (Kμ)ᵀr`,
    /// `S_m = c + 1 + 2ar_m − (3 + q)r_m²` and the sum is `Σc + q`, so `|Σ S| ≤ |Σc| + κ̃`. For
    /// `r_m = cos ψ`, `q` spans `a cos ψ ± β sin ψ`, `β = √(κ̃² − a²)`, and `S_m` is linear in `q`:
    /// its extremes are those of `c + 1 + 2a cos ψ − (3 + a cos ψ ± β sin ψ)cos²ψ` over
    /// `ψ ∈ [0, π]`, taken on a grid of `G` points plus the grid's half step times a bound
    /// `5|a| + 6 + 3β` on the derivative in `ψ`.
    fn bounds(&self) -> [f64; 4] {
        const G: usize = 100_000;
        let step = std::f64::consts::PI / G as f64;
        let mut out = [0.0; 4];
        let mut constant = 0.0;
        for ((o, k), mu) in out.iter_mut().zip(&self.kappas).zip(&self.mu) {
            let a = k * mu;
            let c = -self.a * a * a / self.kappa_tilde;
            constant += c;
            let beta = (self.kappa_tilde.powi(2) - a * a).max(0.0).sqrt();
            let mut largest: f64 = 0.0;
            for i in 0..=G {
                let (sin, cos) = (i as f64 * step).sin_cos();
                for sign in [-1.0, 1.0] {
                    let v =
                        c + 1.0 + 2.0 * a * cos - (3.0 + a * cos + sign * beta * sin) * cos * cos;
                    largest = largest.max(v.abs());
                }
            }
            *o = largest + 0.5 * step * (5.0 * a.abs() + 6.0 + 3.0 * beta);
        }
        out[3] = constant.abs() + self.kappa_tilde;
        out
    }
}

const SCORE_NAMES: [&str; 4] = [
    "score in ln κ₁",
    "score in ln κ₂",
    "score in ln κ₃",
    "score in a common scale of K",
];

/// `E g(X)` under `nivMF(mu, diag kappas)` on `S²` by the rule of part 2 about the pole `e₃`
/// (4-point Gauss–Legendre on each of `MOMENT_CELLS` cells of `t = x₃`, 256-point trapezoid
/// rule in the azimuth), for a vector-valued `g`.
fn expectation<const L: usize>(
    mu: &[f64],
    kappas: &[f64],
    g: impl Fn(&[f64]) -> [f64; L],
) -> [f64; L] {
    let ln_c = log_norm_const(mu, kappas);
    let nodes = [
        (-0.861_136_311_594_052_6, 0.347_854_845_137_453_9),
        (-0.339_981_043_584_856_3, 0.652_145_154_862_546_1),
        (0.339_981_043_584_856_3, 0.652_145_154_862_546_1),
        (0.861_136_311_594_052_6, 0.347_854_845_137_453_9),
    ];
    let width = 2.0 / MOMENT_CELLS as f64;
    let h = 2.0 * std::f64::consts::PI / 256.0;
    let azimuths: Vec<(f64, f64)> = (0..256).map(|j| (j as f64 * h).sin_cos()).collect();
    let mut acc = [0.0; L];
    for i in 0..MOMENT_CELLS {
        let mid = -1.0 + (i as f64 + 0.5) * width;
        for &(node, weight) in &nodes {
            let t = mid + 0.5 * width * node;
            let s = ((1.0 - t) * (1.0 + t)).max(0.0).sqrt();
            for &(sp, cp) in &azimuths {
                let x = [s * cp, s * sp, t];
                let w = weight * 0.5 * width * h * density(&x, mu, kappas, ln_c);
                for (a, v) in acc.iter_mut().zip(g(&x)) {
                    *a += w * v;
                }
            }
        }
    }
    acc
}

/// The null variances `E S²` of the scores at `kappas` (their null means are 0: the score of a
/// normalised density; `score_identities` checks it by the same quadrature).
fn score_variances(kappas: &[f64]) -> [f64; 4] {
    let scores = Scores::new(&spec_mu(), kappas);
    expectation(&spec_mu(), kappas, |x| scores.at(x).map(|s| s * s))
}

/// Part 3: the four score means against 0, each by Bernstein's inequality.
fn score_statistics(xs: &[Vec<f64>], kappas: &[f64]) -> Vec<Statistic> {
    let scores = Scores::new(&spec_mu(), kappas);
    let (variances, bounds) = (score_variances(kappas), scores.bounds());
    let mut sums = [0.0; 4];
    for x in xs {
        sums.iter_mut().zip(scores.at(x)).for_each(|(a, s)| *a += s);
    }
    let n = xs.len();
    (0..4)
        .map(|k| {
            let mean = sums[k] / n as f64;
            Statistic {
                name: SCORE_NAMES[k].to_string(),
                n,
                d: mean / (variances[k] / n as f64).sqrt(),
                p: bernstein_p_value(mean, n, variances[k], bounds[k]),
            }
        })
        .collect()
}

/// What the power bounds of the scores need about a wrong sampler: the claimed scores' null
/// variances and bounds, and their mean and variance under the wrong law (quadrature).
struct ScorePower {
    variances: [f64; 4],
    bounds: [f64; 4],
    means_wrong: [f64; 4],
    variances_wrong: [f64; 4],
}

impl ScorePower {
    /// Draws of `nivMF(mu, diag kappas)` against the claim `nivMF(Supp. B μ, diag claimed)`.
    fn new(mu: &[f64], kappas: &[f64], claimed: &[f64]) -> Self {
        let scores = Scores::new(&spec_mu(), claimed);
        let moments = expectation(mu, kappas, |x| {
            let s = scores.at(x);
            [
                s[0],
                s[1],
                s[2],
                s[3],
                s[0] * s[0],
                s[1] * s[1],
                s[2] * s[2],
                s[3] * s[3],
            ]
        });
        Self {
            variances: score_variances(claimed),
            bounds: scores.bounds(),
            means_wrong: std::array::from_fn(|k| moments[k]),
            variances_wrong: std::array::from_fn(|k| moments[k + 4] - moments[k] * moments[k]),
        }
    }

    /// The score with the best bound at `n`, and `log₁₀` of its miss bound
    /// (`support/bernstein.rs`).
    fn best(&self, n: usize) -> (usize, f64) {
        (0..4)
            .map(|k| {
                let threshold =
                    bernstein_threshold(n, self.variances[k], self.bounds[k], SAMPLER_ALPHA);
                let ln_miss = bernstein_ln_miss(
                    self.means_wrong[k],
                    n,
                    threshold,
                    self.variances_wrong[k],
                    self.bounds[k] + self.means_wrong[k].abs(),
                );
                (k, ln_miss / std::f64::consts::LN_10)
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap()
    }

    /// The smallest `n` at which the best bound reaches `POWER` (doubling, then bisection).
    fn smallest_n(&self) -> usize {
        let enough = |n: usize| self.best(n).1 <= (1.0 - POWER).log10();
        ks_power::smallest_n_where(enough)
    }
}

fn draws(mu: &[f64], kappas: &[f64], n: usize, seed: u64) -> Vec<Vec<f64>> {
    let law = NonIsotropicVmf::new(mu, kappas).unwrap();
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|_| law.sample(&mut r)).collect()
}

/// Parts 1, 2 and 3 against `nivMF(Supp. B μ, diag kappas)`.
fn battery(xs: &[Vec<f64>], kappas: &[f64]) -> Vec<Statistic> {
    let mut stats = push_forward_statistics(xs, &spec_mu(), kappas, 0x06_0001);
    stats.extend(density_statistics(xs, kappas));
    stats.extend(score_statistics(xs, kappas));
    stats
}

/// The scores are those of the density: mean 0 under it (by the quadrature, to `10⁻⁹` of their
/// standard deviation), and equal to central differences of `ln f` in `ln κ_m` at a few
/// points, at both points of the claim.
#[test]
fn score_identities() {
    for kappas in [KAPPAS, KAPPAS_CONTROL] {
        let mu = spec_mu();
        let scores = Scores::new(&mu, &kappas);
        let moments = expectation(&mu, &kappas, |x| {
            let s = scores.at(x);
            [
                s[0],
                s[1],
                s[2],
                s[3],
                s[0] * s[0],
                s[1] * s[1],
                s[2] * s[2],
                s[3] * s[3],
            ]
        });
        for k in 0..4 {
            let sd = moments[k + 4].sqrt();
            assert!(
                moments[k].abs() <= 1e-9 * sd,
                "K = {kappas:?}, {}: E S = {:e}, sd {sd:e}",
                SCORE_NAMES[k],
                moments[k]
            );
        }
        // The bounds hold at every node of the quadrature (visited as the expectation of the
        // indicator of a violation under a law of positive density, nivMF(μ, I)).
        let bounds = scores.bounds();
        let worst = expectation(&mu, &[1.0, 1.0, 1.0], |x| {
            let s = scores.at(x);
            std::array::from_fn::<f64, 4, _>(|k| f64::from(u8::from(s[k].abs() > bounds[k])))
        });
        assert_eq!(worst, [0.0; 4], "K = {kappas:?}: a score beyond its bound");
        let ln_f = |x: &[f64], ks: &[f64]| density(x, &mu, ks, log_norm_const(&mu, ks)).ln();
        for x in [
            normalise(&[0.3, -0.2, 0.9]),
            normalise(&[-1.0, 0.5, 0.1]),
            mu.clone(),
        ] {
            let got = scores.at(&x);
            for m in 0..3 {
                let h: f64 = 1e-5;
                let (mut up, mut down) = (kappas, kappas);
                up[m] *= h.exp();
                down[m] *= (-h).exp();
                let want = (ln_f(&x, &up) - ln_f(&x, &down)) / (2.0 * h);
                assert!(
                    (got[m] - want).abs() <= 1e-6 * (1.0 + want.abs()),
                    "K = {kappas:?}, x = {x:?}, m = {m}: {} vs {want}",
                    got[m]
                );
            }
        }
    }
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

/// `δ` of a wrong law from the claimed one (`claimed`) over the three projections.
fn control_delta(mu: &[f64], kappas: &[f64], claimed: &[f64]) -> f64 {
    let claimed = claimed_cdfs(claimed);
    directions()
        .iter()
        .zip(claimed.iter())
        .map(|(v, (_, right, _))| {
            let (_, wrong, _) = projection_cdf(v, mu, kappas);
            right
                .iter()
                .zip(&wrong)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max)
        })
        .fold(0.0, f64::max)
}

/// Runs a control at the control point: the KS bound and the best score's bound, the better of
/// which must reach `POWER`, then the battery must reject.
fn control(label: &str, mu: &[f64], kappas: &[f64], seed: u64) {
    let delta = control_delta(mu, kappas, &KAPPAS_CONTROL);
    let power = power_lower_bound(delta, N_CONTROL, SAMPLER_ALPHA);
    let score_power = ScorePower::new(mu, kappas, &KAPPAS_CONTROL);
    let (k, log10_miss) = score_power.best(N_CONTROL);
    println!(
        "{label}: KS δ ≥ {delta:.4e}, power ≥ {power:.6} at n = {N_CONTROL} (n for {POWER}: {}); \
         {}: power ≥ 1 − 10^{log10_miss:.1} (n for {POWER}: {})",
        ks_power::smallest_n(delta, SAMPLER_ALPHA, POWER),
        SCORE_NAMES[k],
        score_power.smallest_n(),
    );
    assert!(
        power >= POWER || log10_miss <= (1.0 - POWER).log10(),
        "{label}: power bounds {power} (KS), 1 − 10^{log10_miss} (score)"
    );
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

/// Negative controls at the Supp. B point, `n = N`: each concentration, and all three
/// together, 5 % high and 5 % low (a variance of the tangent law about 5 % off), in the
/// sampler; the score with the best power bound must reject.
#[test]
fn control_supp_b_concentration_five_percent_off() {
    let mut cases = Vec::new();
    for (f, sign) in [(1.05, "×"), (1.0 / 1.05, "÷")] {
        for m in 0..4 {
            let mut wrong = KAPPAS;
            if m < 3 {
                wrong[m] *= f;
            } else {
                wrong.iter_mut().for_each(|k| *k *= f);
            }
            let which = if m < 3 {
                format!("κ{}", ["₁", "₂", "₃"][m])
            } else {
                "K".to_string()
            };
            cases.push((format!("Supp. B, {which} {sign} 1.05"), wrong));
        }
    }
    for (i, (label, wrong)) in cases.iter().enumerate() {
        let score_power = ScorePower::new(&spec_mu(), wrong, &KAPPAS);
        let (k, log10_miss) = score_power.best(N);
        let delta = control_delta(&spec_mu(), wrong, &KAPPAS);
        println!(
            "{label}: {}: shift {:.3} σ per draw, power ≥ 1 − 10^{log10_miss:.1} at n = {N} \
             (n for {POWER}: {}); KS δ ≥ {delta:.2e}, power ≥ {:.3} (n for {POWER}: {})",
            SCORE_NAMES[k],
            score_power.means_wrong[k] / score_power.variances[k].sqrt(),
            score_power.smallest_n(),
            power_lower_bound(delta, N, SAMPLER_ALPHA),
            ks_power::smallest_n(delta, SAMPLER_ALPHA, POWER),
        );
        assert!(
            log10_miss <= (1.0 - POWER).log10(),
            "{label}: power bound 1 − 10^{log10_miss}"
        );
        let stats = battery(&draws(&spec_mu(), wrong, N, 0x06_0100 + i as u64), &KAPPAS);
        let score = stats
            .iter()
            .find(|s| s.name == SCORE_NAMES[k])
            .expect("the battery has the scores");
        println!(
            "{label}: {} = {:.1} σ, p = {:.1e}",
            score.name, score.d, score.p
        );
        assert!(
            score.p < SAMPLER_ALPHA,
            "{label}: {} missed the wrong sampler: {}",
            score.name,
            describe(&stats)
        );
    }
}
