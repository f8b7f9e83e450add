"""numpy conventions shared by the submodules: dtype, contiguity, shapes, error messages."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import numpy.typing as npt

from ._types import FloatArray


def real(arg: str, value: object) -> npt.NDArray[Any]:
    """``value`` as a numpy array (no copy when it is one) of booleans, integers or floats.

    Every array argument of the package passes here first, and anything else is a ``TypeError``
    naming the argument: ``None`` (numpy would make it a NaN of an object array), strings, and
    complex numbers (numpy would drop the imaginary parts with no more than a ``ComplexWarning``,
    so ``auroc(id_scores=[1+1j, 2], …)`` would score the real parts). A Python integer beyond
    int64 is a ``ValueError``: its type is right, its value is out of range."""
    try:
        a: npt.NDArray[Any] = np.asarray(value)
    except (TypeError, ValueError) as err:  # a ragged nest of lists
        raise TypeError(f"argument `{arg}` must be an array of real numbers: {err}") from None
    if a.dtype.kind in "biuf":
        return a
    if a.dtype.kind == "O" and a.size and all(isinstance(x, int) and not isinstance(x, bool) for x in a.flat):
        raise ValueError(f"argument `{arg}` holds an integer outside the range of int64")
    got = "None" if value is None else f"complex dtype {a.dtype}" if a.dtype.kind == "c" else f"dtype {a.dtype}"
    raise TypeError(f"argument `{arg}` must be an array of real numbers, got {got}")


def floats(arg: str, value: object) -> FloatArray:
    """``value`` as a C-contiguous float64 array: no copy when it already is one."""
    a = real(arg, value)
    try:
        return np.asarray(a, dtype=np.float64, order="C")
    except (TypeError, ValueError) as err:
        raise ValueError(f"argument `{arg}` must be an array of real numbers: {err}") from None


def vector(arg: str, value: object) -> FloatArray:
    """A 1-D C-contiguous float64 array (a scalar becomes length 1)."""
    a = floats(arg, value)
    if a.ndim > 1:
        raise ValueError(f"argument `{arg}` must be 1-D, got shape {a.shape}")
    return a.reshape(-1)


def owned_vector(arg: str, value: object) -> FloatArray:
    """:func:`vector` as an array the distribution owns and nobody can write: a copy, so that the
    caller changing its array later changes nothing here, and read-only, so that the array a
    property hands out cannot be written either. It is a view of a read-only copy, because numpy
    lets the owner of its data turn writing back on, but not a view of a read-only base."""
    owned = np.array(vector(arg, value), copy=True)
    owned.setflags(write=False)
    return owned.view()


def rows(arg: str, value: object) -> tuple[FloatArray, int, int]:
    """A 2-D array of row vectors as its flat float64 buffer, with (rows, dim)."""
    a = floats(arg, value)
    if a.ndim == 1:
        a = a.reshape(1, -1)
    if a.ndim != 2:
        raise ValueError(f"argument `{arg}` must be 2-D (rows of vectors), got shape {a.shape}")
    return a.reshape(-1), a.shape[0], a.shape[1]


def integers(arg: str, value: object) -> npt.NDArray[np.int64]:
    """An integer array as int64 (sphere dimensions, class labels). Whole floats are read as
    integers, as ``scipy.special`` reads them; a float with a fraction, and a value outside
    int64 (a uint64 label of 2**63 or more would otherwise wrap to a negative one), are refused
    with ``ValueError``."""
    a = real(arg, value)
    if a.dtype.kind == "f":
        bad = ~np.isfinite(a) | (a != np.floor(a))
        if np.any(bad):
            raise ValueError(f"argument `{arg}` must hold integers: element {np.flatnonzero(bad)[0]} = {a.flat[np.flatnonzero(bad)[0]].item()!r} is not one")
    limit = np.iinfo(np.int64)
    if a.size and a.dtype.kind in "uf" and (a.max() > limit.max or a.min() < limit.min):
        i = int(np.flatnonzero((a > limit.max) | (a < limit.min))[0])
        raise ValueError(f"argument `{arg}`: element {i} = {a.flat[i].item()} is out of range: must be within int64 (below 2**63)")
    return np.asarray(a, dtype=np.int64, order="C")


def labels(arg: str, value: object) -> npt.NDArray[np.int64]:
    """Class labels as a 1-D int64 array."""
    a = integers(arg, value)
    if a.ndim != 1:
        raise ValueError(f"argument `{arg}` must be 1-D, got shape {a.shape}")
    return a


def scalar_or_array(out: FloatArray) -> FloatArray | np.float64:
    """A 0-d result as a numpy float64 scalar, as scipy.special returns for scalar input."""
    # numpy's stubs type `out[()]` as an array whatever the number of axes; of a 0-d float64
    # array it is a float64 scalar.
    return cast(np.float64, out[()]) if out.ndim == 0 else out
