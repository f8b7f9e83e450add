//! The proofs of probdml, as a crate: the catalogue of derivations ([`registry`]: every fast
//! twin with its exact twin and the error budget the proofs hold it to) and the book's chapters
//! as doctests. The proofs themselves are this package's test targets (`proofs/`, `tests/`).

#![warn(missing_docs)]

pub mod registry;

/// The book's chapters, compiled as doctests so that every number they show is checked by
/// `cargo test` (the PyO3 pattern).
#[cfg(doctest)]
pub mod book {
    #[doc = include_str!("../docs/src/introduction.md")]
    pub struct Introduction;
    #[doc = include_str!("../docs/src/01-special.md")]
    pub struct Special;
    #[doc = include_str!("../docs/src/02-vmf.md")]
    pub struct Vmf;
    #[doc = include_str!("../docs/src/03-contrastive.md")]
    pub struct Contrastive;
    #[doc = include_str!("../docs/src/04-ggn.md")]
    pub struct Ggn;
    #[doc = include_str!("../docs/src/05-triplet.md")]
    pub struct Triplet;
    #[doc = include_str!("../docs/src/06-nivmf.md")]
    pub struct Nivmf;
    #[doc = include_str!("../docs/src/07-hib.md")]
    pub struct Hib;
    #[doc = include_str!("../docs/src/08-metrics.md")]
    pub struct Metrics;
    #[doc = include_str!("../README.md")]
    pub struct Readme;
}
