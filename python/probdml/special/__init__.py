"""Special functions in the manner of ``scipy.special``: element-wise over broadcast arrays,
NaN (never an exception) for an element outside the domain.

``log_bessel_i(nu, x)`` is ln I_ν(x) for ν ≥ 0, x ≥ 0, finite where ``log(scipy.special.ive(nu,
x)) + x`` is −∞ (``ive`` underflows for large ν at moderate x); ``bessel_i_ratio(nu, x)`` is
I_{ν+1}(x)/I_ν(x); ``log_ndtr(z)`` is ln Φ(z).
"""

from __future__ import annotations

from typing import overload

import numpy as np
import numpy.typing as npt

from .. import _probdml
from .._arrays import floats, scalar_or_array
from .._types import FloatArray, Real

__all__ = ["log_bessel_i", "bessel_i_ratio", "log_ndtr"]

_rust = _probdml.special


@overload
def log_bessel_i(nu: Real, x: Real) -> np.float64: ...
@overload
def log_bessel_i(nu: npt.ArrayLike, x: npt.ArrayLike) -> FloatArray | np.float64: ...
def log_bessel_i(nu: npt.ArrayLike, x: npt.ArrayLike) -> FloatArray | np.float64:
    """ln I_ν(x), the log of the modified Bessel function of the first kind.

    Finite where ``np.log(scipy.special.ive(nu, x)) + x`` underflows to −∞ (large ν at
    moderate x). The exact twin is ``probdml.special.exact.log_bessel_i``.

    Parameters
    ----------
    nu : array_like
        The order ν ≥ 0: booleans, integers or floats of any dtype (read as float64).
    x : array_like
        The argument x ≥ 0, broadcast against ``nu`` as numpy broadcasts.

    Returns
    -------
    numpy.float64 or numpy.ndarray of float64
        ln I_ν(x) with the broadcast shape of ``nu`` and ``x``; a numpy scalar when both are
        scalars or 0-d arrays, as ``scipy.special`` returns. NaN for an element with ν < 0,
        x < 0 or a NaN input.

    Raises
    ------
    TypeError
        For ``None``, a string, or a complex number or array.
    ValueError
        When the shapes do not broadcast.

    Examples
    --------
    I_{1/2}(x) = √(2/(πx)) sinh x:

    >>> import numpy as np
    >>> from probdml import special
    >>> print(f"{special.log_bessel_i(0.5, 2.0):.9f}")
    0.716002430
    >>> print(f"{np.log(np.sqrt(2 / (np.pi * 2.0)) * np.sinh(2.0)):.9f}")
    0.716002430
    >>> special.log_bessel_i(0.5, [1.0, 2.0, -1.0]).round(6)
    array([-0.064352,  0.716002,       nan])
    >>> print(f"{special.log_bessel_i(100, 1.0):.6f}")  # ive underflows to 0 here
    -433.051618
    """
    return scalar_or_array(_rust.log_bessel_i(floats("nu", nu), floats("x", x)))


@overload
def bessel_i_ratio(nu: Real, x: Real) -> np.float64: ...
@overload
def bessel_i_ratio(nu: npt.ArrayLike, x: npt.ArrayLike) -> FloatArray | np.float64: ...
def bessel_i_ratio(nu: npt.ArrayLike, x: npt.ArrayLike) -> FloatArray | np.float64:
    """The ratio I_{ν+1}(x) / I_ν(x) of modified Bessel functions, without overflow.

    The exact twin is ``probdml.special.exact.bessel_i_ratio``.

    Parameters
    ----------
    nu : array_like
        The order ν ≥ 0 of the denominator (booleans, integers or floats, read as float64).
    x : array_like
        The argument x ≥ 0, broadcast against ``nu``.

    Returns
    -------
    numpy.float64 or numpy.ndarray of float64
        I_{ν+1}(x)/I_ν(x) with the broadcast shape; a numpy scalar for scalar input. NaN for an
        element outside the domain.

    Raises
    ------
    TypeError
        For ``None``, a string, or a complex number or array.
    ValueError
        When the shapes do not broadcast.

    Examples
    --------
    I_{3/2}(x)/I_{1/2}(x) = coth x − 1/x:

    >>> import numpy as np
    >>> from probdml import special
    >>> print(f"{special.bessel_i_ratio(0.5, 2.0):.9f}")
    0.537314721
    >>> print(f"{1 / np.tanh(2.0) - 1 / 2.0:.9f}")
    0.537314721
    """
    return scalar_or_array(_rust.bessel_i_ratio(floats("nu", nu), floats("x", x)))


@overload
def log_ndtr(z: Real) -> np.float64: ...
@overload
def log_ndtr(z: npt.ArrayLike) -> FloatArray | np.float64: ...
def log_ndtr(z: npt.ArrayLike) -> FloatArray | np.float64:
    """ln Φ(z), the log of the standard normal CDF, as ``scipy.special.log_ndtr``.

    Accurate in the far left tail, where Φ(z) underflows. The exact twin is
    ``probdml.special.exact.log_ndtr``.

    Parameters
    ----------
    z : array_like
        Real numbers (booleans, integers or floats, read as float64).

    Returns
    -------
    numpy.float64 or numpy.ndarray of float64
        ln Φ(z) with the shape of ``z``; a numpy scalar for scalar input; NaN for NaN.

    Raises
    ------
    TypeError
        For ``None``, a string, or a complex number or array.

    Examples
    --------
    Φ(0) = ½, and Φ(−10) = erfc(10/√2)/2:

    >>> from math import erfc, log, sqrt
    >>> from probdml import special
    >>> print(f"{special.log_ndtr(0.0):.9f}")
    -0.693147181
    >>> print(f"{special.log_ndtr(-10.0):.6f}")
    -53.231285
    >>> print(f"{log(erfc(10 / sqrt(2)) / 2):.6f}")
    -53.231285
    """
    return scalar_or_array(_rust.log_ndtr(floats("z", z)))


from . import exact  # noqa: E402  (the twins, as probdml.special.exact)
