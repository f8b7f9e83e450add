"""The exact twins of ``probdml.vmf``: 256-bit Bessel series, bisection to the last bit, the
inverse-CDF sampler on the tabulated marginal (slow; references)."""

from __future__ import annotations

from typing import overload

import numpy as np
import numpy.typing as npt

from .. import vmf as _fast
from .._twins import documented_as
from .._types import Count, FloatArray, Real
from . import _impl

__all__ = [
    "log_norm_const",
    "mean_resultant_length",
    "mean_resultant_length_complement",
    "entropy",
    "kl_to_uniform",
    "kappa_mle",
    "kappa_sra",
    "mean_resultant",
    "log_density",
    "VonMisesFisher",
]


@overload
def log_norm_const(dim: Count, kappa: Real) -> np.float64: ...
@overload
def log_norm_const(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64: ...
@documented_as(_fast.log_norm_const, "vmf")
def log_norm_const(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64:
    return _impl._kernel("log_norm_const", True, dim, kappa)


@overload
def mean_resultant_length(dim: Count, kappa: Real) -> np.float64: ...
@overload
def mean_resultant_length(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64: ...
@documented_as(_fast.mean_resultant_length, "vmf")
def mean_resultant_length(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64:
    return _impl._kernel("mean_resultant_length", True, dim, kappa)


@overload
def mean_resultant_length_complement(dim: Count, kappa: Real) -> np.float64: ...
@overload
def mean_resultant_length_complement(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64: ...
@documented_as(_fast.mean_resultant_length_complement, "vmf")
def mean_resultant_length_complement(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64:
    return _impl._kernel("mean_resultant_length_complement", True, dim, kappa)


@overload
def entropy(dim: Count, kappa: Real) -> np.float64: ...
@overload
def entropy(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64: ...
@documented_as(_fast.entropy, "vmf")
def entropy(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64:
    return _impl._kernel("entropy", True, dim, kappa)


@overload
def kl_to_uniform(dim: Count, kappa: Real) -> np.float64: ...
@overload
def kl_to_uniform(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64: ...
@documented_as(_fast.kl_to_uniform, "vmf")
def kl_to_uniform(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64:
    return _impl._kernel("kl_to_uniform", True, dim, kappa)


@overload
def kappa_mle(dim: Count, rbar: Real) -> np.float64: ...
@overload
def kappa_mle(dim: npt.ArrayLike, rbar: npt.ArrayLike) -> FloatArray | np.float64: ...
@documented_as(_fast.kappa_mle, "vmf")
def kappa_mle(dim: npt.ArrayLike, rbar: npt.ArrayLike) -> FloatArray | np.float64:
    return _impl.kappa_mle(dim, rbar, True)


@overload
def kappa_sra(dim: Count, rbar: Real, newton_steps: Count = 2) -> np.float64: ...
@overload
def kappa_sra(dim: npt.ArrayLike, rbar: npt.ArrayLike, newton_steps: Count = 2) -> FloatArray | np.float64: ...
@documented_as(_fast.kappa_sra, "vmf")
def kappa_sra(dim: npt.ArrayLike, rbar: npt.ArrayLike, newton_steps: Count = 2) -> FloatArray | np.float64:
    return _impl.kappa_sra(dim, rbar, newton_steps, True)


@documented_as(_fast.mean_resultant, "vmf")
def mean_resultant(samples: npt.ArrayLike) -> tuple[FloatArray, float]:
    return _impl.mean_resultant(samples, True)


@documented_as(_fast.log_density, "vmf")
def log_density(x: npt.ArrayLike, mu: npt.ArrayLike, kappa: Real) -> FloatArray | np.float64:
    return _impl.log_density(x, mu, kappa, True)


class VonMisesFisher(_impl.VonMisesFisherBase):
    """vMF(μ, κ) with the exact sampler (the inverse CDF of the tabulated cosine marginal) and
    the exact twins of its methods.

    Parameters
    ----------
    mu : array_like
        The mean direction, a unit vector of length M ≥ 2 (kept as a read-only float64 copy).
    kappa : float
        The concentration κ ≥ 0.

    Attributes
    ----------
    mu : numpy.ndarray of float64
        The mean direction (read-only), shape ``(M,)``.
    kappa : float
        The concentration.
    dim : int
        M.

    Raises
    ------
    TypeError
        For a ``mu`` of the wrong type or a ``kappa`` that is not a real number.
    ValueError
        For a ``mu`` that is not a unit vector (or shorter than 2) or κ < 0.

    Examples
    --------
    >>> from probdml.vmf import exact
    >>> d = exact.VonMisesFisher([0.0, 0.0, 1.0], 2.0)
    >>> print(f"{d.log_norm_const():.9f}")  # ln(2/(4π sinh 2))
    -3.126244439
    >>> d.rvs(size=2, seed=1).shape
    (2, 3)
    """

    _exact = True
