//! `probdml.nivmf` and `probdml.nivmf.exact`: vMF divergences and kernels, the non-isotropic vMF,
//! ProxyNCA++.

use crate::compute::compute;
use crate::generator::generator;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1};
use probdml::nivmf::{self, ProxyBatch, ProxyDistance};
use probdml::Error;
use probdml::Labels;
use pyo3::prelude::*;

type Slice<'py> = PyReadonlyArray1<'py, f64>;
type Vector<'py> = Bound<'py, PyArray1<f64>>;

#[pyfunction]
pub fn kl_vmf(
    py: Python<'_>,
    mu_z: Slice<'_>,
    kappa_z: f64,
    mu_p: Slice<'_>,
    kappa_p: f64,
    exact: bool,
) -> PyResult<f64> {
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
    gamma: f64,
    nu_z: Slice<'_>,
    nu_p: Slice<'_>,
    exact: bool,
) -> PyResult<f64> {
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

#[pyfunction]
pub fn sample<'py>(
    py: Python<'py>,
    mu: Slice<'py>,
    kappas: Slice<'py>,
    n: usize,
    seed: u64,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let (mu, kappas) = (mu.as_slice()?, kappas.as_slice()?);
    let dim = mu.len();
    let out = compute(py, || {
        let v = nivmf::NonIsotropicVmf::new(mu, kappas)?;
        let mut rng = generator(seed);
        let mut out = Vec::with_capacity(n * dim);
        for _ in 0..n {
            out.extend(v.sample(&mut rng));
        }
        Ok(out)
    })?;
    let array = numpy::ndarray::Array2::from_shape_vec((n, dim), out).expect("n rows of dim");
    Ok(array.into_pyarray(py))
}

fn proxy_distance(name: &str, samples: usize, seed: u64) -> probdml::Result<ProxyDistance> {
    Ok(match name {
        "cosine" => ProxyDistance::Cosine,
        "l2" => ProxyDistance::L2,
        "nivmf" => ProxyDistance::NivMf,
        "nivmf_heuristic" => ProxyDistance::NivMfHeuristic,
        "el_vmf" => ProxyDistance::ElVmf,
        "b_vmf" => ProxyDistance::BVmf,
        "kl_vmf" => ProxyDistance::KlVmf,
        "el_nivmf" => ProxyDistance::ElNivMf { samples, seed },
        _ => {
            return Err(Error::OutOfDomain {
                arg: "distance",
                value: f64::NAN,
                rule: "one of 'cosine', 'l2', 'nivmf', 'nivmf_heuristic', 'el_vmf', 'b_vmf', 'kl_vmf', 'el_nivmf'",
            })
        }
    })
}

/// ProxyNCA++ with a probabilistic distance: (loss, distances B×C, ∂/∂embeddings, ∂/∂proxies,
/// ∂/∂concentrations), all flat row-major.
#[pyfunction]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn proxy_nca_loss<'py>(
    py: Python<'py>,
    distance: &str,
    embeddings: Slice<'py>,
    labels: Vec<i64>,
    proxies: Slice<'py>,
    concentrations: Slice<'py>,
    dim: usize,
    temperature: f64,
    samples: usize,
    seed: u64,
    exact: bool,
) -> PyResult<(f64, Vector<'py>, Vector<'py>, Vector<'py>, Vector<'py>)> {
    let (embeddings, proxies, concentrations) = (
        embeddings.as_slice()?,
        proxies.as_slice()?,
        concentrations.as_slice()?,
    );
    let distance = distance.to_string();
    let out = compute(py, || {
        let distance = proxy_distance(&distance, samples, seed)?;
        let labels = crate::metrics::labels_of("labels", &labels)?;
        let batch = ProxyBatch {
            embeddings,
            labels: Labels::Usize(&labels),
            proxies,
            concentrations,
            dim,
        };
        if exact {
            nivmf::exact::proxy_nca_loss(distance, &batch, temperature)
        } else {
            nivmf::proxy_nca_loss(distance, &batch, temperature)
        }
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
