//! Exact (reference) twins of the vMF functions, at the same names as the fast ones.
//!
//! The normaliser and `A_M` come from the arbitrary-precision Bessel series. Everything else in
//! chapter 02 is computed by one-dimensional quadrature over the angle `θ = arccos μᵀx`
//! ([`CosineMarginal`]): the entropy, the KL divergence to the uniform law and `1 − A_M(κ)` are
//! integrals of `e^{κ cos θ} sin^{M−2} θ` against simple weights, and the reference sampler
//! inverts the integrated CDF of `θ`. None of these uses a Bessel function, so agreement with the
//! fast closed forms checks the closed forms themselves, not just their arithmetic.
//!
//! Sums here are compensated (Neumaier; Ogita–Rump–Oishi `Dot2`). Exact twins call only exact
//! twins (and the shared input checks).
mod density;
mod entropy;
mod kappa;
mod kl;
mod marginal;
mod mean_resultant;
mod normaliser;
mod ppk;
mod quadrature;
mod sampler;
pub mod sphere;
mod sphere_area;

pub use density::log_density;
pub use entropy::{entropy, kl_to_uniform};
pub use kappa::{kappa_mle, kappa_sra, mean_resultant_length_complement};
pub use kl::kl_vmf;
pub use marginal::{CosineMarginal, KAPPA_MAX};
pub use mean_resultant::{lam_uncertainty, mean_resultant};
pub use normaliser::{
    log_norm_const, log_norm_const_dd, mean_resultant_length, mean_resultant_length_dd,
};
pub use ppk::log_ppk;
#[allow(deprecated)]
pub use ppk::log_ppk_vmf;
pub use sampler::VonMisesFisher;
pub use sphere_area::log_sphere_area;
