"""The exact twins of ``probdml.laplace``, on a dense precision / Hessian (eigen-decomposition;
references). Their arguments differ from the fast twins': a dense matrix where those take a
diagonal."""

from __future__ import annotations

import numpy.typing as npt

from .. import _probdml
from .._arrays import floats, vector
from .._types import Count, FloatArray, Real

__all__ = ["output_variance", "log_marginal_likelihood", "optimal_prior_precision"]

_rust = _probdml.laplace


def _square(arg: str, value: npt.ArrayLike) -> FloatArray:
    a = floats(arg, value)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"argument `{arg}` must be a square matrix, got shape {a.shape}")
    return a.reshape(-1)


def output_variance(precision: npt.ArrayLike, dim: Count, features: npt.ArrayLike) -> float:
    """tr Cov(y) = tr(J Λ⁻¹ Jᵀ) of y = Wx + b under a dense posterior precision Λ over
    θ = (W row-major, then b), J = ∂y/∂θ = [I_M ⊗ xᵀ, I_M], by Cholesky.

    Parameters
    ----------
    precision : array_like
        Λ, symmetric positive definite, shape ``(P, P)`` with P = M·F + M (read as float64).
    dim : int
        M ≥ 1, the number of outputs.
    features : array_like
        x, length F ≥ 1.

    Returns
    -------
    float
        The trace of the output covariance; with a diagonal Λ, the value of
        ``probdml.laplace.output_variance``.

    Raises
    ------
    TypeError
        For arrays of the wrong type or a ``dim`` that is not an integer.
    ValueError
        For a matrix that is not square or not of side M·F + M, M = 0, no feature, NaN or
        ±∞, or a Λ that is not positive definite.

    Examples
    --------
    M = F = 1, θ = (w, b), Λ = [[2, 1], [1, 2]]: Λ⁻¹ = [[2, −1], [−1, 2]]/3 and y = 3w + b,
    so Var y = (9 · 2 − 2 · 3 + 2)/3 = 14/3:

    >>> from probdml.laplace import exact
    >>> print(f"{exact.output_variance([[2.0, 1.0], [1.0, 2.0]], 1, [3.0]):.9f}")
    4.666666667
    """
    return _rust.exact_output_variance(_square("precision", precision), dim, vector("features", features))


def log_marginal_likelihood(log_likelihood: Real, theta: npt.ArrayLike, hessian: npt.ArrayLike, prior_precision: Real) -> float:
    """The Laplace evidence with a dense Hessian H: ln p(D | θ*) − ½δ‖θ*‖² + ½ ln det(δI) −
    ½ ln det(H + δI).

    Parameters
    ----------
    log_likelihood : float
        ln p(D | θ*).
    theta : array_like
        The mode θ*, length P (read as float64).
    hessian : array_like
        H, symmetric positive semi-definite, shape ``(P, P)``.
    prior_precision : float
        δ > 0.

    Returns
    -------
    float
        The log evidence; with a diagonal H, the value of
        ``probdml.laplace.log_marginal_likelihood``.

    Raises
    ------
    TypeError
        For arrays of the wrong type or scalars that are not real numbers.
    ValueError
        For a matrix that is not square or not of side P, δ ≤ 0, NaN or ±∞.

    Examples
    --------
    H = [[2, 1], [1, 2]] has eigenvalues 1 and 3: −10 − 2.5 + ½ (ln ½ + ln ¼):

    >>> from probdml.laplace import exact
    >>> print(f"{exact.log_marginal_likelihood(-10.0, [1.0, 2.0], [[2.0, 1.0], [1.0, 2.0]], 1.0):.9f}")
    -13.539720771
    """
    return _rust.log_marginal_likelihood(log_likelihood, vector("theta", theta), _square("hessian", hessian), prior_precision, True)


def optimal_prior_precision(theta: npt.ArrayLike, hessian: npt.ArrayLike) -> float:
    """The evidence-maximising δ for a dense Hessian: δ‖θ*‖² = Σ λ_i/(λ_i + δ) over the
    eigenvalues λ_i of H.

    Parameters
    ----------
    theta : array_like
        The mode θ*, length P, not all zero (read as float64).
    hessian : array_like
        H, symmetric positive semi-definite, shape ``(P, P)``.

    Returns
    -------
    float
        The optimal δ > 0.

    Raises
    ------
    TypeError
        For arrays of the wrong type.
    ValueError
        For a matrix that is not square or not of side P, an all-zero θ, NaN or ±∞, or no
        maximiser.

    Examples
    --------
    Eigenvalues 1 and 3, ‖θ‖² = 5: the root of 5δ = 1/(1 + δ) + 3/(3 + δ):

    >>> from probdml.laplace import exact
    >>> print(f"{exact.optimal_prior_precision([1.0, 2.0], [[2.0, 1.0], [1.0, 2.0]]):.7f}")
    0.3304765
    """
    return _rust.optimal_prior_precision(vector("theta", theta), _square("hessian", hessian), True)
