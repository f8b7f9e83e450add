//! Build script of the proofs: with feature "tch" (the training tests), the rpath to libtorch
//! that `probdml-train` also gives its own artefacts.
#[path = "crates/probdml-train/build/rpath.rs"]
mod rpath;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=crates/probdml-train/build/rpath.rs");
    if std::env::var_os("CARGO_FEATURE_TCH").is_some() {
        rpath::link_libtorch();
    }
}
