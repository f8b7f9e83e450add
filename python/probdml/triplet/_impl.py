"""The Bayesian triplet loss, written once for both twins."""

from __future__ import annotations

from typing import NamedTuple

import numpy.typing as npt

from .. import _probdml
from .._arrays import floats, vector
from .._types import FloatArray, Real

_rust = _probdml.triplet
_NAMES = ("mu_a", "var_a", "mu_p", "var_p", "mu_n", "var_n")
# The six arrays of a triplet: (mu_a, var_a, mu_p, var_p, mu_n, var_n).
_Six = tuple[npt.ArrayLike, npt.ArrayLike, npt.ArrayLike, npt.ArrayLike, npt.ArrayLike, npt.ArrayLike]


class TripletGradient(NamedTuple):
    """The mean NLL of a batch and its gradient with respect to each input (same shapes).

    Attributes
    ----------
    nll : float
        The mean −ln P(τ_b < −m) over the batch.
    mu_a, var_a, mu_p, var_p, mu_n, var_n : numpy.ndarray of float64
        ∂nll/∂ of each input, shape ``(B, D)``.
    """

    nll: float
    mu_a: FloatArray
    var_a: FloatArray
    mu_p: FloatArray
    var_p: FloatArray
    mu_n: FloatArray
    var_n: FloatArray


def _vectors(values: _Six) -> list[FloatArray]:
    return [vector(name, v) for name, v in zip(_NAMES, values)]


def moments(values: _Six, exact: bool) -> tuple[float, float]:
    v = _vectors(values)
    return _rust.moments(v[0], v[1], v[2], v[3], v[4], v[5], exact)


def log_likelihood(values: _Six, margin: Real, exact: bool) -> float:
    v = _vectors(values)
    return _rust.log_likelihood(v[0], v[1], v[2], v[3], v[4], v[5], margin, exact)


def nll_gradient(values: _Six, margin: Real, exact: bool) -> TripletGradient:
    arrays = [floats(name, v) for name, v in zip(_NAMES, values)]
    shape = arrays[0].shape
    if arrays[0].ndim != 2:
        raise ValueError(f"argument `mu_a` must be 2-D (batch, dim), got shape {shape}")
    for name, a in zip(_NAMES, arrays):
        if a.shape != shape:
            raise ValueError(f"dimension mismatch: `{name}` has shape {a.shape}, expected {shape} (the shape of `mu_a`)")
    f = [a.reshape(-1) for a in arrays]
    nll, grads = _rust.nll_gradient(f[0], f[1], f[2], f[3], f[4], f[5], shape[1], margin, exact)
    return TripletGradient(nll, *[g.reshape(shape) for g in grads])


def gaussian_kl(mu: npt.ArrayLike, var: npt.ArrayLike, prior_var: Real, exact: bool) -> float:
    return _rust.gaussian_kl(vector("mu", mu), vector("var", var), prior_var, exact)
