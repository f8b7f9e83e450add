//! The core of probdml: what the fast maths (`probdml`) and its exact reference
//! (`probdml-reference`) share and neither may own: the error type and the input checks, the
//! input and result types of every module (`<module>::input`), error-free and compensated
//! arithmetic, the Gauss rules, the instruction-set dispatch.
//!
//! The module tree mirrors `probdml`'s, so that a type has one path in all three crates
//! (`probdml_core::vmf::input::MeanResultant` is `probdml::vmf::MeanResultant`). Items marked
//! `#[doc(hidden)]` are shared between the crates of probdml, not part of its public API.

#![warn(missing_docs)]

pub mod compensated;
#[doc(hidden)]
pub mod display;
pub mod error;
pub mod gauss_rule;
pub mod gaussians;
pub mod instruction_set;
pub mod labels;
#[doc(hidden)]
pub mod threads;

pub mod contrastive {
    //! The inputs of `probdml::contrastive`: the types and checks its two twins share.

    pub mod input;
    #[allow(deprecated)]
    pub use input::UNIT_NORM_TOLERANCE;
    pub use input::{ClassLikelihood, LossForm, PairBatch, PairCounts, PairTarget};
}

pub mod ggn {
    //! The inputs of `probdml::ggn`: the types and checks its two twins share.

    pub mod input;
    #[doc(hidden)]
    pub use input::{check_last_layer_shapes, check_pairs, check_raw_output, zero_output};
    pub use input::{Approximation, Split};
}

pub mod hib {
    //! The inputs of `probdml::hib`: the types and checks its two twins share.

    pub mod input;
    pub use input::embedding::HedgedEmbedding;
    pub use input::vib::{VibLoss, VibPair};
    #[doc(hidden)]
    pub use input::{checks, embedding};
}

pub mod laplace {
    //! The inputs of `probdml::laplace`: the types and checks its two twins share.

    pub mod input;
    #[doc(hidden)]
    pub use input::{
        check_beta, check_finite_elements, check_len, check_prior_precision, check_prior_variance,
    };
}

pub mod metrics {
    //! The inputs of `probdml::metrics`: the types and checks its two twins share.

    pub mod input;
    pub use input::binned_correlation::BinnedKendall;
    pub use input::calibration::{Calibration, CalibrationBin, MAX_BINS};
    pub use input::embeddings::{Coordinates, Distance, Embeddings};
    pub use input::identification::KnnIdentification;
    pub use input::labels::{IntoLabels, Labels};
    pub use input::neighbours::Neighbours;
    pub use input::ood::RocCurve;
    pub use input::retrieval::{QueryAtK, RetrievalReport};
    pub use input::retrieval_task::{Relevance, Retrieval};
    pub use input::score::Score;
    pub use input::sparsification::{Sparsification, SPARSIFICATION_STEPS};
    #[doc(hidden)]
    pub use input::{checks, embeddings, retrieval_task, score};
}

pub mod nivmf {
    //! The inputs of `probdml::nivmf`: the types and checks its two twins share.

    pub mod input;
    pub use input::{ProxyBatch, ProxyDistance, ProxyLoss};
}

pub mod triplet {
    //! The inputs of `probdml::triplet`: the types and checks its two twins share.

    pub mod input;
    pub use input::TripletGradient;
}

pub mod vmf {
    //! The inputs of `probdml::vmf`: the types and checks its two twins share.

    pub mod input;
    pub use input::MeanResultant;
    pub use input::{renormalisation_threshold, unit_norm_tolerance};
    #[doc(hidden)]
    pub use input::{require_unit, require_unit_rows};
}

pub use error::{Error, Result};
pub use gaussians::{Gaussian, Gaussians};
pub use labels::{IntoLabels, Labels};
