"""Last-layer Laplace approximations: the predictive output variance of y = Wx + b under a
diagonal posterior precision, the Laplace evidence and its optimal isotropic prior precision
(MacKay's fixed point)."""

from __future__ import annotations

from typing import Any

from .. import _probdml
from .._arrays import floats, vector

__all__ = ["output_variance", "log_marginal_likelihood", "optimal_prior_precision"]

_rust = _probdml.laplace


def output_variance(weight_precision: Any, bias_precision: Any, features: Any) -> float:
    """tr Cov(y) = Σ_k (Σ_l x_l²/Λ_{kl} + 1/Λ_{b,k}): the output variance of y = Wx + b under the diagonal
    posterior precision ``weight_precision`` ``(M, F)`` of W and ``bias_precision`` ``(M,)`` of b."""
    return _rust.output_variance(
        floats("weight_precision", weight_precision).reshape(-1), vector("bias_precision", bias_precision), vector("features", features)
    )


def log_marginal_likelihood(log_likelihood: float, theta: Any, hessian_diagonal: Any, prior_precision: float) -> float:
    """The Laplace evidence ln p(D | δ) ≈ ln p(D | θ*) − ½δ‖θ*‖² + ½ Σ ln(δ/(h_i + δ))."""
    return _rust.log_marginal_likelihood(
        log_likelihood, vector("theta", theta), vector("hessian_diagonal", hessian_diagonal), prior_precision, False
    )


def optimal_prior_precision(theta: Any, hessian_diagonal: Any) -> float:
    """The δ that maximises the Laplace evidence (the fixed point δ‖θ*‖² = Σ h_i/(h_i + δ))."""
    return _rust.optimal_prior_precision(vector("theta", theta), vector("hessian_diagonal", hessian_diagonal), False)


from . import exact  # noqa: E402  (the twins, as probdml.laplace.exact)
