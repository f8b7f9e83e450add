"""probdml.vmf against scipy (log ive, scipy.stats.vonmises_fisher) and mpmath where scipy fails."""

import mpmath
import numpy as np
import pytest
import scipy.special as sc
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.stats import vonmises_fisher

from probdml import vmf

mpmath.mp.dps = 40


def scipy_log_norm_const(dim, kappa):
    nu = dim / 2 - 1
    return nu * np.log(kappa) - dim / 2 * np.log(2 * np.pi) - (np.log(sc.ive(nu, kappa)) + kappa)


def mp_log_norm_const(dim, kappa):
    nu = mpmath.mpf(dim) / 2 - 1
    k = mpmath.mpf(kappa)
    return float(nu * mpmath.log(k) - mpmath.mpf(dim) / 2 * mpmath.log(2 * mpmath.pi) - mpmath.log(mpmath.besseli(nu, k)))


@given(st.integers(2, 512), st.floats(1e-2, 1e4))
def test_log_norm_const_matches_scipy_where_ive_is_normal(dim, kappa):
    assume(1e-300 < sc.ive(dim / 2 - 1, kappa))
    assert vmf.log_norm_const(dim, kappa) == pytest.approx(scipy_log_norm_const(dim, kappa), rel=1e-11, abs=1e-11)


def test_log_norm_const_where_scipy_fails_matches_mpmath():
    """scipy's ive underflows for these (M, κ), so log C_M is +∞ there; mpmath (40 digits)
    is the reference: (M, κ) = (1024, 1), (2048, 10), (4096, 50), (8192, 0.1)."""
    for dim, kappa in [(1024, 1.0), (2048, 10.0), (4096, 50.0), (8192, 0.1)]:
        assert not np.isfinite(scipy_log_norm_const(dim, kappa))
        assert vmf.log_norm_const(dim, kappa) == pytest.approx(mp_log_norm_const(dim, kappa), rel=1e-14)
        assert vmf.exact.log_norm_const(dim, kappa) == pytest.approx(mp_log_norm_const(dim, kappa), rel=1e-15)


def test_kernels_broadcast_and_give_nan_outside_the_domain():
    out = vmf.log_norm_const(np.array([[3], [128], [1], [-4]]), np.array([0.5, 10.0, -1.0]))
    assert out.shape == (4, 3)
    assert np.isnan(out[2:]).all() and np.isnan(out[:, 2]).all()
    assert np.isfinite(out[:2, :2]).all()
    assert np.isnan(vmf.kl_to_uniform(64, -1.0))


@given(
    st.lists(
        st.tuples(
            st.sampled_from([-4, 0, 1, 2, 3, 5, 41, 42, 128, 700, 10**6]),
            st.one_of(st.floats(0.0, 1e4), st.sampled_from([-1.0, np.nan, np.inf, 0.0])),
        ),
        min_size=1,
        max_size=60,
    )
)
def test_log_norm_const_of_mixed_dimensions_is_each_elements_value(pairs):
    # One call over many dimensions groups the pairs by dimension for the batch kernel and
    # scatters the values back: each must be the value of its own (M, κ), NaN where it is outside
    # the domain, wherever it sits among the others.
    dims = np.array([d for d, _ in pairs])
    kappas = np.array([k for _, k in pairs])
    together = vmf.log_norm_const(dims, kappas)
    alone = np.array([vmf.log_norm_const(int(d), float(k)) for d, k in pairs])
    assert np.array_equal(together, alone, equal_nan=True)
    assert np.array_equal(np.isnan(together), (dims < 2) | ~(kappas >= 0))


def test_log_norm_const_groups_dense_and_sparse_dimensions():
    # The grouping takes a counting sort when the dimensions are dense (max ≤ 4n) and a sort
    # otherwise; both must put every value back in its place, NaN outside the domain.
    rng = np.random.default_rng(5)
    for dims in (rng.integers(-2, 60, 5000), rng.choice([2, 3, 10**6, 77, 10**5], 300)):
        kappas = 10 ** rng.uniform(-3, 4, len(dims))
        kappas[::97] = np.nan
        kappas[5::89] = -1.0
        together = vmf.log_norm_const(dims, kappas)
        alone = np.array([vmf.log_norm_const(int(d), float(k)) for d, k in zip(dims, kappas)])
        assert np.array_equal(together, alone, equal_nan=True)
        assert np.array_equal(np.isnan(together), (dims < 2) | ~(kappas >= 0))


@given(st.integers(2, 300), st.floats(1e-3, 1e3))
def test_kappa_mle_inverts_the_mean_resultant_length(dim, kappa):
    rbar = vmf.mean_resultant_length(dim, kappa)
    assume(1e-6 < rbar < 1 - 1e-9)
    assert vmf.kappa_mle(dim, rbar) == pytest.approx(kappa, rel=1e-6)


def test_mean_resultant_length_matches_scipy_ratio():
    dim, kappa = 64, np.array([0.5, 5.0, 50.0, 500.0])
    ref = sc.ive(dim / 2, kappa) / sc.ive(dim / 2 - 1, kappa)
    assert np.allclose(vmf.mean_resultant_length(dim, kappa), ref, rtol=1e-13)
    assert np.allclose(vmf.mean_resultant_length_complement(dim, kappa), 1 - ref, rtol=1e-9)


def test_distribution_matches_scipy_vonmises_fisher():
    mu = np.array([0.0, 0.6, 0.8])
    d = vmf.VonMisesFisher(mu, 4.0)
    ref = vonmises_fisher(mu, 4.0)
    x = vonmises_fisher(mu, 4.0).rvs(20, random_state=1)
    assert np.allclose(d.logpdf(x), ref.logpdf(x), rtol=1e-12)
    assert d.logpdf(x[0]) == pytest.approx(ref.logpdf(x[0]), rel=1e-12)
    assert d.entropy() == pytest.approx(ref.entropy(), rel=1e-12)
    assert d.kl_to_uniform() == pytest.approx(np.log(4 * np.pi) - ref.entropy(), rel=1e-12)


def test_rvs_is_seeded_and_on_the_sphere():
    d = vmf.VonMisesFisher(np.eye(16)[0], 30.0)
    a, b = d.rvs(500, seed=3), d.rvs(500, seed=3)
    assert a.shape == (500, 16) and np.array_equal(a, b)
    assert np.allclose(np.linalg.norm(a, axis=1), 1, atol=1e-14)
    assert not np.array_equal(a, d.rvs(500, seed=4))
    assert d.rvs(seed=1).shape == (16,)
    # E⟨x, μ⟩ = A_M(κ): 500 draws, standard error ≈ 0.005.
    assert a[:, 0].mean() == pytest.approx(vmf.mean_resultant_length(16, 30.0), abs=0.03)


def test_fit_recovers_kappa_where_scipy_fit_does_not():
    """128 draws of vMF(μ, κ = 50) in M = 128 (the peers table's case): scipy's
    vonmises_fisher.fit returns a κ̂ far from 50; probdml's A_M⁻¹(R̄) recovers it."""
    mu = np.eye(128)[5]
    x = vmf.VonMisesFisher(mu, 50.0).rvs(128, seed=11)
    fitted = vmf.VonMisesFisher.fit(x)
    assert fitted.kappa == pytest.approx(50.0, rel=0.2)
    assert fitted.mu @ mu > 0.8
    assert vmf.VonMisesFisher.fit(x, method="sra", newton_steps=4).kappa == pytest.approx(fitted.kappa, rel=1e-9)
    _, scipy_kappa = vonmises_fisher.fit(x)
    assert abs(scipy_kappa - 50.0) > 0.5 * 50.0


def test_checked_functions_name_the_argument():
    with pytest.raises(ValueError, match="rbar"):
        vmf.kappa_mle(128, 1.5)
    with pytest.raises(ValueError, match="dim"):
        vmf.kappa_mle(-3, 0.5)
    with pytest.raises(ValueError, match="mu"):
        vmf.VonMisesFisher([1.0, 1.0, 0.0], 1.0)
    with pytest.raises(ValueError, match="kappa"):
        vmf.VonMisesFisher([1.0, 0.0], -1.0)
    with pytest.raises(ValueError, match="x"):
        vmf.VonMisesFisher([1.0, 0.0], 1.0).logpdf(np.ones((2, 3)))


def test_exact_twins_agree():
    assert vmf.exact.kappa_mle(64, 0.7) == pytest.approx(vmf.kappa_mle(64, 0.7), rel=1e-13)
    assert vmf.exact.entropy(64, 20.0) == pytest.approx(vmf.entropy(64, 20.0), rel=1e-12)
    d = vmf.exact.VonMisesFisher([0.0, 0.0, 1.0], 5.0)
    x = d.rvs(200, seed=2)
    assert np.allclose(np.linalg.norm(x, axis=1), 1, atol=1e-14)
    assert d.logpdf(x[:3]) == pytest.approx(vmf.log_density(x[:3], [0.0, 0.0, 1.0], 5.0), rel=1e-13)
