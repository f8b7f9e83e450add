//! `probdml.special` and `probdml.special.exact`: element-wise, NaN outside the domain.

use crate::elementwise::{map1, map2};
use numpy::{PyArrayDyn, PyReadonlyArrayDyn};
use probdml::special;
use pyo3::prelude::*;

type In<'py> = PyReadonlyArrayDyn<'py, f64>;
type Out<'py> = PyResult<Bound<'py, PyArrayDyn<f64>>>;

#[pyfunction]
pub fn log_bessel_i<'py>(py: Python<'py>, nu: In<'py>, x: In<'py>) -> Out<'py> {
    map2(py, nu, x, special::log_bessel_i)
}

#[pyfunction]
pub fn exact_log_bessel_i<'py>(py: Python<'py>, nu: In<'py>, x: In<'py>) -> Out<'py> {
    map2(py, nu, x, special::exact::log_bessel_i)
}

#[pyfunction]
pub fn bessel_i_ratio<'py>(py: Python<'py>, nu: In<'py>, x: In<'py>) -> Out<'py> {
    map2(py, nu, x, special::bessel_i_ratio)
}

#[pyfunction]
pub fn exact_bessel_i_ratio<'py>(py: Python<'py>, nu: In<'py>, x: In<'py>) -> Out<'py> {
    map2(py, nu, x, special::exact::bessel_i_ratio)
}

#[pyfunction]
pub fn log_ndtr<'py>(py: Python<'py>, z: In<'py>) -> Out<'py> {
    map1(py, z, special::log_normal_cdf)
}

#[pyfunction]
pub fn exact_log_ndtr<'py>(py: Python<'py>, z: In<'py>) -> Out<'py> {
    map1(py, z, special::exact::log_normal_cdf)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(log_bessel_i, m)?)?;
    m.add_function(wrap_pyfunction!(exact_log_bessel_i, m)?)?;
    m.add_function(wrap_pyfunction!(bessel_i_ratio, m)?)?;
    m.add_function(wrap_pyfunction!(exact_bessel_i_ratio, m)?)?;
    m.add_function(wrap_pyfunction!(log_ndtr, m)?)?;
    m.add_function(wrap_pyfunction!(exact_log_ndtr, m)?)?;
    Ok(())
}
