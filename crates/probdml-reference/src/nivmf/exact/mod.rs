//! Reference twins of chapter 06, at the same names as the fast ones.
//!
//! * [`kl_vmf`] and [`log_ppk`] integrate their defining integrals over the sphere with the
//!   two-coordinate reduction of [`vmf::exact::sphere`](crate::vmf::exact::sphere): the
//!   densities are evaluated pointwise (with the 256-bit normalisers of
//!   [`vmf::exact`](crate::vmf::exact)) and never combined into the closed forms, so agreement
//!   checks the closed forms themselves.
//! * [`log_density`] and [`log_density_heuristic`] evaluate the same closed forms as the fast
//!   twins but with the 256-bit normaliser and compensated sums: the densities *are* closed forms;
//!   what needs proving about them (mass 1, the heuristic's mass) is proved by quadrature in
//!   `proofs/nivmf_density.rs`.
//!
//! Nothing here calls the fast twins in [`crate::nivmf`].
mod density;
mod proxy_anchor;
mod proxy_nca;

pub use density::{log_density, log_density_heuristic};
// The vMF–vMF divergences are chapter 06's too; they live with the vMF (`vmf::exact`).
#[allow(deprecated)]
pub use crate::vmf::exact::log_ppk_vmf;
pub use crate::vmf::exact::{kl_vmf, log_ppk};
pub use proxy_anchor::proxy_anchor_loss;
pub use proxy_nca::proxy_nca_loss;
