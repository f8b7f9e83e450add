"""What the bindings themselves promise: no copies in or out, the GIL released, a panic as an
ordinary exception, the pinned names."""

import threading
import time

import numpy as np
import pytest

import probdml
from probdml import _arrays, _probdml


def test_pinned_names_exist():
    from probdml.metrics import auroc  # noqa: F401
    from probdml.special import log_bessel_i  # noqa: F401
    from probdml.triplet import moments  # noqa: F401
    from probdml.vmf import kappa_mle, log_norm_const  # noqa: F401
    from probdml.vmf.exact import log_norm_const as exact_log_norm_const  # noqa: F401

    for module in ("special", "vmf", "triplet", "nivmf", "hib", "laplace", "metrics"):
        assert hasattr(getattr(probdml, module), "exact")


def test_contiguous_float64_input_is_not_copied():
    x = np.linspace(0.1, 5, 100)
    assert _arrays.floats("x", x) is x
    strided = x[::2]
    assert _arrays.floats("x", strided).flags.c_contiguous  # a strided view is copied once


def test_output_arrays_are_moved_from_rust():
    # numpy arrays made by rust-numpy from a Rust Vec keep the Vec alive through a
    # PySliceContainer base: the values were moved, not copied into numpy's memory.
    out = probdml.special.log_bessel_i(1.0, np.linspace(0.1, 5, 10))
    assert type(out.base).__name__ == "PySliceContainer"


def test_a_panic_becomes_a_runtime_error_not_a_crash():
    with pytest.raises(RuntimeError, match="deliberate"):
        _probdml._panic_inside_guard("deliberate")
    # The interpreter and the module still work afterwards.
    assert np.isfinite(probdml.special.log_bessel_i(0.0, 1.0))


def test_the_gil_is_released_while_rust_computes():
    # The exact twin takes ~0.5 s on these values; a thread holding the GIL for the whole call
    # would let the main thread run no Python at all meanwhile.
    x = np.full(400, 3.7)
    started, done = threading.Event(), threading.Event()

    def work():
        started.set()
        probdml.special.exact.log_bessel_i(1000.5, x)
        done.set()

    t0 = time.perf_counter()
    probdml.special.exact.log_bessel_i(1000.5, x)
    alone = time.perf_counter() - t0
    thread = threading.Thread(target=work)
    thread.start()
    started.wait()
    ticks = 0
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    thread.join()
    assert alone > 0.05, "the workload is too short to show anything"
    assert ticks >= max(10, 0.1 * alone / 0.001)
