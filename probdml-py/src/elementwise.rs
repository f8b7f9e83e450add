//! Element-wise kernels with numpy broadcasting, in the manner of `scipy.special`: an element
//! outside the domain gives NaN (the crate's raw kernels already do), never an exception.

use numpy::ndarray::{ArrayD, ArrayViewD, IxDyn, Zip};
use numpy::{IntoPyArray, PyArrayDyn, PyReadonlyArrayDyn};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::borrow::Cow;

/// numpy's rule: align the shapes on the right; each pair of sizes must be equal or one.
pub fn broadcast_shape(a: &[usize], b: &[usize]) -> PyResult<Vec<usize>> {
    let n = a.len().max(b.len());
    let mut out = vec![0; n];
    for i in 0..n {
        let da = if i < n - a.len() {
            1
        } else {
            a[i - (n - a.len())]
        };
        let db = if i < n - b.len() {
            1
        } else {
            b[i - (n - b.len())]
        };
        out[i] = match (da, db) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "operands could not be broadcast together with shapes {a:?} {b:?}"
                )))
            }
        };
    }
    Ok(out)
}

/// The elements of `view` broadcast to `shape` (which [`broadcast_shape`] accepted), in C
/// order: its own slice, borrowed, when it already has that shape in C order; its one value
/// repeated when it has one element; else ndarray's broadcast iteration (a dynamic-rank
/// iterator, which costs more per element than the batch kernels that read the result).
pub fn broadcast<'a, T: Copy>(view: &'a ArrayViewD<'_, T>, shape: &[usize]) -> Cow<'a, [T]> {
    if view.shape() == shape {
        if let Some(slice) = view.as_slice() {
            return Cow::Borrowed(slice);
        }
    }
    let len: usize = shape.iter().product();
    if view.len() == 1 {
        let v = *view.iter().next().expect("one element");
        return Cow::Owned(vec![v; len]);
    }
    Cow::Owned(
        view.broadcast(IxDyn(shape))
            .expect("shape checked by broadcast_shape")
            .iter()
            .copied()
            .collect(),
    )
}

/// `f(a, b)` over the broadcast shape of `a` and `b`, with the GIL released.
pub fn map2<'py, A, B>(
    py: Python<'py>,
    a: PyReadonlyArrayDyn<'py, A>,
    b: PyReadonlyArrayDyn<'py, B>,
    f: impl Fn(A, B) -> f64 + Send + Sync,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>>
where
    A: numpy::Element + Copy + Sync,
    B: numpy::Element + Copy + Sync,
{
    let (av, bv) = (a.as_array(), b.as_array());
    let shape = broadcast_shape(av.shape(), bv.shape())?;
    let out: ArrayD<f64> = py.detach(|| {
        let av = av.broadcast(IxDyn(&shape)).expect("shape checked above");
        let bv = bv.broadcast(IxDyn(&shape)).expect("shape checked above");
        Zip::from(&av).and(&bv).map_collect(|&x, &y| f(x, y))
    });
    Ok(out.into_pyarray(py))
}

/// `f(a)` element by element, with the GIL released.
pub fn map1<'py>(
    py: Python<'py>,
    a: PyReadonlyArrayDyn<'py, f64>,
    f: impl Fn(f64) -> f64 + Send + Sync,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    let av = a.as_array();
    let out: ArrayD<f64> = py.detach(|| av.map(|&x| f(x)));
    Ok(out.into_pyarray(py))
}

/// A sphere dimension from Python's integers: a negative one has no sphere, so NaN follows from
/// the kernels' own rule for `dim < 2` by mapping it to 0.
pub fn dim_of(d: i64) -> usize {
    usize::try_from(d).unwrap_or(0)
}

/// `f(dim, x)` over the broadcast shape for a checked function: the first error is raised as
/// `ValueError` (an estimator has no NaN to give).
pub fn try_map2<'py>(
    py: Python<'py>,
    dim: PyReadonlyArrayDyn<'py, i64>,
    x: PyReadonlyArrayDyn<'py, f64>,
    f: impl Fn(i64, f64) -> probdml::Result<f64> + Send + Sync,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    let (dv, xv) = (dim.as_array(), x.as_array());
    let shape = broadcast_shape(dv.shape(), xv.shape())?;
    let out = crate::compute::compute(py, || {
        let dv = dv.broadcast(IxDyn(&shape)).expect("shape checked above");
        let xv = xv.broadcast(IxDyn(&shape)).expect("shape checked above");
        let mut out = ArrayD::<f64>::zeros(IxDyn(&shape));
        for ((o, &d), &v) in out.iter_mut().zip(dv.iter()).zip(xv.iter()) {
            *o = f(d, v)?;
        }
        Ok(out)
    })?;
    Ok(out.into_pyarray(py))
}
