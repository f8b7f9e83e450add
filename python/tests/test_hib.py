"""probdml.hib against scipy quadrature of the match probability (the law of ‖z₁ − z₂‖²: a normal
in D = 1, a scaled non-central χ² for isotropic variances), mpmath closed forms of the KL, and an
mpmath evaluation of the VIB objective differentiated by mpmath."""

import mpmath
import numpy as np
import pytest
from scipy import integrate
from scipy.special import expit
from scipy.stats import chi2, ncx2, norm

from budgets import CONSTANTS, check
from probdml import hib

TWINS = {"fast": hib, "exact": hib.exact}
HIB_MATCH_ABSOLUTE = CONSTANTS["HIB_MATCH_ABSOLUTE"]  # the exact match probability against references


def quad_match_probability_1d(m1, v1, m2, v2, a, b):
    # Δ = z₁ − z₂ ~ N(m1 − m2, v1 + v2) in D = 1: E sigmoid(−a|Δ| + b).
    loc, sd = m1 - m2, np.sqrt(v1 + v2)
    value, _ = integrate.quad(lambda t: expit(-a * abs(t) + b) * norm.pdf(t, loc, sd), -np.inf, np.inf, epsabs=1e-14, epsrel=1e-13)
    return value


def quad_match_probability_isotropic(mu1, mu2, v, a, b):
    # Δ ~ N(μ₁ − μ₂, v I): ‖Δ‖²/v is non-central χ² with D degrees of freedom and
    # non-centrality ‖μ₁ − μ₂‖²/v; E sigmoid(−a‖Δ‖ + b) is one integral over that law.
    d = len(mu1)
    nc = float(np.sum((np.asarray(mu1) - np.asarray(mu2)) ** 2) / v)
    law = ncx2(d, nc) if nc > 0 else chi2(d)
    value, _ = integrate.quad(lambda s: expit(-a * np.sqrt(v * s) + b) * law.pdf(s), 0, np.inf, epsabs=1e-14, epsrel=1e-13, limit=200)
    return value


def test_exact_match_probability_matches_scipy_quadrature():
    for m1, v1, m2, v2, a, b in [(0.0, 0.5, 0.0, 0.5, 1.0, 0.0), (0.3, 0.1, -0.5, 0.2, 2.0, 1.0), (1.0, 0.05, 1.2, 0.3, 3.0, -0.5)]:
        got = hib.exact.match_probability([m1], [v1], [m2], [v2], a, b)
        assert abs(got - quad_match_probability_1d(m1, v1, m2, v2, a, b)) <= HIB_MATCH_ABSOLUTE
    # Isotropic variances in D = 3: var1 + var2 = 0.3 on every axis.
    mu1, mu2 = [0.1, -0.2, 0.4], [0.0, 0.3, 0.1]
    got = hib.exact.match_probability(mu1, [0.1] * 3, mu2, [0.2] * 3, 2.0, 1.0)
    assert abs(got - quad_match_probability_isotropic(mu1, mu2, 0.3, 2.0, 1.0)) <= HIB_MATCH_ABSOLUTE
    # Mixtures (rows are equally weighted components): the mean over component pairs.
    mu1, var1, mu2, var2 = [[0.0], [1.0]], [[0.2], [0.1]], [[0.5], [-0.4]], [[0.3], [0.05]]
    want = np.mean([quad_match_probability_1d(mu1[i][0], var1[i][0], mu2[j][0], var2[j][0], 1.5, 0.5) for i in range(2) for j in range(2)])
    assert abs(hib.exact.match_probability(mu1, var1, mu2, var2, 1.5, 0.5) - want) <= HIB_MATCH_ABSOLUTE
    # Pinned in the Rust docs (mpmath, scripts/reference/hib_values.py).
    assert hib.exact.match_probability([0.0], [0.5], [0.0], [0.5], 1.0, 0.0) == pytest.approx(0.32514317473302410, abs=1e-12)


def test_monte_carlo_and_moment_matching_approach_the_quadrature():
    mu1, var1, mu2, var2 = [0.1, -0.2, 0.4], [0.1, 0.1, 0.1], [0.0, 0.3, 0.1], [0.2, 0.2, 0.2]
    reference = quad_match_probability_isotropic(mu1, mu2, 0.3, 2.0, 1.0)
    # One estimate at 400 samples per component spreads by about 0.007 (its draws are shared by
    # the 400² pairs, so the spread goes as 1/√400, not 1/400): a single one is no test of the
    # mean. Twenty seeds' mean lies within four of its standard errors (≈ 0.0015) of the
    # reference when the estimator is unbiased; a bias of 0.01 fails.
    mc = np.array([hib.match_probability(mu1, var1, mu2, var2, 2.0, 1.0, n_samples=400, seed=s) for s in range(20)])
    spread = mc.std(ddof=1)
    assert 0.0 < spread < 0.02
    assert abs(mc.mean() - reference) < 4 * spread / np.sqrt(len(mc))
    assert hib.match_probability(mu1, var1, mu2, var2, 2.0, 1.0, n_samples=8, seed=3) == hib.match_probability(
        mu1, var1, mu2, var2, 2.0, 1.0, n_samples=8, seed=3
    )
    assert hib.match_probability_moment_matched(mu1, var1, mu2, var2, 2.0, 1.0) == pytest.approx(reference, abs=2e-3)


def test_self_mismatch_of_a_point_mass():
    # η = 1 − sigmoid(b) for a deterministic embedding (Rust docs: 0.18242552380635635 at b = 1.5).
    eta = hib.self_mismatch([0.3, 0.1], [0.0, 0.0], 2.0, 1.5, n_samples=8, seed=0)
    assert eta == pytest.approx(1 - expit(1.5), abs=1e-15)
    assert hib.exact.self_mismatch([0.3, 0.1], [0.0, 0.0], 2.0, 1.5) == pytest.approx(1 - expit(1.5), abs=1e-15)


def test_self_mismatch_of_a_gaussian_against_quadrature():
    # Two independent draws of N(μ, 0.15 I): their difference is N(0, 0.3 I), whatever μ.
    mu, var = [0.3, -0.1, 0.7], [0.15] * 3
    reference = 1.0 - quad_match_probability_isotropic([0.0] * 3, [0.0] * 3, 0.3, 2.0, 1.0)
    assert abs(hib.exact.self_mismatch(mu, var, 2.0, 1.0) - reference) <= HIB_MATCH_ABSOLUTE
    mc = np.array([hib.self_mismatch(mu, var, 2.0, 1.0, n_samples=400, seed=s) for s in range(20)])
    assert abs(mc.mean() - reference) < 4 * mc.std(ddof=1) / np.sqrt(len(mc))


@pytest.mark.parametrize("twin", TWINS)
def test_kl_to_standard_normal_closed_form_in_mpmath(twin):
    mean, var = [0.5, -1.0, 1e-3], [0.2, 2.0, 1.0 + 1e-9]
    with mpmath.workdps(40):
        want = float(mpmath.fsum(mpmath.mpf(v) + mpmath.mpf(m) ** 2 - 1 - mpmath.log(mpmath.mpf(v)) for m, v in zip(mean, var)) / 2)
    check("hib::kl_to_standard_normal", TWINS[twin].kl_to_standard_normal(mean, var), want)


def mp_vib_loss(mu1, log_var1, mu2, log_var2, a, b, noise1, noise2, is_match, beta):
    """HIB eq. (8) as crates/probdml/src/hib/vib.rs defines it: −ln of the K₁K₂-pair mean of
    sigmoid(±(−a‖z₁ − z₂‖ + b)) on z = μ + σ ⊙ ε, plus β(KL₁ + KL₂), in mpmath."""
    sign = 1 if is_match else -1

    def draws(mu, log_var, noise):
        return [[m + mpmath.exp(lv / 2) * e for m, lv, e in zip(mu, log_var, row)] for row in noise]

    z1, z2 = draws(mu1, log_var1, noise1), draws(mu2, log_var2, noise2)
    terms = [1 / (1 + mpmath.exp(-sign * (-a * mpmath.sqrt(mpmath.fsum((p - q) ** 2 for p, q in zip(r1, r2))) + b))) for r1 in z1 for r2 in z2]
    nll = -mpmath.log(mpmath.fsum(terms) / len(terms))

    def kl(mu, log_var):
        return mpmath.fsum(mpmath.exp(lv) + m**2 - 1 - lv for m, lv in zip(mu, log_var)) / 2

    return nll + beta * (kl(mu1, log_var1) + kl(mu2, log_var2)), nll, kl(mu1, log_var1) + kl(mu2, log_var2)


@pytest.mark.parametrize("is_match", [True, False])
@pytest.mark.parametrize("twin", TWINS)
def test_vib_loss_and_gradients_of_both_twins_against_mpmath(twin, is_match):
    rng = np.random.default_rng(0)
    dim, beta, a, b = 3, 1e-2, 2.0, 1.0
    mu1, mu2 = rng.normal(size=dim), rng.normal(size=dim)
    var1, var2 = rng.uniform(0.1, 1, dim), rng.uniform(0.1, 1, dim)
    noise1, noise2 = rng.normal(size=(4, dim)), rng.normal(size=(3, dim))
    out = TWINS[twin].vib_loss(mu1, var1, mu2, var2, noise1, noise2, is_match=is_match, a=a, b=b, beta=beta)
    noise1, noise2 = noise1.tolist(), noise2.tolist()
    with mpmath.workdps(40):
        point = [mpmath.mpf(float(v)) for v in (*mu1, *np.log(var1), *mu2, *np.log(var2), a, b)]

        def loss(*p):
            return mp_vib_loss(p[0:dim], p[dim : 2 * dim], p[2 * dim : 3 * dim], p[3 * dim : 4 * dim], p[-2], p[-1],
                               noise1, noise2, is_match, beta)[0]

        want_loss, want_nll, want_kl = (float(v) for v in mp_vib_loss(*[point[i * dim : (i + 1) * dim] for i in range(4)], point[-2], point[-1],
                                                                           noise1, noise2, is_match, beta))
        grad = []
        for i in range(len(point)):
            order = [0] * len(point)
            order[i] = 1
            grad.append(float(mpmath.diff(loss, point, tuple(order))))
    check("hib::vib_loss", [out.loss, out.nll, out.kl], [want_loss, want_nll, want_kl], case=f"({twin}) values")
    got = np.r_[out.grad_mu1, out.grad_log_var1, out.grad_mu2, out.grad_log_var2, out.grad_a, out.grad_b]
    check("hib::vib_loss", got, grad, case=f"({twin}) gradient")


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="var2"):
        hib.match_probability([0.0], [0.1], [0.0], [-0.1], 1.0, 0.0, n_samples=8, seed=0)
    with pytest.raises(ValueError, match="var2"):
        hib.match_probability([0.0], [0.1], [0.0], [-0.1], 1.0, 0.0)
    with pytest.raises(ValueError, match="n_samples"):
        hib.match_probability([0.0], [0.1], [0.0], [0.1], 1.0, 0.0, n_samples=0, seed=0)


def test_default_route_is_the_exact_value():
    # Without `n_samples` the match probability and η are the quadrature's, not an 8-draw
    # estimate whose seed comes from the OS (one such call gave 0.0617 against 0.0894).
    mu1, mu2 = [0.1, -0.2, 0.4], [0.0, 0.3, 0.1]
    want = quad_match_probability_isotropic(mu1, mu2, 0.3, 2.0, 1.0)
    got = [hib.match_probability(mu1, [0.1] * 3, mu2, [0.2] * 3, 2.0, 1.0) for _ in range(3)]
    assert all(abs(g - want) <= HIB_MATCH_ABSOLUTE for g in got)
    eta = 1.0 - quad_match_probability_isotropic([0.0] * 3, [0.0] * 3, 0.3, 2.0, 1.0)
    assert abs(hib.self_mismatch([0.0] * 3, [0.15] * 3, 2.0, 1.0) - eta) <= HIB_MATCH_ABSOLUTE


def test_monte_carlo_is_asked_for_by_keyword():
    args = ([0.1], [0.2], [0.0], [0.3], 2.0, 1.0)
    with pytest.raises(TypeError):
        hib.match_probability(*args, 8, 0)  # the 0.1.0 positional (n_samples, seed)
    with pytest.raises(ValueError, match="`seed`.*`n_samples`"):
        hib.match_probability(*args, seed=0)
    # A numpy Generator seeds the estimate as scipy's `random_state` does: a seed drawn from it.
    seed = int(np.random.default_rng(5).integers(0, 2**64, dtype=np.uint64))
    drawn = hib.match_probability(*args, n_samples=8, seed=np.random.default_rng(5))
    assert drawn == hib.match_probability(*args, n_samples=8, seed=seed)
