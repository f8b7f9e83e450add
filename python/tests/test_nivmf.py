"""probdml.nivmf, both twins: vMF KL and product kernels against their closed forms in mpmath;
the nivMF density against its formula in mpmath and its normalisation by quadrature on S²;
ProxyNCA++ against numpy and mpmath evaluations of the loss, finite and mpmath derivatives."""

import mpmath
import numpy as np
import pytest
from scipy.special import logsumexp, roots_legendre

from budgets import CONSTANTS, check, within_scale
from probdml import nivmf

TWINS = {"fast": nivmf, "exact": nivmf.exact}


def unit(v):
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


def mp_log_c(dim, kappa):
    """ln C_M(κ) (LAM App. C)."""
    nu, k = mpmath.mpf(dim) / 2 - 1, mpmath.mpf(kappa)
    return nu * mpmath.log(k) - mpmath.mpf(dim) / 2 * mpmath.log(2 * mpmath.pi) - mpmath.log(mpmath.besseli(nu, k))


def mp_a(dim, kappa):
    nu, k = mpmath.mpf(dim) / 2 - 1, mpmath.mpf(kappa)
    return mpmath.besseli(nu + 1, k) / mpmath.besseli(nu, k)


def mp_norm(v):
    return mpmath.sqrt(mpmath.fsum(mpmath.mpf(x) ** 2 for x in v))


def mp_dot(u, v):
    return mpmath.fsum(mpmath.mpf(a) * mpmath.mpf(b) for a, b in zip(u, v))


def mp_kl_vmf(mu_z, kappa_z, mu_p, kappa_p):
    """KL(vMF(μ_z, κ_z) ‖ vMF(μ_p, κ_p)) = ln C(κ_z) − ln C(κ_p) + A(κ_z)(κ_z − κ_p μ_pᵀμ_z)."""
    m = len(mu_z)
    return mp_log_c(m, kappa_z) - mp_log_c(m, kappa_p) + mp_a(m, kappa_z) * (kappa_z - kappa_p * mp_dot(mu_p, mu_z))


def mp_log_ppk(nu_z, nu_p, gamma):
    """ln ∫ f_z^γ f_p^γ = γ(ln C(κ_z) + ln C(κ_p)) − ln C(γ‖ν_z + ν_p‖) (nivMF Supp. D)."""
    m = len(nu_z)
    joint = mp_norm([gamma * (a + b) for a, b in zip(nu_z, nu_p)])
    return gamma * (mp_log_c(m, mp_norm(nu_z)) + mp_log_c(m, mp_norm(nu_p))) - mp_log_c(m, joint)


def mp_nivmf_log_density(x, mu, kappas, heuristic=False):
    """ln f(x) = ln C_M(κ̃) + ln det K − M ln‖Kx‖ + κ̃ s(Kx, Kμ), κ̃ = ‖Kμ‖ (book chapter 06), or
    the paper's heuristic with ln det K − ln κ̃ in place of the Jacobian (nivMF eq. (4)); with the
    registry's magnitude max(1, |ln C_M(κ̃)| + |κ̃ s| + |ln Jacobian|)."""
    m = len(mu)
    kx = [mpmath.mpf(float(k)) * mpmath.mpf(float(v)) for k, v in zip(kappas, x)]
    kmu = [mpmath.mpf(float(k)) * mpmath.mpf(float(v)) for k, v in zip(kappas, mu)]
    kappa_t = mp_norm(kmu)
    s = mp_dot(kx, kmu) / (mp_norm(kx) * kappa_t)
    log_det = mpmath.fsum(mpmath.log(mpmath.mpf(float(k))) for k in kappas)
    jacobian = log_det - (mpmath.log(kappa_t) if heuristic else m * mpmath.log(mp_norm(kx)))
    value = mp_log_c(m, kappa_t) + jacobian + kappa_t * s
    return float(value), float(max(1, abs(mp_log_c(m, kappa_t)) + abs(kappa_t * s) + abs(jacobian)))


@pytest.mark.parametrize("twin", TWINS)
def test_kl_vmf_is_the_closed_form(twin):
    with mpmath.workdps(40):
        for mu_z, kz, mu_p, kp in [
            (unit([1, 2, 0.5, -1]), 7.0, unit([0.3, -1, 2, 0]), 3.0),
            (unit([1, 0, 0]), 50.0, unit([1, 0.01, 0]), 50.0 + 1e-6),  # κ_z ≈ κ_p: the terms cancel
            (unit(np.arange(1.0, 65.0)), 200.0, unit(np.ones(64)), 20.0),
        ]:
            want = float(mp_kl_vmf(mu_z, kz, mu_p, kp))
            check("nivmf::kl_vmf", TWINS[twin].kl_vmf(mu_z, kz, mu_p, kp), want, case=f"({twin}) M = {len(mu_z)}")


@pytest.mark.parametrize("twin", TWINS)
def test_log_ppk_is_the_closed_form(twin):
    with mpmath.workdps(40):
        for nu_z, nu_p in [(np.array([3.0, 0.0, 1.0]), np.array([-1.0, 2.0, 0.5])), (np.full(16, 2.0), np.linspace(-3, 3, 16))]:
            for gamma in (0.5, 1.0):
                want = float(mp_log_ppk(nu_z, nu_p, gamma))
                check("nivmf::log_ppk", TWINS[twin].log_ppk_vmf(nu_z, nu_p, gamma), want, case=f"({twin}) γ = {gamma}")
            if twin == "fast":
                check("nivmf::log_ppk", nivmf.bhattacharyya_distance(nu_z, nu_p), -float(mp_log_ppk(nu_z, nu_p, 0.5)))
                check("nivmf::log_ppk", nivmf.expected_likelihood_distance(nu_z, nu_p), -float(mp_log_ppk(nu_z, nu_p, 1.0)))


@pytest.mark.parametrize("twin", TWINS)
def test_nivmf_log_densities_are_their_formulas(twin):
    f = TWINS[twin]
    mu, kappas = unit([1, 1, 1]), np.array([2.0, 5.0, 9.0])
    xs = np.array([unit([0.2, 1, -0.3]), unit([1, 0, 0]), mu, unit([-1, -1, 0.5])])
    with mpmath.workdps(40):
        for name, heuristic in (("log_density", False), ("log_density_heuristic", True)):
            got = getattr(f, name)(xs, mu, kappas)
            assert got.shape == (4,) and getattr(f, name)(xs[0], mu, kappas) == got[0]
            for x, g in zip(xs, got):
                want, magnitude = mp_nivmf_log_density(x, mu, kappas, heuristic)
                check(f"nivmf::{name}", g, want, magnitude=magnitude, case=f"({twin}) x = {x}")
    # K = cI is vMF(μ, c).
    want, magnitude = mp_nivmf_log_density(xs[0], mu, [4.0] * 3)
    with mpmath.workdps(40):
        vmf_value = float(mp_log_c(3, 4.0) + 4.0 * mp_dot(xs[0], mu))
    assert abs(want - vmf_value) <= 1e-15 * magnitude
    if twin == "fast":
        for x, g in zip(xs, nivmf.NonIsotropicVmf(mu, kappas).logpdf(xs)):
            check("nivmf::log_density", g, mp_nivmf_log_density(x, mu, kappas)[0], magnitude=mp_nivmf_log_density(x, mu, kappas)[1])


def sphere_grid(n_t=160, n_phi=320):
    """Points and weights of a product rule on S²: Gauss–Legendre in t = cos θ, the trapezoid
    rule (spectrally accurate for periodic integrands) in φ."""
    t, wt = roots_legendre(n_t)
    phi = np.arange(n_phi) * 2 * np.pi / n_phi
    r = np.sqrt(1 - t**2)
    x = np.stack([np.outer(r, np.cos(phi)), np.outer(r, np.sin(phi)), np.outer(t, np.ones(n_phi))], axis=-1).reshape(-1, 3)
    w = np.outer(wt, np.full(n_phi, 2 * np.pi / n_phi)).reshape(-1)
    return x, w


def test_nivmf_density_integrates_to_one_on_the_sphere():
    # The fast twin on a product grid of 51 200 points (the exact twin, pinned to the formula
    # pointwise above, takes milliseconds a point). The paper's heuristic is not normalised: its
    # mass is E_f[‖Kx‖^M]/κ̃ (27.75… here, chapter 06).
    x, w = sphere_grid()
    mu, kappas = unit([1, 1, 1]), np.array([2.0, 5.0, 9.0])
    density = np.exp(nivmf.log_density(x, mu, kappas))
    assert abs(w @ density - 1.0) <= CONSTANTS["QUADRATURE"]
    heuristic_mass = w @ np.exp(nivmf.log_density_heuristic(x, mu, kappas))
    kx_norm = np.linalg.norm(x * kappas, axis=1)
    assert heuristic_mass == pytest.approx(w @ (density * kx_norm**3) / np.linalg.norm(kappas * mu), rel=1e-12)
    assert 27.7 < heuristic_mass < 27.8


def test_samples_follow_the_density():
    # E[g(x)] under the sampler against the quadrature of g·f, for g = x and g = x xᵀ: 20 000
    # draws, within six standard errors (budget::MONTE_CARLO_SIGMAS).
    mu, kappas = unit([1, 1, 1]), np.array([2.0, 5.0, 9.0])
    d = nivmf.NonIsotropicVmf(mu, kappas)
    draws = d.rvs(20000, seed=4)
    assert np.allclose(np.linalg.norm(draws, axis=1), 1.0, atol=1e-14)
    x, w = sphere_grid()
    density = w * np.exp(nivmf.log_density(x, mu, kappas))
    for g in (lambda v: v, lambda v: np.einsum("ni,nj->nij", v, v).reshape(len(v), -1)):
        stat = g(draws)
        want = density @ g(x)
        se = stat.std(axis=0, ddof=1) / np.sqrt(len(stat))
        assert np.all(np.abs(stat.mean(axis=0) - want) <= CONSTANTS["MONTE_CARLO_SIGMAS"] * se + 1e-12)


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
    check("nivmf::proxy_nca_loss", ref.loss, numpy_proxy_nca_cosine(emb, labels, proxies, 0.3))


def mp_distance(distance, z, p, conc):
    """d(ρ, ζ) of crates/probdml/src/nivmf/proxy_nca.rs for embedding z and proxy p (natural parameters ν = κμ)."""
    kz, kp = mp_norm(z), mp_norm(p)
    mu_z, mu_p = [mpmath.mpf(v) / kz for v in z], [mpmath.mpf(v) / kp for v in p]
    if distance == "kl_vmf":
        return mp_kl_vmf(mu_z, kz, mu_p, kp)
    if distance == "el_vmf":
        return -mp_log_ppk(z, p, 1.0)
    if distance == "b_vmf":
        return -mp_log_ppk(z, p, 0.5)
    if distance == "l2":
        return mpmath.fsum((mpmath.mpf(a) - mpmath.mpf(b)) ** 2 for a, b in zip(p, z))
    assert distance == "nivmf"
    return -mpmath.mpf(mp_nivmf_log_density([float(v) for v in mu_z], [float(v) for v in mu_p], conc)[0])


def mp_proxy_nca(distance, emb, labels, proxies, t, concentrations=None):
    """(L, d) with L = (1/B) Σ_b [d_{b c*_b}/t + ln Σ_c e^{−d_bc/t}] (nivMF eqs. (1), (2), (6))."""
    d = [[mp_distance(distance, z, p, None if concentrations is None else concentrations[c]) for c, p in enumerate(proxies)] for z in emb]
    loss = mpmath.fsum(row[labels[b]] / t + mpmath.log(mpmath.fsum(mpmath.exp(-x / t) for x in row)) for b, row in enumerate(d)) / len(emb)
    return loss, d


@pytest.mark.parametrize("distance", ["kl_vmf", "el_vmf", "b_vmf", "l2", "nivmf"])
@pytest.mark.parametrize("twin", TWINS)
def test_proxy_nca_loss_and_distances_against_mpmath(twin, distance):
    rng = np.random.default_rng(7)
    emb, proxies = 3 * rng.normal(size=(3, 3)), 4 * rng.normal(size=(4, 3))
    labels = np.array([0, 3, 1])
    conc = rng.uniform(1, 6, size=(4, 3)) if distance == "nivmf" else None
    out = TWINS[twin].proxy_nca_loss(emb, labels, proxies, temperature=0.7, distance=distance, concentrations=conc)
    with mpmath.workdps(30):
        loss, d = mp_proxy_nca(distance, emb, labels, proxies, 0.7, conc)
        check("nivmf::proxy_nca_loss", out.loss, float(loss), case=f"({twin}, {distance}) loss")
        check("nivmf::proxy_nca_loss", out.distances, [[float(x) for x in row] for row in d], case=f"({twin}, {distance}) distances")
        if distance in ("kl_vmf", "el_vmf"):
            # Gradients: the fast twin's analytic ones within budget::NIVMF_PROXY_GRADIENT, the
            # exact twin's 4th-order differences within budget::NIVMF_PROXY_FD, of the largest entry.
            point = [mpmath.mpf(float(v)) for v in (*emb.ravel(), *proxies.ravel())]

            def loss_of(*values):
                e = [values[3 * i : 3 * i + 3] for i in range(3)]
                p = [values[9 + 3 * i : 12 + 3 * i] for i in range(4)]
                return mp_proxy_nca(distance, e, labels, p, 0.7)[0]

            want = np.array([float(mpmath.diff(loss_of, point, tuple(int(i == j) for j in range(len(point))))) for i in range(len(point))])
    if distance in ("kl_vmf", "el_vmf"):
        tol = CONSTANTS["NIVMF_PROXY_GRADIENT"] if twin == "fast" else CONSTANTS["NIVMF_PROXY_FD"]
        got = np.r_[out.grad_embeddings.ravel(), out.grad_proxies.ravel()]
        assert within_scale(got, want, tol), f"({twin}, {distance}) gradient: {got} against {want}"


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
