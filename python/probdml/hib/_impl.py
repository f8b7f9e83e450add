"""Hedged instance embeddings, written once for both twins."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import _probdml
from .._arrays import floats, rows, vector

_rust = _probdml.hib


class VibLoss(NamedTuple):
    """The VIB objective of one pair with its gradients."""

    loss: float
    nll: float
    kl: float
    grad_mu1: np.ndarray
    grad_log_var1: np.ndarray
    grad_mu2: np.ndarray
    grad_log_var2: np.ndarray
    grad_a: float
    grad_b: float


def components(mu_name: str, mu: Any, var_name: str, var: Any) -> tuple[np.ndarray, np.ndarray, int]:
    """A Gaussian (1-D μ, σ²) or a mixture (rows of μ, σ²) as flat buffers and the dimension."""
    m, _, dim = rows(mu_name, mu)
    v, _, vdim = rows(var_name, var)
    if floats(mu_name, mu).shape != floats(var_name, var).shape:
        raise ValueError(
            f"dimension mismatch: `{var_name}` has shape {np.shape(var)}, expected {np.shape(mu)} (the shape of `{mu_name}`)"
        )
    return m, v, dim


def match_probability(mu1: Any, var1: Any, mu2: Any, var2: Any, a: Any, b: Any, n_samples: Any, seed: Any) -> float:
    m1, v1, d1 = components("mu1", mu1, "var1", var1)
    m2, v2, _ = components("mu2", mu2, "var2", var2)
    return _rust.match_probability(m1, v1, m2, v2, d1, a, b, n_samples, seed)


def self_mismatch(mu: Any, var: Any, a: Any, b: Any, n_samples: Any, seed: Any) -> float:
    m, v, d = components("mu", mu, "var", var)
    return _rust.self_mismatch(m, v, d, a, b, n_samples, seed)


def kl_to_standard_normal(mu: Any, var: Any, exact: bool) -> float:
    return _rust.kl_to_standard_normal(vector("mu", mu), vector("var", var), exact)


def vib_loss(
    mu1: Any, var1: Any, mu2: Any, var2: Any, noise1: Any, noise2: Any,
    is_match: bool, a: float, b: float, beta: float, exact: bool,
) -> VibLoss:
    out = _rust.vib_loss(
        vector("mu1", mu1), vector("var1", var1), vector("mu2", mu2), vector("var2", var2),
        floats("noise1", noise1).reshape(-1), floats("noise2", noise2).reshape(-1),
        is_match, a, b, beta, exact,
    )
    return VibLoss(*out)
