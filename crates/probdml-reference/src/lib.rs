//! The exact reference of probdml: every derivation's `exact` twin (arbitrary-precision series,
//! adaptive quadrature, brute force, dense linear algebra) and the tools only they use
//! (`quadrature`, `gaussian_quadratic_form`).
//!
//! This crate depends on `probdml-core` and not on `probdml`: an exact twin cannot call the
//! fast code it is the reference for. `probdml` re-exports each module's twin at
//! `probdml::<module>::exact` (its default feature `reference`).

#![warn(missing_docs)]

use probdml_core::labels;
pub use probdml_core::{error, gauss_rule, gaussians, instruction_set, Error, Gaussians, Result};

pub mod gaussian_quadratic_form;
pub mod quadrature;

pub mod compensated {
    //! The exact twins of `probdml::compensated`.

    pub use probdml_core::compensated::*;

    pub mod exact;
}

pub mod contrastive {
    //! The exact twins of `probdml::contrastive`.

    pub use probdml_core::contrastive::*;

    pub mod exact;
}

pub mod ggn {
    //! The exact twins of `probdml::ggn`.

    pub use probdml_core::ggn::*;

    pub mod exact;
}

pub mod hib {
    //! The exact twins of `probdml::hib`.

    pub use probdml_core::hib::*;

    pub mod exact;
}

pub mod laplace {
    //! The exact twins of `probdml::laplace`.

    pub use probdml_core::laplace::*;

    pub mod exact;
}

pub mod metrics {
    //! The exact twins of `probdml::metrics`.

    pub use probdml_core::metrics::*;

    pub mod exact;
}

pub mod nivmf {
    //! The exact twins of `probdml::nivmf`.

    pub use probdml_core::nivmf::*;

    pub mod exact;
}

pub mod triplet {
    //! The exact twins of `probdml::triplet`.

    pub use probdml_core::triplet::*;

    pub mod exact;
}

pub mod vmf {
    //! The exact twins of `probdml::vmf`.

    pub use probdml_core::vmf::*;

    pub mod exact;
}

pub mod special {
    //! The exact twins of `probdml::special`.

    pub mod exact;
}
