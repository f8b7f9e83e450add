"""probdml.triplet: the worked values of book chapter 05, scipy's normal CDF, finite differences,
and mpmath references for both twins: the moments of the Gaussian quadratic form τ, P(τ < −m)
by one-dimensional quadrature, the NLL gradient by mpmath's numerical differentiation, the
Gaussian KL in closed form."""

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import norm

import mpmath_reference
from budgets import check
from probdml import triplet

TWINS = {"fast": triplet, "exact": triplet.exact}
# τ_d = zᵀQz for z = (a_d, p_d, n_d): ‖a − p‖² − ‖a − n‖² = Σ_d zᵀQz.
Q = mpmath.matrix([[0, -1, 1], [-1, 1, 0], [1, 0, -1]])


def mp_moments(mu_a, var_a, mu_p, var_p, mu_n, var_n):
    """E τ = Σ_d tr(QΣ_d) + m_dᵀQm_d and Var τ = Σ_d 2 tr(QΣ_dQΣ_d) + 4 m_dᵀQΣ_dQm_d (moments of a
    quadratic form of independent Gaussians, Mathai & Provost 1992, Thm 3.2b.2), in mpmath."""
    mean = var = mpmath.mpf(0)
    for d in range(len(mu_a)):
        m = mpmath.matrix([mu_a[d], mu_p[d], mu_n[d]])
        sigma = mpmath.diag([var_a[d], var_p[d], var_n[d]])
        qs = Q * sigma
        mean += sum(qs[i, i] for i in range(3)) + (m.T * Q * m)[0]
        qsqs = qs * qs
        var += 2 * sum(qsqs[i, i] for i in range(3)) + 4 * (m.T * Q * sigma * Q * m)[0]
    return mean, var


def mp_log_probability_1d(mu_a, var_a, mu_p, var_p, mu_n, var_n, margin):
    """ln P(τ < −m) at D = 1 without the CLT: τ = (a − p)² − (a − n)² = uv with u = n − p and
    v = 2a − p − n jointly Gaussian, so P(uv < c) = ∫ P(uv < c | u) φ(u) du, where v | u is
    Gaussian: a one-dimensional integral, split at u = 0 and taken by tanh–sinh quadrature."""
    with mpmath.workdps(40):
        ma, mp_, mn = (mpmath.mpf(float(v)) for v in (mu_a[0], mu_p[0], mu_n[0]))
        va, vp, vn = (mpmath.mpf(float(v)) for v in (var_a[0], var_p[0], var_n[0]))
        c = -mpmath.mpf(margin)
        mean_u, mean_v = mn - mp_, 2 * ma - mp_ - mn
        var_u, var_v, cov = vp + vn, 4 * va + vp + vn, vp - vn
        slope, sd = cov / var_u, mpmath.sqrt(var_v - cov**2 / var_u)

        def integrand(u):
            z = (c / u - (mean_v + slope * (u - mean_u))) / sd
            below = mpmath.ncdf(z) if u > 0 else mpmath.ncdf(-z)
            return below * mpmath.npdf(u, mean_u, mpmath.sqrt(var_u))

        sd_u = mpmath.sqrt(var_u)
        # Break points: u = 0, where c/u jumps, and the bulk of u's density on either side.
        points = sorted({mean_u - 8 * sd_u, mpmath.mpf(0), mean_u + 8 * sd_u})
        return float(mpmath.log(mpmath.quad(integrand, [-mpmath.inf, *points, mpmath.inf])))


def mean_scale(mu_a, var_a, mu_p, var_p, mu_n, var_n):
    """Σ_d(d_p² + d_n² + σ_p² + σ_n²): the size of the terms whose difference is E τ (the
    registry's magnitude for triplet::moments, proofs/triplet_moments.rs)."""
    mu_a, mu_p, mu_n = (np.asarray(v, dtype=float) for v in (mu_a, mu_p, mu_n))
    return float(np.sum((mu_p - mu_a) ** 2 + (mu_n - mu_a) ** 2 + np.asarray(var_p) + np.asarray(var_n)))


def random_triplet(rng, dim):
    return [rng.normal(size=dim) if i % 2 == 0 else rng.uniform(0.05, 1.5, size=dim) for i in range(6)]

POINT = ([0.7], [0.5], [-0.4], [0.8], [1.3], [0.3])


def test_pinned_moments_of_the_worked_point():
    # Chapter 05: E τ = 1.35, Var τ = 13.744 (the BTL supplement; main text eq. (12) says 14.528).
    for f in TWINS.values():
        mean, var = f.moments(*POINT)
        assert mean == pytest.approx(1.35, abs=1e-15)
        assert var == pytest.approx(13.744, abs=1e-12)


@pytest.mark.parametrize("twin", TWINS)
def test_moments_of_both_twins_against_the_quadratic_form_in_mpmath(twin):
    rng = np.random.default_rng(9)
    for dim in (1, 3, 16):
        args = random_triplet(rng, dim)
        mean, var = TWINS[twin].moments(*args)
        with mpmath.workdps(40):
            want_mean, want_var = mp_moments(*args)
        check("triplet::moments", mean, float(want_mean), magnitude=mean_scale(*args), case=f"({twin}) E τ, D = {dim}")
        check("triplet::moments", var, float(want_var), case=f"({twin}) Var τ, D = {dim}")


def test_clt_log_likelihood_is_scipy_log_normal_cdf():
    mean, var = triplet.moments(*POINT)
    assert triplet.log_likelihood(*POINT, margin=0.5) == pytest.approx(norm.logcdf((-0.5 - mean) / np.sqrt(var)), rel=1e-14)


def test_exact_log_likelihood_is_the_law_of_tau_by_mpmath_quadrature():
    """The exact twin integrates the exact law of τ (no CLT); at D = 1 the reference is the
    one-dimensional integral of mp_log_probability_1d, within the registered budget of the
    exact likelihood against mpmath (budget::TRIPLET_LOG_LIKELIHOOD). The CLT differs from it by
    far more: the chapter's point, −1.2981483627948784 (exact) against −1.4418… (CLT)."""
    cases = [(POINT, 0.5), (POINT, 0.0), (POINT, 2.0), (([0.0], [0.2], [0.1], [0.1], [2.0], [0.3]), 0.2),
             (([0.3], [1.0], [-0.2], [0.5], [0.1], [2.0]), 0.1), (([0.0], [0.05], [0.0], [0.05], [3.0], [0.05]), 1.0)]
    for args, margin in cases:
        want = mp_log_probability_1d(*args, margin)
        check("triplet::log_likelihood", triplet.exact.log_likelihood(*args, margin=margin), want, case=f"{args}, m = {margin}")
    assert mp_log_probability_1d(*POINT, 0.5) == pytest.approx(-1.2981483627948784, abs=1e-14)
    assert abs(triplet.log_likelihood(*POINT, margin=0.5) - -1.2981483627948784) > 0.1


def mp_nll(arrays, margin):
    """The batch's mean CLT NLL −(1/B) Σ_b ln Φ((−m − E τ_b)/√Var τ_b), in mpmath."""
    total = mpmath.mpf(0)
    for b in range(len(arrays[0])):
        mean, var = mp_moments(*[a[b] for a in arrays])
        total += mpmath.log(mpmath.ncdf((-margin - mean) / mpmath.sqrt(var)))
    return -total / len(arrays[0])


@pytest.mark.parametrize("twin", TWINS)
def test_nll_gradient_of_both_twins_against_mpmath_differentiation(twin):
    rng = np.random.default_rng(13)
    arrays = [a.reshape(2, 2) for a in random_triplet(rng, 4)]
    margin = 0.3
    g = TWINS[twin].nll_gradient(*arrays, margin=margin)
    with mpmath.workdps(40):
        flat = [mpmath.mpf(float(v)) for a in arrays for v in a.ravel()]

        def nll_of(*values):
            it = iter(values)
            rebuilt = [[[next(it) for _ in range(2)] for _ in range(2)] for _ in range(6)]
            return mp_nll(rebuilt, margin)

        want_nll = float(nll_of(*flat))
        want = []
        for i in range(len(flat)):
            partial = [0] * len(flat)
            partial[i] = 1
            want.append(float(mpmath.diff(nll_of, flat, tuple(partial))))
    check("triplet::nll_gradient", g.nll, want_nll, magnitude=max(1.0, abs(want_nll)), case=f"({twin}) NLL")
    got = np.concatenate([np.ravel(x) for x in g[1:]])
    check("triplet::nll_gradient", got, want, case=f"({twin}) gradient")


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


def test_prior_terms():
    assert triplet.gaussian_prior_variance(2048) == 1 / 2048
    mu, var = np.array([0.1, -0.2]), np.array([0.3, 0.5])
    p = 0.5
    with mpmath.workdps(40):
        r = [mpmath.mpf(v) / p for v in var]
        terms = [mpmath.mpf(m) ** 2 / p + ri - 1 - mpmath.log(ri) for m, ri in zip(mu, r)]
        want = float(mpmath.fsum(terms) / 2)
        magnitude = float(mpmath.fsum(mpmath.mpf(m) ** 2 / p + ri + 1 + abs(mpmath.log(ri)) for m, ri in zip(mu, r)) / 2)
    for f in TWINS.values():
        check("triplet::gaussian_kl", f.gaussian_kl(mu, var, p), want, magnitude=magnitude)
    # KL(vMF(·, κ) ‖ uniform on S^{D−1}) = ln C_D(κ) + κ A_D(κ) + ln|S^{D−1}|.
    check("vmf::kl_to_uniform", triplet.vmf_kl(64, 20.0), mpmath_reference.kl_to_uniform(64, 20.0))
    with pytest.raises(ValueError, match="kappa"):
        triplet.vmf_kl(64, -1.0)


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="var_p"):
        triplet.moments([0.0], [0.1], [0.0], [-0.1], [0.0], [0.1])
    with pytest.raises(ValueError, match="var_n"):
        triplet.nll_gradient(*[np.zeros((2, 3))] * 5, np.zeros((2, 2)), margin=0.1)
    with pytest.raises(ValueError, match="margin"):
        triplet.log_likelihood(*POINT, margin=np.nan)
