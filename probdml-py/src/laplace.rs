//! `probdml.laplace` and `probdml.laplace.exact`: last-layer Laplace posteriors.

use crate::arguments;
use crate::compute::compute;
use numpy::PyReadonlyArray1;
use probdml::laplace;
use pyo3::prelude::*;

type Slice<'py> = PyReadonlyArray1<'py, f64>;

/// Var y of the diagonal posterior of y = Wx + b.
#[pyfunction]
pub fn output_variance(
    py: Python<'_>,
    weight_precision: Slice<'_>,
    bias_precision: Slice<'_>,
    features: Slice<'_>,
) -> PyResult<f64> {
    let s = [
        weight_precision.as_slice()?,
        bias_precision.as_slice()?,
        features.as_slice()?,
    ];
    compute(py, || laplace::output_variance(s[0], s[1], s[2]))
}

/// Var y of a dense posterior precision over θ = (vec W, b) (the exact twin).
#[pyfunction]
pub fn exact_output_variance(
    py: Python<'_>,
    precision: Slice<'_>,
    dim: &Bound<'_, PyAny>,
    features: Slice<'_>,
) -> PyResult<f64> {
    let dim = arguments::count(dim, "dim")?;
    let (precision, features) = (precision.as_slice()?, features.as_slice()?);
    compute(py, || {
        laplace::exact::output_variance(precision, dim, features)
    })
}

/// The Laplace evidence ln p(D | δ); `hessian` is the diagonal (fast) or the dense matrix
/// (exact).
#[pyfunction]
pub fn log_marginal_likelihood(
    py: Python<'_>,
    log_likelihood: &Bound<'_, PyAny>,
    theta: Slice<'_>,
    hessian: Slice<'_>,
    prior_precision: &Bound<'_, PyAny>,
    exact: bool,
) -> PyResult<f64> {
    let log_likelihood = arguments::real(log_likelihood, "log_likelihood")?;
    let prior_precision = arguments::real(prior_precision, "prior_precision")?;
    let (theta, hessian) = (theta.as_slice()?, hessian.as_slice()?);
    compute(py, || {
        let f = if exact {
            laplace::exact::log_marginal_likelihood
        } else {
            laplace::log_marginal_likelihood
        };
        f(log_likelihood, theta, hessian, prior_precision)
    })
}

#[pyfunction]
pub fn optimal_prior_precision(
    py: Python<'_>,
    theta: Slice<'_>,
    hessian: Slice<'_>,
    exact: bool,
) -> PyResult<f64> {
    let (theta, hessian) = (theta.as_slice()?, hessian.as_slice()?);
    compute(py, || {
        let f = if exact {
            laplace::exact::optimal_prior_precision
        } else {
            laplace::optimal_prior_precision
        };
        f(theta, hessian)
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(output_variance, m)?)?;
    m.add_function(wrap_pyfunction!(exact_output_variance, m)?)?;
    m.add_function(wrap_pyfunction!(log_marginal_likelihood, m)?)?;
    m.add_function(wrap_pyfunction!(optimal_prior_precision, m)?)?;
    Ok(())
}
