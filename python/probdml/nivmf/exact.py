"""The exact twins of ``probdml.nivmf`` (slow; references)."""

from __future__ import annotations

from typing import Any

from . import _impl
from ._impl import ProxyNcaLoss

__all__ = ["kl_vmf", "log_ppk_vmf", "log_density", "log_density_heuristic", "proxy_nca_loss"]


def kl_vmf(mu_z: Any, kappa_z: float, mu_p: Any, kappa_p: float) -> float:
    """KL between two vMFs, reference."""
    return _impl.kl_vmf(mu_z, kappa_z, mu_p, kappa_p, True)


def log_ppk_vmf(nu_z: Any, nu_p: Any, gamma: float) -> float:
    """ln PPK_γ, reference."""
    return _impl.log_ppk_vmf(nu_z, nu_p, gamma, True)


def log_density(x: Any, mu: Any, kappas: Any) -> Any:
    """ln f(x) under the nivMF, reference."""
    return _impl.log_density(x, mu, kappas, False, True)


def log_density_heuristic(x: Any, mu: Any, kappas: Any) -> Any:
    """ln f_h(x), reference."""
    return _impl.log_density(x, mu, kappas, True, True)


def proxy_nca_loss(
    embeddings: Any,
    labels: Any,
    proxies: Any,
    temperature: float = 1.0,
    distance: str = "cosine",
    concentrations: Any = None,
    samples: int = 10,
    seed: int = 0,
) -> ProxyNcaLoss:
    """ProxyNCA++, reference (no gradients for ``"el_nivmf"``)."""
    return _impl.proxy_nca_loss(embeddings, labels, proxies, temperature, distance, concentrations, samples, seed, True)
