"""probdml.laplace against numpy linear algebra."""

import numpy as np
import pytest
from scipy.optimize import brentq

from probdml import laplace


def test_output_variance_diagonal_and_dense():
    rng = np.random.default_rng(1)
    m, f = 3, 4
    w_prec, b_prec, x = rng.uniform(0.5, 3, (m, f)), rng.uniform(0.5, 3, m), rng.normal(size=f)
    ref = np.sum(x**2 / w_prec) + np.sum(1 / b_prec)
    assert laplace.output_variance(w_prec, b_prec, x) == pytest.approx(ref, rel=1e-14)
    # Dense precision over θ = (vec W, b); y = J θ with J = [I_M ⊗ xᵀ, I_M].
    a = rng.normal(size=(m * f + m, m * f + m))
    prec = a @ a.T + np.eye(m * f + m)
    jac = np.hstack([np.kron(np.eye(m), x[None, :]), np.eye(m)])
    ref = np.trace(jac @ np.linalg.inv(prec) @ jac.T)
    assert laplace.exact.output_variance(prec, m, x) == pytest.approx(ref, rel=1e-11)


def test_evidence_and_its_optimal_prior_precision():
    theta, h = np.array([0.5, -1.0, 2.0]), np.array([3.0, 0.5, 10.0])

    def evidence(delta):
        return -0.5 * delta * theta @ theta + 0.5 * np.sum(np.log(delta / (h + delta)))

    assert laplace.log_marginal_likelihood(-2.0, theta, h, 0.7) == pytest.approx(-2.0 + evidence(0.7), rel=1e-14)
    dense = np.diag(h)
    assert laplace.exact.log_marginal_likelihood(-2.0, theta, dense, 0.7) == pytest.approx(-2.0 + evidence(0.7), rel=1e-13)
    # The maximiser solves δ‖θ‖² = Σ h/(h + δ).
    root = brentq(lambda d: d * theta @ theta - np.sum(h / (h + d)), 1e-9, 1e3, xtol=1e-15)
    assert laplace.optimal_prior_precision(theta, h) == pytest.approx(root, rel=1e-12)
    assert laplace.exact.optimal_prior_precision(theta, dense) == pytest.approx(root, rel=1e-12)


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="bias_precision"):
        laplace.output_variance(np.ones((2, 2)), [1.0, -1.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="weight_precision"):
        laplace.output_variance(np.ones((2, 3)), [1.0, 1.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="prior_precision"):
        laplace.log_marginal_likelihood(0.0, [1.0], [1.0], 0.0)
