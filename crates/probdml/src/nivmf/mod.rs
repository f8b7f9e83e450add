//! Non-isotropic vMF proxies, probability product kernels, the KL divergence between vMFs and
//! probabilistic ProxyNCA++ (Kirchhof et al., "A Non-isotropic Probabilistic Take on
//! Proxy-based Deep Metric Learning", ECCV 2022, the "nivMF paper").
//!
//! The fast twins live here; the references, with the same signatures, under [`exact`].
//!
//! # Samples and proxies as distributions
//!
//! An unnormalised embedding `z ∈ ℝ^M` is read as `ζ = vMF(μ_z = z/‖z‖, κ_z = ‖z‖)`, whose
//! natural parameter is `ν_z = z` (nivMF §3.2). A proxy is a vMF with natural parameter `ν_p`, or
//! a nivMF with direction `μ_p` and diagonal concentration `K_p = diag(κ_1, …, κ_M)`, `κ_m > 0`.
//!
//! # The nivMF density, normalised exactly
//!
//! With `κ̃ = ‖Kμ‖`, `μ̃ = Kμ/κ̃` and `g(x) = Kx/‖Kx‖`, a bijection of `S^{M−1}`, the nivMF is the
//! law of `X = g⁻¹(Y)`, `Y ~ vMF(μ̃, κ̃)`. The paper (Supp. B) differentiates `g` as a map of
//! `ℝ^M`, finds a singular Jacobian and replaces its determinant by the heuristic
//! `D(K) = Πκ_m/κ̃`. On the sphere the Jacobian is regular: for `A` linear, the surface
//! Jacobian of `x ↦ Ax/‖Ax‖` is `|det A|/‖Ax‖^M` (the tangent map is `(I − g gᵀ)A/‖Ax‖`
//! restricted to `x^⊥`; its `(M−1)`-volume is `|det A|·‖Ax‖^{−M}`, the computation behind the
//! angular central Gaussian). Hence
//!
//! `f(x) = C_M(κ̃) · det K/‖Kx‖^M · exp(κ̃ s(Kx, Kμ))`  ([`log_density`]),
//!
//! a probability density, reducing to `vMF(μ, c)` at `K = cI`. The paper's
//! `f_h = C_M(κ̃) D(K) exp(κ̃ s(Kx, Kμ))` ([`log_density_heuristic`]) satisfies
//! `f_h/f = ‖Kx‖^M/κ̃` and has mass `E_f[‖Kx‖^M]/κ̃ ≠ 1` (27.75 at `M = 3`, `K = diag(2, 5, 9)`,
//! `μ = (1,1,1)/√3`). [`NonIsotropicVmf`] samples `f` by pushing vMF samples through `g⁻¹`.
//!
//! # Divergences between vMFs
//!
//! `ρ^γζ^γ ∝ exp(γ(ν_z + ν_p)ᵀx)` is an unnormalised vMF, so (Supp. D)
//! `ln PPK_γ = γ ln C_M(κ_z) + γ ln C_M(κ_p) − ln C_M(γ‖ν_z + ν_p‖)` ([`log_ppk`]); the
//! Bhattacharyya distance is `d_B = −ln PPK_½` ([`bhattacharyya_distance`]) and the expected
//! likelihood distance `d_EL = −ln PPK_1` ([`expected_likelihood_distance`]).
//!
//! `KL(ζ‖ρ) = E_ζ[ln ζ − ln ρ] = ln C_M(κ_z) − ln C_M(κ_p) + (ν_z − ν_p)ᵀE_ζ[x]` and the mean of a
//! vMF is `E_ζ[x] = A_M(κ_z)μ_z`, so `KL = ln C_M(κ_z) − ln C_M(κ_p) + A_M(κ_z)(κ_z − κ_pμ_pᵀμ_z)`
//! ([`kl_vmf`]). The paper's eq. (39) uses `E_ζ[x] = μ_z` ([`kl_vmf_paper`]): at `M = 3`,
//! `κ_z = 5`, `κ_p = 2`, angle 1 rad it gives 1.8172 against the true 1.0337.
//!
//! Both divergences are evaluated through the Bregman divergence of the log-partition function
//! `Φ = −ln C_M`, `B(a; b) = Φ(a) − Φ(b) − A_M(b)(a − b) ≥ 0`:
//! `KL = B(κ_p; κ_z) + A_M(κ_z)κ_p(1 − μ_pᵀμ_z)` and
//! `d_B = ½A_M(κ_m)(κ_z + κ_p − 2κ_m) + ½B(κ_z; κ_m) + ½B(κ_p; κ_m)`, `κ_m = ½‖ν_z + ν_p‖`: sums
//! of non-negative terms, accurate where the two normalisers nearly cancel.
//!
//! # Input checks
//!
//! Unit vectors must satisfy `|‖v‖ − 1| ≤` [`vmf::unit_norm_tolerance`](crate::vmf::unit_norm_tolerance)`(M)
//! = (M + 4)·2⁻²⁴` (vectors normalised in `f32` pass, and are renormalised in `f64` when further
//! than [`vmf::renormalisation_threshold`](crate::vmf::renormalisation_threshold)`(M) = 10⁻¹²√M`
//! from the sphere, as in [`vmf`](crate::vmf)); concentrations must be finite
//! and `> 0`, `γ > 0`, lengths must agree; violations return [`crate::Error`], never a panic.
#![cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
#[cfg(feature = "reference")]
pub use probdml_reference::nivmf::exact;

mod density;
pub(crate) use probdml_core::nivmf::input;
mod proxy_anchor;
mod proxy_nca;
mod proxy_nca_el_vmf;
mod sampler;

#[allow(deprecated)]
pub use density::{log_density, log_density_heuristic};
// The vMF–vMF divergences of Supp. D–E live with the vMF (`vmf`), where `VonMisesFisher` uses
// them; they stay at these paths too.
#[allow(deprecated)]
pub use crate::vmf::log_ppk_vmf;
pub use crate::vmf::{bhattacharyya_distance, expected_likelihood_distance, log_ppk};
pub use crate::vmf::{kl_vmf, kl_vmf_paper};
pub use input::{ProxyBatch, ProxyDistance, ProxyLoss};
pub use proxy_anchor::{joint_proxy_loss, proxy_anchor_loss};
pub use proxy_nca::{el_nivmf_draws, proxy_nca_loss};
pub use sampler::NonIsotropicVmf;
