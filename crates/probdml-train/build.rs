//! Build script: only does something with feature "tch".
//!
//! It adds an rpath to libtorch to every artefact of this package (`build/rpath.rs`).
//!
//! With feature "distributed" it also compiles the C++ shim over libtorch's c10d engine
//! (`src/distributed/c10d/`), with the flags torch-sys compiles its own shim with: C++17, PIC,
//! the `_GLIBCXX_USE_CXX11_ABI` libtorch was built with, `GLOG_USE_GLOG_EXPORT`.
#[path = "build/rpath.rs"]
mod rpath;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/rpath.rs");
    if std::env::var_os("CARGO_FEATURE_TCH").is_none() {
        return;
    }
    #[cfg_attr(not(feature = "distributed"), allow(unused_variables))]
    let lib = rpath::link_libtorch();
    #[cfg(feature = "distributed")]
    distributed::compile(lib.as_deref());
}

#[cfg(feature = "distributed")]
mod distributed {
    use std::path::{Path, PathBuf};

    const SHIM: &str = "src/distributed/c10d";

    /// The include folders and C++ ABI of the libtorch torch-sys linked, found the way
    /// torch-sys finds them: from the Python torch when `LIBTORCH_USE_PYTORCH` is set, else
    /// beside `LIBTORCH` (or the library folder torch-sys reported) with `LIBTORCH_CXX11_ABI`.
    struct Libtorch {
        includes: Vec<PathBuf>,
        cxx11_abi: String,
        lib: PathBuf,
    }

    fn libtorch(lib: Option<&str>) -> Libtorch {
        for var in [
            "LIBTORCH_USE_PYTORCH",
            "LIBTORCH",
            "LIBTORCH_CXX11_ABI",
            "VIRTUAL_ENV",
        ] {
            println!("cargo:rerun-if-env-changed={var}");
        }
        if std::env::var_os("LIBTORCH_USE_PYTORCH").is_some() {
            let python = if std::env::var_os("VIRTUAL_ENV").is_some() {
                "python"
            } else {
                "python3"
            };
            let script = "import torch\nfrom torch.utils import cpp_extension\n\
                print('ABI', int(torch._C._GLIBCXX_USE_CXX11_ABI))\n\
                [print('INC', p) for p in cpp_extension.include_paths()]\n\
                [print('LIB', p) for p in cpp_extension.library_paths()]\n";
            let out = std::process::Command::new(python)
                .args(["-c", script])
                .output()
                .unwrap_or_else(|e| panic!("feature distributed: cannot run {python}: {e}"));
            let text = String::from_utf8_lossy(&out.stdout);
            let mut found = Libtorch {
                includes: Vec::new(),
                cxx11_abi: String::new(),
                lib: PathBuf::new(),
            };
            for line in text.lines() {
                if let Some(v) = line.strip_prefix("ABI ") {
                    found.cxx11_abi = v.trim().to_owned();
                } else if let Some(v) = line.strip_prefix("INC ") {
                    found.includes.push(PathBuf::from(v.trim()));
                } else if let Some(v) = line.strip_prefix("LIB ") {
                    found.lib = PathBuf::from(v.trim());
                }
            }
            assert!(
                !found.cxx11_abi.is_empty() && !found.includes.is_empty(),
                "feature distributed: {python} did not report torch's include paths: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            return found;
        }
        let root = match std::env::var("LIBTORCH") {
            Ok(root) => PathBuf::from(root),
            Err(_) => Path::new(lib.expect("feature distributed: no libtorch folder"))
                .parent()
                .expect("libtorch lib folder has a parent")
                .to_path_buf(),
        };
        Libtorch {
            includes: vec![
                root.join("include"),
                root.join("include/torch/csrc/api/include"),
            ],
            cxx11_abi: std::env::var("LIBTORCH_CXX11_ABI").unwrap_or_else(|_| "1".to_owned()),
            lib: lib.map(PathBuf::from).unwrap_or_else(|| root.join("lib")),
        }
    }

    /// Include folders for the NCCL translation unit, when libtorch is a CUDA build and a full
    /// CUDA toolkit is present: ATen's CUDA headers need the toolkit's host headers
    /// (`crt/host_config.h`, libcu++'s `nv/target`), which the PyPI `nvidia-*` runtime wheels
    /// leave out, so `CUDA_HOME`/`/usr/local/cuda` come first; `nccl.h` may come from there or
    /// from the `nvidia/nccl` wheel beside `torch/`. Otherwise NCCL is not compiled in.
    fn cuda_includes(torch: &Libtorch) -> Option<Vec<PathBuf>> {
        println!("cargo:rerun-if-env-changed=CUDA_HOME");
        println!("cargo:rerun-if-env-changed=PROBDML_NO_NCCL");
        if std::env::var_os("PROBDML_NO_NCCL").is_some()
            || !torch.lib.join("libtorch_cuda.so").exists()
        {
            return None;
        }
        let mut dirs = Vec::new();
        if let Ok(home) = std::env::var("CUDA_HOME") {
            dirs.push(PathBuf::from(home).join("include"));
        }
        dirs.push(PathBuf::from("/usr/local/cuda/include"));
        // torch/lib -> torch -> site-packages
        if let Some(site) = torch.lib.parent().and_then(Path::parent) {
            if let Ok(entries) = std::fs::read_dir(site.join("nvidia")) {
                let mut found: Vec<PathBuf> = entries
                    .filter_map(|e| e.ok())
                    .map(|e| e.path().join("include"))
                    .filter(|p| p.is_dir())
                    .collect();
                found.sort();
                dirs.extend(found);
            }
        }
        dirs.retain(|d| d.is_dir());
        let has = |name: &str| dirs.iter().any(|d| d.join(name).exists());
        let complete = [
            "nccl.h",
            "cuda_runtime_api.h",
            "crt/host_config.h",
            "nv/target",
        ];
        if complete.iter().all(|h| has(h)) {
            Some(dirs)
        } else {
            if !dirs.is_empty() {
                println!(
                    "cargo:warning=CUDA libtorch without a full CUDA toolkit (need {complete:?}; \
                     set CUDA_HOME): probdml_train::distributed is built without NCCL"
                );
            }
            None
        }
    }

    fn build(torch: &Libtorch) -> cc::Build {
        let mut b = cc::Build::new();
        b.cpp(true)
            .pic(true)
            .warnings(false)
            .includes(&torch.includes)
            .flag("-std=c++17")
            .flag(format!("-D_GLIBCXX_USE_CXX11_ABI={}", torch.cxx11_abi))
            .flag("-DGLOG_USE_GLOG_EXPORT");
        b
    }

    pub fn compile(lib: Option<&str>) {
        for f in [
            "shim.cpp",
            "nccl.cpp",
            "nccl.hpp",
            "gloo_declarations/gloo/algorithm.h",
            "gloo_declarations/gloo/context.h",
            "gloo_declarations/gloo/common/error.h",
            "gloo_declarations/gloo/rendezvous/store.h",
            "gloo_declarations/gloo/transport/device.h",
        ] {
            println!("cargo:rerun-if-changed={SHIM}/{f}");
        }
        let torch = libtorch(lib);
        let mut b = build(&torch);
        // ProcessGroupGloo.hpp is compiled only under USE_C10D_GLOO, and includes Gloo's headers,
        // which the wheel does not ship: gloo_declarations/ declares what it names (see its
        // README).
        b.define("USE_C10D_GLOO", None)
            .include(format!("{SHIM}/gloo_declarations"))
            .file(format!("{SHIM}/shim.cpp"));
        if let Some(dirs) = cuda_includes(&torch) {
            b.define("USE_C10D_NCCL", None)
                .define("USE_CUDA", None)
                .define("PROBDML_NCCL", None)
                .includes(&dirs);
            println!("cargo:rustc-cfg=probdml_nccl");
        }
        b.file(format!("{SHIM}/nccl.cpp"));
        b.compile("probdml_c10d");
        println!("cargo:rustc-check-cfg=cfg(probdml_nccl)");
    }
}
