"""The Bayesian triplet loss (Warburg et al. 2021): the moments of τ = ‖a − p‖² − ‖a − n‖² for
diagonal-Gaussian embeddings, its CLT log-likelihood, the batch NLL with its analytic gradient,
and the KL terms of the prior."""

from __future__ import annotations

import numpy.typing as npt

from .. import _probdml
from .._types import Count, Real
from . import _impl
from ._impl import TripletGradient

__all__ = ["moments", "log_likelihood", "nll_gradient", "vmf_kl", "gaussian_kl", "gaussian_prior_variance", "TripletGradient"]


def moments(
    mu_a: npt.ArrayLike, var_a: npt.ArrayLike, mu_p: npt.ArrayLike, var_p: npt.ArrayLike, mu_n: npt.ArrayLike, var_n: npt.ArrayLike
) -> tuple[float, float]:
    """(E τ, Var τ) of τ = ‖a − p‖² − ‖a − n‖² for independent diagonal Gaussians a, p, n.

    Parameters
    ----------
    mu_a, var_a : array_like
        The anchor's mean and variances, 1-D of one length D (read as float64).
    mu_p, var_p : array_like
        The positive's, same length.
    mu_n, var_n : array_like
        The negative's, same length.

    Returns
    -------
    mean : float
        E τ.
    variance : float
        Var τ.

    Raises
    ------
    TypeError
        For arrays of the wrong type.
    ValueError
        For lengths that differ, an empty array, a negative variance, NaN or ±∞.

    Notes
    -----
    Per coordinate, u = a − p and w = a − n are jointly Gaussian with covariance σ²_a, so
    E τ = Σ (m_u² + s_u − m_w² − s_w) and Var τ = Σ (Var u² + Var w² − 2 Cov(u², w²)).

    Examples
    --------
    With s_u = 0.3, s_w = 0.4 and covariance 0.1 per coordinate, Var u² = 2s_u² + 4m_u²s_u and
    Cov(u², w²) = 2c² + 4 m_u m_w c give:

    >>> from probdml import triplet
    >>> mean, var = triplet.moments([0, 0], [0.1, 0.1], [0.5, 0], [0.2, 0.2], [1, 1], [0.3, 0.3])
    >>> print(f"{mean:.9f} {var:.9f}")
    -1.950000000 4.020000000
    """
    return _impl.moments((mu_a, var_a, mu_p, var_p, mu_n, var_n), False)


def log_likelihood(
    mu_a: npt.ArrayLike, var_a: npt.ArrayLike, mu_p: npt.ArrayLike, var_p: npt.ArrayLike, mu_n: npt.ArrayLike, var_n: npt.ArrayLike,
    margin: Real,
) -> float:
    """ln P(τ < −m) by the central limit theorem: ln Φ((−m − E τ)/√Var τ).

    Parameters
    ----------
    mu_a, var_a, mu_p, var_p, mu_n, var_n : array_like
        Means and variances of the anchor, positive and negative, 1-D of one length.
    margin : float
        The margin m.

    Returns
    -------
    float
        The log-likelihood (≤ 0).

    Raises
    ------
    TypeError
        For arrays of the wrong type or a ``margin`` that is not a real number.
    ValueError
        As ``moments``, or a margin that is not finite.

    See Also
    --------
    probdml.triplet.exact.log_likelihood : from the exact law of τ, without the CLT.

    Examples
    --------
    With E τ = −1.95 and Var τ = 4.02 (see ``moments``), ln Φ((−0.5 + 1.95)/√4.02):

    >>> from math import erfc, log, sqrt
    >>> from probdml import triplet
    >>> args = ([0, 0], [0.1, 0.1], [0.5, 0], [0.2, 0.2], [1, 1], [0.3, 0.3])
    >>> print(f"{triplet.log_likelihood(*args, margin=0.5):.9f}")
    -0.267592257
    >>> print(f"{log(erfc(-(-0.5 + 1.95) / sqrt(4.02) / sqrt(2)) / 2):.9f}")
    -0.267592257
    """
    return _impl.log_likelihood((mu_a, var_a, mu_p, var_p, mu_n, var_n), margin, False)


def nll_gradient(
    mu_a: npt.ArrayLike, var_a: npt.ArrayLike, mu_p: npt.ArrayLike, var_p: npt.ArrayLike, mu_n: npt.ArrayLike, var_n: npt.ArrayLike,
    margin: Real,
) -> TripletGradient:
    """The mean −ln P(τ_b < −m) over a batch of triplets and its analytic gradient.

    Parameters
    ----------
    mu_a, var_a, mu_p, var_p, mu_n, var_n : array_like
        Means and variances of the anchors, positives and negatives, 2-D of one shape
        ``(B, D)`` (read as float64).
    margin : float
        The margin m.

    Returns
    -------
    TripletGradient
        ``(nll, mu_a, var_a, mu_p, var_p, mu_n, var_n)``: the mean NLL and its gradient with
        respect to each input, float64 arrays of shape ``(B, D)``.

    Raises
    ------
    TypeError
        For arrays of the wrong type or a ``margin`` that is not a real number.
    ValueError
        For inputs that are not 2-D, shapes that differ, a negative variance, NaN or ±∞.

    Examples
    --------
    A batch of one triplet: the NLL is −``log_likelihood`` of it:

    >>> import numpy as np
    >>> from probdml import triplet
    >>> rows = [np.array([v], dtype=float) for v in ([0, 0], [0.1, 0.1], [0.5, 0], [0.2, 0.2], [1, 1], [0.3, 0.3])]
    >>> g = triplet.nll_gradient(*rows, margin=0.5)
    >>> print(f"{g.nll:.9f}")
    0.267592257
    >>> g.mu_a.shape
    (1, 2)
    """
    return _impl.nll_gradient((mu_a, var_a, mu_p, var_p, mu_n, var_n), margin, False)


def vmf_kl(dim: Count, kappa: Real) -> float:
    """KL(vMF(·, κ) ‖ uniform on S^{dim−1}), the KL term of BTL's vMF prior, checked.

    Parameters
    ----------
    dim : int
        D ≥ 2, the dimension of the ambient space.
    kappa : float
        κ ≥ 0.

    Returns
    -------
    float
        The divergence in nats (0 at κ = 0), as ``probdml.vmf.kl_to_uniform(dim, kappa)``.

    Raises
    ------
    TypeError
        For a ``dim`` that is not an integer or a ``kappa`` that is not a real number.
    ValueError
        For D < 2, κ < 0 or a κ that is not finite (where ``vmf.kl_to_uniform`` gives NaN).

    Examples
    --------
    On S², ln(4π) minus the entropy ln(4π sinh κ/κ) − κ(coth κ − 1/κ):

    >>> import numpy as np
    >>> from probdml import triplet
    >>> print(f"{triplet.vmf_kl(3, 2.0):.9f}")
    0.479409249
    >>> print(f"{np.log(4 * np.pi) - np.log(4 * np.pi * np.sinh(2.0) / 2.0) + 2.0 * (1 / np.tanh(2.0) - 0.5):.9f}")
    0.479409249
    """
    return _probdml.triplet.vmf_kl(dim, kappa)


def gaussian_kl(mu: npt.ArrayLike, var: npt.ArrayLike, prior_var: Real) -> float:
    """KL(N(μ, diag var) ‖ N(0, prior_var · I)) = ½ Σ (var/p + μ²/p − 1 − ln(var/p)).

    Parameters
    ----------
    mu : array_like
        The mean, 1-D (read as float64).
    var : array_like
        The variances (> 0), same length.
    prior_var : float
        The prior's variance p > 0.

    Returns
    -------
    float
        The divergence in nats.

    Raises
    ------
    TypeError
        For arrays of the wrong type or a ``prior_var`` that is not a real number.
    ValueError
        For lengths that differ, an empty array, a variance ≤ 0, NaN or ±∞.

    Examples
    --------
    ½[(0.5 + 0.25)/0.25 − 1 − ln 2 + (2 + 1)/0.25 − 1 − ln 8]:

    >>> from probdml import triplet
    >>> print(f"{triplet.gaussian_kl([0.5, -1.0], [0.5, 2.0], 0.25):.9f}")
    5.113705639
    """
    return _impl.gaussian_kl(mu, var, prior_var, False)


def gaussian_prior_variance(dim: Count) -> float:
    """The variance 1/D of BTL's Gaussian prior N(0, (1/D) I).

    Parameters
    ----------
    dim : int
        D ≥ 1.

    Returns
    -------
    float
        1/D.

    Raises
    ------
    TypeError
        For a ``dim`` that is not an integer.
    ValueError
        For D = 0 or a negative D.

    Examples
    --------
    >>> from probdml import triplet
    >>> triplet.gaussian_prior_variance(4)
    0.25
    """
    return _probdml.triplet.gaussian_prior_variance(dim)


from . import exact  # noqa: E402  (the twins, as probdml.triplet.exact)
