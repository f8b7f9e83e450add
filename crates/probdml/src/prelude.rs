//! The types of the common tasks, for one glob import: `use probdml::prelude::*;`.
//!
//! Types only — the distributions, the named inputs, the retrieval task and its inputs, the
//! error — and no free function, so a glob import cannot shadow a name of the caller's and the
//! functions stay read with their module (`vmf::log_norm_const`, `metrics::map_at_k`).
//!
//! ```
//! use probdml::prelude::*;
//! let law = VonMisesFisher::new(&[0.0, 0.6, 0.8], 50.0)?;
//! let threshold = SoftThreshold { a: 2.0, b: 1.0 };
//! let x = HedgedEmbedding::from_gaussian(Gaussian { mu: &[0.0], var: &[0.5] })?;
//! let labels: Vec<i64> = vec![0, 0, 1];
//! let task = Retrieval::leave_one_out(
//!     Embeddings::new(&[0.0, 0.1, 3.0], 1)?,
//!     &labels,
//!     Distance::Euclidean,
//! )?;
//! assert_eq!(probdml::metrics::recall_at_k(&task, 1)?, 1.0);
//! # let _ = (law, threshold, x);
//! # Ok::<(), Error>(())
//! ```
#![cfg_attr(doc, doc = include_str!("../docs/katex-header.html"))]

pub use crate::hib::{HedgedEmbedding, SoftThreshold, VibPair};
pub use crate::metrics::{Distance, Embeddings, OodScores, Retrieval};
pub use crate::nivmf::{NonIsotropicVmf, ProxyBatch, ProxyDistance};
pub use crate::triplet::{Triplet, Triplets};
pub use crate::vmf::VonMisesFisher;
pub use crate::{Error, Gaussian, Gaussians, IntoLabels, Labels, Result};
