//! The problem of probabilistic ProxyNCA++ (nivMF §3.3): the distance between a proxy and an
//! embedding, a batch of embeddings against the proxies, and the loss with its gradients that
//! [`proxy_nca_loss`](super::proxy_nca_loss) returns.

/// The distance `d(ρ, ζ)` between a proxy and an embedding (nivMF §3.3, Supp. C–E).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ProxyDistance {
    /// `−s(μ_p, μ_z)`, the cosine of ProxyNCA++ (eq. (1)).
    Cosine,
    /// `‖ν_p − ν_z‖²`.
    L2,
    /// `−ln f(μ_z)` under the proxy's exactly normalised nivMF ([`log_density`](super::log_density)).
    NivMf,
    /// `−ln f_h(μ_z)` under the paper's heuristic nivMF ([`log_density_heuristic`](super::log_density_heuristic)).
    NivMfHeuristic,
    /// `−ln PPK_1` between vMFs (expected likelihood, Supp. D eq. (35)).
    ElVmf,
    /// `−ln PPK_½` between vMFs (Bhattacharyya, Supp. D eq. (29)).
    BVmf,
    /// `KL(ζ‖ρ)` between vMFs, corrected ([`kl_vmf`](super::kl_vmf)); fed as `−KL/t` into the
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

    pub(super) fn needs_directions(&self) -> bool {
        !matches!(self, Self::L2 | Self::ElVmf | Self::BVmf | Self::KlVmf)
    }
}

/// A batch of `B` embeddings against `C` proxies, each a row of length `M`.
#[derive(Debug, Clone, Copy)]
pub struct ProxyBatch<'a> {
    /// `B × M` row-major embeddings `z = ν_z` (unnormalised: `‖z‖ = κ_z`).
    pub embeddings: &'a [f64],
    /// The class `c* < C` of each embedding.
    pub labels: &'a [usize],
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
