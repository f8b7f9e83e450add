//! `probdml.nivmf` and `probdml.nivmf.exact`: vMF divergences and kernels, the non-isotropic vMF,
//! ProxyNCA++.

use crate::arguments;
use crate::compute::compute;
use crate::generator::generator;
use crate::interruptible::{self, interruptible};
use numpy::{IntoPyArray, PyArray1, PyArrayDyn, PyReadonlyArray1};
use probdml::nivmf::{self, ProxyBatch, ProxyDistance};
use probdml::Labels;
use pyo3::prelude::*;

type Slice<'py> = PyReadonlyArray1<'py, f64>;
type Vector<'py> = Bound<'py, PyArray1<f64>>;

#[pyfunction]
pub fn kl_vmf(
    py: Python<'_>,
    mu_z: Slice<'_>,
    kappa_z: &Bound<'_, PyAny>,
    mu_p: Slice<'_>,
    kappa_p: &Bound<'_, PyAny>,
    exact: bool,
) -> PyResult<f64> {
    let kappa_z = arguments::real(kappa_z, "kappa_z")?;
    let kappa_p = arguments::real(kappa_p, "kappa_p")?;
    let (mu_z, mu_p) = (mu_z.as_slice()?, mu_p.as_slice()?);
    compute(py, || {
        let f = if exact {
            nivmf::exact::kl_vmf
        } else {
            nivmf::kl_vmf
        };
        f(mu_z, kappa_z, mu_p, kappa_p)
    })
}

#[pyfunction]
pub fn log_ppk_vmf(
    py: Python<'_>,
    gamma: &Bound<'_, PyAny>,
    nu_z: Slice<'_>,
    nu_p: Slice<'_>,
    exact: bool,
) -> PyResult<f64> {
    let gamma = arguments::real(gamma, "gamma")?;
    let (nu_z, nu_p) = (nu_z.as_slice()?, nu_p.as_slice()?);
    compute(py, || {
        let f = if exact {
            nivmf::exact::log_ppk
        } else {
            nivmf::log_ppk
        };
        f(nu_z, nu_p, gamma)
    })
}

#[pyfunction]
pub fn bhattacharyya_distance(py: Python<'_>, nu_z: Slice<'_>, nu_p: Slice<'_>) -> PyResult<f64> {
    let (nu_z, nu_p) = (nu_z.as_slice()?, nu_p.as_slice()?);
    compute(py, || nivmf::bhattacharyya_distance(nu_z, nu_p))
}

#[pyfunction]
pub fn expected_likelihood_distance(
    py: Python<'_>,
    nu_z: Slice<'_>,
    nu_p: Slice<'_>,
) -> PyResult<f64> {
    let (nu_z, nu_p) = (nu_z.as_slice()?, nu_p.as_slice()?);
    compute(py, || nivmf::expected_likelihood_distance(nu_z, nu_p))
}

/// ln f(x_i) under nivMF(μ, κ) for each row of `x`; `heuristic` picks the paper's
/// unnormalised form.
#[pyfunction]
pub fn log_density<'py>(
    py: Python<'py>,
    x: Slice<'py>,
    mu: Slice<'py>,
    kappas: Slice<'py>,
    heuristic: bool,
    exact: bool,
) -> PyResult<Vector<'py>> {
    let (x, mu, kappas) = (x.as_slice()?, mu.as_slice()?, kappas.as_slice()?);
    let out = compute(py, || {
        let rows = x.chunks(mu.len().max(1));
        if exact {
            let f = if heuristic {
                nivmf::exact::log_density_heuristic
            } else {
                nivmf::exact::log_density
            };
            rows.map(|row| f(row, mu, kappas)).collect()
        } else {
            // The distribution checks μ and K once; each row is checked by `ln_pdf`.
            let law = nivmf::NonIsotropicVmf::new(mu, kappas)?;
            rows.map(|row| {
                if heuristic {
                    law.ln_pdf_heuristic(row)
                } else {
                    law.ln_pdf(row)
                }
            })
            .collect::<probdml::Result<Vec<f64>>>()
        }
    })?;
    Ok(out.into_pyarray(py))
}

/// Draws from nivMF(μ, κ) of shape `size + (dim,)`, one `NonIsotropicVmf::sample` per row on
/// `generator(seed)`.
#[pyfunction]
#[pyo3(signature = (mu, kappas, size, seed))]
pub fn sample<'py>(
    py: Python<'py>,
    mu: Slice<'py>,
    kappas: Slice<'py>,
    size: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    let (shape, n) = arguments::size(size)?;
    let seed = arguments::seed(py, seed)?;
    let (mu, kappas) = (mu.as_slice()?.to_vec(), kappas.as_slice()?.to_vec());
    let dim = mu.len();
    let shape = arguments::draws_shape(shape, n, dim)?;
    let array = PyArrayDyn::<f64>::zeros(py, shape, false);
    interruptible::fill(py, &array, move |out| {
        let v = nivmf::NonIsotropicVmf::new(&mu, &kappas)?;
        let mut rng = generator(seed);
        for row in out.chunks_exact_mut(dim.max(1)) {
            row.copy_from_slice(&v.sample(&mut rng));
        }
        Ok(())
    })?;
    Ok(array)
}

/// The names of the distances of `proxy_nca_loss`.
const DISTANCES: &[&str] = &[
    "cosine",
    "l2",
    "nivmf",
    "nivmf_heuristic",
    "el_vmf",
    "b_vmf",
    "kl_vmf",
    "el_nivmf",
];

/// The distance named `name`, one of [`DISTANCES`].
fn proxy_distance(name: &str, samples: usize, seed: u64) -> ProxyDistance {
    match name {
        "cosine" => ProxyDistance::Cosine,
        "l2" => ProxyDistance::L2,
        "nivmf" => ProxyDistance::NivMf,
        "nivmf_heuristic" => ProxyDistance::NivMfHeuristic,
        "el_vmf" => ProxyDistance::ElVmf,
        "b_vmf" => ProxyDistance::BVmf,
        "kl_vmf" => ProxyDistance::KlVmf,
        _ => ProxyDistance::ElNivMf { samples, seed },
    }
}

/// ProxyNCA++ with a probabilistic distance: (loss, distances B×C, ∂/∂embeddings, ∂/∂proxies,
/// ∂/∂concentrations), all flat row-major.
#[pyfunction]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn proxy_nca_loss<'py>(
    py: Python<'py>,
    distance: &Bound<'py, PyAny>,
    embeddings: Slice<'py>,
    labels: Vec<i64>,
    proxies: Slice<'py>,
    concentrations: Slice<'py>,
    dim: usize,
    temperature: &Bound<'py, PyAny>,
    samples: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    exact: bool,
) -> PyResult<(f64, Vector<'py>, Vector<'py>, Vector<'py>, Vector<'py>)> {
    let distance = arguments::choice(distance, "distance", DISTANCES)?;
    let temperature = arguments::real(temperature, "temperature")?;
    let samples = arguments::count(samples, "samples")?;
    let seed = arguments::seed(py, Some(seed))?;
    let (embeddings, proxies, concentrations) = (
        embeddings.as_slice()?.to_vec(),
        proxies.as_slice()?.to_vec(),
        concentrations.as_slice()?.to_vec(),
    );
    // The Monte Carlo of `el_nivmf` runs for seconds on a large batch.
    let out = interruptible(py, move || {
        let distance = proxy_distance(distance, samples, seed);
        let labels = crate::metrics::labels_of("labels", &labels)?;
        let batch = ProxyBatch {
            embeddings: &embeddings,
            labels: Labels::Usize(&labels),
            proxies: &proxies,
            concentrations: &concentrations,
            dim,
        };
        Ok(if exact {
            nivmf::exact::proxy_nca_loss(distance, &batch, temperature)?
        } else {
            nivmf::proxy_nca_loss(distance, &batch, temperature)?
        })
    })?;
    Ok((
        out.loss,
        out.distances.into_pyarray(py),
        out.grad_embeddings.into_pyarray(py),
        out.grad_proxies.into_pyarray(py),
        out.grad_concentrations.into_pyarray(py),
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(kl_vmf, m)?)?;
    m.add_function(wrap_pyfunction!(log_ppk_vmf, m)?)?;
    m.add_function(wrap_pyfunction!(bhattacharyya_distance, m)?)?;
    m.add_function(wrap_pyfunction!(expected_likelihood_distance, m)?)?;
    m.add_function(wrap_pyfunction!(log_density, m)?)?;
    m.add_function(wrap_pyfunction!(sample, m)?)?;
    m.add_function(wrap_pyfunction!(proxy_nca_loss, m)?)?;
    Ok(())
}
