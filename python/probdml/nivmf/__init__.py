"""vMF divergences and product kernels, the non-isotropic vMF (nivMF) and the ProxyNCA++ loss
with probabilistic distances (Kirchhof et al. 2022)."""

from __future__ import annotations

from typing import Any

from .. import _probdml
from . import _impl
from ._impl import DISTANCES, ProxyNcaLoss

__all__ = [
    "kl_vmf",
    "log_ppk_vmf",
    "bhattacharyya_distance",
    "expected_likelihood_distance",
    "log_density",
    "log_density_heuristic",
    "proxy_nca_loss",
    "NonIsotropicVmf",
    "ProxyNcaLoss",
    "DISTANCES",
]


def kl_vmf(mu_z: Any, kappa_z: float, mu_p: Any, kappa_p: float) -> float:
    """KL(vMF(μ_z, κ_z) ‖ vMF(μ_p, κ_p))."""
    return _impl.kl_vmf(mu_z, kappa_z, mu_p, kappa_p, False)


def log_ppk_vmf(nu_z: Any, nu_p: Any, gamma: float) -> float:
    """ln of the probability product kernel ∫ f_z^γ f_p^γ of two vMFs in natural parameters ν = κμ."""
    return _impl.log_ppk_vmf(nu_z, nu_p, gamma, False)


def bhattacharyya_distance(nu_z: Any, nu_p: Any) -> float:
    """−ln PPK_½."""
    return _probdml.nivmf.bhattacharyya_distance(_impl.vector("nu_z", nu_z), _impl.vector("nu_p", nu_p))


def expected_likelihood_distance(nu_z: Any, nu_p: Any) -> float:
    """−ln PPK_1."""
    return _probdml.nivmf.expected_likelihood_distance(_impl.vector("nu_z", nu_z), _impl.vector("nu_p", nu_p))


def log_density(x: Any, mu: Any, kappas: Any) -> Any:
    """ln f(x) under the exactly normalised nivMF(μ, κ)."""
    return _impl.log_density(x, mu, kappas, False, False)


def log_density_heuristic(x: Any, mu: Any, kappas: Any) -> Any:
    """ln f_h(x), the paper's heuristic normalisation."""
    return _impl.log_density(x, mu, kappas, True, False)


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
    """ProxyNCA++ with the distance ``distance`` (one of ``DISTANCES``), averaged over the batch,
    with its analytic gradients. ``embeddings`` ``(B, D)`` and ``proxies`` ``(C, D)`` are
    unnormalised (their norms are the concentrations of the vMF distances); ``labels`` index
    the proxies; ``concentrations`` ``(C, D)`` is needed by the nivMF distances; ``samples``
    and ``seed`` drive the Monte Carlo of ``"el_nivmf"``."""
    return _impl.proxy_nca_loss(embeddings, labels, proxies, temperature, distance, concentrations, samples, seed, False)


class NonIsotropicVmf(_impl.NonIsotropicVmfBase):
    """nivMF(μ, κ): ``mu`` a unit vector, ``kappas`` the per-axis concentrations (> 0)."""


from . import exact  # noqa: E402  (the twins, as probdml.nivmf.exact)
