"""The exact twins of ``probdml.laplace``, on a dense precision / Hessian (eigen-decomposition;
references). Their arguments differ from the fast twins': a dense matrix where those take a
diagonal."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _probdml
from .._arrays import floats, vector

__all__ = ["output_variance", "log_marginal_likelihood", "optimal_prior_precision"]

_rust = _probdml.laplace


def _square(arg: str, value: Any) -> np.ndarray:
    a = floats(arg, value)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"argument `{arg}` must be a square matrix, got shape {a.shape}")
    return a.reshape(-1)


def output_variance(precision: Any, dim: int, features: Any) -> float:
    """Var y of y = Wx + b under the dense posterior precision over θ = (vec W, b)."""
    return _rust.exact_output_variance(_square("precision", precision), dim, vector("features", features))


def log_marginal_likelihood(log_likelihood: float, theta: Any, hessian: Any, prior_precision: float) -> float:
    """The Laplace evidence with the dense Hessian ``hessian``."""
    return _rust.log_marginal_likelihood(log_likelihood, vector("theta", theta), _square("hessian", hessian), prior_precision, True)


def optimal_prior_precision(theta: Any, hessian: Any) -> float:
    """The evidence-maximising δ for the dense Hessian."""
    return _rust.optimal_prior_precision(vector("theta", theta), _square("hessian", hessian), True)
