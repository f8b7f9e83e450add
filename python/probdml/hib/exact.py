"""The exact twins of ``probdml.hib``: the match probability by quadrature over the law of
‖z₁ − z₂‖², no sampling (slow; references)."""

from __future__ import annotations

from typing import Any

from . import _impl
from ._impl import VibLoss

__all__ = ["match_probability", "self_mismatch", "kl_to_standard_normal", "vib_loss"]


def match_probability(mu1: Any, var1: Any, mu2: Any, var2: Any, a: float, b: float) -> float:
    """P(match | x₁, x₂) without sampling (Gaussians, or mixtures as rows)."""
    return _impl.match_probability(mu1, var1, mu2, var2, a, b, None, None)


def self_mismatch(mu: Any, var: Any, a: float, b: float) -> float:
    """η(x) without sampling."""
    return _impl.self_mismatch(mu, var, a, b, None, None)


def kl_to_standard_normal(mu: Any, var: Any) -> float:
    """KL(N(μ, diag σ²) ‖ N(0, I)), reference."""
    return _impl.kl_to_standard_normal(mu, var, True)


def vib_loss(
    mu1: Any, var1: Any, mu2: Any, var2: Any, noise1: Any, noise2: Any,
    is_match: bool, a: float, b: float, beta: float,
) -> VibLoss:
    """The VIB objective and gradients, reference."""
    return _impl.vib_loss(mu1, var1, mu2, var2, noise1, noise2, is_match, a, b, beta, True)
