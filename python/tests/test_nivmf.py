"""probdml.nivmf: vMF KL and product kernels against their closed forms in scipy's ive;
ProxyNCA++ against a numpy reimplementation and finite differences."""

import numpy as np
import pytest
import scipy.special as sc
from scipy.special import logsumexp

from budgets import NIVMF_PROXY_FD, within_scale
from probdml import nivmf, vmf


def log_c(dim, kappa):
    nu = dim / 2 - 1
    return nu * np.log(kappa) - dim / 2 * np.log(2 * np.pi) - (np.log(sc.ive(nu, kappa)) + kappa)


def a_m(dim, kappa):
    return sc.ive(dim / 2, kappa) / sc.ive(dim / 2 - 1, kappa)


def unit(v):
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


def test_kl_vmf_is_the_closed_form():
    mu_z, mu_p = unit([1, 2, 0.5, -1]), unit([0.3, -1, 2, 0])
    kz, kp, m = 7.0, 3.0, 4
    ref = log_c(m, kz) - log_c(m, kp) + a_m(m, kz) * (kz - kp * mu_p @ mu_z)
    assert nivmf.kl_vmf(mu_z, kz, mu_p, kp) == pytest.approx(ref, rel=1e-12)
    assert nivmf.exact.kl_vmf(mu_z, kz, mu_p, kp) == pytest.approx(ref, rel=1e-12)


def test_log_ppk_is_the_closed_form():
    nu_z, nu_p = np.array([3.0, 0.0, 1.0]), np.array([-1.0, 2.0, 0.5])
    kz, kp = np.linalg.norm(nu_z), np.linalg.norm(nu_p)
    for gamma in (0.5, 1.0):
        # ∫ f_z^γ f_p^γ = C(κ_z)^γ C(κ_p)^γ / C(‖γ(ν_z + ν_p)‖)
        ref = gamma * (log_c(3, kz) + log_c(3, kp)) - log_c(3, np.linalg.norm(gamma * (nu_z + nu_p)))
        assert nivmf.log_ppk_vmf(nu_z, nu_p, gamma) == pytest.approx(ref, rel=1e-12)
        assert nivmf.exact.log_ppk_vmf(nu_z, nu_p, gamma) == pytest.approx(ref, rel=1e-12)
    assert nivmf.bhattacharyya_distance(nu_z, nu_p) == pytest.approx(-nivmf.log_ppk_vmf(nu_z, nu_p, 0.5), rel=1e-14)
    assert nivmf.expected_likelihood_distance(nu_z, nu_p) == pytest.approx(-nivmf.log_ppk_vmf(nu_z, nu_p, 1.0), rel=1e-14)


def test_nivmf_with_equal_concentrations_is_the_vmf():
    mu, x = unit([1, 1, 0]), unit([0.2, 1, -0.3])
    got = nivmf.log_density(x, mu, [4.0, 4.0, 4.0])
    assert got == pytest.approx(vmf.log_density(x, mu, 4.0), rel=1e-12)
    assert nivmf.exact.log_density(x, mu, [4.0, 4.0, 4.0]) == pytest.approx(got, rel=1e-12)
    d = nivmf.NonIsotropicVmf(mu, [2.0, 5.0, 9.0])
    draws = d.rvs(100, seed=1)
    assert draws.shape == (100, 3) and np.array_equal(draws, d.rvs(100, seed=1))
    assert np.isfinite(d.logpdf(draws)).all()


def numpy_proxy_nca_cosine(emb, labels, proxies, t):
    e = emb / np.linalg.norm(emb, axis=1, keepdims=True)
    p = proxies / np.linalg.norm(proxies, axis=1, keepdims=True)
    logits = (e @ p.T) / t  # −d/t with d = −cos
    return np.mean(logsumexp(logits, axis=1) - logits[np.arange(len(labels)), labels])


def test_proxy_nca_cosine_matches_numpy_and_finite_differences():
    rng = np.random.default_rng(3)
    emb, proxies, labels = rng.normal(size=(5, 4)), rng.normal(size=(3, 4)), np.array([0, 2, 1, 1, 0])
    out = nivmf.proxy_nca_loss(emb, labels, proxies, temperature=0.3, distance="cosine")
    assert out.loss == pytest.approx(numpy_proxy_nca_cosine(emb, labels, proxies, 0.3), rel=1e-13)
    assert out.distances.shape == (5, 3) and out.grad_embeddings.shape == (5, 4) and out.grad_proxies.shape == (3, 4)
    h = 1e-6
    for which, grad in ((emb, out.grad_embeddings), (proxies, out.grad_proxies)):
        for idx in [(0, 0), (1, 3), (2, 1)]:
            saved = which[idx]
            which[idx] = saved + h
            up = numpy_proxy_nca_cosine(emb, labels, proxies, 0.3)
            which[idx] = saved - h
            down = numpy_proxy_nca_cosine(emb, labels, proxies, 0.3)
            which[idx] = saved
            assert grad[idx] == pytest.approx((up - down) / (2 * h), rel=1e-6, abs=1e-9)
    ref = nivmf.exact.proxy_nca_loss(emb, labels, proxies, temperature=0.3, distance="cosine")
    assert ref.loss == pytest.approx(out.loss, rel=1e-13)
    assert within_scale(out.grad_embeddings, ref.grad_embeddings, NIVMF_PROXY_FD)
    assert within_scale(out.grad_proxies, ref.grad_proxies, NIVMF_PROXY_FD)


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="labels"):
        nivmf.proxy_nca_loss(np.ones((2, 3)), [0, 7], np.ones((3, 3)))
    with pytest.raises(ValueError, match="labels"):
        nivmf.proxy_nca_loss(np.ones((2, 3)), [0, -1], np.ones((3, 3)))
    with pytest.raises(ValueError, match="distance"):
        nivmf.proxy_nca_loss(np.ones((2, 3)), [0, 1], np.ones((3, 3)), distance="euclid")
    with pytest.raises(ValueError, match="temperature"):
        nivmf.proxy_nca_loss(np.ones((2, 3)), [0, 1], np.ones((3, 3)), temperature=0.0)
    with pytest.raises(ValueError, match="kappas"):
        nivmf.NonIsotropicVmf([1.0, 0.0], [1.0, -2.0])
