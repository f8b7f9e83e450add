"""probdml.triplet: the worked values of book chapter 05, scipy's normal CDF, finite differences."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import norm

from probdml import triplet

POINT = ([0.7], [0.5], [-0.4], [0.8], [1.3], [0.3])


def test_pinned_moments_of_the_worked_point():
    # Chapter 05: E τ = 1.35, Var τ = 13.744 (the BTL supplement; main text eq. (12) says 14.528).
    mean, var = triplet.moments(*POINT)
    assert mean == pytest.approx(1.35, abs=1e-15)
    assert var == pytest.approx(13.744, abs=1e-12)
    emean, evar = triplet.exact.moments(*POINT)
    assert (emean, evar) == pytest.approx((mean, var), rel=1e-14)


def test_clt_log_likelihood_is_scipy_log_normal_cdf():
    mean, var = triplet.moments(*POINT)
    assert triplet.log_likelihood(*POINT, margin=0.5) == pytest.approx(norm.logcdf((-0.5 - mean) / np.sqrt(var)), rel=1e-14)
    # The exact law of τ differs from the CLT at D = 1 (chapter 05): −1.2981483627948784.
    assert triplet.exact.log_likelihood(*POINT, margin=0.5) == pytest.approx(-1.2981483627948784, abs=1e-10)


def nll(arrays, margin):
    b = arrays[0].shape[0]
    return -np.mean([triplet.log_likelihood(*[a[i] for a in arrays], margin=margin) for i in range(b)])


@given(st.integers(0, 2**32 - 1))
def test_nll_gradient_matches_central_differences(seed):
    rng = np.random.default_rng(seed)
    b, d = 3, 4
    arrays = [rng.normal(size=(b, d)) if i % 2 == 0 else rng.uniform(0.05, 1.0, size=(b, d)) for i in range(6)]
    g = triplet.nll_gradient(*arrays, margin=0.3)
    assert g.nll == pytest.approx(nll(arrays, 0.3), rel=1e-13)
    h = 1e-6
    for k, grad in enumerate(g[1:]):
        assert grad.shape == (b, d)
        i, j = rng.integers(b), rng.integers(d)
        up = [a.copy() for a in arrays]
        down = [a.copy() for a in arrays]
        up[k][i, j] += h
        down[k][i, j] -= h
        fd = (nll(up, 0.3) - nll(down, 0.3)) / (2 * h)
        assert grad[i, j] == pytest.approx(fd, rel=1e-5, abs=1e-8)


def test_exact_gradient_agrees():
    rng = np.random.default_rng(5)
    arrays = [rng.normal(size=(2, 3)) if i % 2 == 0 else rng.uniform(0.1, 1.0, size=(2, 3)) for i in range(6)]
    fast = triplet.nll_gradient(*arrays, margin=0.1)
    ref = triplet.exact.nll_gradient(*arrays, margin=0.1)
    for f, r in zip(fast, ref):
        assert np.allclose(f, r, rtol=1e-12, atol=1e-14)


def test_prior_terms():
    assert triplet.gaussian_prior_variance(2048) == 1 / 2048
    mu, var = np.array([0.1, -0.2]), np.array([0.3, 0.5])
    p = 0.5
    ref = 0.5 * np.sum(var / p + mu**2 / p - 1 - np.log(var / p))
    assert triplet.gaussian_kl(mu, var, p) == pytest.approx(ref, rel=1e-14)
    assert triplet.exact.gaussian_kl(mu, var, p) == pytest.approx(ref, rel=1e-13)
    with pytest.raises(ValueError, match="kappa"):
        triplet.vmf_kl(64, -1.0)


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="var_p"):
        triplet.moments([0.0], [0.1], [0.0], [-0.1], [0.0], [0.1])
    with pytest.raises(ValueError, match="var_n"):
        triplet.nll_gradient(*[np.zeros((2, 3))] * 5, np.zeros((2, 2)), margin=0.1)
    with pytest.raises(ValueError, match="margin"):
        triplet.log_likelihood(*POINT, margin=np.nan)
