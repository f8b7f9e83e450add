//! Reference ProxyAnchor: cosines from compensated dot products and 256-bit norms, compensated
//! sums, gradients by central differences.

use super::proxy_nca::richardson_gradients;
use crate::compensated::exact::norm2;
use crate::compensated::{dot2, Neumaier};
use crate::error::Result;
use crate::nivmf::input::check_anchor;
use crate::nivmf::input::check_batch;
use crate::nivmf::input::{ProxyBatch, ProxyDistance, ProxyLoss};

/// `ln(1 + Σ e^{a_i})` with a compensated sum.
fn log1p_sum_exp(a: &[f64]) -> f64 {
    let top = a.iter().fold(0.0_f64, |m, &v| m.max(v));
    let mut acc = Neumaier::new();
    acc.add((-top).exp());
    a.iter().for_each(|v| acc.add((v - top).exp()));
    top + acc.total().ln()
}

fn loss_only(batch: &ProxyBatch<'_>, alpha: f64, delta: f64) -> Result<(f64, Vec<f64>)> {
    let (b, c, labels) = check_batch(ProxyDistance::Cosine, batch, 1.0)?;
    check_anchor(alpha, delta)?;
    let dim = batch.dim;
    // One 256-bit norm per embedding and proxy, not one per pair.
    let proxy_norms: Vec<f64> = batch.proxies.chunks_exact(dim).map(norm2).collect();
    let mut cos = vec![0.0; b * c];
    for bi in 0..b {
        let z = &batch.embeddings[bi * dim..(bi + 1) * dim];
        let z_norm = norm2(z);
        for ci in 0..c {
            let p = &batch.proxies[ci * dim..(ci + 1) * dim];
            cos[bi * c + ci] = dot2(z, p) / (z_norm * proxy_norms[ci]);
        }
    }
    let n_pos = (0..c).filter(|ci| labels.contains(ci)).count() as f64;
    let mut loss = Neumaier::new();
    for ci in 0..c {
        let pos: Vec<f64> = (0..b)
            .filter(|&bi| labels[bi] == ci)
            .map(|bi| -alpha * (cos[bi * c + ci] - delta))
            .collect();
        let neg: Vec<f64> = (0..b)
            .filter(|&bi| labels[bi] != ci)
            .map(|bi| alpha * (cos[bi * c + ci] + delta))
            .collect();
        if !pos.is_empty() {
            loss.add(log1p_sum_exp(&pos) / n_pos);
        }
        if !neg.is_empty() {
            loss.add(log1p_sum_exp(&neg) / c as f64);
        }
    }
    Ok((loss.total(), cos.iter().map(|s| -s).collect()))
}

/// Reference for `nivmf::proxy_anchor_loss`.
///
/// # Formula
///
/// As the fast twin (Kim et al. 2020, eq. (4)); gradients by the 4th-order central differences
/// of this reference loss.
///
/// # Errors
///
/// As the fast twin.
///
/// # Examples
///
/// ```
/// use probdml::nivmf::{exact, proxy_anchor_loss, ProxyBatch};
/// use probdml::Labels;
/// let batch = ProxyBatch {
///     embeddings: &[1.0, 0.2, -0.3, 1.0],
///     labels: Labels::Usize(&[0, 1]),
///     proxies: &[1.0, 0.0, 0.0, 1.0],
///     concentrations: &[],
///     dim: 2,
/// };
/// let fast = proxy_anchor_loss(&batch, 32.0, 0.1).unwrap();
/// let slow = exact::proxy_anchor_loss(&batch, 32.0, 0.1).unwrap();
/// assert!((fast.loss - slow.loss).abs() < 1e-12);
/// ```
pub fn proxy_anchor_loss(batch: &ProxyBatch<'_>, alpha: f64, delta: f64) -> Result<ProxyLoss> {
    let (loss, distances) = loss_only(batch, alpha, delta)?;
    let (grad_embeddings, grad_proxies, _) =
        richardson_gradients(batch, false, |b| Ok(loss_only(b, alpha, delta)?.0))?;
    Ok(ProxyLoss {
        loss,
        distances,
        grad_embeddings,
        grad_proxies,
        grad_concentrations: Vec::new(),
    })
}
