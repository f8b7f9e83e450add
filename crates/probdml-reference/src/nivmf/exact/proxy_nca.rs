//! Reference ProxyNCA++: distances from the 256-bit normalisers and compensated sums, a
//! compensated log-sum-exp, and gradients by Richardson-extrapolated central differences of that
//! reference loss; EL-nivMF as its `N → ∞` limit `−ln ∫ρζ`, by quadrature on `S¹`/`S²`.

use super::density::{log_density, log_density_heuristic, log_density_without_norm_const};
use crate::compensated::exact::norm2;
use crate::compensated::{dot2, Neumaier};
use crate::error::{Error, Result};
use crate::nivmf::input::check_batch;
use crate::nivmf::input::{ProxyBatch, ProxyDistance, ProxyLoss};
use crate::quadrature::Tolerance;
use crate::vmf::exact::sphere::{integrate_circle, integrate_s2};
use crate::vmf::exact::{log_norm_const, mean_resultant_length};

fn unit(v: &[f64]) -> Vec<f64> {
    unit_with_norm(v, norm2(v))
}

/// `v/‖v‖` with `‖v‖` already taken: one 256-bit norm per vector and distance, not two.
fn unit_with_norm(v: &[f64], norm: f64) -> Vec<f64> {
    v.iter().map(|x| x / norm).collect()
}

/// `−ln ∫ ρ(x) ζ(x) dx` for `ζ = vMF(z)` and `ρ = nivMF(μ, K)` on `S¹` or `S²`.
fn el_nivmf_limit(z: &[f64], mu: &[f64], kappas: &[f64]) -> Result<f64> {
    let dim = z.len();
    let kz = norm2(z);
    let uz = unit(z);
    let kmu: Vec<f64> = mu.iter().zip(kappas).map(|(a, k)| a * k).collect();
    let log_c = log_norm_const(dim, kz) + log_norm_const(dim, norm2(&kmu));
    let integrand = |x: &[f64]| -> f64 {
        let unit_x = unit(x);
        (log_c + kz * dot2(&uz, &unit_x) + log_density_without_norm_const(&unit_x, mu, kappas))
            .exp()
    };
    let tol = Tolerance::relative(1e-12);
    let value = match dim {
        2 => integrate_circle([uz[0], uz[1]], kz, |x| integrand(&x), tol)?.value,
        3 => integrate_s2([uz[0], uz[1], uz[2]], kz, |x| integrand(&x), tol)?.value,
        _ => {
            return Err(Error::InvalidDimension {
                arg: "dim",
                dim,
                rule: "the EL-nivMF reference integrates over S¹ or S² (M ≤ 3)",
            })
        }
    };
    Ok(-value.ln())
}

/// One reference distance.
fn distance(kind: ProxyDistance, z: &[f64], p: &[f64], kappas: &[f64]) -> Result<f64> {
    let dim = z.len();
    let (kz, kp) = (norm2(z), norm2(p));
    Ok(match kind {
        ProxyDistance::Cosine => -dot2(&unit_with_norm(z, kz), &unit_with_norm(p, kp)),
        ProxyDistance::L2 => {
            let d: Vec<f64> = z.iter().zip(p).map(|(a, b)| a - b).collect();
            dot2(&d, &d)
        }
        ProxyDistance::ElVmf | ProxyDistance::BVmf => {
            let gamma = if kind == ProxyDistance::ElVmf {
                1.0
            } else {
                0.5
            };
            let s: Vec<f64> = z.iter().zip(p).map(|(a, b)| a + b).collect();
            let mut acc = Neumaier::new();
            acc.add(log_norm_const(dim, gamma * norm2(&s)));
            acc.add(-gamma * log_norm_const(dim, kz));
            acc.add(-gamma * log_norm_const(dim, kp));
            acc.total()
        }
        ProxyDistance::KlVmf => {
            // ln C(κ_z) − ln C(κ_p) + A(κ_z)(κ_z − ν_pᵀẑ), compensated.
            let proj = if kz > 0.0 {
                dot2(p, &unit_with_norm(z, kz))
            } else {
                0.0
            };
            let mut acc = Neumaier::new();
            acc.add(log_norm_const(dim, kz));
            acc.add(-log_norm_const(dim, kp));
            let a = mean_resultant_length(dim, kz);
            acc.add(a * kz);
            acc.add(-a * proj);
            acc.total()
        }
        ProxyDistance::NivMf => {
            -log_density(&unit_with_norm(z, kz), &unit_with_norm(p, kp), kappas)?
        }
        ProxyDistance::NivMfHeuristic => {
            -log_density_heuristic(&unit_with_norm(z, kz), &unit_with_norm(p, kp), kappas)?
        }
        ProxyDistance::ElNivMf { .. } => el_nivmf_limit(z, &unit_with_norm(p, kp), kappas)?,
    })
}

/// The reference loss and its distances.
fn loss_only(
    kind: ProxyDistance,
    batch: &ProxyBatch<'_>,
    temperature: f64,
) -> Result<(f64, Vec<f64>)> {
    let (_, c, labels) = check_batch(kind, batch, temperature)?;
    let dim = batch.dim;
    let mut total = Neumaier::new();
    let mut distances = Vec::new();
    for (row, z) in batch.embeddings.chunks_exact(dim).enumerate() {
        let mut d = Vec::with_capacity(c);
        for ci in 0..c {
            let p = &batch.proxies[ci * dim..(ci + 1) * dim];
            let k = if kind.uses_concentrations() {
                &batch.concentrations[ci * dim..(ci + 1) * dim]
            } else {
                &[][..]
            };
            d.push(distance(kind, z, p, k)?);
        }
        let top = d.iter().fold(f64::INFINITY, |m, &v| m.min(v));
        let mut s = Neumaier::new();
        d.iter()
            .for_each(|v| s.add((-(v - top) / temperature).exp()));
        total.add((d[labels[row]] - top) / temperature);
        total.add(s.total().ln());
        distances.extend(d);
    }
    Ok((
        total.total() / (batch.embeddings.len() / dim) as f64,
        distances,
    ))
}

/// Reference for `nivmf::proxy_nca_loss`.
///
/// # Formula
///
/// As the fast twin. Gradients: the 4th-order central difference
/// `(8(L(θ+h) − L(θ−h)) − (L(θ+2h) − L(θ−2h)))/(12h)`, `h = 10⁻³·max(1, |θ|)`, of this reference
/// loss in every coordinate (truncation `O(h⁴)`, rounding `~ε/h`: about `10⁻¹⁰` relative).
/// EL-nivMF is the limit `N → ∞`, `d = −ln ∫ρζ` by quadrature, for `M ≤ 3` only (its
/// gradients are not computed: they are left empty).
///
/// # Errors
///
/// As the fast twin; [`Error::InvalidDimension`] for EL-nivMF with `M > 3`.
///
/// # Examples
///
/// ```
/// use probdml::nivmf::{exact, proxy_nca_loss, ProxyBatch, ProxyDistance};
/// use probdml::Labels;
/// let batch = ProxyBatch {
///     embeddings: &[3.0, 0.0, 0.0, 0.0, 2.0, 0.0],
///     labels: Labels::Usize(&[0, 1]),
///     proxies: &[10.0, 0.0, 0.0, 0.0, 10.0, 0.0, 0.0, 0.0, 10.0],
///     concentrations: &[],
///     dim: 3,
/// };
/// let fast = proxy_nca_loss(ProxyDistance::KlVmf, &batch, 0.5).unwrap();
/// let slow = exact::proxy_nca_loss(ProxyDistance::KlVmf, &batch, 0.5).unwrap();
/// assert!((fast.loss - slow.loss).abs() < 1e-12);
/// ```
pub fn proxy_nca_loss(
    distance: ProxyDistance,
    batch: &ProxyBatch<'_>,
    temperature: f64,
) -> Result<ProxyLoss> {
    let (loss, distances) = loss_only(distance, batch, temperature)?;
    if let ProxyDistance::ElNivMf { .. } = distance {
        return Ok(ProxyLoss {
            loss,
            distances,
            grad_embeddings: Vec::new(),
            grad_proxies: Vec::new(),
            grad_concentrations: Vec::new(),
        });
    }
    let (grad_embeddings, grad_proxies, grad_concentrations) =
        richardson_gradients(batch, distance.uses_concentrations(), |b| {
            Ok(loss_only(distance, b, temperature)?.0)
        })?;
    Ok(ProxyLoss {
        loss,
        distances,
        grad_embeddings,
        grad_proxies,
        grad_concentrations,
    })
}

/// Gradients of `loss` with respect to the embeddings, the proxies and (if `with_concentrations`)
/// the concentrations of `batch`, by the 4th-order central difference
/// `(8(L(θ+h) − L(θ−h)) − (L(θ+2h) − L(θ−2h)))/(12h)`, `h = 10⁻³·max(1, |θ|)`.
#[doc(hidden)]
pub fn richardson_gradients<F: Fn(&ProxyBatch<'_>) -> Result<f64>>(
    batch: &ProxyBatch<'_>,
    with_concentrations: bool,
    loss: F,
) -> Result<(Vec<f64>, Vec<f64>, Vec<f64>)> {
    let mut params = [
        batch.embeddings.to_vec(),
        batch.proxies.to_vec(),
        batch.concentrations.to_vec(),
    ];
    let mut grads = [Vec::new(), Vec::new(), Vec::new()];
    let blocks = if with_concentrations { 3 } else { 2 };
    for which in 0..blocks {
        for i in 0..params[which].len() {
            let base = params[which][i];
            let h = 1e-3 * base.abs().max(1.0);
            let mut at = |delta: f64| -> Result<f64> {
                params[which][i] = base + delta;
                let b = ProxyBatch {
                    embeddings: &params[0],
                    labels: batch.labels,
                    proxies: &params[1],
                    concentrations: &params[2],
                    dim: batch.dim,
                };
                let v = loss(&b);
                params[which][i] = base;
                v
            };
            let (f1, b1) = (at(h)?, at(-h)?);
            let (f2, b2) = (at(2.0 * h)?, at(-2.0 * h)?);
            grads[which].push((8.0 * (f1 - b1) - (f2 - b2)) / (12.0 * h));
        }
    }
    let [gz, gp, gk] = grads;
    Ok((gz, gp, gk))
}
