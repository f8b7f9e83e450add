//! The rpath to libtorch, for the build scripts of the crates that link it (`probdml-train` and
//! the proofs' training tests).
//!
//! torch-sys links libtorch but its `-Wl,-rpath` flag only reaches its own static C++ shim, not
//! the final binaries, so without help every test and binary would need `LD_LIBRARY_PATH`.
//! torch-sys exports the libtorch library folder as `DEP_TCH_LIBTORCH_LIB` (its `links = "tch"`
//! key) to crates that depend on it directly; this passes it to the linker as an rpath for every
//! artefact of the package whose build script calls it.

/// Adds the rpath (and, for a CUDA build, `libtorch_cuda.so` itself) to every artefact of the
/// calling package; returns the libtorch library folder torch-sys reported.
pub fn link_libtorch() -> Option<String> {
    println!("cargo:rerun-if-env-changed=DEP_TCH_LIBTORCH_LIB");
    let lib = std::env::var("DEP_TCH_LIBTORCH_LIB").ok();
    match &lib {
        Some(lib) => {
            // --disable-new-dtags writes DT_RPATH (not DT_RUNPATH), which also applies to the
            // libraries libtorch itself loads (libc10, libtorch_cpu) when they are searched for.
            println!("cargo:rustc-link-arg=-Wl,--disable-new-dtags");
            println!("cargo:rustc-link-arg=-Wl,-rpath,{lib}");
            // The CUDA build of libtorch registers its CUDA backend from libtorch_cuda.so's static
            // initialisers; no symbol of it is referenced, so the linker's default --as-needed
            // drops it and `tch::Cuda::is_available()` is false even on a GPU machine. Link it
            // unconditionally where it exists.
            if std::path::Path::new(lib).join("libtorch_cuda.so").exists() {
                println!("cargo:rustc-link-arg=-L{lib}");
                println!("cargo:rustc-link-arg=-Wl,--push-state,--no-as-needed");
                println!("cargo:rustc-link-arg=-ltorch_cuda");
                println!("cargo:rustc-link-arg=-Wl,--pop-state");
            }
        }
        None => println!(
            "cargo:warning=torch-sys did not report its libtorch folder; set LD_LIBRARY_PATH at run time"
        ),
    }
    lib
}
