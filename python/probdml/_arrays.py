"""numpy conventions shared by the submodules: dtype, contiguity, shapes, error messages."""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np


def real(arg: str, value: Any) -> np.ndarray:
    """``value`` as a numpy array (no copy when it is one), refused when its dtype is complex.

    Every array argument of the package passes here first. numpy would otherwise turn a complex
    array into floats by dropping the imaginary parts with no more than a ``ComplexWarning``
    (``auroc([1+1j, 2], …)`` would score the real parts); scikit-learn's ``check_array`` refuses
    complex data for the same reason."""
    try:
        a = np.asarray(value)
    except (TypeError, ValueError) as err:  # a ragged nest of lists
        raise ValueError(f"argument `{arg}` must be an array of real numbers: {err}") from None
    if a.dtype.kind == "c":
        raise ValueError(f"argument `{arg}` must be an array of real numbers, got complex dtype {a.dtype}")
    return a


def floats(arg: str, value: Any) -> np.ndarray:
    """``value`` as a C-contiguous float64 array: no copy when it already is one."""
    a = real(arg, value)
    try:
        return np.asarray(a, dtype=np.float64, order="C")
    except (TypeError, ValueError) as err:
        raise ValueError(f"argument `{arg}` must be an array of real numbers: {err}") from None


def vector(arg: str, value: Any) -> np.ndarray:
    """A 1-D C-contiguous float64 array (a scalar becomes length 1)."""
    a = floats(arg, value)
    if a.ndim > 1:
        raise ValueError(f"argument `{arg}` must be 1-D, got shape {a.shape}")
    return a.reshape(-1)


def rows(arg: str, value: Any) -> tuple[np.ndarray, int, int]:
    """A 2-D array of row vectors as its flat float64 buffer, with (rows, dim)."""
    a = floats(arg, value)
    if a.ndim == 1:
        a = a.reshape(1, -1)
    if a.ndim != 2:
        raise ValueError(f"argument `{arg}` must be 2-D (rows of vectors), got shape {a.shape}")
    return a.reshape(-1), a.shape[0], a.shape[1]


def integers(arg: str, value: Any) -> np.ndarray:
    """An integer array as int64 (sphere dimensions); floats with a fraction are refused."""
    a = real(arg, value)
    if a.dtype.kind in "iub":
        return np.asarray(a, dtype=np.int64, order="C")
    if a.dtype.kind == "f" and np.all(np.isfinite(a)) and np.all(a == np.floor(a)):
        return np.asarray(a, dtype=np.int64, order="C")
    raise ValueError(f"argument `{arg}` must hold integers, got dtype {a.dtype}")


def labels(arg: str, value: Any) -> np.ndarray:
    """Class labels as a 1-D int64 array."""
    a = integers(arg, value)
    if a.ndim != 1:
        raise ValueError(f"argument `{arg}` must be 1-D, got shape {a.shape}")
    return a


def scalar_or_array(out: np.ndarray) -> Any:
    """A 0-d result as a numpy float64 scalar, as scipy.special returns for scalar input."""
    return out[()] if out.ndim == 0 else out


def seed_of(seed: int | None) -> int:
    """A u64 seed: the given one, or fresh entropy from the OS."""
    if seed is None:
        return secrets.randbits(64)
    seed = int(seed)
    if not 0 <= seed < 2**64:
        raise ValueError(f"argument `seed` = {seed} is out of its domain: must satisfy 0 <= seed < 2**64")
    return seed


def count(arg: str, value: Any) -> int:
    """A non-negative integer count."""
    if isinstance(value, (bool, np.bool_)) or int(value) != value or value < 0:
        raise ValueError(f"argument `{arg}` = {value} must be a non-negative integer")
    return int(value)
