"""A distribution owns its parameters: changing the caller's array after construction changes
nothing, and the arrays it hands out (``d.mu``, ``d.kappas``) cannot be written, nor made
writable, to change it. The expected log densities are the closed form κ μᵀx + ln C_M(κ) with
ln C_M(κ) from scipy, not the package."""

import numpy as np
import pytest
from scipy.special import ive

from probdml import nivmf, vmf

E1 = np.array([1.0, 0.0, 0.0, 0.0])


def scipy_log_norm_const(dim, kappa):
    nu = dim / 2 - 1
    return nu * np.log(kappa) - dim / 2 * np.log(2 * np.pi) - (np.log(ive(nu, kappa)) + kappa)


@pytest.mark.parametrize("cls", [vmf.VonMisesFisher, vmf.exact.VonMisesFisher])
def test_vmf_keeps_its_own_mu(cls):
    mu = E1.copy()
    d = cls(mu, 50.0)
    want = 50.0 + scipy_log_norm_const(4, 50.0)  # μᵀe₁ = 1
    assert abs(d.logpdf(E1) - want) < 1e-9
    mu[:] = [0.0, 1.0, 0.0, 0.0]
    assert np.array_equal(d.mu, E1)
    assert abs(d.logpdf(E1) - want) < 1e-9


@pytest.mark.parametrize("cls", [vmf.VonMisesFisher, vmf.exact.VonMisesFisher])
def test_vmf_mu_cannot_be_written(cls):
    d = cls(E1, 50.0)
    with pytest.raises(ValueError, match="read-only"):
        d.mu[:] = [0.0, 1.0, 0.0, 0.0]
    with pytest.raises(ValueError):
        d.mu.setflags(write=True)
    assert np.array_equal(d.mu, E1)


def test_nivmf_keeps_its_own_mu_and_kappas():
    mu, kappas = E1.copy(), np.array([1.0, 2.0, 3.0, 4.0])
    d = nivmf.NonIsotropicVmf(mu, kappas)
    x = np.array([0.6, 0.8, 0.0, 0.0])
    want = d.logpdf(x)
    mu[:] = [0.0, 1.0, 0.0, 0.0]
    kappas[:] = 100.0
    assert np.array_equal(d.mu, E1)
    assert np.array_equal(d.kappas, [1.0, 2.0, 3.0, 4.0])
    # The same density as a distribution built afresh from the original parameters.
    assert d.logpdf(x) == nivmf.NonIsotropicVmf(E1, [1.0, 2.0, 3.0, 4.0]).logpdf(x)
    assert d.logpdf(x) == want
    for a in (d.mu, d.kappas):
        with pytest.raises(ValueError, match="read-only"):
            a[0] = 5.0
        with pytest.raises(ValueError):
            a.setflags(write=True)
