"""Hedged instance embeddings (Oh et al. 2019): the match probability of two Gaussian (or
mixture) embeddings under a soft threshold sigmoid(−a‖z₁ − z₂‖ + b), by quadrature (the default,
deterministic), by Monte Carlo as the paper (``n_samples=…, seed=…``), or by moment matching;
the self-mismatch η(x); the VIB loss."""

from __future__ import annotations

from typing import Any

from .. import _probdml
from .._arrays import vector
from . import _impl
from ._impl import VibLoss

__all__ = ["match_probability", "match_probability_moment_matched", "self_mismatch", "kl_to_standard_normal", "vib_loss", "VibLoss"]


def match_probability(
    mu1: Any, var1: Any, mu2: Any, var2: Any, a: float, b: float, *, n_samples: int | None = None, seed: Any = None
) -> float:
    """P(match | x₁, x₂) = E sigmoid(−a‖z₁ − z₂‖ + b) (HIB eq. (4)); ``mu``/``var`` are 1-D (a
    Gaussian) or rows (a mixture's components).

    By default the exact value, by quadrature over the law of ‖z₁ − z₂‖² (deterministic, as
    ``probdml.hib.exact.match_probability``). With ``n_samples`` the paper's Monte Carlo estimate
    from that many draws per component, seeded by ``seed`` (an integer, a
    ``numpy.random.Generator``, or None for fresh entropy); a ``seed`` without ``n_samples`` is
    refused."""
    return _impl.match_probability(mu1, var1, mu2, var2, a, b, n_samples, seed)


def match_probability_moment_matched(mu1: Any, var1: Any, mu2: Any, var2: Any, a: float, b: float) -> float:
    """P(match) with ‖z₁ − z₂‖² replaced by a moment-matched power-normal law (deterministic)."""
    return _probdml.hib.match_probability_moment_matched(
        vector("mu1", mu1), vector("var1", var1), vector("mu2", mu2), vector("var2", var2), a, b
    )


def self_mismatch(mu: Any, var: Any, a: float, b: float, *, n_samples: int | None = None, seed: Any = None) -> float:
    """η(x) = 1 − P(match | x, x), the HIB uncertainty: exact by default, the Monte Carlo
    estimate with ``n_samples`` (and ``seed``) as in ``match_probability``."""
    return _impl.self_mismatch(mu, var, a, b, n_samples, seed)


def kl_to_standard_normal(mu: Any, var: Any) -> float:
    """KL(N(μ, diag σ²) ‖ N(0, I))."""
    return _impl.kl_to_standard_normal(mu, var, False)


def vib_loss(
    mu1: Any, var1: Any, mu2: Any, var2: Any, noise1: Any, noise2: Any,
    is_match: bool, a: float, b: float, beta: float,
) -> VibLoss:
    """The VIB objective of one pair (HIB eq. (5)) with the reparametrised draws
    z = μ + σε of the given standard normal ``noise`` rows, and its gradients."""
    return _impl.vib_loss(mu1, var1, mu2, var2, noise1, noise2, is_match, a, b, beta, False)


from . import exact  # noqa: E402  (the twins, as probdml.hib.exact)
