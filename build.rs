//! Build script: only does something with feature "tch".
//!
//! torch-sys links libtorch but its `-Wl,-rpath` flag only reaches its own static C++ shim, not
//! the final binaries, so without help every test and binary would need `LD_LIBRARY_PATH`.
//! torch-sys exports the libtorch library folder as `DEP_TCH_LIBTORCH_LIB` (its `links = "tch"`
//! key) to crates that depend on it directly; we pass it to the linker as an rpath for every
//! artefact of this package.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var_os("CARGO_FEATURE_TCH").is_none() {
        return;
    }
    println!("cargo:rerun-if-env-changed=DEP_TCH_LIBTORCH_LIB");
    match std::env::var("DEP_TCH_LIBTORCH_LIB") {
        Ok(lib) => {
            // --disable-new-dtags writes DT_RPATH (not DT_RUNPATH), which also applies to the
            // libraries libtorch itself loads (libc10, libtorch_cpu) when they are searched for.
            println!("cargo:rustc-link-arg=-Wl,--disable-new-dtags");
            println!("cargo:rustc-link-arg=-Wl,-rpath,{lib}");
        }
        Err(_) => println!(
            "cargo:warning=torch-sys did not report its libtorch folder; set LD_LIBRARY_PATH at run time"
        ),
    }
}
