//! ProxyAnchor (Kim et al., CVPR 2020) on the directions of the embeddings and proxies, and the
//! joint loss `L^{EL-nivMF} + ω·L_ProxyAnchor` (nivMF eq. (7)).

use super::input::{check_anchor, check_batch, ProxyBatch, ProxyDistance, ProxyLoss};
use super::proxy_nca::{dot, norm, proxy_nca_loss};
use crate::error::{require_finite, Error, Result};

/// `ln(1 + Σ_i e^{a_i})` and the weights `e^{a_i}/(1 + Σ e^{a})`, stably.
#[inline(always)]
pub(crate) fn log1p_sum_exp(a: &[f64]) -> (f64, Vec<f64>) {
    let top = a.iter().fold(0.0_f64, |m, &v| m.max(v));
    let w: Vec<f64> = a.iter().map(|v| (v - top).exp()).collect();
    let total = (-top).exp() + w.iter().sum::<f64>();
    (top + total.ln(), w.iter().map(|v| v / total).collect())
}

/// The ProxyAnchor loss on the directions `ẑ_b`, `p̂_c` (cosines `s_{bc}`), with its gradients.
///
/// # Formula
///
/// $$ L = \frac1{|P^+|}\sum_{p\in P^+}\ln\Big(1 + \sum_{x\in X_p^+} e^{-\alpha(s(x,p)-\delta)}\Big)
///    {}+ \frac1{|P|}\sum_{p\in P}\ln\Big(1 + \sum_{x\in X_p^-} e^{\alpha(s(x,p)+\delta)}\Big) $$
///
/// (Kim et al. 2020, eq. (4); nivMF eq. (7) uses it on `μ_ρ`, `μ_ζ`), `P⁺` the proxies with a
/// positive in the batch, `X_p^±` the embeddings of class `p` / of the other classes; the paper's
/// defaults are `α = 32`, `δ = 0.1`. `distances` holds `−s_{bc}`; there are no concentrations.
///
/// # Errors
///
/// As [`proxy_nca_loss`] for the batch (with `t = 1`), and [`Error::OutOfDomain`] /
/// [`Error::NotFinite`] for `α ≤ 0` or a non-finite `α`, `δ`.
///
/// # Examples
///
/// ```
/// use probdml::nivmf::{proxy_anchor_loss, ProxyBatch};
/// use probdml::Labels;
/// let batch = ProxyBatch {
///     embeddings: &[1.0, 0.0, 0.0, 1.0],
///     labels: Labels::Usize(&[0, 1]),
///     proxies: &[1.0, 0.0, 0.0, 1.0],
///     concentrations: &[],
///     dim: 2,
/// };
/// // Perfectly aligned: each positive term is ln(1 + e^{−α(1 − δ)}), each negative ln(1 + e^{αδ}).
/// let out = proxy_anchor_loss(&batch, 32.0, 0.1).unwrap();
/// let want = (1.0 + (-32.0_f64 * 0.9).exp()).ln() + (1.0 + (32.0_f64 * 0.1).exp()).ln();
/// assert!((out.loss - want).abs() < 1e-13);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn proxy_anchor_loss(batch: &ProxyBatch<'_>, alpha: f64, delta: f64) -> Result<ProxyLoss> {
    let (b, c, labels) = check_batch(ProxyDistance::Cosine, batch, 1.0)?;
    check_anchor(alpha, delta)?;
    Ok(crate::instruction_set::dispatch(
        #[inline(always)]
        || proxy_anchor_kernel(batch, &labels, alpha, delta, (b, c)),
    ))
}

/// [`proxy_anchor_loss`] on a checked batch of `B` embeddings and `C` proxies, inlined into each
/// instruction set's copy.
#[inline(always)]
fn proxy_anchor_kernel(
    batch: &ProxyBatch<'_>,
    labels: &[usize],
    alpha: f64,
    delta: f64,
    (b, c): (usize, usize),
) -> ProxyLoss {
    let dim = batch.dim;
    let units = |data: &[f64]| -> (Vec<Vec<f64>>, Vec<f64>) {
        data.chunks_exact(dim)
            .map(|r| {
                let n = norm(r);
                (r.iter().map(|v| v / n).collect(), n)
            })
            .unzip()
    };
    let (uz, nz) = units(batch.embeddings);
    let (up, np) = units(batch.proxies);
    let mut cos = vec![0.0; b * c];
    for bi in 0..b {
        for ci in 0..c {
            cos[bi * c + ci] = dot(&uz[bi], &up[ci]);
        }
    }
    // ∂L/∂s_{bc}.
    let mut ds = vec![0.0; b * c];
    let positives: Vec<usize> = (0..c).filter(|&ci| labels.contains(&ci)).collect();
    let mut loss = 0.0;
    for ci in 0..c {
        let (pos, neg): (Vec<usize>, Vec<usize>) = (0..b).partition(|&bi| labels[bi] == ci);
        if !pos.is_empty() {
            let a: Vec<f64> = pos
                .iter()
                .map(|&bi| -alpha * (cos[bi * c + ci] - delta))
                .collect();
            let (v, w) = log1p_sum_exp(&a);
            let scale = 1.0 / positives.len() as f64;
            loss += scale * v;
            for (&bi, wi) in pos.iter().zip(&w) {
                ds[bi * c + ci] -= scale * alpha * wi;
            }
        }
        if !neg.is_empty() {
            let a: Vec<f64> = neg
                .iter()
                .map(|&bi| alpha * (cos[bi * c + ci] + delta))
                .collect();
            let (v, w) = log1p_sum_exp(&a);
            let scale = 1.0 / c as f64;
            loss += scale * v;
            for (&bi, wi) in neg.iter().zip(&w) {
                ds[bi * c + ci] += scale * alpha * wi;
            }
        }
    }
    let mut grad_embeddings = vec![0.0; b * dim];
    let mut grad_proxies = vec![0.0; c * dim];
    // Row slices zipped rather than indexed, so that the inner loop has no bounds checks and
    // vectorises.
    for (bi, gz) in grad_embeddings.chunks_exact_mut(dim).enumerate() {
        for (ci, gp) in grad_proxies.chunks_exact_mut(dim).enumerate() {
            let (g, s) = (ds[bi * c + ci], cos[bi * c + ci]);
            let (zb, pc, nzb, npc) = (&uz[bi], &up[ci], nz[bi], np[ci]);
            // ∂s/∂z = (p̂ − s ẑ)/‖z‖, ∂s/∂p = (ẑ − s p̂)/‖p‖.
            for (((gzi, gpi), &zi), &pi) in gz.iter_mut().zip(gp.iter_mut()).zip(zb).zip(pc) {
                *gzi += g * (pi - s * zi) / nzb;
                *gpi += g * (zi - s * pi) / npc;
            }
        }
    }
    ProxyLoss {
        loss,
        distances: cos.iter().map(|s| -s).collect(),
        grad_embeddings,
        grad_proxies,
        grad_concentrations: Vec::new(),
    }
}

/// The joint loss `L^{EL-nivMF}_{NCA++}(ρ, ζ) + ω·L_ProxyAnchor(μ_ρ, μ_ζ)` with shared directions.
///
/// # Formula
///
/// $$ L_{joint} = L_{\text{NCA++}}^{\text{EL-nivMF}}(\rho,\zeta) + \omega\\,L_{\text{ProxyAnchor}}(\mu_\rho,\mu_\zeta) $$
///
/// (nivMF eq. (7)): the proxies' rows are the nivMF directions `μ_ρ` (normalised inside), shared
/// with ProxyAnchor; gradients are the sums of the two losses' gradients. `distances` are the
/// EL-nivMF distances.
///
/// # Errors
///
/// Those of [`proxy_nca_loss`] with [`ProxyDistance::ElNivMf`] and of [`proxy_anchor_loss`];
/// [`Error::OutOfDomain`] / [`Error::NotFinite`] for `ω < 0` or non-finite.
///
/// # Examples
///
/// ```
/// use probdml::nivmf::{joint_proxy_loss, proxy_anchor_loss, proxy_nca_loss, ProxyBatch, ProxyDistance};
/// use probdml::Labels;
/// let batch = ProxyBatch {
///     embeddings: &[3.0, 0.5, 0.0, -2.0, 0.0, 1.0],
///     labels: Labels::Usize(&[0, 1]),
///     proxies: &[1.0, 0.0, 0.0, 0.0, -1.0, 0.0],
///     concentrations: &[5.0, 2.0, 2.0, 3.0, 6.0, 3.0],
///     dim: 3,
/// };
/// let joint = joint_proxy_loss(&batch, 5, 7, 0.5, 0.25, 32.0, 0.1).unwrap();
/// let nca = proxy_nca_loss(ProxyDistance::ElNivMf { samples: 5, seed: 7 }, &batch, 0.5).unwrap();
/// let anchor = proxy_anchor_loss(&batch, 32.0, 0.1).unwrap();
/// assert!((joint.loss - (nca.loss + 0.25 * anchor.loss)).abs() < 1e-14);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn joint_proxy_loss(
    batch: &ProxyBatch<'_>,
    samples: usize,
    seed: u64,
    temperature: f64,
    omega: f64,
    alpha: f64,
    delta: f64,
) -> Result<ProxyLoss> {
    require_finite("omega", omega)?;
    if omega < 0.0 {
        return Err(Error::OutOfDomain {
            arg: "omega",
            value: omega,
            rule: "the regularisation scale omega must be >= 0",
        });
    }
    let mut out = proxy_nca_loss(ProxyDistance::ElNivMf { samples, seed }, batch, temperature)?;
    let anchor = proxy_anchor_loss(batch, alpha, delta)?;
    out.loss += omega * anchor.loss;
    for (g, a) in out.grad_embeddings.iter_mut().zip(&anchor.grad_embeddings) {
        *g += omega * a;
    }
    for (g, a) in out.grad_proxies.iter_mut().zip(&anchor.grad_proxies) {
        *g += omega * a;
    }
    Ok(out)
}
