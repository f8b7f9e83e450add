//! The scalar arguments of the Python API (real numbers, counts, seeds, sample sizes, flags,
//! choices among names), read from whatever object the caller passed, by one rule: `TypeError`
//! when the object is not of the kind the argument takes, `ValueError` when it is but its value
//! breaks the argument's rule. Either message names the argument as the Python signature spells
//! it, and says the rule.
//!
//! pyo3's own conversions are not used for these arguments, because each hides a trap: `f64`
//! takes anything with `__float__` (a numpy complex scalar loses its imaginary part, a 0-d
//! string array is parsed), `usize` and `u64` raise `OverflowError` for a negative or huge
//! integer, and every conversion error names the Rust parameter, which may differ from the
//! Python one.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// How an unexpected object is shown in a message: its type and, when short, its repr.
fn shown(value: &Bound<'_, PyAny>) -> String {
    if value.is_none() {
        return "None".to_string();
    }
    let kind = value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".to_string());
    match value.repr() {
        Ok(r) if r.to_string().len() <= 40 => format!("{kind} {r}"),
        _ => kind,
    }
}

fn is_numpy_bool(value: &Bound<'_, PyAny>) -> PyResult<bool> {
    let numpy = value.py().import("numpy")?;
    value.is_instance(&numpy.getattr("bool_")?)
}

/// A real number: a Python `int` or `float`, or anything numpy reads as a 0-d array of
/// booleans, integers or floats (a numpy scalar, a 0-d array, a one-element tensor's item).
pub fn real(value: &Bound<'_, PyAny>, arg: &str) -> PyResult<f64> {
    if let Ok(f) = value.cast::<PyFloat>() {
        return Ok(f.value());
    }
    let not_real = || {
        PyTypeError::new_err(format!(
            "argument `{arg}` must be a real number, got {}",
            shown(value)
        ))
    };
    if value.is_instance_of::<PyInt>() {
        return value.extract::<f64>().map_err(|_| {
            PyValueError::new_err(format!(
                "argument `{arg}` = {} is out of the range of a float64",
                shown(value)
            ))
        });
    }
    if value.is_instance_of::<PyString>() || value.is_none() {
        return Err(not_real());
    }
    let numpy = value.py().import("numpy")?;
    let array = numpy
        .call_method1("asarray", (value,))
        .map_err(|_| not_real())?;
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    let ndim: usize = array.getattr("ndim")?.extract()?;
    if ndim != 0 {
        let shape = array.getattr("shape")?.repr()?.to_string();
        return Err(PyTypeError::new_err(format!(
            "argument `{arg}` must be a real number, got an array of shape {shape}"
        )));
    }
    if !matches!(kind.as_str(), "b" | "i" | "u" | "f") {
        return Err(not_real());
    }
    array.call_method0("item")?.extract::<f64>()
}

/// `value` as a Python integer by `operator.index` (an `int`, a numpy integer, a 0-d integer
/// array): a float, even a whole one, is refused as numpy refuses `size=3.0`, and so is a bool
/// (a flag passed where a count belongs).
fn integer<'py>(value: &Bound<'py, PyAny>, arg: &str, kinds: &str) -> PyResult<Bound<'py, PyInt>> {
    let refused = || {
        PyTypeError::new_err(format!(
            "argument `{arg}` must be {kinds}, got {}",
            shown(value)
        ))
    };
    if value.is_instance_of::<PyBool>() || is_numpy_bool(value)? {
        return Err(refused());
    }
    let operator = value.py().import("operator")?;
    let index = operator
        .call_method1("index", (value,))
        .map_err(|_| refused())?;
    index.cast_into::<PyInt>().map_err(|_| refused())
}

/// A non-negative integer (a count, a number of steps, of bins, of threads).
pub fn count(value: &Bound<'_, PyAny>, arg: &str) -> PyResult<usize> {
    let i = integer(value, arg, "an integer")?;
    if i.lt(0)? {
        return Err(PyValueError::new_err(format!(
            "argument `{arg}` = {i} is out of its domain: must be a non-negative integer"
        )));
    }
    i.extract::<usize>().map_err(|_| {
        PyValueError::new_err(format!(
            "argument `{arg}` = {i} is out of its domain: must be below 2**64"
        ))
    })
}

/// [`count`] where `None` means "not given".
pub fn optional_count(value: Option<&Bound<'_, PyAny>>, arg: &str) -> PyResult<Option<usize>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| count(v, arg))
        .transpose()
}

/// The seed of the package's generator, as scipy reads a `seed`/`random_state`: `None` draws
/// one from the operating system's entropy; a `numpy.random.Generator` (or a legacy
/// `RandomState`) draws it from that generator, advancing it; an integer in `[0, 2**64)` is
/// the seed itself.
pub fn seed(py: Python<'_>, value: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return py
            .import("secrets")?
            .call_method1("randbits", (64,))?
            .extract();
    };
    let random = py.import("numpy.random")?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", py.import("numpy")?.getattr("uint64")?)?;
    let bound = 1u128 << 64;
    for (class, method) in [("Generator", "integers"), ("RandomState", "randint")] {
        if value.is_instance(&random.getattr(class)?)? {
            return value
                .call_method(method, (0, bound), Some(&kwargs))?
                .extract();
        }
    }
    let i = integer(
        value,
        "seed",
        "None, an integer or a numpy.random.Generator",
    )?;
    i.extract::<u64>().map_err(|_| {
        PyValueError::new_err(format!(
            "argument `seed` = {i} is out of its domain: must satisfy 0 <= seed < 2**64"
        ))
    })
}

/// The `size` of a draw, as scipy's `rvs` reads it: `None` (one draw, no leading axis), an
/// integer `n` (shape `(n,)`) or a tuple of integers (that shape); the draws have the shape
/// `size + (dim,)`. Returns the leading shape and the number of draws.
pub fn size(value: Option<&Bound<'_, PyAny>>) -> PyResult<(Vec<usize>, usize)> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok((Vec::new(), 1));
    };
    let shape: Vec<usize> = if value.is_instance_of::<PyTuple>() || value.is_instance_of::<PyList>()
    {
        value
            .try_iter()?
            .map(|v| count(&v?, "size"))
            .collect::<PyResult<_>>()?
    } else {
        vec![count(value, "size")?]
    };
    let n = shape
        .iter()
        .try_fold(1usize, |n, &s| n.checked_mul(s))
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "argument `size` = {shape:?} asks for more draws than the address space holds"
            ))
        })?;
    Ok((shape, n))
}

/// The shape `size + (dim,)` of `n` draws of `dim` coordinates (`shape` and `n` from [`size`]),
/// refused when the f64 array would not fit the address space.
pub fn draws_shape(mut shape: Vec<usize>, n: usize, dim: usize) -> PyResult<Vec<usize>> {
    n.checked_mul(dim)
        .filter(|&len| len <= isize::MAX as usize / 8)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "argument `size` = {shape:?} times the dimension {dim} exceeds the address space"
            ))
        })?;
    shape.push(dim);
    Ok(shape)
}

/// A boolean: `bool` or `numpy.bool_`; any other object (a string, whose truth is its
/// non-emptiness, an integer) is refused rather than read by its truth value.
pub fn flag(value: &Bound<'_, PyAny>, arg: &str) -> PyResult<bool> {
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(b.is_true());
    }
    if is_numpy_bool(value)? {
        return value.is_truthy();
    }
    Err(PyTypeError::new_err(format!(
        "argument `{arg}` must be a bool, got {}",
        shown(value)
    )))
}

/// One of the names `options`.
pub fn choice(
    value: &Bound<'_, PyAny>,
    arg: &str,
    options: &[&'static str],
) -> PyResult<&'static str> {
    let listed = options
        .iter()
        .map(|o| format!("'{o}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let Ok(name) = value.cast::<PyString>() else {
        return Err(PyTypeError::new_err(format!(
            "argument `{arg}` must be a str, one of {listed}; got {}",
            shown(value)
        )));
    };
    let name = name.to_str()?;
    options.iter().copied().find(|o| *o == name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "argument `{arg}` = {name:?} is not one of {listed}"
        ))
    })
}
