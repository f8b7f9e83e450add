"""The Bayesian triplet loss, written once for both twins."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import _probdml
from .._arrays import floats, vector

_rust = _probdml.triplet
_NAMES = ("mu_a", "var_a", "mu_p", "var_p", "mu_n", "var_n")


class TripletGradient(NamedTuple):
    """The mean NLL of a batch and its gradient with respect to each input (same shapes)."""

    nll: float
    mu_a: np.ndarray
    var_a: np.ndarray
    mu_p: np.ndarray
    var_p: np.ndarray
    mu_n: np.ndarray
    var_n: np.ndarray


def _vectors(values: tuple[Any, ...]) -> list[np.ndarray]:
    return [vector(name, v) for name, v in zip(_NAMES, values)]


def moments(values: tuple[Any, ...], exact: bool) -> tuple[float, float]:
    return _rust.moments(*_vectors(values), exact)


def log_likelihood(values: tuple[Any, ...], margin: float, exact: bool) -> float:
    return _rust.log_likelihood(*_vectors(values), margin, exact)


def nll_gradient(values: tuple[Any, ...], margin: float, exact: bool) -> TripletGradient:
    arrays = [floats(name, v) for name, v in zip(_NAMES, values)]
    shape = arrays[0].shape
    if arrays[0].ndim != 2:
        raise ValueError(f"argument `mu_a` must be 2-D (batch, dim), got shape {shape}")
    for name, a in zip(_NAMES, arrays):
        if a.shape != shape:
            raise ValueError(f"dimension mismatch: `{name}` has shape {a.shape}, expected {shape} (the shape of `mu_a`)")
    nll, grads = _rust.nll_gradient(*[a.reshape(-1) for a in arrays], shape[1], margin, exact)
    return TripletGradient(nll, *[g.reshape(shape) for g in grads])


def gaussian_kl(mu: Any, var: Any, prior_var: float, exact: bool) -> float:
    return _rust.gaussian_kl(vector("mu", mu), vector("var", var), prior_var, exact)
