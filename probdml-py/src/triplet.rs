//! `probdml.triplet` and `probdml.triplet.exact`: the Bayesian triplet loss.

use crate::arguments;
use crate::compute::compute;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use probdml::triplet::{self, Triplet};
use probdml::Gaussian;
use pyo3::prelude::*;

type Slice<'py> = PyReadonlyArray1<'py, f64>;
type Grad<'py> = Bound<'py, PyArray1<f64>>;

/// The Python functions' keyword arguments `(mu_a, var_a, mu_p, var_p, mu_n, var_n)` as a
/// [`Triplet`] named by role.
fn by_role(s: [&[f64]; 6]) -> Triplet<'_> {
    Triplet {
        anchor: Gaussian {
            mu: s[0],
            var: s[1],
        },
        positive: Gaussian {
            mu: s[2],
            var: s[3],
        },
        negative: Gaussian {
            mu: s[4],
            var: s[5],
        },
    }
}

#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn moments(
    py: Python<'_>,
    mu_a: Slice<'_>,
    var_a: Slice<'_>,
    mu_p: Slice<'_>,
    var_p: Slice<'_>,
    mu_n: Slice<'_>,
    var_n: Slice<'_>,
    exact: bool,
) -> PyResult<(f64, f64)> {
    let s = [
        mu_a.as_slice()?,
        var_a.as_slice()?,
        mu_p.as_slice()?,
        var_p.as_slice()?,
        mu_n.as_slice()?,
        var_n.as_slice()?,
    ];
    compute(py, || {
        if exact {
            triplet::exact::moments(s[0], s[1], s[2], s[3], s[4], s[5])
        } else {
            by_role(s).moments()
        }
    })
}

#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn log_likelihood(
    py: Python<'_>,
    mu_a: Slice<'_>,
    var_a: Slice<'_>,
    mu_p: Slice<'_>,
    var_p: Slice<'_>,
    mu_n: Slice<'_>,
    var_n: Slice<'_>,
    margin: &Bound<'_, PyAny>,
    exact: bool,
) -> PyResult<f64> {
    let margin = arguments::real(margin, "margin")?;
    let s = [
        mu_a.as_slice()?,
        var_a.as_slice()?,
        mu_p.as_slice()?,
        var_p.as_slice()?,
        mu_n.as_slice()?,
        var_n.as_slice()?,
    ];
    compute(py, || {
        if exact {
            triplet::exact::log_likelihood(s[0], s[1], s[2], s[3], s[4], s[5], margin)
        } else {
            by_role(s).log_likelihood(margin)
        }
    })
}

/// The mean NLL of a batch of `B` triplets (flat rows of `dim`) and its gradient with respect to
/// each of the six inputs.
#[pyfunction]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn nll_gradient<'py>(
    py: Python<'py>,
    mu_a: Slice<'py>,
    var_a: Slice<'py>,
    mu_p: Slice<'py>,
    var_p: Slice<'py>,
    mu_n: Slice<'py>,
    var_n: Slice<'py>,
    dim: usize,
    margin: &Bound<'py, PyAny>,
    exact: bool,
) -> PyResult<(f64, [Grad<'py>; 6])> {
    let margin = arguments::real(margin, "margin")?;
    let s = [
        mu_a.as_slice()?,
        var_a.as_slice()?,
        mu_p.as_slice()?,
        var_p.as_slice()?,
        mu_n.as_slice()?,
        var_n.as_slice()?,
    ];
    let g = compute(py, || {
        let f = if exact {
            triplet::exact::nll_gradient
        } else {
            triplet::nll_gradient
        };
        f(s[0], s[1], s[2], s[3], s[4], s[5], dim, margin)
    })?;
    Ok((
        g.nll,
        [
            g.mu_a.into_pyarray(py),
            g.var_a.into_pyarray(py),
            g.mu_p.into_pyarray(py),
            g.var_p.into_pyarray(py),
            g.mu_n.into_pyarray(py),
            g.var_n.into_pyarray(py),
        ],
    ))
}

#[pyfunction]
pub fn vmf_kl(py: Python<'_>, dim: &Bound<'_, PyAny>, kappa: &Bound<'_, PyAny>) -> PyResult<f64> {
    let dim = arguments::count(dim, "dim")?;
    let kappa = arguments::real(kappa, "kappa")?;
    compute(py, || triplet::vmf_kl(dim, kappa))
}

#[pyfunction]
pub fn gaussian_kl(
    py: Python<'_>,
    mu: Slice<'_>,
    var: Slice<'_>,
    prior_var: &Bound<'_, PyAny>,
    exact: bool,
) -> PyResult<f64> {
    let prior_var = arguments::real(prior_var, "prior_var")?;
    let (mu, var) = (mu.as_slice()?, var.as_slice()?);
    compute(py, || {
        if exact {
            triplet::exact::gaussian_kl(mu, var, prior_var)
        } else {
            triplet::gaussian_kl(mu, var, prior_var)
        }
    })
}

#[pyfunction]
pub fn gaussian_prior_variance(py: Python<'_>, dim: &Bound<'_, PyAny>) -> PyResult<f64> {
    let dim = arguments::count(dim, "dim")?;
    compute(py, || triplet::gaussian_prior_variance(dim))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(moments, m)?)?;
    m.add_function(wrap_pyfunction!(log_likelihood, m)?)?;
    m.add_function(wrap_pyfunction!(nll_gradient, m)?)?;
    m.add_function(wrap_pyfunction!(vmf_kl, m)?)?;
    m.add_function(wrap_pyfunction!(gaussian_kl, m)?)?;
    m.add_function(wrap_pyfunction!(gaussian_prior_variance, m)?)?;
    Ok(())
}
