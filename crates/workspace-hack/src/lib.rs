//! No code. This crate's dependencies ask for the union of the features that the workspace's
//! test build and the Python extension's build resolve on the crates below `probdml`, so that the
//! extension's build reuses the compiled crates of the test build (see `Cargo.toml`).
