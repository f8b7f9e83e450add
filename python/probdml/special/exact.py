"""The exact twins of ``probdml.special``: 256-bit series and quadrature (slow; references).

Each function takes and returns what its fast twin does (element-wise, broadcast, NaN outside
the domain) and is correctly rounded, or nearly so, where the fast twin is within a few ulps.
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
    """ln I_ν(x) by a 256-bit series: the reference of ``probdml.special.log_bessel_i``.

    Parameters
    ----------
    nu : array_like
        The order ν ≥ 0 (booleans, integers or floats, read as float64).
    x : array_like
        The argument x ≥ 0, broadcast against ``nu``.

    Returns
    -------
    numpy.float64 or numpy.ndarray of float64
        ln I_ν(x) with the broadcast shape; a numpy scalar for scalar input; NaN outside the
        domain.

    Raises
    ------
    TypeError
        For ``None``, a string, or a complex number or array.
    ValueError
        When the shapes do not broadcast.

    Examples
    --------
    I_{1/2}(x) = √(2/(πx)) sinh x, so ln I_{1/2}(2) = ln(sinh 2/√π):

    >>> import numpy as np
    >>> from probdml.special import exact
    >>> print(f"{exact.log_bessel_i(0.5, 2.0):.12f}")
    0.716002429689
    >>> print(f"{np.log(np.sinh(2.0) / np.sqrt(np.pi)):.12f}")
    0.716002429689
    """
    return scalar_or_array(_rust.exact_log_bessel_i(floats("nu", nu), floats("x", x)))


@overload
def bessel_i_ratio(nu: Real, x: Real) -> np.float64: ...
@overload
def bessel_i_ratio(nu: npt.ArrayLike, x: npt.ArrayLike) -> FloatArray | np.float64: ...
def bessel_i_ratio(nu: npt.ArrayLike, x: npt.ArrayLike) -> FloatArray | np.float64:
    """I_{ν+1}(x) / I_ν(x) in 256-bit arithmetic: the reference of
    ``probdml.special.bessel_i_ratio``.

    Parameters
    ----------
    nu : array_like
        The order ν ≥ 0 of the denominator (read as float64).
    x : array_like
        The argument x ≥ 0, broadcast against ``nu``.

    Returns
    -------
    numpy.float64 or numpy.ndarray of float64
        The ratio with the broadcast shape; a numpy scalar for scalar input; NaN outside the
        domain.

    Raises
    ------
    TypeError
        For ``None``, a string, or a complex number or array.
    ValueError
        When the shapes do not broadcast.

    Examples
    --------
    I_{3/2}(x)/I_{1/2}(x) = coth x − 1/x:

    >>> from probdml.special import exact
    >>> print(f"{exact.bessel_i_ratio(0.5, 2.0):.12f}")
    0.537314720728
    """
    return scalar_or_array(_rust.exact_bessel_i_ratio(floats("nu", nu), floats("x", x)))


@overload
def log_ndtr(z: Real) -> np.float64: ...
@overload
def log_ndtr(z: npt.ArrayLike) -> FloatArray | np.float64: ...
def log_ndtr(z: npt.ArrayLike) -> FloatArray | np.float64:
    """ln Φ(z) in 256-bit arithmetic: the reference of ``probdml.special.log_ndtr``.

    Parameters
    ----------
    z : array_like
        Real numbers (read as float64).

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
    ln Φ(−10) = ln(erfc(10/√2)/2):

    >>> from probdml.special import exact
    >>> print(f"{exact.log_ndtr(-10.0):.10f}")
    -53.2312851505
    """
    return scalar_or_array(_rust.exact_log_ndtr(floats("z", z)))
