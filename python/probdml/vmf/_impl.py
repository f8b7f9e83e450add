"""The von Mises–Fisher functions, written once for both twins (``exact`` picks the Rust side)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _probdml
from .._arrays import floats, integers, owned_vector, rows, scalar_or_array, vector

_rust = _probdml.vmf


def _kernel(name: str, exact: bool, dim: Any, kappa: Any) -> Any:
    f = getattr(_rust, ("exact_" if exact else "") + name)
    return scalar_or_array(f(integers("dim", dim), floats("kappa", kappa)))


def kappa_mle(dim: Any, rbar: Any, exact: bool) -> Any:
    f = _rust.exact_kappa_mle if exact else _rust.kappa_mle
    return scalar_or_array(f(integers("dim", dim), floats("rbar", rbar)))


def kappa_sra(dim: Any, rbar: Any, newton_steps: int, exact: bool) -> Any:
    f = _rust.exact_kappa_sra if exact else _rust.kappa_sra
    return scalar_or_array(f(integers("dim", dim), floats("rbar", rbar), newton_steps))


def mean_resultant(samples: Any, exact: bool) -> tuple[np.ndarray, float]:
    flat, _, dim = rows("samples", samples)
    direction, rbar, _ = _rust.mean_resultant(flat, dim, exact)
    return direction, rbar


def log_density(x: Any, mu: Any, kappa: float, exact: bool) -> Any:
    mu = vector("mu", mu)
    xa = floats("x", x)
    flat, n, dim = rows("x", xa)
    if dim != mu.size:
        raise ValueError(f"dimension mismatch: `x` has rows of length {dim}, expected {mu.size} (the length of `mu`)")
    out = _rust.log_density(flat, mu, kappa, exact)
    return out[0] if xa.ndim == 1 else out


class VonMisesFisherBase:
    _exact = False

    def __init__(self, mu: Any, kappa: float) -> None:
        self._mu = owned_vector("mu", mu)
        self._kappa = _rust.check_vmf(self._mu, kappa)

    @property
    def mu(self) -> np.ndarray:
        """The mean direction μ (read-only)."""
        return self._mu

    @property
    def kappa(self) -> float:
        """The concentration κ."""
        return self._kappa

    @property
    def dim(self) -> int:
        """M, the dimension of the ambient space (the sphere is S^{M−1})."""
        return int(self._mu.size)

    def logpdf(self, x: Any) -> Any:
        """ln f(x; μ, κ) for one point (shape ``(M,)``) or rows (shape ``(n, M)``)."""
        return log_density(x, self._mu, self._kappa, self._exact)

    def pdf(self, x: Any) -> Any:
        """f(x; μ, κ)."""
        return np.exp(self.logpdf(x))

    def log_norm_const(self) -> float:
        """ln C_M(κ)."""
        return float(_kernel("log_norm_const", self._exact, self.dim, self._kappa))

    def entropy(self) -> float:
        """The differential entropy (nats)."""
        return float(_kernel("entropy", self._exact, self.dim, self._kappa))

    def kl_to_uniform(self) -> float:
        """KL(vMF(μ, κ) ‖ uniform on the sphere)."""
        return float(_kernel("kl_to_uniform", self._exact, self.dim, self._kappa))

    def mean_resultant_length(self) -> float:
        """A_M(κ) = E⟨x, μ⟩."""
        return float(_kernel("mean_resultant_length", self._exact, self.dim, self._kappa))

    def rvs(self, size: Any = None, seed: Any = None) -> np.ndarray:
        """Draws of shape ``size + (M,)`` as scipy's ``vonmises_fisher.rvs`` gives them: ``size``
        None (one draw, shape ``(M,)``), an integer ``n`` or a tuple of integers. ``seed`` is an
        integer in ``[0, 2**64)``, a ``numpy.random.Generator`` (a seed is drawn from it) or None
        (fresh entropy); the draws are Rust's ``sample_n_into`` on
        ``Xoshiro256PlusPlusX8::seed_from_u64(seed)`` (module ``probdml::xoshiro_x8``)."""
        return _rust.sample(self._mu, self._kappa, size, seed, self._exact)

    @classmethod
    def fit(cls, samples: Any, method: str = "mle", newton_steps: int = 2) -> Any:
        """The maximum-likelihood vMF of unit rows: μ̂ = the mean direction, κ̂ = A_M⁻¹(R̄)
        (``method="mle"``) or Sra's Newton steps (``method="sra"``)."""
        # The rule of every named option (probdml-py/src/arguments.rs, `choice`): a wrong type
        # is a TypeError, an unknown name a ValueError, both naming the argument.
        if not isinstance(method, str):
            shown = "None" if method is None else f"{type(method).__name__} {method!r}"
            raise TypeError(f"argument `method` must be a str, one of 'mle', 'sra'; got {shown}")
        if method not in ("mle", "sra"):
            raise ValueError(f"argument `method` = {method!r} is not one of 'mle', 'sra'")
        direction, rbar = mean_resultant(samples, cls._exact)
        dim = direction.size
        if method == "mle":
            kappa = kappa_mle(dim, rbar, cls._exact)
        else:
            kappa = kappa_sra(dim, rbar, newton_steps, cls._exact)
        return cls(direction, kappa)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(dim={self.dim}, kappa={self._kappa!r})"
