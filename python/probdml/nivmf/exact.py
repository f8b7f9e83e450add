"""The exact twins of ``probdml.nivmf`` (slow; references)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .. import nivmf as _fast
from .._twins import documented_as
from .._types import Count, FloatArray, Real, Seed
from . import _impl
from ._impl import ProxyNcaLoss

__all__ = ["kl_vmf", "log_ppk_vmf", "log_density", "log_density_heuristic", "proxy_nca_loss"]


@documented_as(_fast.kl_vmf, "nivmf")
def kl_vmf(mu_z: npt.ArrayLike, kappa_z: Real, mu_p: npt.ArrayLike, kappa_p: Real) -> float:
    return _impl.kl_vmf(mu_z, kappa_z, mu_p, kappa_p, True)


@documented_as(_fast.log_ppk_vmf, "nivmf")
def log_ppk_vmf(nu_z: npt.ArrayLike, nu_p: npt.ArrayLike, gamma: Real) -> float:
    return _impl.log_ppk_vmf(nu_z, nu_p, gamma, True)


@documented_as(_fast.log_density, "nivmf")
def log_density(x: npt.ArrayLike, mu: npt.ArrayLike, kappas: npt.ArrayLike) -> FloatArray | np.float64:
    return _impl.log_density(x, mu, kappas, False, True)


@documented_as(_fast.log_density_heuristic, "nivmf")
def log_density_heuristic(x: npt.ArrayLike, mu: npt.ArrayLike, kappas: npt.ArrayLike) -> FloatArray | np.float64:
    return _impl.log_density(x, mu, kappas, True, True)


@documented_as(_fast.proxy_nca_loss, "nivmf")
def proxy_nca_loss(
    embeddings: npt.ArrayLike,
    labels: npt.ArrayLike,
    proxies: npt.ArrayLike,
    temperature: Real = 1.0,
    distance: str = "cosine",
    concentrations: npt.ArrayLike | None = None,
    samples: Count = 10,
    seed: Seed = 0,
) -> ProxyNcaLoss:
    return _impl.proxy_nca_loss(embeddings, labels, proxies, temperature, distance, concentrations, samples, seed, True)
