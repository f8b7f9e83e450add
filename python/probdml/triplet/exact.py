"""The exact twins of ``probdml.triplet``: the moments of τ from the dense 3D × 3D quadratic form,
ln P(τ < −m) from the exact law of τ by characteristic-function inversion, the NLL gradient by
dual numbers, the Gaussian KL by quadrature (slow; references)."""

from __future__ import annotations

import numpy.typing as npt

from .. import triplet as _fast
from .._twins import documented_as
from .._types import Real
from . import _impl
from ._impl import TripletGradient

__all__ = ["moments", "log_likelihood", "nll_gradient", "gaussian_kl"]


@documented_as(_fast.moments, "triplet")
def moments(
    mu_a: npt.ArrayLike, var_a: npt.ArrayLike, mu_p: npt.ArrayLike, var_p: npt.ArrayLike, mu_n: npt.ArrayLike, var_n: npt.ArrayLike
) -> tuple[float, float]:
    return _impl.moments((mu_a, var_a, mu_p, var_p, mu_n, var_n), True)


def log_likelihood(
    mu_a: npt.ArrayLike, var_a: npt.ArrayLike, mu_p: npt.ArrayLike, var_p: npt.ArrayLike, mu_n: npt.ArrayLike, var_n: npt.ArrayLike,
    margin: Real,
) -> float:
    """ln P(τ < −m) from the exact law of τ = ‖a − p‖² − ‖a − n‖² (no CLT), by inversion of its
    characteristic function.

    Unlike the other exact twins, this is not the fast twin's quantity computed exactly:
    ``probdml.triplet.log_likelihood`` is the CLT approximation, and the two differ by the
    approximation's error.

    Parameters
    ----------
    mu_a, var_a, mu_p, var_p, mu_n, var_n : array_like
        Means and variances of the anchor, positive and negative, 1-D of one length (read as
        float64).
    margin : float
        The margin m.

    Returns
    -------
    float
        ln P(τ < −m) (≤ 0).

    Raises
    ------
    TypeError
        For arrays of the wrong type or a ``margin`` that is not a real number.
    ValueError
        For lengths that differ, an empty array, a negative variance, NaN or ±∞.

    Examples
    --------
    In one dimension τ = (n − p)(2a − p − n), and with σ²_p = σ²_n the two factors are
    independent Gaussians, N(0.5, 0.4) and N(−1.5, 0.8) here: P(τ < −0.5) is then a
    one-dimensional integral of normal CDFs, 0.5163178. The CLT gives ln Φ((−0.5 + 0.75)/√1.42)
    instead:

    >>> from probdml import triplet
    >>> from probdml.triplet import exact
    >>> args = ([0.0], [0.1], [0.5], [0.2], [1.0], [0.2])
    >>> print(f"{exact.log_likelihood(*args, margin=0.5):.9f}")
    -0.661032767
    >>> print(f"{triplet.log_likelihood(*args, margin=0.5):.9f}")
    -0.539420085
    """
    return _impl.log_likelihood((mu_a, var_a, mu_p, var_p, mu_n, var_n), margin, True)


@documented_as(_fast.nll_gradient, "triplet")
def nll_gradient(
    mu_a: npt.ArrayLike, var_a: npt.ArrayLike, mu_p: npt.ArrayLike, var_p: npt.ArrayLike, mu_n: npt.ArrayLike, var_n: npt.ArrayLike,
    margin: Real,
) -> TripletGradient:
    return _impl.nll_gradient((mu_a, var_a, mu_p, var_p, mu_n, var_n), margin, True)


@documented_as(_fast.gaussian_kl, "triplet")
def gaussian_kl(mu: npt.ArrayLike, var: npt.ArrayLike, prior_var: Real) -> float:
    return _impl.gaussian_kl(mu, var, prior_var, True)
