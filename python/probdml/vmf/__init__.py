"""The von Mises–Fisher distribution on the sphere S^{M−1} ⊂ R^M.

Element-wise kernels over broadcast ``(dim, kappa)`` arrays give NaN outside the domain
(``log_norm_const``, ``mean_resultant_length``, its complement, ``entropy``, ``kl_to_uniform``);
the estimators ``kappa_mle`` and ``kappa_sra`` raise ``ValueError``. ``VonMisesFisher`` carries
``logpdf``, ``entropy``, ``rvs(size, seed)``, ``fit`` and ``kl_to_uniform``.
"""

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
    """ln C_M(κ) = (M/2 − 1) ln κ − (M/2) ln 2π − ln I_{M/2−1}(κ)."""
    return _impl._kernel("log_norm_const", False, dim, kappa)


def mean_resultant_length(dim: Any, kappa: Any) -> Any:
    """A_M(κ) = I_{M/2}(κ) / I_{M/2−1}(κ)."""
    return _impl._kernel("mean_resultant_length", False, dim, kappa)


def mean_resultant_length_complement(dim: Any, kappa: Any) -> Any:
    """1 − A_M(κ), without the cancellation of subtracting A_M from 1."""
    return _impl._kernel("mean_resultant_length_complement", False, dim, kappa)


def entropy(dim: Any, kappa: Any) -> Any:
    """The differential entropy of vMF(·, κ) on S^{M−1} (nats)."""
    return _impl._kernel("entropy", False, dim, kappa)


def kl_to_uniform(dim: Any, kappa: Any) -> Any:
    """KL(vMF(·, κ) ‖ uniform on S^{M−1})."""
    return _impl._kernel("kl_to_uniform", False, dim, kappa)


def kappa_mle(dim: Any, rbar: Any) -> Any:
    """κ̂ = A_M⁻¹(R̄), the maximum-likelihood concentration; ``ValueError`` outside 0 ≤ R̄ < 1."""
    return _impl.kappa_mle(dim, rbar, False)


def kappa_sra(dim: Any, rbar: Any, newton_steps: int = 2) -> Any:
    """Banerjee's κ₀ followed by ``newton_steps`` Newton steps (Sra 2012)."""
    return _impl.kappa_sra(dim, rbar, newton_steps, False)


def mean_resultant(samples: Any) -> tuple[np.ndarray, float]:
    """The mean direction and R̄ of unit rows ``samples`` (shape ``(n, M)``)."""
    return _impl.mean_resultant(samples, False)


def log_density(x: Any, mu: Any, kappa: float) -> Any:
    """ln f(x; μ, κ) for one point or rows of points."""
    return _impl.log_density(x, mu, kappa, False)


class VonMisesFisher(_impl.VonMisesFisherBase):
    """vMF(μ, κ) on S^{M−1}: ``mu`` a unit vector of length M ≥ 2, ``kappa`` ≥ 0."""

    _exact = False


from . import exact  # noqa: E402  (the twins, as probdml.vmf.exact)
