//! Probabilistic ProxyNCA++ (nivMF eqs. (1), (2), (5)–(7)): the loss
//! `−ln softmax_c(−d(ρ_c, ζ)/t)[c*]` for the distances of [`ProxyDistance`], averaged over a
//! batch, with analytic gradients with respect to the embeddings, the proxies and the nivMF
//! concentrations.
//!
//! # Gradients
//!
//! With `L = (1/B) Σ_b [d_{b c*_b}/t + ln Σ_c e^{−d_{bc}/t}]`, `∂L/∂d_{bc} = (1[c = c*_b] −
//! π_{bc})/(Bt)`, `π_b = softmax(−d_b/t)` (nivMF Supp. F eqs. (40)–(41)), and the chain rule goes
//! through each distance:
//!
//! * Cos, `d = −ẑᵀp̂`: `∂d/∂z = −(p̂ − sẑ)/‖z‖`.
//! * L2, `d = ‖ν_p − ν_z‖²`: `∂d/∂ν_z = 2(ν_z − ν_p)`.
//! * EL-vMF, `d = ln C(‖ν_z+ν_p‖) − ln C(κ_z) − ln C(κ_p)`, with `∇_ν ln C_M(‖ν‖) = −(A_M(κ)/κ)ν`.
//! * B-vMF likewise with `½‖ν_z + ν_p‖` and halves.
//! * KL-vMF, `d = KL(ζ‖ρ)`: `∂/∂ν_z = A_M'(κ_z)(κ_z − ν_pᵀẑ)ẑ − (A_M(κ_z)/κ_z)(ν_p − (ν_pᵀẑ)ẑ)`,
//!   `∂/∂ν_p = (A_M(κ_p)/κ_p)ν_p − A_M(κ_z)ẑ`.
//! * nivMF, `d = −ln f(ẑ)` with `u = Kẑ`, `v = Kμ`, `a = ‖u‖`, `κ̃ = ‖v‖`, `e = uᵀv/a`:
//!   `∂ln f/∂u = (v − eu/a)/a − Mu/a²`, `∂ln f/∂v = −A_M(κ̃)v/κ̃ + u/a`, then `∂/∂ẑ = K∂/∂u`,
//!   `∂/∂μ = K∂/∂v`, `∂/∂κ_m = ẑ_m(∂/∂u)_m + μ_m(∂/∂v)_m + 1/κ_m`; the heuristic drops
//!   `−Mu/a²` and adds `−v/κ̃²` to `∂/∂v`. Directions `x/‖x‖` chain through `(I − x̂x̂ᵀ)/‖x‖`.
//! * EL-nivMF, `d = −ln((1/N) Σ_i f(x_i))`, `x_i = w_i ẑ + √(1−w_i²) t_i/‖t_i‖`,
//!   `t_i = g_i − (ẑᵀg_i)ẑ`, with `w_i` from Wood's sampler for `κ_z = ‖z‖` and `g_i` standard
//!   normal: the gradient flows through `ẑ` with `(w_i, g_i)` held fixed (the reparametrised
//!   direction; the dependence of Wood's accepted `w_i` on `κ_z` is not differentiated, as in
//!   the paper's code, which samples with [8] and back-propagates through the direction only).

use super::input::{check_batch, ProxyBatch, ProxyDistance, ProxyLoss};
use super::proxy_nca_el_vmf::el_vmf_proxy_nca;
use crate::error::{require_finite, Error, Result};
use crate::vmf::{
    bhattacharyya_from_norms, kl_vmf_kernel, log_norm_const, mean_resultant_length,
    mean_resultant_over_kappa, mean_resultant_slope, VonMisesFisher,
};
use rand::{RngExt, SeedableRng};

use crate::xoshiro_x8::Xoshiro256PlusPlusX8;
use rand_distr::StandardNormal;

/// `‖v‖` from [`dot`].
#[inline(always)]
pub(crate) fn norm(v: &[f64]) -> f64 {
    dot(v, v).sqrt()
}

/// `aᵀb` in four accumulator lanes (`compensated::dot_lanes`): a single chain of `M` dependent
/// additions costs `4M` cycles of latency per pair, and the lanes also lower the error bound
/// from `γ_M` to `γ_{⌈M/4⌉+2}`.
#[inline(always)]
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    crate::compensated::dot_lanes(a, b)
}

/// Adds `scale·(I − x̂x̂ᵀ)g/‖x‖` to `out`: the gradient through `x̂ = x/‖x‖`.
#[inline(always)]
fn add_through_direction(out: &mut [f64], g: &[f64], unit: &[f64], length: f64, scale: f64) {
    let gx = dot(g, unit);
    for ((o, &gi), &xi) in out.iter_mut().zip(g).zip(unit) {
        *o += scale * (gi - gx * xi) / length;
    }
}

/// Where [`nivmf_log_density_grad`] adds its gradients: a scale and the sinks for `x`, `μ`, `κ`.
pub(crate) type GradientSinks<'a> = (f64, &'a mut [f64], &'a mut [f64], &'a mut [f64]);

/// `ln det K = Σ_m ln κ_m` of a proxy's concentrations, summed in order: it does not depend on
/// the embedding, so the losses form it once per proxy rather than once per pair (`M`
/// logarithms each).
#[inline(always)]
pub(crate) fn log_det(kappas: &[f64]) -> f64 {
    kappas.iter().fold(0.0, |sum, k| sum + k.ln())
}

/// `ln f` of the (exact or heuristic) nivMF at the unit `x`, and optionally its gradients with
/// respect to `x`, `μ` and `κ` (added, times `scale`, to the three outputs); `log_det` is
/// [`log_det`]`(kappas)`.
#[inline(always)]
pub(crate) fn nivmf_log_density_grad(
    x: &[f64],
    mu: &[f64],
    (kappas, log_det): (&[f64], f64),
    heuristic: bool,
    grads: Option<GradientSinks<'_>>,
) -> f64 {
    let dim = x.len();
    let (mut a2, mut kt2, mut cross) = (0.0, 0.0, 0.0);
    for ((&xi, &mi), &k) in x.iter().zip(mu).zip(kappas) {
        let (u, v) = (k * xi, k * mi);
        a2 += u * u;
        kt2 += v * v;
        cross += u * v;
    }
    let (a, kt) = (a2.sqrt(), kt2.sqrt());
    let e = cross / a;
    let ln_f = if heuristic {
        log_norm_const(dim, kt) + log_det - kt.ln() + e
    } else {
        log_norm_const(dim, kt) + log_det - dim as f64 * a.ln() + e
    };
    if let Some((scale, gx, gmu, gk)) = grads {
        let m = dim as f64;
        let aok =
            mean_resultant_length(dim, kt) / kt + if heuristic { 1.0 / (kt * kt) } else { 0.0 };
        for i in 0..dim {
            let (k, u, v) = (kappas[i], kappas[i] * x[i], kappas[i] * mu[i]);
            let mut du = (v - e * u / a) / a;
            if !heuristic {
                du -= m * u / a2;
            }
            let dv = -aok * v + u / a;
            gx[i] += scale * k * du;
            gmu[i] += scale * k * dv;
            gk[i] += scale * (x[i] * du + mu[i] * dv + 1.0 / k);
        }
    }
    ln_f
}

/// One embedding's Monte Carlo base draws for EL-nivMF: `N` pairs `(w_i, g_i)`, exactly those
/// [`proxy_nca_loss`] draws for row `row` under [`ProxyDistance::ElNivMf`] with `seed`.
///
/// `w_i` is the cosine of a vMF(·, κ) draw by Wood's sampler and `g_i` a standard normal vector
/// of length `dim`, from the crate's [`Xoshiro256PlusPlusX8`] seeded by `(seed, row)`; the draw is then
/// `x_i = w_i ẑ + √(1 − w_i²) t_i/‖t_i‖`, `t_i = g_i − (ẑᵀg_i)ẑ` (module docs). The training
/// module's tensor loss takes these draws, so that it computes the same Monte Carlo estimate.
///
/// # Errors
///
/// [`Error::NotFinite`] / [`Error::OutOfDomain`] for a κ that is not finite and `≥ 0`;
/// [`Error::InvalidDimension`] for `dim < 2`.
///
/// # Examples
///
/// ```
/// use probdml::nivmf::el_nivmf_draws;
/// let draws = el_nivmf_draws(5.0, 3, 4, 7, 0).unwrap();
/// assert_eq!(draws.len(), 4);
/// assert!(draws.iter().all(|(w, g)| (-1.0..=1.0).contains(w) && g.len() == 3));
/// // The same seed and row draw the same values.
/// assert_eq!(draws, el_nivmf_draws(5.0, 3, 4, 7, 0).unwrap());
/// ```
pub fn el_nivmf_draws(
    kappa: f64,
    dim: usize,
    samples: usize,
    seed: u64,
    row: usize,
) -> Result<Vec<(f64, Vec<f64>)>> {
    crate::error::require_sphere_dim("dim", dim)?;
    require_finite("kappa", kappa)?;
    if kappa < 0.0 {
        return Err(Error::OutOfDomain {
            arg: "kappa",
            value: kappa,
            rule: "the concentration kappa_z = ||z|| must be >= 0",
        });
    }
    Ok(el_nivmf_draws_unchecked(kappa, dim, samples, seed, row))
}

/// [`el_nivmf_draws`] without the checks (κ finite and `≥ 0`, `dim ≥ 2` by the caller).
pub(crate) fn el_nivmf_draws_unchecked(
    kappa: f64,
    dim: usize,
    samples: usize,
    seed: u64,
    row: usize,
) -> Vec<(f64, Vec<f64>)> {
    // The crate's own generator: the draws of a seed stay the same across versions of `rand`
    // (whose `StdRng` may change its algorithm) and whatever features `rand` is built with.
    let mut rng = Xoshiro256PlusPlusX8::seed_from_u64(
        seed ^ (row as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    let mut e1 = vec![0.0; dim];
    e1[0] = 1.0;
    let law = VonMisesFisher::new(&e1, kappa).expect("a unit e₁ and a finite κ ≥ 0");
    (0..samples)
        .map(|_| {
            let w = law.sample_cosine(&mut rng);
            let g: Vec<f64> = (0..dim).map(|_| rng.sample(StandardNormal)).collect();
            (w, g)
        })
        .collect()
}

/// `x = wẑ + √(1 − w²) t/‖t‖`, `t = g − (ẑᵀg)ẑ`; returns `(x, t/‖t‖, ‖t‖)`.
#[inline(always)]
pub(crate) fn el_nivmf_point(w: f64, g: &[f64], unit_z: &[f64]) -> (Vec<f64>, Vec<f64>, f64) {
    let zg = dot(unit_z, g);
    let t: Vec<f64> = g.iter().zip(unit_z).map(|(gi, zi)| gi - zg * zi).collect();
    let nt = norm(&t);
    let t_hat: Vec<f64> = t.iter().map(|v| v / nt).collect();
    let s = (1.0 - w * w).max(0.0).sqrt();
    let mut x: Vec<f64> = unit_z
        .iter()
        .zip(&t_hat)
        .map(|(zi, ti)| w * zi + s * ti)
        .collect();
    let nx = norm(&x);
    x.iter_mut().for_each(|v| *v /= nx);
    (x, t_hat, nt)
}

/// The ProxyNCA++ loss with a probabilistic distance, averaged over the batch, and its
/// gradients.
///
/// # Formula
///
/// $$ L = \frac1B\sum_b -\ln\frac{e^{-d(\rho_{c_b^{\ast}}, \zeta_b)/t}}{\sum_c e^{-d(\rho_c,\zeta_b)/t}},\qquad
///    \frac{\partial L}{\partial d_{bc}} = \frac{\mathbb 1[c = c_b^{\ast}] - \pi_{bc}}{Bt} $$
///
/// (nivMF eqs. (1), (2), (6); the paper writes the log-softmax, the loss is its negative; Supp. F
/// eqs. (40)–(41)). See the module docs for each distance's gradient. The log-sum-exp is
/// shifted by its maximum.
///
/// # Errors
///
/// [`Error::InvalidDimension`] for `dim < 2`; [`Error::OutOfDomain`] / [`Error::NotFinite`] for
/// `t ≤ 0` or not finite, or a concentration `≤ 0`; [`Error::TooFew`] for no embeddings, no
/// proxies or `N = 0`; [`Error::RaggedRows`] for a length not a multiple of `dim`;
/// [`Error::NotFiniteElement`] for a NaN or infinite entry; [`Error::DimensionMismatch`] for
/// `labels` or `concentrations` of the wrong length; [`Error::IndexOutOfRange`] for a label
/// `≥ C`; [`Error::Undefined`] for a zero row where a direction is needed.
///
/// # Examples
///
/// ```
/// use probdml::nivmf::{proxy_nca_loss, ProxyBatch, ProxyDistance};
/// use probdml::Labels;
/// let batch = ProxyBatch {
///     embeddings: &[3.0, 0.0, 0.0, 0.0, 2.0, 0.0],
///     labels: Labels::Usize(&[0, 1]),
///     proxies: &[10.0, 0.0, 0.0, 0.0, 10.0, 0.0, 0.0, 0.0, 10.0],
///     concentrations: &[],
///     dim: 3,
/// };
/// let out = proxy_nca_loss(ProxyDistance::ElVmf, &batch, 1.0).unwrap();
/// assert!(out.loss.is_finite() && out.loss > 0.0);
/// // Each embedding is closest (smallest d_EL) to its own proxy.
/// assert!(out.distances[0] < out.distances[1] && out.distances[4] < out.distances[3]);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn proxy_nca_loss(
    distance: ProxyDistance,
    batch: &ProxyBatch<'_>,
    temperature: f64,
) -> Result<ProxyLoss> {
    let (b, c, labels) = check_batch(distance, batch, temperature)?;
    Ok(crate::instruction_set::dispatch(
        #[inline(always)]
        || proxy_nca_kernel(distance, batch, &labels, temperature, (b, c)),
    ))
}

/// [`proxy_nca_loss`] on a checked batch of `B` embeddings and `C` proxies, inlined into each
/// instruction set's copy with every per-pair kernel it calls.
#[inline(always)]
fn proxy_nca_kernel(
    distance: ProxyDistance,
    batch: &ProxyBatch<'_>,
    labels: &[usize],
    temperature: f64,
    (b, c): (usize, usize),
) -> ProxyLoss {
    let dim = batch.dim;
    if distance == ProxyDistance::ElVmf {
        return el_vmf_proxy_nca(batch.embeddings, labels, batch.proxies, dim, temperature);
    }
    let mut distances = vec![0.0; b * c];
    let mut grad_embeddings = vec![0.0; b * dim];
    let mut grad_proxies = vec![0.0; c * dim];
    let mut grad_concentrations = if distance.uses_concentrations() {
        vec![0.0; c * dim]
    } else {
        Vec::new()
    };
    let proxy_rows: Vec<&[f64]> = batch.proxies.chunks_exact(dim).collect();
    let proxy_norms: Vec<f64> = proxy_rows.iter().map(|p| norm(p)).collect();
    let proxy_units: Vec<Vec<f64>> = proxy_rows
        .iter()
        .zip(&proxy_norms)
        .map(|(p, &n)| {
            p.iter()
                .map(|v| if n > 0.0 { v / n } else { 0.0 })
                .collect()
        })
        .collect();
    // Each proxy's concentrations with their log-determinant.
    let kappa_rows: Vec<(&[f64], f64)> = if distance.uses_concentrations() {
        batch
            .concentrations
            .chunks_exact(dim)
            .map(|k| (k, log_det(k)))
            .collect()
    } else {
        Vec::new()
    };
    let inv_bt = 1.0 / (b as f64 * temperature);
    let mut loss = 0.0;
    let mut row_d = vec![0.0; c];
    let mut gz = vec![0.0; dim];
    let mut row_logs: Vec<Vec<f64>> = vec![Vec::new(); c];
    // A_M(κ)/κ per proxy and, per row below, A_M(κ_z)/κ_z, A_M(κ_z), A_M'(κ_z): hoisted out of
    // the pair loop for the vMF distances.
    let vmf_gradients = matches!(distance, ProxyDistance::BVmf | ProxyDistance::KlVmf);
    let proxy_aok: Vec<f64> = if vmf_gradients {
        proxy_norms
            .iter()
            .map(|&k| mean_resultant_over_kappa(dim, k))
            .collect()
    } else {
        Vec::new()
    };
    for (row, z) in batch.embeddings.chunks_exact(dim).enumerate() {
        let kz = norm(z);
        let unit_z: Vec<f64> = z
            .iter()
            .map(|v| if kz > 0.0 { v / kz } else { 0.0 })
            .collect();
        let (row_aok, row_a, row_slope) = if vmf_gradients {
            let slope = if distance == ProxyDistance::KlVmf {
                mean_resultant_slope(dim, kz)
            } else {
                0.0
            };
            (
                mean_resultant_over_kappa(dim, kz),
                mean_resultant_length(dim, kz),
                slope,
            )
        } else {
            (0.0, 0.0, 0.0)
        };
        let draws = match distance {
            ProxyDistance::ElNivMf { samples, seed } => {
                el_nivmf_draws_unchecked(kz, dim, samples, seed, row)
                    .into_iter()
                    .map(|(w, g)| {
                        let (x, t_hat, nt) = el_nivmf_point(w, &g, &unit_z);
                        (w, g, x, t_hat, nt)
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
        // Pass 1: the distances.
        for (ci, d) in row_d.iter_mut().enumerate() {
            let p = proxy_rows[ci];
            *d = match distance {
                ProxyDistance::Cosine => -dot(&unit_z, &proxy_units[ci]),
                ProxyDistance::L2 => z.iter().zip(p).map(|(a, b)| (a - b) * (a - b)).sum(),
                ProxyDistance::ElVmf => unreachable!("EL-vMF returned above"),
                ProxyDistance::BVmf => {
                    let ks = z
                        .iter()
                        .zip(p)
                        .map(|(a, b)| (a + b) * (a + b))
                        .sum::<f64>()
                        .sqrt();
                    bhattacharyya_from_norms(dim, z, p, kz, proxy_norms[ci], ks)
                }
                ProxyDistance::KlVmf => {
                    let half_sq = 0.5
                        * unit_z
                            .iter()
                            .zip(&proxy_units[ci])
                            .map(|(a, b)| (a - b) * (a - b))
                            .sum::<f64>();
                    kl_vmf_kernel(dim, kz, proxy_norms[ci], half_sq)
                }
                ProxyDistance::NivMf | ProxyDistance::NivMfHeuristic => {
                    let heuristic = distance == ProxyDistance::NivMfHeuristic;
                    -nivmf_log_density_grad(
                        &unit_z,
                        &proxy_units[ci],
                        kappa_rows[ci],
                        heuristic,
                        None,
                    )
                }
                ProxyDistance::ElNivMf { samples, .. } => {
                    // ln f(x_i) for every draw, kept for the gradient pass.
                    let logs = &mut row_logs[ci];
                    logs.clear();
                    logs.extend(draws.iter().map(|(_, _, x, _, _)| {
                        nivmf_log_density_grad(x, &proxy_units[ci], kappa_rows[ci], false, None)
                    }));
                    let top = logs.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v));
                    let s: f64 = logs.iter().map(|v| (v - top).exp()).sum();
                    -(top + (s / samples as f64).ln())
                }
            };
        }
        let label = labels[row];
        let top = row_d.iter().fold(f64::INFINITY, |m, &v| m.min(v));
        let weights: Vec<f64> = row_d
            .iter()
            .map(|d| (-(d - top) / temperature).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        loss += (row_d[label] - top) / temperature + total.ln();
        distances[row * c..(row + 1) * c].copy_from_slice(&row_d);
        // Pass 2: gradients, ∂L/∂d_{bc} = (1[c = c*] − π_c)/(Bt).
        gz.iter_mut().for_each(|v| *v = 0.0);
        for ci in 0..c {
            let g = ((ci == label) as u8 as f64 - weights[ci] / total) * inv_bt;
            if g == 0.0 {
                continue;
            }
            let p = proxy_rows[ci];
            let gp = &mut grad_proxies[ci * dim..(ci + 1) * dim];
            match distance {
                ProxyDistance::Cosine => {
                    let up = &proxy_units[ci];
                    add_through_direction(&mut gz, up, &unit_z, kz, -g);
                    add_through_direction(gp, &unit_z, up, proxy_norms[ci], -g);
                }
                ProxyDistance::L2 => {
                    for i in 0..dim {
                        gz[i] += g * 2.0 * (z[i] - p[i]);
                        gp[i] += g * 2.0 * (p[i] - z[i]);
                    }
                }
                ProxyDistance::ElVmf => unreachable!("EL-vMF returned above"),
                ProxyDistance::BVmf => {
                    // d = ln C(γ‖ν_z+ν_p‖) − γ ln C(κ_z) − γ ln C(κ_p), γ = ½:
                    // ∂/∂ν_z = −γ² aok(γκ_s)(ν_z+ν_p) + γ aok(κ_z)ν_z.
                    let gamma = 0.5;
                    let ks = z
                        .iter()
                        .zip(p)
                        .map(|(a, b)| (a + b) * (a + b))
                        .sum::<f64>()
                        .sqrt();
                    let a_s = gamma * gamma * mean_resultant_over_kappa(dim, gamma * ks);
                    let a_z = gamma * row_aok;
                    let a_p = gamma * proxy_aok[ci];
                    for i in 0..dim {
                        let s = z[i] + p[i];
                        gz[i] += g * (-a_s * s + a_z * z[i]);
                        gp[i] += g * (-a_s * s + a_p * p[i]);
                    }
                }
                ProxyDistance::KlVmf => {
                    let proj = dot(p, &unit_z);
                    let (slope, aok_z, aok_p, a_z) = (row_slope, row_aok, proxy_aok[ci], row_a);
                    for i in 0..dim {
                        gz[i] += g
                            * (slope * (kz - proj) * unit_z[i] - aok_z * (p[i] - proj * unit_z[i]));
                        gp[i] += g * (aok_p * p[i] - a_z * unit_z[i]);
                    }
                }
                ProxyDistance::NivMf | ProxyDistance::NivMfHeuristic => {
                    let heuristic = distance == ProxyDistance::NivMfHeuristic;
                    let (mut gx, mut gmu) = (vec![0.0; dim], vec![0.0; dim]);
                    let gk = &mut grad_concentrations[ci * dim..(ci + 1) * dim];
                    // d = −ln f: scale −g.
                    nivmf_log_density_grad(
                        &unit_z,
                        &proxy_units[ci],
                        kappa_rows[ci],
                        heuristic,
                        Some((-g, &mut gx, &mut gmu, gk)),
                    );
                    add_through_direction(&mut gz, &gx, &unit_z, kz, 1.0);
                    add_through_direction(gp, &gmu, &proxy_units[ci], proxy_norms[ci], 1.0);
                }
                ProxyDistance::ElNivMf { .. } => {
                    // d = −ln Σ_i f(x_i) + ln N: weights ω_i = f(x_i)/Σ f.
                    let logs = &row_logs[ci];
                    let top = logs.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v));
                    let ws: Vec<f64> = logs.iter().map(|v| (v - top).exp()).collect();
                    let sum: f64 = ws.iter().sum();
                    let mut gmu = vec![0.0; dim];
                    let gk = &mut grad_concentrations[ci * dim..(ci + 1) * dim];
                    let mut g_unit_z = vec![0.0; dim];
                    for ((w, gdraw, x, t_hat, nt), wi) in draws.iter().zip(&ws) {
                        let mut gx = vec![0.0; dim];
                        nivmf_log_density_grad(
                            x,
                            &proxy_units[ci],
                            kappa_rows[ci],
                            false,
                            Some((-g * wi / sum, &mut gx, &mut gmu, gk)),
                        );
                        // x = x̃/‖x̃‖ with ‖x̃‖ = 1 in exact arithmetic: project gx on the tangent.
                        let gxx = dot(&gx, x);
                        let gx: Vec<f64> = gx.iter().zip(x).map(|(a, b)| a - gxx * b).collect();
                        // x̃(ẑ) = wẑ + s t/‖t‖, t = g − (ẑᵀg)ẑ (module docs):
                        // ∂/∂ẑ = w gx − (s/‖t‖)[(hᵀẑ) g_draw + (ẑᵀg_draw) h], h = (I − t̂t̂ᵀ)gx.
                        let s = (1.0 - w * w).max(0.0).sqrt();
                        let th = dot(t_hat, &gx);
                        let h: Vec<f64> = gx.iter().zip(t_hat).map(|(a, b)| a - th * b).collect();
                        let (hz, zg) = (dot(&h, &unit_z), dot(&unit_z, gdraw));
                        for i in 0..dim {
                            g_unit_z[i] += w * gx[i] - (s / nt) * (hz * gdraw[i] + zg * h[i]);
                        }
                    }
                    add_through_direction(&mut gz, &g_unit_z, &unit_z, kz, 1.0);
                    add_through_direction(gp, &gmu, &proxy_units[ci], proxy_norms[ci], 1.0);
                }
            }
        }
        grad_embeddings[row * dim..(row + 1) * dim].copy_from_slice(&gz);
    }
    ProxyLoss {
        loss: loss / b as f64,
        distances,
        grad_embeddings,
        grad_proxies,
        grad_concentrations,
    }
}
