"""The exact twins of ``probdml.vmf``: 256-bit Bessel series, bisection to the last bit, the
inverse-CDF sampler on the tabulated marginal (slow; references)."""

from __future__ import annotations

from typing import Any

import numpy as np

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


def log_norm_const(dim: Any, kappa: Any) -> Any:
    """ln C_M(κ), reference."""
    return _impl._kernel("log_norm_const", True, dim, kappa)


def mean_resultant_length(dim: Any, kappa: Any) -> Any:
    """A_M(κ), reference."""
    return _impl._kernel("mean_resultant_length", True, dim, kappa)


def mean_resultant_length_complement(dim: Any, kappa: Any) -> Any:
    """1 − A_M(κ), reference."""
    return _impl._kernel("mean_resultant_length_complement", True, dim, kappa)


def entropy(dim: Any, kappa: Any) -> Any:
    """The entropy, reference."""
    return _impl._kernel("entropy", True, dim, kappa)


def kl_to_uniform(dim: Any, kappa: Any) -> Any:
    """KL to the uniform distribution, reference."""
    return _impl._kernel("kl_to_uniform", True, dim, kappa)


def kappa_mle(dim: Any, rbar: Any) -> Any:
    """κ̂ = A_M⁻¹(R̄), reference."""
    return _impl.kappa_mle(dim, rbar, True)


def kappa_sra(dim: Any, rbar: Any, newton_steps: int = 2) -> Any:
    """Sra's estimator, reference arithmetic."""
    return _impl.kappa_sra(dim, rbar, newton_steps, True)


def mean_resultant(samples: Any) -> tuple[np.ndarray, float]:
    """The mean direction and R̄, compensated sums."""
    return _impl.mean_resultant(samples, True)


def log_density(x: Any, mu: Any, kappa: float) -> Any:
    """ln f(x; μ, κ), reference."""
    return _impl.log_density(x, mu, kappa, True)


class VonMisesFisher(_impl.VonMisesFisherBase):
    """vMF(μ, κ) with the exact sampler (inverse CDF of the tabulated cosine marginal)."""

    _exact = True
