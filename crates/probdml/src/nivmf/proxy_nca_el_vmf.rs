//! ProxyNCA++ with the expected-likelihood distance between vMFs (EL-vMF), as matrix products
//! (the training-size batch `B = 256`, `C = 100`, `M = 128`).
//!
//! With `κ_{bc} = ‖z_b + p_c‖`, the distance `d_{bc} = ln C_M(κ_{bc}) − ln C_M(κ_b) − ln C_M(κ_c)`
//! needs one pass over the `M` coordinates per pair, and so do its gradients
//! (`a(κ) = A_M(κ)/κ`, `g_{bc} = ∂L/∂d_{bc}`):
//!
//! `∂L/∂z_b = Σ_c g_{bc}[a(κ_b) z_b − a(κ_{bc})(z_b + p_c)]`,
//! `∂L/∂p_c = Σ_b g_{bc}[a(κ_c) p_c − a(κ_{bc})(z_b + p_c)]`.
//!
//! All three passes are matrix products: `κ_{bc}² = ‖z_b‖² + ‖p_c‖² + 2(ZPᵀ)_{bc}`, and with
//! `W_{bc} = g_{bc} a(κ_{bc})`,
//!
//! `∂L/∂z_b = (a(κ_b) Σ_c g_{bc} − Σ_c W_{bc}) z_b − (WP)_b`,
//! `∂L/∂p_c = (a(κ_c) Σ_b g_{bc} − Σ_b W_{bc}) p_c − (WᵀZ)_c`,
//!
//! three `B × C × M` products ([`crate::gemm`], in the fixed order), and the `B·C` normalisers go through the batched
//! `vmf::log_norm_const` kernel.
//!
//! Accuracy of the Gram route: `κ_{bc}²` carries an absolute error of a few
//! `ε(‖z_b‖² + ‖p_c‖²)` (cancellation when `z_b ≈ −p_c`), and `ln C_M(√s)` has slope
//! `−a(√s)/2 ∈ [−1/(2M), 0)` in `s`, so `d_{bc}` moves by at most a few `ε(κ_b² + κ_c²)/(2M)`;
//! where that is largest (`z_b ≈ −p_c`, large norms) `d_{bc} ≈ −ln C_M(κ_b) − ln C_M(κ_c)` is of
//! size `κ_b + κ_c`, so the error stays a few `10⁻¹⁶·max(κ_b, κ_c)/M` relative to `|d|` — inside
//! the `NIVMF_PROXY_LOSS` budget against the 256-bit reference (`proofs/nivmf_proxy_nca.rs`).

use super::input::ProxyLoss;
use crate::gemm::{product, Order, View};
use crate::vmf::{
    log_norm_const_batch_unchecked, mean_resultant_over_kappa, mean_resultant_over_kappa_batch,
};

/// The EL-vMF ProxyNCA++ loss and gradients for checked `B × M` embeddings `z`, labels and
/// `C × M` proxies `p` (natural parameters), temperature `t > 0`. It chooses its instruction
/// set itself (once per loss), with the batched kernels it calls.
pub(crate) fn el_vmf_proxy_nca(
    z: &[f64],
    labels: &[usize],
    p: &[f64],
    dim: usize,
    temperature: f64,
) -> ProxyLoss {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || el_vmf_in_place(z, labels, p, dim, temperature),
    )
}

/// [`el_vmf_proxy_nca`] in the caller's instruction set.
#[inline(always)]
fn el_vmf_in_place(
    z: &[f64],
    labels: &[usize],
    p: &[f64],
    dim: usize,
    temperature: f64,
) -> ProxyLoss {
    let (b, c) = (z.len() / dim, p.len() / dim);
    let squared_norms = |rows: &[f64]| -> Vec<f64> {
        rows.chunks_exact(dim)
            .map(|r| r.iter().map(|v| v * v).sum::<f64>())
            .collect()
    };
    let (z_sq, p_sq) = (squared_norms(z), squared_norms(p));
    let z_norm: Vec<f64> = z_sq.iter().map(|v| v.sqrt()).collect();
    let p_norm: Vec<f64> = p_sq.iter().map(|v| v.sqrt()).collect();

    // Gram matrix ZPᵀ (B × C, row-major), then κ_{bc} = √(‖z‖² + ‖p‖² + 2zᵀp), clamped at 0
    // against rounding when z ≈ −p.
    let mut pair_norm = vec![0.0; b * c];
    {
        // Column j of Pᵀ is row j of P.
        let (lhs, rhs) = (
            View::row_major(z, b, dim, dim),
            View::row_major(p, c, dim, dim).t(),
        );
        product(&mut pair_norm, c, 1.0, lhs, rhs, Order::Fixed);
    }
    for (row, zs) in pair_norm.chunks_exact_mut(c).zip(&z_sq) {
        for (k, ps) in row.iter_mut().zip(&p_sq) {
            *k = (zs + ps + 2.0 * *k).max(0.0).sqrt();
        }
    }
    let mut distances = vec![0.0; b * c];
    log_norm_const_batch_unchecked(dim, &pair_norm, &mut distances);
    // a(κ_{bc}) = A_M(κ_{bc})/κ_{bc}, batched like the normalisers.
    let mut pair_aok = vec![0.0; b * c];
    mean_resultant_over_kappa_batch(dim, &pair_norm, &mut pair_aok);
    let (mut z_log_c, mut p_log_c) = (vec![0.0; b], vec![0.0; c]);
    log_norm_const_batch_unchecked(dim, &z_norm, &mut z_log_c);
    log_norm_const_batch_unchecked(dim, &p_norm, &mut p_log_c);

    // Per row: d, the shifted log-sum-exp (`weights` holds e^{−(d−min d)/t}), g_{bc} =
    // (1[c = c*] − π_{bc})/(Bt), and W_{bc} = g_{bc} a(κ_{bc}) overwrites `pair_aok`.
    let inv_bt = 1.0 / (b as f64 * temperature);
    let mut loss = 0.0;
    let mut weights = vec![0.0; b * c];
    let (mut z_coef, mut p_coef) = (vec![0.0; b], vec![0.0; c]);
    let p_aok: Vec<f64> = p_norm
        .iter()
        .map(|&k| mean_resultant_over_kappa(dim, k))
        .collect();
    for row in 0..b {
        let d = &mut distances[row * c..(row + 1) * c];
        for (v, lp) in d.iter_mut().zip(&p_log_c) {
            *v = (*v - z_log_c[row]) - lp;
        }
        let label = labels[row];
        let top = d.iter().fold(f64::INFINITY, |m, &v| m.min(v));
        let w = &mut weights[row * c..(row + 1) * c];
        for (wi, di) in w.iter_mut().zip(d.iter()) {
            *wi = (-(di - top) / temperature).exp();
        }
        let total: f64 = w.iter().sum();
        loss += (d[label] - top) / temperature + total.ln();
        let z_aok = mean_resultant_over_kappa(dim, z_norm[row]);
        let aok = &mut pair_aok[row * c..(row + 1) * c];
        let (mut g_sum, mut w_sum) = (0.0, 0.0);
        for (ci, (wi, a)) in w.iter().zip(aok.iter_mut()).enumerate() {
            let g = ((ci == label) as u8 as f64 - *wi / total) * inv_bt;
            let weighted = g * *a;
            *a = weighted;
            g_sum += g;
            w_sum += weighted;
            p_coef[ci] += p_aok[ci] * g - weighted;
        }
        z_coef[row] = z_aok * g_sum - w_sum;
    }
    let w_matrix = &pair_aok;

    // ∂L/∂z = diag(z_coef) Z − WP, ∂L/∂p = diag(p_coef) P − WᵀZ.
    let mut grad_embeddings = vec![0.0; b * dim];
    let mut grad_proxies = vec![0.0; c * dim];
    {
        let (lhs, rhs) = (
            View::row_major(w_matrix, b, c, c),
            View::row_major(p, c, dim, dim),
        );
        product(&mut grad_embeddings, dim, -1.0, lhs, rhs, Order::Fixed);
    }
    {
        // Wᵀ: the transpose of the row-major B × C matrix.
        let (lhs, rhs) = (
            View::row_major(w_matrix, b, c, c).t(),
            View::row_major(z, b, dim, dim),
        );
        product(&mut grad_proxies, dim, -1.0, lhs, rhs, Order::Fixed);
    }
    for ((gz, zr), coef) in grad_embeddings
        .chunks_exact_mut(dim)
        .zip(z.chunks_exact(dim))
        .zip(&z_coef)
    {
        for (g, v) in gz.iter_mut().zip(zr) {
            *g = coef.mul_add(*v, *g);
        }
    }
    for ((gp, pr), coef) in grad_proxies
        .chunks_exact_mut(dim)
        .zip(p.chunks_exact(dim))
        .zip(&p_coef)
    {
        for (g, v) in gp.iter_mut().zip(pr) {
            *g = coef.mul_add(*v, *g);
        }
    }
    ProxyLoss {
        loss: loss / b as f64,
        distances,
        grad_embeddings,
        grad_proxies,
        grad_concentrations: Vec::new(),
    }
}
