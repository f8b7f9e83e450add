"""Hedged instance embeddings, written once for both twins."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from .. import _probdml
from .._arrays import floats, rows, vector
from .._types import Count, FloatArray, Real, Seed

_rust = _probdml.hib


class VibLoss(NamedTuple):
    """The VIB objective of one pair with its gradients.

    Attributes
    ----------
    loss : float
        nll + β · kl.
    nll : float
        −ln of the Monte Carlo match probability (of a mismatch for a non-matching pair).
    kl : float
        KL(p(z₁|x₁) ‖ N(0, I)) + KL(p(z₂|x₂) ‖ N(0, I)).
    grad_mu1, grad_log_var1, grad_mu2, grad_log_var2 : numpy.ndarray of float64
        ∂loss/∂μ and ∂loss/∂ln σ² of each embedding, shape ``(D,)``.
    grad_a, grad_b : float
        ∂loss/∂a and ∂loss/∂b.
    """

    loss: float
    nll: float
    kl: float
    grad_mu1: FloatArray
    grad_log_var1: FloatArray
    grad_mu2: FloatArray
    grad_log_var2: FloatArray
    grad_a: float
    grad_b: float


def components(mu_name: str, mu: npt.ArrayLike, var_name: str, var: npt.ArrayLike) -> tuple[FloatArray, FloatArray, int]:
    """A Gaussian (1-D μ, σ²) or a mixture (rows of μ, σ²) as flat buffers and the dimension."""
    m, _, dim = rows(mu_name, mu)
    v, _, vdim = rows(var_name, var)
    if floats(mu_name, mu).shape != floats(var_name, var).shape:
        raise ValueError(
            f"dimension mismatch: `{var_name}` has shape {np.shape(var)}, expected {np.shape(mu)} (the shape of `{mu_name}`)"
        )
    return m, v, dim


def match_probability(
    mu1: npt.ArrayLike, var1: npt.ArrayLike, mu2: npt.ArrayLike, var2: npt.ArrayLike, a: Real, b: Real,
    n_samples: Count | None, seed: Seed,
) -> float:
    m1, v1, d1 = components("mu1", mu1, "var1", var1)
    m2, v2, _ = components("mu2", mu2, "var2", var2)
    return _rust.match_probability(m1, v1, m2, v2, d1, a, b, n_samples, seed)


def self_mismatch(mu: npt.ArrayLike, var: npt.ArrayLike, a: Real, b: Real, n_samples: Count | None, seed: Seed) -> float:
    m, v, d = components("mu", mu, "var", var)
    return _rust.self_mismatch(m, v, d, a, b, n_samples, seed)


def kl_to_standard_normal(mu: npt.ArrayLike, var: npt.ArrayLike, exact: bool) -> float:
    return _rust.kl_to_standard_normal(vector("mu", mu), vector("var", var), exact)


def vib_loss(
    mu1: npt.ArrayLike, var1: npt.ArrayLike, mu2: npt.ArrayLike, var2: npt.ArrayLike, noise1: npt.ArrayLike, noise2: npt.ArrayLike,
    is_match: bool, a: Real, b: Real, beta: Real, exact: bool,
) -> VibLoss:
    out = _rust.vib_loss(
        vector("mu1", mu1), vector("var1", var1), vector("mu2", mu2), vector("var2", var2),
        floats("noise1", noise1).reshape(-1), floats("noise2", noise2).reshape(-1),
        is_match, a, b, beta, exact,
    )
    return VibLoss(*out)
