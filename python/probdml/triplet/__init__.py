"""The Bayesian triplet loss (Warburg et al. 2021): the moments of τ = ‖a − p‖² − ‖a − n‖² for
diagonal-Gaussian embeddings, its CLT log-likelihood, the batch NLL with its analytic gradient,
and the KL terms of the prior."""

from __future__ import annotations

from typing import Any

from .. import _probdml
from . import _impl
from ._impl import TripletGradient

__all__ = ["moments", "log_likelihood", "nll_gradient", "vmf_kl", "gaussian_kl", "gaussian_prior_variance", "TripletGradient"]


def moments(mu_a: Any, var_a: Any, mu_p: Any, var_p: Any, mu_n: Any, var_n: Any) -> tuple[float, float]:
    """(E τ, Var τ) of one triplet of diagonal Gaussians (1-D arrays of equal length)."""
    return _impl.moments((mu_a, var_a, mu_p, var_p, mu_n, var_n), False)


def log_likelihood(mu_a: Any, var_a: Any, mu_p: Any, var_p: Any, mu_n: Any, var_n: Any, margin: float) -> float:
    """ln P(τ < −m) by the central limit theorem: ln Φ((−m − E τ)/√Var τ)."""
    return _impl.log_likelihood((mu_a, var_a, mu_p, var_p, mu_n, var_n), margin, False)


def nll_gradient(mu_a: Any, var_a: Any, mu_p: Any, var_p: Any, mu_n: Any, var_n: Any, margin: float) -> TripletGradient:
    """The mean −ln P(τ_b < −m) over a batch (arrays of shape ``(B, D)``) and its gradient."""
    return _impl.nll_gradient((mu_a, var_a, mu_p, var_p, mu_n, var_n), margin, False)


def vmf_kl(dim: int, kappa: float) -> float:
    """KL(vMF(·, κ) ‖ uniform on S^{dim−1}), checked (``ValueError`` for κ < 0)."""
    return _probdml.triplet.vmf_kl(dim, kappa)


def gaussian_kl(mu: Any, var: Any, prior_var: float) -> float:
    """KL(N(μ, diag var) ‖ N(0, prior_var I))."""
    return _impl.gaussian_kl(mu, var, prior_var, False)


def gaussian_prior_variance(dim: int) -> float:
    """The variance 1/D of the BTL Gaussian prior N(0, (1/D) I)."""
    return _probdml.triplet.gaussian_prior_variance(dim)


from . import exact  # noqa: E402  (the twins, as probdml.triplet.exact)
