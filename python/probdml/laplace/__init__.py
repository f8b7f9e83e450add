"""Last-layer Laplace approximations: the predictive output variance of y = Wx + b under a
diagonal posterior precision, the Laplace evidence and its optimal isotropic prior precision
(MacKay's fixed point)."""

from __future__ import annotations

import numpy.typing as npt

from .. import _probdml
from .._arrays import floats, vector
from .._types import Real

__all__ = ["output_variance", "log_marginal_likelihood", "optimal_prior_precision"]

_rust = _probdml.laplace


def output_variance(weight_precision: npt.ArrayLike, bias_precision: npt.ArrayLike, features: npt.ArrayLike) -> float:
    """tr Cov(y) = Σ_k (Σ_l x_l²/Λ_{kl} + 1/Λ_{b,k}): the output variance of y = Wx + b under
    the diagonal posterior precision Λ of (W, b).

    Parameters
    ----------
    weight_precision : array_like
        Λ for the entries of W, shape ``(M, F)`` (or flat, row-major: output k, feature l at
        k·F + l); each > 0, read as float64.
    bias_precision : array_like
        Λ for b, length M; each > 0.
    features : array_like
        x, length F ≥ 1.

    Returns
    -------
    float
        The trace of the output covariance.

    Raises
    ------
    TypeError
        For arrays of the wrong type.
    ValueError
        For no feature or no output, a ``weight_precision`` without M·F entries, a precision
        ≤ 0, NaN or ±∞.

    Examples
    --------
    M = F = 2, x = (1, 2): (1/1 + 4/2 + 1/2) + (1/4 + 4/4 + 1/4) = 5:

    >>> from probdml import laplace
    >>> v = laplace.output_variance([[1.0, 2.0], [4.0, 4.0]], [2.0, 4.0], [1.0, 2.0])
    >>> print(f"{v:.9f}")
    5.000000000
    """
    return _rust.output_variance(
        floats("weight_precision", weight_precision).reshape(-1), vector("bias_precision", bias_precision), vector("features", features)
    )


def log_marginal_likelihood(
    log_likelihood: Real, theta: npt.ArrayLike, hessian_diagonal: npt.ArrayLike, prior_precision: Real
) -> float:
    """The Laplace evidence ln p(D | δ) ≈ ln p(D | θ*) − ½δ‖θ*‖² + ½ Σ ln(δ/(h_i + δ)) for the
    isotropic prior N(0, δ⁻¹ I) and the diagonal Hessian h of the negative log-likelihood.

    Parameters
    ----------
    log_likelihood : float
        ln p(D | θ*) at the mode.
    theta : array_like
        The mode θ*, 1-D (read as float64).
    hessian_diagonal : array_like
        h_i ≥ 0, same length.
    prior_precision : float
        δ > 0.

    Returns
    -------
    float
        The log evidence.

    Raises
    ------
    TypeError
        For arrays of the wrong type or scalars that are not real numbers.
    ValueError
        For lengths that differ, an empty θ, h_i < 0, δ ≤ 0, NaN or ±∞.

    See Also
    --------
    probdml.laplace.exact.log_marginal_likelihood : with a dense Hessian.

    Examples
    --------
    −10 − ½ · 1 · 5 + ½ (ln ¼ + ln ⅙) = −12.5 − ½ ln 24:

    >>> from probdml import laplace
    >>> print(f"{laplace.log_marginal_likelihood(-10.0, [1.0, 2.0], [3.0, 5.0], 1.0):.9f}")
    -14.089026915
    """
    return _rust.log_marginal_likelihood(
        log_likelihood, vector("theta", theta), vector("hessian_diagonal", hessian_diagonal), prior_precision, False
    )


def optimal_prior_precision(theta: npt.ArrayLike, hessian_diagonal: npt.ArrayLike) -> float:
    """The δ that maximises the Laplace evidence: the fixed point δ‖θ*‖² = Σ h_i/(h_i + δ)
    (MacKay).

    Parameters
    ----------
    theta : array_like
        The mode θ*, 1-D, not all zero (read as float64).
    hessian_diagonal : array_like
        h_i ≥ 0, same length, not all zero.

    Returns
    -------
    float
        The optimal δ > 0.

    Raises
    ------
    TypeError
        For arrays of the wrong type.
    ValueError
        For lengths that differ, an empty or all-zero θ, h_i < 0, NaN or ±∞, or no
        maximiser.

    Examples
    --------
    ‖θ‖² = 5, h = (3, 5): 5δ = 3/(3 + δ) + 5/(5 + δ) has the root δ = 0.3647236:

    >>> from probdml import laplace
    >>> delta = laplace.optimal_prior_precision([1.0, 2.0], [3.0, 5.0])
    >>> print(f"{delta:.7f}")
    0.3647236
    >>> abs(5 * delta - 3 / (3 + delta) - 5 / (5 + delta)) < 1e-12
    True
    """
    return _rust.optimal_prior_precision(vector("theta", theta), vector("hessian_diagonal", hessian_diagonal), False)


from . import exact  # noqa: E402  (the twins, as probdml.laplace.exact)
