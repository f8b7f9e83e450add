//! The diagonal Laplace posterior of the last layer that post-hoc and online LAM share
//! ([`posterior`]: the precision Λ, its checkpoint tensors and its predictive), and the
//! last-layer GGN diagonal of chapter 04 as tensor operations that build it ([`ggn`]).

pub mod ggn;
pub mod posterior;

pub use posterior::LastLayerPrecision;
