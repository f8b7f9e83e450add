"""probdml.hib: the match probability against scipy quadrature (D = 1), Monte Carlo and moment
matching against the exact twin, η and the KL against their closed forms."""

import numpy as np
import pytest
from scipy import integrate
from scipy.special import expit
from scipy.stats import norm

from probdml import hib


def quad_match_probability_1d(m1, v1, m2, v2, a, b):
    # Δ = z₁ − z₂ ~ N(m1 − m2, v1 + v2) in D = 1: E sigmoid(−a|Δ| + b).
    loc, sd = m1 - m2, np.sqrt(v1 + v2)
    value, _ = integrate.quad(lambda t: expit(-a * abs(t) + b) * norm.pdf(t, loc, sd), -np.inf, np.inf, epsabs=1e-14, epsrel=1e-13)
    return value


def test_exact_match_probability_matches_scipy_quadrature():
    for m1, v1, m2, v2, a, b in [(0.0, 0.5, 0.0, 0.5, 1.0, 0.0), (0.3, 0.1, -0.5, 0.2, 2.0, 1.0), (1.0, 0.05, 1.2, 0.3, 3.0, -0.5)]:
        got = hib.exact.match_probability([m1], [v1], [m2], [v2], a, b)
        assert got == pytest.approx(quad_match_probability_1d(m1, v1, m2, v2, a, b), rel=1e-10)
    # Pinned in the Rust docs (mpmath, scripts/reference/hib_values.py).
    assert hib.exact.match_probability([0.0], [0.5], [0.0], [0.5], 1.0, 0.0) == pytest.approx(0.32514317473302410, abs=1e-12)


def test_monte_carlo_and_moment_matching_approach_the_exact_value():
    mu1, var1, mu2, var2 = [0.1, -0.2, 0.4], [0.2, 0.1, 0.3], [0.0, 0.3, 0.1], [0.1, 0.2, 0.2]
    exact = hib.exact.match_probability(mu1, var1, mu2, var2, 2.0, 1.0)
    # One estimate at 400 samples per component spreads by about 0.007 (its draws are shared by
    # the 400² pairs, so the spread goes as 1/√400, not 1/400): a single one is no test of the
    # mean. Twenty seeds' mean lies within four of its standard errors (≈ 0.0015) of the exact
    # value when the estimator is unbiased; a bias of 0.01 fails.
    mc = np.array([hib.match_probability(mu1, var1, mu2, var2, 2.0, 1.0, n_samples=400, seed=s) for s in range(20)])
    spread = mc.std(ddof=1)
    assert 0.0 < spread < 0.02
    assert abs(mc.mean() - exact) < 4 * spread / np.sqrt(len(mc))
    assert hib.match_probability(mu1, var1, mu2, var2, 2.0, 1.0, n_samples=8, seed=3) == hib.match_probability(
        mu1, var1, mu2, var2, 2.0, 1.0, n_samples=8, seed=3
    )
    assert hib.match_probability_moment_matched(mu1, var1, mu2, var2, 2.0, 1.0) == pytest.approx(exact, abs=2e-3)


def test_self_mismatch_of_a_point_mass():
    # η = 1 − sigmoid(b) for a deterministic embedding (Rust docs: 0.18242552380635635 at b = 1.5).
    eta = hib.self_mismatch([0.3, 0.1], [0.0, 0.0], 2.0, 1.5, n_samples=8, seed=0)
    assert eta == pytest.approx(1 - expit(1.5), abs=1e-15)
    assert hib.exact.self_mismatch([0.3, 0.1], [0.0, 0.0], 2.0, 1.5) == pytest.approx(1 - expit(1.5), abs=1e-15)


def test_kl_to_standard_normal_closed_form():
    mean, var = np.array([0.5, -1.0]), np.array([0.2, 2.0])
    ref = 0.5 * np.sum(var + mean**2 - 1 - np.log(var))
    assert hib.kl_to_standard_normal(mean, var) == pytest.approx(ref, rel=1e-14)
    assert hib.exact.kl_to_standard_normal(mean, var) == pytest.approx(ref, rel=1e-13)


def test_vib_loss_twins_agree():
    rng = np.random.default_rng(0)
    args = (rng.normal(size=3), rng.uniform(0.1, 1, 3), rng.normal(size=3), rng.uniform(0.1, 1, 3), rng.normal(size=(4, 3)), rng.normal(size=(4, 3)))
    fast = hib.vib_loss(*args, is_match=True, a=2.0, b=1.0, beta=1e-3)
    ref = hib.exact.vib_loss(*args, is_match=True, a=2.0, b=1.0, beta=1e-3)
    assert fast.loss == pytest.approx(ref.loss, rel=1e-12)
    assert np.allclose(fast.grad_mu1, ref.grad_mu1, rtol=1e-10, atol=1e-13)


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="var2"):
        hib.match_probability([0.0], [0.1], [0.0], [-0.1], 1.0, 0.0, seed=0)
    with pytest.raises(ValueError, match="n_samples"):
        hib.match_probability([0.0], [0.1], [0.0], [0.1], 1.0, 0.0, n_samples=0, seed=0)
