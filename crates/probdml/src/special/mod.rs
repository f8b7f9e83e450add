//! Special functions: ln I_ν(x) and the Bessel ratio I_{ν+1}(x)/I_ν(x) (book chapter 01).
//!
//! Never form I_ν(x) itself in `f64`: at ν = 255, x = 10 it is ~10⁻⁴⁰⁰ and at ν = 0, x = 10⁵
//! it is ~10⁴³⁴²⁵. Everything here is in log space, and the fast kernels work with the scaled
//! logarithm g(ν, x) = ln I_ν(x) − ν ln x, whose regimes are listed in `log_bessel_i.rs`.
//!
//! The fast twins live here; the arbitrary-precision references under [`exact`], with the same
//! signatures.
#![cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
mod bessel_ratio;
pub(crate) mod debye;
pub(crate) mod debye_coefficients;
#[cfg(feature = "reference")]
pub use probdml_reference::special::exact;
pub(crate) mod exp_lanes;
pub(crate) mod half_order;
pub(crate) mod hankel;
mod ln_gamma;
mod ln_table;
mod log_bessel_i;
mod log_bessel_i_batch;
pub(crate) mod logarithm;
mod normal_cdf;
mod recurrence;
pub(crate) mod series;
mod series_prefactors;
pub(crate) mod small_order_lanes;
mod x_minus_ln1p;

pub use bessel_ratio::bessel_i_ratio;
pub(crate) use bessel_ratio::bessel_i_ratio_kernel;
pub(crate) use ln_table::LN_2PI;
pub use log_bessel_i::log_bessel_i;
pub(crate) use log_bessel_i::log_bessel_i_scaled;
pub use log_bessel_i_batch::log_bessel_i_batch;
#[allow(deprecated)]
pub use normal_cdf::ln_normal_cdf;
pub use normal_cdf::{log_normal_cdf, normal_hazard};
pub(crate) use x_minus_ln1p::x_minus_ln1p;
