"""The exact twins of ``probdml.triplet``: the moments of τ from the dense 3D × 3D quadratic form,
ln P(τ < −m) from the exact law of τ by characteristic-function inversion, the NLL gradient by
dual numbers, the Gaussian KL by quadrature (slow; references)."""

from __future__ import annotations

from typing import Any

from . import _impl
from ._impl import TripletGradient

__all__ = ["moments", "log_likelihood", "nll_gradient", "gaussian_kl"]


def moments(mu_a: Any, var_a: Any, mu_p: Any, var_p: Any, mu_n: Any, var_n: Any) -> tuple[float, float]:
    """(E τ, Var τ), reference."""
    return _impl.moments((mu_a, var_a, mu_p, var_p, mu_n, var_n), True)


def log_likelihood(mu_a: Any, var_a: Any, mu_p: Any, var_p: Any, mu_n: Any, var_n: Any, margin: float) -> float:
    """ln P(τ < −m) from the exact law of τ (no CLT)."""
    return _impl.log_likelihood((mu_a, var_a, mu_p, var_p, mu_n, var_n), margin, True)


def nll_gradient(mu_a: Any, var_a: Any, mu_p: Any, var_p: Any, mu_n: Any, var_n: Any, margin: float) -> TripletGradient:
    """The batch NLL and its gradient by dual numbers, reference."""
    return _impl.nll_gradient((mu_a, var_a, mu_p, var_p, mu_n, var_n), margin, True)


def gaussian_kl(mu: Any, var: Any, prior_var: float) -> float:
    """KL(N(μ, diag var) ‖ N(0, prior_var I)), reference."""
    return _impl.gaussian_kl(mu, var, prior_var, True)
