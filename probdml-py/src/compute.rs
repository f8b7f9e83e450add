//! One door from Python into Rust: release the GIL, run the closure, turn a `probdml::Error`
//! into `ValueError` (its message names the argument, the value and the rule) and a Rust panic
//! into `RuntimeError`.
//!
//! pyo3 already turns a panic that unwinds out of a `#[pyfunction]` into
//! `pyo3_runtime.PanicException`, but that class derives from `BaseException`, so `except
//! Exception` does not catch it and a notebook treats it like `KeyboardInterrupt`; a panic
//! here is a bug of the crate, which a caller should see as an ordinary exception.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A crate error whose argument names are those of a Rust item the binding calls on the
/// user's behalf (`HedgedEmbedding::from_components`'s `variances`, `Embeddings::new`'s `data`), with
/// the Python argument each stands for.
pub struct Named {
    err: probdml::Error,
    names: &'static [(&'static str, &'static str)],
}

impl From<probdml::Error> for Named {
    fn from(err: probdml::Error) -> Self {
        Self { err, names: &[] }
    }
}

/// `map_err(named(&[("data", "queries")]))`: report the Rust argument `data` as `queries`.
pub fn named(names: &'static [(&'static str, &'static str)]) -> impl Fn(probdml::Error) -> Named {
    move |err| Named { err, names }
}

/// Runs `f` with the GIL released; its `Err` becomes `ValueError`, a panic `RuntimeError`.
pub fn compute<T, F>(py: Python<'_>, f: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> probdml::Result<T> + Send,
{
    compute_named(py, || f().map_err(Named::from))
}

/// [`compute`] for a closure whose errors may carry renamed arguments.
pub fn compute_named<T, F>(py: Python<'_>, f: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> Result<T, Named> + Send,
{
    outcome(py.detach(|| catch_unwind(AssertUnwindSafe(f))))
}

/// What a closure run under `catch_unwind` gave, as Python sees it: its value, its error as
/// `ValueError` (with the Python names of renamed arguments), its panic as `RuntimeError`.
pub fn outcome<T>(outcome: std::thread::Result<Result<T, Named>>) -> PyResult<T> {
    match outcome {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(Named { err, names })) => {
            let hint = advice(&err);
            let mut message = err.to_string();
            for (rust, python) in names {
                message = message.replace(&format!("`{rust}`"), &format!("`{python}`"));
                // The range rule of a count names the argument bare: "1 <= k <= 60".
                message = message.replace(&format!("<= {rust} <="), &format!("<= {python} <="));
            }
            Err(PyValueError::new_err(format!("{message}{hint}")))
        }
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic with a non-string payload".to_string());
            Err(PyRuntimeError::new_err(format!(
                "probdml panicked (a bug in probdml, not in the input): {message}"
            )))
        }
    }
}

/// What a numpy user should do about an error the crate reports in its own terms: a vector off
/// the unit sphere is, in practice, an embedding that was never normalised (float32 rounding is
/// within the crate's tolerance and is renormalised, so only such vectors reach this message).
fn advice(err: &probdml::Error) -> &'static str {
    match err {
        probdml::Error::NotUnitVector { .. } => "; normalise it first: v / np.linalg.norm(v)",
        probdml::Error::NotUnitRow { .. } => {
            "; normalise the rows first: x / np.linalg.norm(x, axis=-1, keepdims=True)"
        }
        _ => "",
    }
}

/// Panics inside [`compute`]: the test that a panic reaches Python as `RuntimeError` (no
/// function of the crate is known to panic, so the guard is exercised on purpose).
#[pyfunction]
pub fn _panic_inside_guard(py: Python<'_>, message: String) -> PyResult<()> {
    compute(py, move || -> probdml::Result<()> { panic!("{message}") })
}
