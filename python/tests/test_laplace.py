"""probdml.laplace, both twins, against mpmath linear algebra at 40 digits on the matrices
actually passed (the exact twins take a dense precision or Hessian, the fast ones its diagonal),
within the registered budgets and magnitudes of src/registry.rs (proofs/laplace_*.rs)."""

import mpmath
import numpy as np
import pytest

from budgets import check
from probdml import laplace


def mp_output_variance(precision, dim, x):
    """tr(J Λ⁻¹ Jᵀ) with J = [I_M ⊗ xᵀ, I_M], the Jacobian of y = Wx + b in θ = (vec W, b)."""
    with mpmath.workdps(40):
        f = len(x)
        jac = mpmath.matrix(dim, dim * f + dim)
        for k in range(dim):
            for j in range(f):
                jac[k, k * f + j] = x[j]
            jac[k, dim * f + k] = 1
        cov = mpmath.inverse(mpmath.matrix(precision.tolist()))
        s = jac * cov * jac.T
        return float(mpmath.fsum(s[k, k] for k in range(dim)))


def mp_log_marginal_likelihood(log_likelihood, theta, hessian, delta):
    """ln p(D | θ*) − ½δ‖θ*‖² − ½ ln det(I + H/δ)."""
    with mpmath.workdps(40):
        n = len(theta)
        h = mpmath.matrix(np.asarray(hessian).tolist())
        det = mpmath.det(mpmath.eye(n) + h / delta)
        return float(log_likelihood - mpmath.mpf(delta) / 2 * mpmath.fsum(mpmath.mpf(t) ** 2 for t in theta) - mpmath.log(det) / 2)


def mp_optimal_prior_precision(theta, hessian):
    """The root δ* of δ‖θ*‖² = tr(H(H + δI)⁻¹) = Σ λ/(λ + δ) (MacKay's fixed point), solved in ln δ."""
    with mpmath.workdps(40):
        eig = mpmath.eigsy(mpmath.matrix(np.asarray(hessian).tolist()), eigvals_only=True)
        scatter = mpmath.fsum(mpmath.mpf(t) ** 2 for t in theta)
        t = mpmath.findroot(lambda t: mpmath.exp(t) * scatter - mpmath.fsum(lam / (lam + mpmath.exp(t)) for lam in eig), 0.0)
        return float(mpmath.exp(t))


def term_size(log_likelihood, theta, h, delta):
    """The registry's magnitude of the evidence (proofs/laplace_marginal_likelihood.rs):
    |ln p| + ½δ‖θ‖² + ½Σ ln(1 + h/δ) + 1, and 8n²·max h/δ for a rotated (dense) Hessian."""
    h = np.asarray(h)
    return abs(log_likelihood) + 0.5 * delta * theta @ theta + 0.5 * np.sum(np.log1p(h / delta)) + 1.0


def root_condition(theta, h, delta):
    """The registry's magnitude of ln δ*: (n + 8n²·max h/δ*)/(Σ q(1 − q) + δ*‖θ‖²), q = h/(h + δ*)."""
    n, q = len(h), h / (h + delta)
    return (n + 8 * n * n * h.max() / delta) / (np.sum(q * (1 - q)) + delta * theta @ theta)


def rotation(n, seed):
    q, _ = np.linalg.qr(np.random.default_rng(seed).normal(size=(n, n)))
    return q


def test_output_variance_of_both_twins_against_mpmath():
    rng = np.random.default_rng(1)
    m, f = 3, 4
    w_prec, b_prec, x = rng.uniform(0.5, 3, (m, f)), rng.uniform(0.5, 3, m), rng.normal(size=f)
    diagonal = np.diag(np.r_[w_prec.ravel(), b_prec])
    want = mp_output_variance(diagonal, m, x)
    check("laplace::output_variance", laplace.output_variance(w_prec, b_prec, x), want)
    check("laplace::output_variance", laplace.exact.output_variance(diagonal, m, x), want)
    # A dense precision: the forward error of a solve scales with the condition number of Λ.
    a = rng.normal(size=(m * f + m, m * f + m))
    prec = a @ a.T + np.eye(m * f + m)
    want = mp_output_variance(prec, m, x)
    check("laplace::output_variance", laplace.exact.output_variance(prec, m, x), want, magnitude=abs(want) * np.linalg.cond(prec))


@pytest.mark.parametrize("delta", [1e-3, 0.7, 50.0])
def test_evidence_of_both_twins_against_mpmath(delta):
    theta, h = np.array([0.5, -1.0, 2.0, 0.1]), np.array([3.0, 0.5, 10.0, 1e-4])
    want = mp_log_marginal_likelihood(-2.0, theta, np.diag(h), delta)
    check("laplace::log_marginal_likelihood", laplace.log_marginal_likelihood(-2.0, theta, h, delta), want, magnitude=term_size(-2.0, theta, h, delta))
    check("laplace::log_marginal_likelihood", laplace.exact.log_marginal_likelihood(-2.0, theta, np.diag(h), delta), want,
          magnitude=term_size(-2.0, theta, h, delta))
    q = rotation(4, 3)
    dense = q @ np.diag(h) @ q.T
    want = mp_log_marginal_likelihood(-2.0, theta, dense, delta)
    size = term_size(-2.0, theta, h, delta) + 8 * 16 * h.max() / delta
    check("laplace::log_marginal_likelihood", laplace.exact.log_marginal_likelihood(-2.0, theta, dense, delta), want, magnitude=size)


def test_optimal_prior_precision_of_both_twins_against_mpmath():
    theta, h = np.array([0.5, -1.0, 2.0, 0.1]), np.array([3.0, 0.5, 10.0, 1e-4])
    want = mp_optimal_prior_precision(theta, np.diag(h))
    condition = root_condition(theta, h, want)
    check("laplace::optimal_prior_precision", np.log(laplace.optimal_prior_precision(theta, h)), np.log(want), magnitude=condition)
    check("laplace::optimal_prior_precision", np.log(laplace.exact.optimal_prior_precision(theta, np.diag(h))), np.log(want), magnitude=condition)
    q = rotation(4, 5)
    dense = q @ np.diag(h) @ q.T
    want = mp_optimal_prior_precision(theta, dense)
    check("laplace::optimal_prior_precision", np.log(laplace.exact.optimal_prior_precision(theta, dense)), np.log(want),
          magnitude=root_condition(theta, h, want))


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="bias_precision"):
        laplace.output_variance(np.ones((2, 2)), [1.0, -1.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="weight_precision"):
        laplace.output_variance(np.ones((2, 3)), [1.0, 1.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="prior_precision"):
        laplace.log_marginal_likelihood(0.0, [1.0], [1.0], 0.0)
