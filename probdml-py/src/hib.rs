//! `probdml.hib` and `probdml.hib.exact`: hedged instance embeddings.

use crate::arguments;
use crate::compute::{compute, named};
use crate::generator::generator;
use crate::interruptible::interruptible;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use probdml::hib::{self, HedgedEmbedding, SoftThreshold, VibPair};
use probdml::Gaussian;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

type Slice<'py> = PyReadonlyArray1<'py, f64>;
type Vector<'py> = Bound<'py, PyArray1<f64>>;

/// The route of a match probability: by quadrature (deterministic) unless the caller asks for
/// Monte Carlo by giving `n_samples`; a `seed` without `n_samples` is refused rather than
/// ignored, since it says the caller expected draws.
fn monte_carlo(
    py: Python<'_>,
    n_samples: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<(usize, u64)>> {
    match arguments::optional_count(n_samples, "n_samples")? {
        Some(n) => Ok(Some((n, arguments::seed(py, seed)?))),
        None if seed.is_some_and(|s| !s.is_none()) => Err(PyValueError::new_err(
            "argument `seed` drives the Monte Carlo estimate: give `n_samples` with it, or leave \
             both out for the exact value (quadrature)",
        )),
        None => Ok(None),
    }
}

/// P(match) of two mixtures of `len/dim` Gaussian components: Monte Carlo with `n_samples`
/// draws per component from `generator(seed)` when `n_samples` is given, else by quadrature.
#[pyfunction]
#[pyo3(signature = (mu1, var1, mu2, var2, dim, a, b, n_samples, seed))]
#[allow(clippy::too_many_arguments)]
pub fn match_probability(
    py: Python<'_>,
    mu1: Slice<'_>,
    var1: Slice<'_>,
    mu2: Slice<'_>,
    var2: Slice<'_>,
    dim: usize,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    n_samples: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<f64> {
    let (a, b) = (arguments::real(a, "a")?, arguments::real(b, "b")?);
    let route = monte_carlo(py, n_samples, seed)?;
    let s = [
        mu1.as_slice()?.to_vec(),
        var1.as_slice()?.to_vec(),
        mu2.as_slice()?.to_vec(),
        var2.as_slice()?.to_vec(),
    ];
    interruptible(py, move || {
        if route.is_none() && s[0].len() == dim && s[2].len() == dim {
            return Ok(hib::exact::match_probability(
                &s[0], &s[1], &s[2], &s[3], a, b,
            )?);
        }
        let x1 = HedgedEmbedding::from_components(
            probdml::Gaussian {
                mu: &s[0],
                var: &s[1],
            },
            dim,
        )
        .map_err(named(&[("mu", "mu1"), ("var", "var1")]))?;
        let x2 = HedgedEmbedding::from_components(
            probdml::Gaussian {
                mu: &s[2],
                var: &s[3],
            },
            dim,
        )
        .map_err(named(&[("mu", "mu2"), ("var", "var2")]))?;
        Ok(match route {
            None => hib::exact::mixture_match_probability(&x1, &x2, a, b)?,
            Some((n, seed)) => {
                SoftThreshold { a, b }.match_probability(&x1, &x2, n, &mut generator(seed))?
            }
        })
    })
}

#[pyfunction]
pub fn match_probability_moment_matched(
    py: Python<'_>,
    mu1: Slice<'_>,
    var1: Slice<'_>,
    mu2: Slice<'_>,
    var2: Slice<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
) -> PyResult<f64> {
    let a = arguments::real(a, "a")?;
    let b = arguments::real(b, "b")?;
    let s = [
        mu1.as_slice()?,
        var1.as_slice()?,
        mu2.as_slice()?,
        var2.as_slice()?,
    ];
    compute(py, || {
        SoftThreshold { a, b }.match_probability_moment_matched(
            &Gaussian {
                mu: s[0],
                var: s[1],
            },
            &Gaussian {
                mu: s[2],
                var: s[3],
            },
        )
    })
}

/// η(x), the self-mismatch probability (HIB eq. (6)): Monte Carlo when `n_samples` is given,
/// else by quadrature.
#[pyfunction]
#[pyo3(signature = (mu, var, dim, a, b, n_samples, seed))]
#[allow(clippy::too_many_arguments)]
pub fn self_mismatch(
    py: Python<'_>,
    mu: Slice<'_>,
    var: Slice<'_>,
    dim: usize,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    n_samples: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<f64> {
    let (a, b) = (arguments::real(a, "a")?, arguments::real(b, "b")?);
    let route = monte_carlo(py, n_samples, seed)?;
    let (mu, var) = (mu.as_slice()?.to_vec(), var.as_slice()?.to_vec());
    interruptible(py, move || {
        let x = HedgedEmbedding::from_components(probdml::Gaussian { mu: &mu, var: &var }, dim)?;
        Ok(match route {
            None => hib::exact::self_mismatch(&x, a, b)?,
            Some((n, seed)) => SoftThreshold { a, b }.self_mismatch(&x, n, &mut generator(seed))?,
        })
    })
}

#[pyfunction]
pub fn kl_to_standard_normal(
    py: Python<'_>,
    mu: Slice<'_>,
    var: Slice<'_>,
    exact: bool,
) -> PyResult<f64> {
    let (mu, var) = (mu.as_slice()?, var.as_slice()?);
    compute(py, || {
        if exact {
            hib::exact::kl_to_standard_normal(mu, var)
        } else {
            hib::kl_to_standard_normal(mu, var)
        }
    })
}

/// The VIB objective of one pair: (loss, nll, kl, ∂/∂μ₁, ∂/∂ln σ²₁, ∂/∂μ₂, ∂/∂ln σ²₂, ∂/∂a, ∂/∂b).
#[pyfunction]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn vib_loss<'py>(
    py: Python<'py>,
    mu1: Slice<'py>,
    var1: Slice<'py>,
    mu2: Slice<'py>,
    var2: Slice<'py>,
    noise1: Slice<'py>,
    noise2: Slice<'py>,
    is_match: &Bound<'py, PyAny>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    beta: &Bound<'py, PyAny>,
    exact: bool,
) -> PyResult<(
    f64,
    f64,
    f64,
    Vector<'py>,
    Vector<'py>,
    Vector<'py>,
    Vector<'py>,
    f64,
    f64,
)> {
    let is_match = arguments::flag(is_match, "is_match")?;
    let (a, b) = (arguments::real(a, "a")?, arguments::real(b, "b")?);
    let beta = arguments::real(beta, "beta")?;
    let pair = VibPair {
        mu1: mu1.as_slice()?,
        var1: var1.as_slice()?,
        mu2: mu2.as_slice()?,
        var2: var2.as_slice()?,
        noise1: noise1.as_slice()?,
        noise2: noise2.as_slice()?,
        is_match,
    };
    let v = compute(py, || {
        if exact {
            hib::exact::vib_loss(&pair, a, b, beta)
        } else {
            SoftThreshold { a, b }.vib_loss(&pair, beta)
        }
    })?;
    Ok((
        v.loss,
        v.nll,
        v.kl,
        v.grad_mu1.into_pyarray(py),
        v.grad_log_var1.into_pyarray(py),
        v.grad_mu2.into_pyarray(py),
        v.grad_log_var2.into_pyarray(py),
        v.grad_a,
        v.grad_b,
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(match_probability, m)?)?;
    m.add_function(wrap_pyfunction!(match_probability_moment_matched, m)?)?;
    m.add_function(wrap_pyfunction!(self_mismatch, m)?)?;
    m.add_function(wrap_pyfunction!(kl_to_standard_normal, m)?)?;
    m.add_function(wrap_pyfunction!(vib_loss, m)?)?;
    Ok(())
}
