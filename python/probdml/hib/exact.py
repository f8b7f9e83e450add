"""The exact twins of ``probdml.hib``: the match probability by quadrature over the law of
‖z₁ − z₂‖², no sampling (slow; references)."""

from __future__ import annotations

import numpy.typing as npt

from .. import hib as _fast
from .._twins import documented_as
from .._types import Real
from . import _impl
from ._impl import VibLoss

__all__ = ["match_probability", "self_mismatch", "kl_to_standard_normal", "vib_loss"]


def match_probability(mu1: npt.ArrayLike, var1: npt.ArrayLike, mu2: npt.ArrayLike, var2: npt.ArrayLike, a: Real, b: Real) -> float:
    """P(match | x₁, x₂) = E sigmoid(−a‖z₁ − z₂‖ + b) by quadrature over the law of
    ‖z₁ − z₂‖², without sampling: what ``probdml.hib.match_probability`` gives by default.

    Parameters
    ----------
    mu1, var1 : array_like
        The first embedding: a diagonal Gaussian (1-D, length D; variances ≥ 0) or an
        equal-weight mixture (rows ``(K, D)``); read as float64.
    mu2, var2 : array_like
        The second embedding, of the same dimension D.
    a : float
        The scale a > 0 of the soft threshold.
    b : float
        Its offset b.

    Returns
    -------
    float
        The match probability, in (0, 1).

    Raises
    ------
    TypeError
        For arrays of the wrong type or an ``a``/``b`` that is not a real number.
    ValueError
        For shapes that differ, a negative variance, a ≤ 0, NaN or ±∞.

    Examples
    --------
    z₁ − z₂ ~ N((−1, 0), I): the integral of sigmoid(−2√q + 1) against the non-central χ²₂(1)
    density:

    >>> from probdml.hib import exact
    >>> print(f"{exact.match_probability([0, 0], [0.5, 0.5], [1, 0], [0.5, 0.5], 2.0, 1.0):.7f}")
    0.1833567
    """
    return _impl.match_probability(mu1, var1, mu2, var2, a, b, None, None)


def self_mismatch(mu: npt.ArrayLike, var: npt.ArrayLike, a: Real, b: Real) -> float:
    """η(x) = 1 − P(match | x, x) without sampling: what ``probdml.hib.self_mismatch`` gives by
    default.

    Parameters
    ----------
    mu, var : array_like
        A diagonal Gaussian (1-D, length D) or a mixture (rows ``(K, D)``), read as float64.
    a : float
        The scale a > 0 of the soft threshold.
    b : float
        Its offset b.

    Returns
    -------
    float
        η(x) ∈ (0, 1).

    Raises
    ------
    TypeError, ValueError
        As ``match_probability``.

    Examples
    --------
    ‖z − z'‖ is Rayleigh for σ² = ½ in two dimensions: 1 − ∫ sigmoid(−2r + 1) r e^{−r²/2} dr:

    >>> from probdml.hib import exact
    >>> print(f"{exact.self_mismatch([0, 0], [0.5, 0.5], 2.0, 1.0):.7f}")
    0.7560411
    """
    return _impl.self_mismatch(mu, var, a, b, None, None)


@documented_as(_fast.kl_to_standard_normal, "hib")
def kl_to_standard_normal(mu: npt.ArrayLike, var: npt.ArrayLike) -> float:
    return _impl.kl_to_standard_normal(mu, var, True)


@documented_as(_fast.vib_loss, "hib")
def vib_loss(
    mu1: npt.ArrayLike, var1: npt.ArrayLike, mu2: npt.ArrayLike, var2: npt.ArrayLike, noise1: npt.ArrayLike, noise2: npt.ArrayLike,
    is_match: bool, a: Real, b: Real, beta: Real,
) -> VibLoss:
    return _impl.vib_loss(mu1, var1, mu2, var2, noise1, noise2, is_match, a, b, beta, True)
