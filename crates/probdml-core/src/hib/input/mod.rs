//! The inputs of chapter 07, shared by the fast and the exact twins: the input checks, the hedged
//! embedding type and the VIB loss's pair and result. Both twins validate the same way, so that
//! they fail on the same inputs with the same error; nothing here computes a derivation.

#[doc(hidden)]
pub mod checks;
#[doc(hidden)]
pub mod embedding;
#[doc(hidden)]
pub mod vib;
