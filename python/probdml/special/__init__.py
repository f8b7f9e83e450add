"""Special functions in the manner of ``scipy.special``: element-wise over broadcast arrays,
NaN (never an exception) for an element outside the domain.

``log_bessel_i(nu, x)`` is ln I_ν(x) for ν ≥ 0, x ≥ 0, finite where ``log(scipy.special.ive(nu,
x)) + x`` is −∞ (``ive`` underflows for large ν at moderate x); ``bessel_i_ratio(nu, x)`` is
I_{ν+1}(x)/I_ν(x); ``log_ndtr(z)`` is ln Φ(z).
"""

from __future__ import annotations

from typing import Any

from .. import _probdml
from .._arrays import floats, scalar_or_array

__all__ = ["log_bessel_i", "bessel_i_ratio", "log_ndtr"]

_rust = _probdml.special


def log_bessel_i(nu: Any, x: Any) -> Any:
    """ln I_ν(x), the log of the modified Bessel function of the first kind."""
    return scalar_or_array(_rust.log_bessel_i(floats("nu", nu), floats("x", x)))


def bessel_i_ratio(nu: Any, x: Any) -> Any:
    """I_{ν+1}(x) / I_ν(x)."""
    return scalar_or_array(_rust.bessel_i_ratio(floats("nu", nu), floats("x", x)))


def log_ndtr(z: Any) -> Any:
    """ln Φ(z), the log of the standard normal CDF (``scipy.special.log_ndtr``)."""
    return scalar_or_array(_rust.log_ndtr(floats("z", z)))


from . import exact  # noqa: E402  (the twins, as probdml.special.exact)
