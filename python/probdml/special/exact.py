"""The exact twins of ``probdml.special``: 256-bit series and quadrature (slow; references)."""

from __future__ import annotations

from typing import Any

from .. import _probdml
from .._arrays import floats, scalar_or_array

__all__ = ["log_bessel_i", "bessel_i_ratio", "log_ndtr"]

_rust = _probdml.special


def log_bessel_i(nu: Any, x: Any) -> Any:
    """ln I_ν(x), correctly rounded reference."""
    return scalar_or_array(_rust.exact_log_bessel_i(floats("nu", nu), floats("x", x)))


def bessel_i_ratio(nu: Any, x: Any) -> Any:
    """I_{ν+1}(x) / I_ν(x), reference."""
    return scalar_or_array(_rust.exact_bessel_i_ratio(floats("nu", nu), floats("x", x)))


def log_ndtr(z: Any) -> Any:
    """ln Φ(z), reference."""
    return scalar_or_array(_rust.exact_log_ndtr(floats("z", z)))
