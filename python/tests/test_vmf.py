"""probdml.vmf against scipy (log ive, scipy.stats.vonmises_fisher) and mpmath where scipy fails."""

import mpmath
import numpy as np
import pytest
import scipy.special as sc
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.stats import kstest, vonmises_fisher

import mpmath_reference
from budgets import CONSTANTS, check

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


def test_float32_normalised_embeddings_are_accepted_and_renormalised():
    """Rows normalised in float32 (as torch.nn.functional.normalize gives them) are within
    (M + 4)·2⁻²⁴ of the sphere: the density and the fit take them, with the values at the rows
    renormalised in float64 (scipy's, on those rows)."""
    rng = np.random.default_rng(5)
    dim, kappa = 128, 1e4
    mu64 = np.eye(dim)[3]
    x = vmf.VonMisesFisher(mu64, kappa).rvs(200, seed=2)
    x32 = x.astype(np.float32)
    x32 /= np.linalg.norm(x32, axis=1, keepdims=True)
    mu32 = (mu64 + 0.01 * rng.normal(size=dim)).astype(np.float32)
    mu32 /= np.linalg.norm(mu32)
    assert np.abs(np.linalg.norm(x32.astype(np.float64), axis=1) - 1).max() > 1e-9
    x_hat = x32.astype(np.float64) / np.linalg.norm(x32.astype(np.float64), axis=1, keepdims=True)
    mu_hat = mu32.astype(np.float64) / np.linalg.norm(mu32.astype(np.float64))
    got = vmf.VonMisesFisher(mu32.astype(np.float64), kappa).logpdf(x32.astype(np.float64))
    want = vonmises_fisher(mu_hat, kappa).logpdf(x_hat)
    assert np.allclose(got, want, rtol=1e-12, atol=1e-12 * kappa)
    fitted = vmf.VonMisesFisher.fit(x32.astype(np.float64))
    assert fitted.kappa == pytest.approx(vmf.VonMisesFisher.fit(x_hat).kappa, rel=1e-9)


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


# (M, κ) from the uniform limit to the concentrated one, small and large dimensions.
VMF_POINTS = [(2, 0.5), (3, 1e-3), (3, 4.0), (10, 20.0), (64, 20.0), (128, 50.0), (512, 50.0), (2048, 10.0), (5, 700.0), (3, 3e4)]
TWINS = {"fast": vmf, "exact": vmf.exact}


@pytest.mark.parametrize("twin", TWINS)
def test_kernels_of_both_twins_against_mpmath_within_the_registered_budgets(twin):
    f = TWINS[twin]
    dims, kappas = (np.array(c) for c in zip(*VMF_POINTS))
    for name, ref in [
        ("log_norm_const", mpmath_reference.log_norm_const),
        ("mean_resultant_length", mpmath_reference.mean_resultant_length),
        ("mean_resultant_length_complement", mpmath_reference.mean_resultant_length_complement),
    ]:
        got = getattr(f, name)(dims, kappas)
        for (dim, kappa), g in zip(VMF_POINTS, got):
            check(f"vmf::{name}", g, ref(dim, kappa), case=f"({twin}) at M = {dim}, κ = {kappa}")
    for dim, kappa in VMF_POINTS:
        h = mpmath_reference.entropy(dim, kappa)
        # The registry bounds the entropy relative to max(1, |H|) (its reason; the kind is Quadrature).
        check("vmf::entropy", f.entropy(dim, kappa), h, magnitude=max(1.0, abs(h)), case=f"({twin}) at M = {dim}, κ = {kappa}")
        check("vmf::kl_to_uniform", f.kl_to_uniform(dim, kappa), mpmath_reference.kl_to_uniform(dim, kappa), case=f"({twin}) at M = {dim}, κ = {kappa}")


def test_exact_normaliser_and_mean_resultant_length_are_correctly_rounded():
    """Like the special functions' exact twins (test_special.py), ln C_M(κ) and A_M(κ) of the
    exact twin are double-doubles within 10⁻²⁵ of mpmath (budget::EXACT_VS_TABLE), returned as
    their leading part: the mpmath value rounded to nearest."""
    dims, kappas = (np.array(c) for c in zip(*VMF_POINTS))
    assert list(vmf.exact.log_norm_const(dims, kappas)) == [mpmath_reference.log_norm_const(*p) for p in VMF_POINTS]
    assert list(vmf.exact.mean_resultant_length(dims, kappas)) == [mpmath_reference.mean_resultant_length(*p) for p in VMF_POINTS]
    for dim, kappa in VMF_POINTS[:6]:
        d = vmf.exact.VonMisesFisher(np.eye(dim)[0], kappa)
        assert d.log_norm_const() == mpmath_reference.log_norm_const(dim, kappa)
        assert d.mean_resultant_length() == mpmath_reference.mean_resultant_length(dim, kappa)


@pytest.mark.parametrize("twin", TWINS)
def test_kappa_estimators_of_both_twins_against_mpmath(twin):
    f = TWINS[twin]
    for dim, rbar in [(2, 0.05), (3, 0.3), (3, 0.9), (10, 0.5), (128, 0.2), (128, 0.97), (1000, 0.6), (64, 0.999)]:
        case = f"({twin}) at M = {dim}, R̄ = {rbar}"
        check("vmf::kappa_mle", f.kappa_mle(dim, rbar), mpmath_reference.kappa_mle(dim, rbar), case=case)
        for steps in (0, 1, 2):
            check("vmf::kappa_sra", f.kappa_sra(dim, rbar, newton_steps=steps), mpmath_reference.kappa_sra(dim, rbar, steps), case=f"{case}, {steps} steps")


def test_kappa_sra_of_an_array_is_the_per_value_call():
    """An array of R̄ with one dimension goes through the crate's batch kernel (lanes from M = 42
    on): the same bits as one call per value, on both sides of R̄ = ½; a bad element still
    raises under the argument's name."""
    rbars = np.concatenate([np.linspace(0.0, 0.999, 77), [0.5, np.nextafter(0.5, 1.0), 1 - 1e-12]])
    for dim in (10, 42, 512, 4096):
        for steps in (0, 2, 3):
            whole = vmf.kappa_sra(dim, rbars, newton_steps=steps)
            one_by_one = [vmf.kappa_sra(dim, float(r), newton_steps=steps) for r in rbars]
            assert whole.view(np.uint64).tolist() == np.array(one_by_one).view(np.uint64).tolist(), (dim, steps)
    with pytest.raises(ValueError, match="rbar"):
        vmf.kappa_sra(512, np.array([0.5, 1.0]))


@pytest.mark.parametrize("twin", TWINS)
def test_mean_resultant_log_density_and_the_class_of_both_twins_against_mpmath(twin):
    f = TWINS[twin]
    mu = np.array([0.48, -0.6, 0.64])
    x = vonmises_fisher(mu, 6.0).rvs(50, random_state=3)
    direction, rbar = f.mean_resultant(x)
    want_direction, want_rbar, cond = mpmath_reference.mean_resultant(x)
    check("vmf::mean_resultant", rbar, want_rbar, magnitude=cond * want_rbar)
    check("vmf::mean_resultant", direction, want_direction, magnitude=cond)
    d = f.VonMisesFisher(mu, 6.0)
    got = f.log_density(x[:5], mu, 6.0)
    for row, g, method in zip(x[:5], got, d.logpdf(x[:5])):
        want, magnitude = mpmath_reference.log_density(row, mu, 6.0)
        check("vmf::log_density", [g, method], [want, want], magnitude=magnitude, case=f"({twin})")
    want, magnitude = mpmath_reference.log_density(x[0], mu, 6.0)
    check("vmf::log_density", np.log(d.pdf(x[0])), want, magnitude=magnitude, case=f"({twin}) pdf")
    check("vmf::log_norm_const", d.log_norm_const(), mpmath_reference.log_norm_const(3, 6.0))
    check("vmf::mean_resultant_length", d.mean_resultant_length(), mpmath_reference.mean_resultant_length(3, 6.0))
    check("vmf::entropy", d.entropy(), mpmath_reference.entropy(3, 6.0), magnitude=max(1.0, abs(mpmath_reference.entropy(3, 6.0))))
    check("vmf::kl_to_uniform", d.kl_to_uniform(), mpmath_reference.kl_to_uniform(3, 6.0))
    fitted = f.VonMisesFisher.fit(x)
    assert type(fitted) is f.VonMisesFisher
    check("vmf::mean_resultant", fitted.mu, want_direction, magnitude=cond)
    check("vmf::kappa_mle", fitted.kappa, mpmath_reference.kappa_mle(3, want_rbar))
    check("vmf::kappa_sra", f.VonMisesFisher.fit(x, method="sra", newton_steps=1).kappa, mpmath_reference.kappa_sra(3, want_rbar, 1))


@pytest.mark.parametrize("twin", TWINS)
def test_samplers_of_both_twins_follow_the_cosine_law_on_the_sphere(twin):
    """On S² the cosine t = μᵀx of vMF(μ, κ) has the CDF F(t) = (e^{κt} − e^{−κ})/(e^{κ} − e^{−κ})
    (Wood 1994, eq. 2 at M = 3), and the direction orthogonal to μ is uniform on the circle.
    Kolmogorov–Smirnov tests at the registry's significance budget::SAMPLER_ALPHA = 10⁻⁶ (fixed
    seeds). Negative control: the same test on draws of κ = 5 instead of 4 at the same n = 4000,
    whose cosine CDF lies 0.082 from the tested one, against a critical distance of 0.043 at
    α = 10⁻⁶ (the sampling spread of the distance is about 0.01: power ≈ 1)."""
    alpha = CONSTANTS["SAMPLER_ALPHA"]
    kappa, n = 4.0, 4000
    mu = np.array([0.0, 0.6, 0.8])
    basis = np.array([[1.0, 0.0, 0.0], [0.0, 0.8, -0.6]])  # orthonormal, ⟂ μ

    def cosine_cdf(k):
        return lambda t: (np.exp(k * (t - 1.0)) - np.exp(-2.0 * k)) / (1.0 - np.exp(-2.0 * k))

    draws = TWINS[twin].VonMisesFisher(mu, kappa).rvs(n, seed=12)
    assert draws.shape == (n, 3)
    assert np.allclose(np.linalg.norm(draws, axis=1), 1.0, atol=CONSTANTS["UNIT_NORM"] * 4)
    t = draws @ mu
    assert kstest(t, cosine_cdf(kappa)).pvalue > alpha
    angle = np.arctan2(draws @ basis[1], draws @ basis[0])
    assert kstest(angle, "uniform", args=(-np.pi, 2 * np.pi)).pvalue > alpha
    off = TWINS[twin].VonMisesFisher(mu, 1.25 * kappa).rvs(n, seed=12) @ mu
    assert kstest(off, cosine_cdf(kappa)).pvalue < alpha
