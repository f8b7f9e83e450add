# probdml-py/src/laplace.rs: diagonal (fast) or dense row-major (exact) precisions as 1-D float64.
import numpy as np
import numpy.typing as npt

from probdml._types import Count, Real

__all__ = ["output_variance", "exact_output_variance", "log_marginal_likelihood", "optimal_prior_precision"]

_F64 = npt.NDArray[np.float64]

def output_variance(weight_precision: _F64, bias_precision: _F64, features: _F64) -> float: ...
def exact_output_variance(precision: _F64, dim: Count, features: _F64) -> float: ...
def log_marginal_likelihood(log_likelihood: Real, theta: _F64, hessian: _F64, prior_precision: Real, exact: bool) -> float: ...
def optimal_prior_precision(theta: _F64, hessian: _F64, exact: bool) -> float: ...
