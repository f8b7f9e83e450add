//! The extension module `probdml._probdml`: thin bindings of the `probdml` crate.
//!
//! Each submodule (`special`, `vmf`, …) holds the Rust side of the Python module of that name;
//! the Python layer in `python/probdml/` owns the numpy conventions (dtype, contiguity,
//! broadcasting, shapes) and passes contiguous arrays, which are read here without a copy.
//! Scalar arguments (real numbers, counts, seeds, sizes, flags, names) arrive as the caller gave
//! them and are read by `arguments.rs`: `TypeError` for a wrong type, `ValueError` for a wrong
//! value, naming the Python argument. Every call releases the GIL while Rust computes and moves
//! its output `Vec` into the returned numpy array (no copy); the calls that can run for seconds
//! are interruptible by Ctrl-C (`interruptible.rs`). A `probdml::Error` becomes `ValueError` with the crate's
//! message.

use pyo3::prelude::*;

mod arguments;
mod compute;
mod elementwise;
mod generator;
mod hib;
mod interruptible;
mod laplace;
mod metrics;
mod nivmf;
mod special;
mod triplet;
mod vmf;

/// The instruction set the kernels run on here (chosen at run time, not at build time).
#[pyfunction]
fn instruction_set() -> &'static str {
    probdml::instruction_set::InstructionSet::active().name()
}

/// Whether this extension was compiled with AVX2 enabled for every function (a
/// `target-cpu=native`-style build, which would stop with SIGILL on an older CPU).
#[pyfunction]
fn built_with_avx2() -> bool {
    cfg!(target_feature = "avx2")
}

/// The submodule `probdml._probdml.<name>`: an attribute of the extension, and in `sys.modules`
/// under its full name, which is also its `__name__` (and its functions' `__module__`), so that
/// `import probdml._probdml.<name>` finds it and the type checker's stubtest compares its
/// functions with their stubs (python/probdml/_probdml/<name>.pyi).
fn submodule(
    parent: &Bound<'_, PyModule>,
    name: &str,
    register: fn(&Bound<'_, PyModule>) -> PyResult<()>,
) -> PyResult<()> {
    let py = parent.py();
    let full = format!("probdml._probdml.{name}");
    let m = PyModule::new(py, &full)?;
    register(&m)?;
    py.import("sys")?.getattr("modules")?.set_item(&full, &m)?;
    parent.add(name, &m)
}

#[pymodule]
fn _probdml(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(instruction_set, m)?)?;
    m.add_function(wrap_pyfunction!(built_with_avx2, m)?)?;
    m.add_function(wrap_pyfunction!(compute::_panic_inside_guard, m)?)?;
    submodule(m, "special", special::register)?;
    submodule(m, "vmf", vmf::register)?;
    submodule(m, "triplet", triplet::register)?;
    submodule(m, "nivmf", nivmf::register)?;
    submodule(m, "hib", hib::register)?;
    submodule(m, "laplace", laplace::register)?;
    submodule(m, "metrics", metrics::register)?;
    Ok(())
}
