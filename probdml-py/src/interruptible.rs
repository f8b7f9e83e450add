//! Long calls that Ctrl-C stops. Python runs its signal handlers only on the main thread, between
//! bytecodes, so a call that stays in Rust for seconds ignores SIGINT until it returns. Here the
//! work runs on a thread of its own while the calling thread, the GIL released, wakes every
//! [`TICK`] to let Python run its handlers (`Python::check_signals`); the exception a handler
//! raises (`KeyboardInterrupt`) ends the call at once.
//!
//! The crate's long routines (a retrieval search, a quadrature, a Monte Carlo estimate, a large
//! draw) have no points at which they could stop, so an interrupted call abandons its worker,
//! which runs to its end and drops its result. The work therefore owns everything it reads
//! (`'static`): a view of the caller's arrays would outlive the call, and Python may change or
//! free them once the call has raised.

use crate::compute::{outcome, Named};
use numpy::{PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// The longest a pending signal waits: well under the half second at which a stuck Ctrl-C is
/// noticed, and long enough that the wake-ups cost nothing measurable.
pub const TICK: Duration = Duration::from_millis(100);

/// The worker's stack: the main thread's 8 MiB, since the crate's routines were written for it
/// (a spawned thread's default is 2 MiB).
const STACK: usize = 8 << 20;

/// Runs `work` on a worker thread, returning its value, its error as `ValueError`, its panic as
/// `RuntimeError`, or the exception of a signal handler that ran while it worked.
pub fn interruptible<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce() -> Result<T, Named> + Send + 'static,
{
    let (sender, receiver) = mpsc::channel();
    std::thread::Builder::new()
        .name("probdml".into())
        .stack_size(STACK)
        .spawn(move || {
            // The receiver is gone when the call was interrupted: the result is dropped.
            let _ = sender.send(catch_unwind(AssertUnwindSafe(work)));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("probdml could not start a thread: {e}")))?;
    let mut receiver = receiver;
    loop {
        // The receiver travels into the detached closure and back: it is `Send`, not `Sync`.
        let (received, back) = py.detach(move || (receiver.recv_timeout(TICK), receiver));
        receiver = back;
        match received {
            Ok(result) => return outcome(result),
            Err(RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "probdml's worker thread ended without a result (a bug in probdml)",
                ))
            }
        }
    }
}

/// Fills `array`, which the binding has just made, by `fill` on an [`interruptible`] worker:
/// large draws are written in place, in numpy's own allocation (which asks the kernel for huge
/// pages), rather than in a Rust `Vec` copied afterwards. The buffer's reference comes back to
/// this thread and is dropped with the GIL held; only an interrupted call leaves it to the
/// worker (whose drop pyo3 defers to the next time a thread holds the GIL).
pub fn fill<F>(py: Python<'_>, array: &Bound<'_, PyArrayDyn<f64>>, fill: F) -> PyResult<()>
where
    F: FnOnce(&mut [f64]) -> probdml::Result<()> + Send + 'static,
{
    let mut lent = Lent::new(array);
    let (lent, filled) = interruptible(py, move || {
        let filled = fill(lent.as_mut_slice());
        Ok((lent, filled))
    })?;
    drop(lent);
    outcome(Ok(filled.map_err(Named::from)))
}

/// The buffer of a numpy array lent to a worker of [`interruptible`] by [`fill`].
struct Lent {
    /// Keeps the array alive while the worker writes, also after an interrupted call has
    /// dropped its own reference.
    _owner: Py<PyAny>,
    data: *mut f64,
    len: usize,
}

// SAFETY: the buffer is reached only through `Lent`, which one thread owns at a time: the
// binding makes the array, lends it before any Python code can see it, and hands the array to
// Python only after the worker has finished (an interrupted call never hands it out).
unsafe impl Send for Lent {}

impl Lent {
    /// Lends the buffer of `array`, which must be new (no other reference has escaped to Python)
    /// and C-contiguous, as `PyArrayDyn::zeros(…, false)` makes it.
    fn new(array: &Bound<'_, PyArrayDyn<f64>>) -> Self {
        assert!(array.is_c_contiguous(), "a new C-contiguous array");
        Self {
            _owner: array.clone().into_any().unbind(),
            data: array.data(),
            len: array.len(),
        }
    }

    fn as_mut_slice(&mut self) -> &mut [f64] {
        // SAFETY: `data` points at `len` initialised f64 (numpy zeroed them) that live as long as
        // `_owner`, and nothing else reads or writes them while this `Lent` exists (see `Send`).
        unsafe { std::slice::from_raw_parts_mut(self.data, self.len) }
    }
}
