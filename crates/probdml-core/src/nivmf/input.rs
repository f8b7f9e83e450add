//! The inputs of the nivMF functions, shared by the fast code and its exact twins: the nivMF's
//! concentration vector, the density's arguments, and the problem of probabilistic ProxyNCA++
//! (nivMF §3.3) — the distance between a proxy and an embedding, a batch of embeddings against
//! the proxies, the loss with its gradients that `proxy_nca_loss`
//! returns, and the checks of a batch and of ProxyAnchor's parameters. Both twins refuse the same
//! inputs with the same error.

use crate::error::{
    require_finite, require_finite_entries, require_len, require_sphere_dim, Error, Result,
};
use std::borrow::Cow;

use crate::labels::Labels;
use crate::vmf::input::{require_unit, UnitVector};

/// The distance `d(ρ, ζ)` between a proxy and an embedding (nivMF §3.3, Supp. C–E).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ProxyDistance {
    /// `−s(μ_p, μ_z)`, the cosine of ProxyNCA++ (eq. (1)).
    Cosine,
    /// `‖ν_p − ν_z‖²`.
    L2,
    /// `−ln f(μ_z)` under the proxy's exactly normalised nivMF (`log_density`).
    NivMf,
    /// `−ln f_h(μ_z)` under the paper's heuristic nivMF (`log_density_heuristic`).
    NivMfHeuristic,
    /// `−ln PPK_1` between vMFs (expected likelihood, Supp. D eq. (35)).
    ElVmf,
    /// `−ln PPK_½` between vMFs (Bhattacharyya, Supp. D eq. (29)).
    BVmf,
    /// `KL(ζ‖ρ)` between vMFs, corrected (`kl_vmf`); fed as `−KL/t` into the
    /// softmax (the reference code's `+KL` logit is a sign error).
    KlVmf,
    /// `−ln((1/N) Σ_i f(x_i))`, `x_i ~ ζ` (eq. (5)), the nivMF of the proxy, `samples` draws per
    /// embedding from a generator seeded by `(seed, row)`.
    ElNivMf {
        /// Monte Carlo draws `N ≥ 1` per embedding (the paper uses 5–20).
        samples: usize,
        /// Seed of the per-row generators.
        seed: u64,
    },
}

impl ProxyDistance {
    /// Whether the proxies carry a nivMF concentration vector.
    pub fn uses_concentrations(&self) -> bool {
        matches!(
            self,
            Self::NivMf | Self::NivMfHeuristic | Self::ElNivMf { .. }
        )
    }

    #[doc(hidden)]
    pub fn needs_directions(&self) -> bool {
        !matches!(self, Self::L2 | Self::ElVmf | Self::BVmf | Self::KlVmf)
    }
}

/// A batch of `B` embeddings against `C` proxies, each a row of length `M`.
#[derive(Debug, Clone, Copy)]
pub struct ProxyBatch<'a> {
    /// `B × M` row-major embeddings `z = ν_z` (unnormalised: `‖z‖ = κ_z`).
    pub embeddings: &'a [f64],
    /// The class `c* < C` of each embedding, of any integer type (`Labels::I64(&labels)` for
    /// PyTorch's, or `(&labels).into_labels()` with [`IntoLabels`](crate::labels::IntoLabels)).
    pub labels: Labels<'a>,
    /// `C × M` row-major proxies: natural parameters `ν_p` for the vMF distances, directions
    /// (any non-zero norm; `μ_p = p/‖p‖`) for Cos and the nivMF distances.
    pub proxies: &'a [f64],
    /// `C × M` nivMF concentrations `κ_{c,m} > 0` (empty for the vMF distances).
    pub concentrations: &'a [f64],
    /// The dimension `M ≥ 2`.
    pub dim: usize,
}

/// Loss and gradients of a ProxyNCA++ batch.
#[derive(Debug, Clone, PartialEq)]
pub struct ProxyLoss {
    /// The mean loss over the batch.
    pub loss: f64,
    /// `B × C` distances `d(ρ_c, ζ_b)`.
    pub distances: Vec<f64>,
    /// `∂L/∂z`, `B × M`.
    pub grad_embeddings: Vec<f64>,
    /// `∂L/∂p`, `C × M`.
    pub grad_proxies: Vec<f64>,
    /// `∂L/∂κ`, `C × M` (empty for the vMF distances).
    pub grad_concentrations: Vec<f64>,
}

/// Checks the diagonal `κ_1…κ_M` of a nivMF concentration matrix: length `dim`, every entry
/// finite and `> 0` (nivMF eq. (4): `K = diag(κ)`, `κ_m > 0`).
#[doc(hidden)]
pub fn require_concentrations(arg: &'static str, kappas: &[f64], dim: usize) -> Result<()> {
    require_len(arg, kappas, dim)?;
    require_finite_entries(arg, kappas)?;
    match kappas.iter().position(|&k| k <= 0.0) {
        Some(index) => Err(Error::OutOfDomainElement {
            arg,
            index,
            value: kappas[index],
            rule: "every concentration kappa_m of K = diag(kappas) must be > 0",
        }),
        None => Ok(()),
    }
}

/// Validates `(x, μ, κ)` for a nivMF density; returns `M` and `(x, μ)` after the unit-vector
/// rule (renormalised in `f64` if they were normalised in `f32`).
#[doc(hidden)]
pub fn check_nivmf_args<'a>(
    x: &'a [f64],
    mu: &'a [f64],
    kappas: &[f64],
) -> Result<(usize, UnitVector<'a>, UnitVector<'a>)> {
    let dim = require_sphere_dim("mu", mu.len())?;
    require_len("x", x, dim)?;
    require_concentrations("kappas", kappas, dim)?;
    let mu = require_unit("mu", mu)?;
    let x = require_unit("x", x)?;
    Ok((dim, x, mu))
}

/// Validates `α > 0` and `δ` finite.
#[doc(hidden)]
pub fn check_anchor(alpha: f64, delta: f64) -> Result<()> {
    require_finite("alpha", alpha)?;
    require_finite("delta", delta)?;
    if alpha <= 0.0 {
        return Err(Error::OutOfDomain {
            arg: "alpha",
            value: alpha,
            rule: "the ProxyAnchor scale alpha must be > 0",
        });
    }
    Ok(())
}

/// Validates a batch; returns `(B, C)` and the labels as class indices.
#[doc(hidden)]
pub fn check_batch<'a>(
    distance: ProxyDistance,
    batch: &ProxyBatch<'a>,
    temperature: f64,
) -> Result<(usize, usize, Cow<'a, [usize]>)> {
    let dim = crate::error::require_sphere_dim("dim", batch.dim)?;
    require_finite("temperature", temperature)?;
    if temperature <= 0.0 {
        return Err(Error::OutOfDomain {
            arg: "temperature",
            value: temperature,
            rule: "the softmax temperature t must be > 0",
        });
    }
    for (arg, data) in [("embeddings", batch.embeddings), ("proxies", batch.proxies)] {
        if data.is_empty() {
            return Err(Error::TooFew {
                arg,
                min: 1,
                got: 0,
            });
        }
        if data.len() % dim != 0 {
            return Err(Error::RaggedRows {
                arg,
                len: data.len(),
                dim,
            });
        }
        require_finite_entries(arg, data)?;
    }
    let (b, c) = (batch.embeddings.len() / dim, batch.proxies.len() / dim);
    if batch.labels.len() != b {
        return Err(Error::DimensionMismatch {
            arg: "labels",
            expected: b,
            got: batch.labels.len(),
        });
    }
    let labels = batch.labels.classes("labels")?;
    if let Some(position) = labels.iter().position(|&l| l >= c) {
        return Err(Error::IndexOutOfRange {
            arg: "labels",
            position,
            index: labels[position],
            target: "proxies",
            len: c,
        });
    }
    if distance.uses_concentrations() {
        require_len("concentrations", batch.concentrations, c * dim)?;
        require_finite_entries("concentrations", batch.concentrations)?;
        if let Some(index) = batch.concentrations.iter().position(|&k| k <= 0.0) {
            return Err(Error::OutOfDomainElement {
                arg: "concentrations",
                index,
                value: batch.concentrations[index],
                rule: "every concentration kappa_m of K = diag(kappas) must be > 0",
            });
        }
    }
    if let ProxyDistance::ElNivMf { samples: 0, .. } = distance {
        return Err(Error::TooFew {
            arg: "samples",
            min: 1,
            got: 0,
        });
    }
    if distance.needs_directions() {
        for (arg, data) in [("embeddings", batch.embeddings), ("proxies", batch.proxies)] {
            if let Some(row) = data
                .chunks_exact(dim)
                .position(|r| r.iter().all(|&v| v == 0.0))
            {
                return Err(Error::Undefined {
                    arg,
                    quantity: "the direction x/‖x‖",
                    reason: if row == 0 {
                        "the first row is zero"
                    } else {
                        "a row is zero"
                    },
                });
            }
        }
    }
    Ok((b, c, labels))
}
