"""vMF divergences, the nivMF and ProxyNCA++, written once for both twins."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import _probdml
from .._arrays import floats, labels, owned_vector, rows, vector  # noqa: F401 (vector re-used by __init__)

_rust = _probdml.nivmf

DISTANCES = ("cosine", "l2", "nivmf", "nivmf_heuristic", "el_vmf", "b_vmf", "kl_vmf", "el_nivmf")


class ProxyNcaLoss(NamedTuple):
    """The mean ProxyNCA++ loss of a batch, the distances d(ρ_c, ζ_b) (shape ``(B, C)``) and the
    gradients with respect to the embeddings ``(B, D)``, the proxies ``(C, D)`` and the proxies'
    concentrations ``(C, D)`` (empty when the distance uses none)."""

    loss: float
    distances: np.ndarray
    grad_embeddings: np.ndarray
    grad_proxies: np.ndarray
    grad_concentrations: np.ndarray


def kl_vmf(mu_z: Any, kappa_z: float, mu_p: Any, kappa_p: float, exact: bool) -> float:
    return _rust.kl_vmf(vector("mu_z", mu_z), kappa_z, vector("mu_p", mu_p), kappa_p, exact)


def log_ppk_vmf(nu_z: Any, nu_p: Any, gamma: float, exact: bool) -> float:
    return _rust.log_ppk_vmf(gamma, vector("nu_z", nu_z), vector("nu_p", nu_p), exact)


def log_density(x: Any, mu: Any, kappas: Any, heuristic: bool, exact: bool) -> Any:
    mu, kappas = vector("mu", mu), vector("kappas", kappas)
    xa = floats("x", x)
    flat, _, dim = rows("x", xa)
    if dim != mu.size:
        raise ValueError(f"dimension mismatch: `x` has rows of length {dim}, expected {mu.size} (the length of `mu`)")
    out = _rust.log_density(flat, mu, kappas, heuristic, exact)
    return out[0] if xa.ndim == 1 else out


def proxy_nca_loss(
    embeddings: Any,
    labels_: Any,
    proxies: Any,
    temperature: float,
    distance: str,
    concentrations: Any,
    samples: int,
    seed: int,
    exact: bool,
) -> ProxyNcaLoss:
    emb, b, dim = rows("embeddings", embeddings)
    prox, c, pdim = rows("proxies", proxies)
    if pdim != dim:
        raise ValueError(f"dimension mismatch: `proxies` has rows of length {pdim}, expected {dim} (the row length of `embeddings`)")
    conc = np.empty(0) if concentrations is None else floats("concentrations", concentrations).reshape(-1)
    out = _rust.proxy_nca_loss(
        distance, emb, labels("labels", labels_), prox, conc, dim, temperature, samples, seed, exact
    )
    loss, d, ge, gp, gc = out
    return ProxyNcaLoss(
        loss,
        d.reshape(b, c),
        ge.reshape(b, dim) if ge.size else ge,
        gp.reshape(c, dim) if gp.size else gp,
        gc.reshape(c, dim) if gc.size else gc,
    )


class NonIsotropicVmfBase:
    _exact = False

    def __init__(self, mu: Any, kappas: Any) -> None:
        self._mu = owned_vector("mu", mu)
        self._kappas = owned_vector("kappas", kappas)
        # Validates (μ, κ) as the Rust constructor does.
        _rust.sample(self._mu, self._kappas, 0, 0)

    @property
    def mu(self) -> np.ndarray:
        return self._mu

    @property
    def kappas(self) -> np.ndarray:
        return self._kappas

    def logpdf(self, x: Any) -> Any:
        """ln f(x) under the exactly normalised nivMF."""
        return log_density(x, self._mu, self._kappas, False, self._exact)

    def rvs(self, size: Any = None, seed: Any = None) -> np.ndarray:
        """Draws of shape ``size + (M,)`` (``size`` and ``seed`` as ``VonMisesFisher.rvs`` takes
        them): Rust ``NonIsotropicVmf::sample`` on ``Xoshiro256PlusPlusX8::seed_from_u64(seed)``,
        module ``probdml::xoshiro_x8``."""
        return _rust.sample(self._mu, self._kappas, size, seed)
