"""Hedged instance embeddings (Oh et al. 2019): the match probability of two Gaussian (or
mixture) embeddings under a soft threshold sigmoid(−a‖z₁ − z₂‖ + b), by quadrature (the default,
deterministic), by Monte Carlo as the paper (``n_samples=…, seed=…``), or by moment matching;
the self-mismatch η(x); the VIB loss."""

from __future__ import annotations

import numpy.typing as npt

from .. import _probdml
from .._arrays import vector
from .._types import Count, Real, Seed
from . import _impl
from ._impl import VibLoss

__all__ = ["match_probability", "match_probability_moment_matched", "self_mismatch", "kl_to_standard_normal", "vib_loss", "VibLoss"]


def match_probability(
    mu1: npt.ArrayLike, var1: npt.ArrayLike, mu2: npt.ArrayLike, var2: npt.ArrayLike, a: Real, b: Real, *,
    n_samples: Count | None = None, seed: Seed = None,
) -> float:
    """P(match | x₁, x₂) = E sigmoid(−a‖z₁ − z₂‖ + b) for z₁ ~ p(z | x₁), z₂ ~ p(z | x₂)
    (HIB eq. (4)).

    By default the exact value, by quadrature over the law of ‖z₁ − z₂‖² (deterministic, as
    ``probdml.hib.exact.match_probability``); with ``n_samples``, the paper's Monte Carlo
    estimate from that many draws per component.

    Parameters
    ----------
    mu1, var1 : array_like
        The first embedding: a diagonal Gaussian (1-D mean and variances of length D; a
        variance ≥ 0, 0 for a point mass) or an equal-weight mixture (rows ``(K, D)``, one per
        component); read as float64.
    mu2, var2 : array_like
        The second embedding, of the same dimension D.
    a : float
        The scale a > 0 of the soft threshold.
    b : float
        Its offset b.
    n_samples : int, optional
        Draws per component for the Monte Carlo estimate (None: exact).
    seed : None, int or numpy.random.Generator, optional
        The seed of the draws (with ``n_samples`` only): an integer in ``[0, 2**64)``, a
        generator to draw it from, or None for fresh entropy.

    Returns
    -------
    float
        The match probability, in (0, 1).

    Raises
    ------
    TypeError
        For arrays of the wrong type, an ``a``/``b`` that is not a real number, an
        ``n_samples`` that is not an integer, or a ``seed`` of the wrong type.
    ValueError
        For shapes that differ (a mean and its variances, or the two dimensions), a negative
        variance, a ≤ 0, NaN or ±∞, ``n_samples`` = 0, or a ``seed`` without ``n_samples``.

    Examples
    --------
    z₁ − z₂ ~ N((−1, 0), I), so ‖z₁ − z₂‖² is non-central χ² with 2 degrees of freedom and
    non-centrality 1; integrating sigmoid(−2√q + 1) against its density gives 0.1833567:

    >>> from probdml import hib
    >>> p = hib.match_probability([0, 0], [0.5, 0.5], [1, 0], [0.5, 0.5], a=2.0, b=1.0)
    >>> print(f"{p:.7f}")
    0.1833567
    >>> mc = hib.match_probability([0, 0], [0.5, 0.5], [1, 0], [0.5, 0.5], a=2.0, b=1.0, n_samples=4000, seed=0)
    >>> abs(mc - p) < 0.01
    True
    """
    return _impl.match_probability(mu1, var1, mu2, var2, a, b, n_samples, seed)


def match_probability_moment_matched(
    mu1: npt.ArrayLike, var1: npt.ArrayLike, mu2: npt.ArrayLike, var2: npt.ArrayLike, a: Real, b: Real
) -> float:
    """P(match) with ‖z₁ − z₂‖² replaced by a moment-matched power-normal law (Jensen and
    Solomon) and a 24-point Gauss–Hermite rule: deterministic, O(D), an approximation of
    ``match_probability``.

    Parameters
    ----------
    mu1, var1, mu2, var2 : array_like
        Two diagonal Gaussians, 1-D of one length D (read as float64).
    a : float
        The scale a > 0 of the soft threshold.
    b : float
        Its offset b.

    Returns
    -------
    float
        The approximate match probability.

    Raises
    ------
    TypeError
        For arrays of the wrong type or an ``a``/``b`` that is not a real number.
    ValueError
        As ``match_probability``.

    Notes
    -----
    Exact for point masses; elsewhere within a few 10⁻³ of the exact value (the measured error
    is in the crate's registry, ``hib::match_probability_moment_matched``).

    Examples
    --------
    Two point masses at distance 1: sigmoid(−2 · 1 + 1) = 1/(1 + e):

    >>> from math import e
    >>> from probdml import hib
    >>> print(f"{hib.match_probability_moment_matched([0.0], [0.0], [1.0], [0.0], a=2.0, b=1.0):.9f}")
    0.268941421
    >>> print(f"{1 / (1 + e):.9f}")
    0.268941421

    Elsewhere an approximation:

    >>> args = ([0.0, 0.0], [0.3, 0.3], [1.0, 0.5], [0.2, 0.4])
    >>> approx = hib.match_probability_moment_matched(*args, a=2.0, b=1.0)
    >>> exact = hib.match_probability(*args, a=2.0, b=1.0)
    >>> abs(approx - exact) < 4e-3
    True
    """
    return _probdml.hib.match_probability_moment_matched(
        vector("mu1", mu1), vector("var1", var1), vector("mu2", mu2), vector("var2", var2), a, b
    )


def self_mismatch(
    mu: npt.ArrayLike, var: npt.ArrayLike, a: Real, b: Real, *, n_samples: Count | None = None, seed: Seed = None
) -> float:
    """η(x) = 1 − P(match | x, x), HIB's uncertainty of one embedding: exact by default, the
    Monte Carlo estimate with ``n_samples`` (and ``seed``) as in ``match_probability``.

    Parameters
    ----------
    mu, var : array_like
        A diagonal Gaussian (1-D, length D; variances ≥ 0) or a mixture (rows ``(K, D)``),
        read as float64.
    a : float
        The scale a > 0 of the soft threshold.
    b : float
        Its offset b.
    n_samples : int, optional
        Draws per component for the Monte Carlo estimate (None: exact).
    seed : None, int or numpy.random.Generator, optional
        The seed of the draws (with ``n_samples`` only).

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
    With σ² = ½ in two dimensions, z − z' ~ N(0, I) and ‖z − z'‖ has the Rayleigh density
    r e^{−r²/2}: η = 1 − ∫ sigmoid(−2r + 1) r e^{−r²/2} dr:

    >>> from probdml import hib
    >>> print(f"{hib.self_mismatch([0, 0], [0.5, 0.5], a=2.0, b=1.0):.7f}")
    0.7560411
    """
    return _impl.self_mismatch(mu, var, a, b, n_samples, seed)


def kl_to_standard_normal(mu: npt.ArrayLike, var: npt.ArrayLike) -> float:
    """KL(N(μ, diag σ²) ‖ N(0, I)) = ½ Σ (σ² + μ² − 1 − ln σ²), the VIB regulariser.

    Parameters
    ----------
    mu : array_like
        The mean, 1-D (read as float64).
    var : array_like
        The variances σ² ≥ 0, same length.

    Returns
    -------
    float
        The divergence in nats; +∞ when a variance is 0.

    Raises
    ------
    TypeError
        For arrays of the wrong type.
    ValueError
        For lengths that differ, an empty array, a negative variance, NaN or ±∞.

    Examples
    --------
    ½[(0.5 + 0.25 − 1 − ln 0.5) + (2 + 1 − 1 − ln 2)] = 0.875:

    >>> from probdml import hib
    >>> print(f"{hib.kl_to_standard_normal([0.5, -1.0], [0.5, 2.0]):.9f}")
    0.875000000
    """
    return _impl.kl_to_standard_normal(mu, var, False)


def vib_loss(
    mu1: npt.ArrayLike, var1: npt.ArrayLike, mu2: npt.ArrayLike, var2: npt.ArrayLike, noise1: npt.ArrayLike, noise2: npt.ArrayLike,
    is_match: bool, a: Real, b: Real, beta: Real,
) -> VibLoss:
    """The VIB objective of one pair (HIB eq. (8)) with the reparametrised draws z = μ + σε of
    the given standard normal ``noise`` rows, and its gradients.

    L = −ln (1/(K₁K₂)) Σ_{i,j} sigmoid(±(−a‖z₁⁽ⁱ⁾ − z₂⁽ʲ⁾‖ + b)) + β [KL(p(z₁|x₁) ‖ N(0, I)) +
    KL(p(z₂|x₂) ‖ N(0, I))], with + for a matching pair and − otherwise.

    Parameters
    ----------
    mu1, var1, mu2, var2 : array_like
        Two diagonal Gaussians, 1-D of one length D (read as float64).
    noise1, noise2 : array_like
        Standard normal draws ε, K₁ and K₂ rows of length D (any shape of that many elements).
    is_match : bool
        Whether the pair matches (a ``bool`` or ``numpy.bool_``; an integer is refused).
    a : float
        The scale a > 0 of the soft threshold.
    b : float
        Its offset b.
    beta : float
        The weight β ≥ 0 of the KL terms.

    Returns
    -------
    VibLoss
        ``(loss, nll, kl, grad_mu1, grad_log_var1, grad_mu2, grad_log_var2, grad_a, grad_b)``:
        the gradients are with respect to the means, the log-variances and a, b.

    Raises
    ------
    TypeError
        For arrays of the wrong type, an ``is_match`` that is not a bool, or scalars that are
        not real numbers.
    ValueError
        For lengths that differ, noise that is not whole rows of length D, a variance ≤ 0,
        a ≤ 0, β < 0, NaN or ±∞.

    Notes
    -----
    The NLL is a log-sum-exp of log-sigmoids: finite for every finite input.

    Examples
    --------
    Zero noise, means 30 apart, a = 10, b = 0, a matching pair: the NLL is
    −ln sigmoid(−300) = 300 (to double precision), the KL terms are 0 and ½ · 30², so with
    β = ½ the loss is 300 + 225:

    >>> from probdml import hib
    >>> out = hib.vib_loss([0, 0], [1, 1], [30, 0], [1, 1], [0, 0], [0, 0], True, a=10.0, b=0.0, beta=0.5)
    >>> print(f"{out.nll:.6f} {out.kl:.6f} {out.loss:.6f}")
    300.000000 450.000000 525.000000
    >>> out.grad_mu1.round(6)
    array([-10.,   0.])
    """
    return _impl.vib_loss(mu1, var1, mu2, var2, noise1, noise2, is_match, a, b, beta, False)


from . import exact  # noqa: E402  (the twins, as probdml.hib.exact)
