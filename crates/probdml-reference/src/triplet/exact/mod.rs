//! Reference twins of chapter 05: the moments of `τ` from the dense `3D × 3D` quadratic form
//! (`faer`), the exact law of `τ` as a Gaussian quadratic form and `ln P(τ < −m)` by
//! characteristic-function inversion, the NLL gradient by dual numbers, and the Gaussian KL by
//! quadrature. Nothing here calls the fast twins in [`crate::triplet`] (only the shared input
//! checks).

mod distribution;
mod gradient;
mod moments;
mod prior;

pub use distribution::{log_likelihood, tau_distribution};
pub use gradient::nll_gradient;
pub use moments::moments;
pub use prior::gaussian_kl;
