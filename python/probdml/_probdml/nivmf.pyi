# probdml-py/src/nivmf.rs: vMF divergences, the nivMF and ProxyNCA++ on 1-D float64 buffers.
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from probdml._types import Count, Real, Seed, Size

__all__ = [
    "kl_vmf", "log_ppk_vmf", "bhattacharyya_distance", "expected_likelihood_distance", "log_density", "sample",
    "proxy_nca_loss",
]

_F64 = npt.NDArray[np.float64]

def kl_vmf(mu_z: _F64, kappa_z: Real, mu_p: _F64, kappa_p: Real, exact: bool) -> float: ...
def log_ppk_vmf(gamma: Real, nu_z: _F64, nu_p: _F64, exact: bool) -> float: ...
def bhattacharyya_distance(nu_z: _F64, nu_p: _F64) -> float: ...
def expected_likelihood_distance(nu_z: _F64, nu_p: _F64) -> float: ...
def log_density(x: _F64, mu: _F64, kappas: _F64, heuristic: bool, exact: bool) -> _F64: ...
def sample(mu: _F64, kappas: _F64, size: Size, seed: Seed) -> _F64: ...
def proxy_nca_loss(
    distance: str, embeddings: _F64, labels: npt.NDArray[np.int64] | Sequence[int], proxies: _F64, concentrations: _F64,
    dim: int, temperature: Real, samples: Count, seed: Seed, exact: bool,
) -> tuple[float, _F64, _F64, _F64, _F64]: ...
