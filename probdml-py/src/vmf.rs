//! `probdml.vmf` and `probdml.vmf.exact`.

use crate::arguments;
use crate::compute::compute;
use crate::elementwise::{broadcast, broadcast_shape, dim_of, map2, try_map2};
use crate::generator::generator;
use crate::interruptible;
use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArray1, PyArrayDyn, PyReadonlyArray1, PyReadonlyArrayDyn};
use probdml::vmf;
use probdml::Error;
use pyo3::prelude::*;

type Dims<'py> = PyReadonlyArrayDyn<'py, i64>;
type In<'py> = PyReadonlyArrayDyn<'py, f64>;
type Out<'py> = PyResult<Bound<'py, PyArrayDyn<f64>>>;
type Slice<'py> = PyReadonlyArray1<'py, f64>;

macro_rules! dim_kappa_kernel {
    ($name:ident, $f:path) => {
        #[pyfunction]
        pub fn $name<'py>(py: Python<'py>, dim: Dims<'py>, kappa: In<'py>) -> Out<'py> {
            map2(py, dim, kappa, |d, k| $f(dim_of(d), k))
        }
    };
}

/// ln C_M(κ) over the broadcast shape of `dim` and `kappa`, through the crate's batch kernel
/// (lanes), whose values are the scalar kernel's bits (`proofs/nivmf_normaliser_batch.rs`).
#[pyfunction]
pub fn log_norm_const<'py>(py: Python<'py>, dim: Dims<'py>, kappa: In<'py>) -> Out<'py> {
    let (dv, kv) = (dim.as_array(), kappa.as_array());
    let shape = broadcast_shape(dv.shape(), kv.shape())?;
    let out = compute(py, || {
        let kappas = broadcast(&kv, &shape);
        let values = if dv.len() == 1 {
            let d = *dv.iter().next().expect("one element");
            let mut values = vec![0.0; kappas.len()];
            log_norm_const_of_one_dim(dim_of(d), &kappas, &mut values);
            values
        } else {
            log_norm_const_grouped(&broadcast(&dv, &shape), &kappas)
        };
        Ok(ArrayD::from_shape_vec(IxDyn(&shape), values).expect("one value per element"))
    })?;
    Ok(out.into_pyarray(py))
}

/// `ln C_dim(κ)` for every κ by the batch kernel. When it refuses the call (`dim < 2`, or a κ
/// that is NaN, negative or infinite), the κ it takes still go through it, so that a value's
/// bits never depend on its neighbours (at `M = 3` the batch's closed form and the scalar kernel
/// differ in the last bit); the others go through the scalar kernel, which gives NaN exactly
/// where the element is outside the domain, as `scipy.special` would.
fn log_norm_const_of_one_dim(dim: usize, kappas: &[f64], out: &mut [f64]) {
    if vmf::log_norm_const_batch(dim, kappas, out).is_ok() {
        return;
    }
    let taken: Vec<usize> = (0..kappas.len())
        .filter(|&i| kappas[i].is_finite() && kappas[i] >= 0.0)
        .collect();
    let some: Vec<f64> = taken.iter().map(|&i| kappas[i]).collect();
    let mut values = vec![0.0; some.len()];
    let batched = dim >= 2 && vmf::log_norm_const_batch(dim, &some, &mut values).is_ok();
    for (o, &k) in out.iter_mut().zip(kappas) {
        *o = vmf::log_norm_const(dim, k);
    }
    if batched {
        for (&i, &v) in taken.iter().zip(&values) {
            out[i] = v;
        }
    }
}

/// `ln C_{dims[i]}(kappas[i])` for every pair. The batch kernel takes one dimension per call,
/// so the pairs are grouped by dimension (a stable counting sort whose bounds are the groups, or
/// a sort when the dimensions are sparse), gathered, computed group by group, and read back in
/// the pairs' order: each pair records its slot in the sorted order, so that the sort writes
/// one stream at random (the gathered κ) and the result is filled in order from random reads,
/// with nothing to zero first.
fn log_norm_const_grouped(dims: &[i64], kappas: &[f64]) -> Vec<f64> {
    let Some(&first) = dims.first() else {
        return Vec::new();
    };
    if dims.iter().all(|&d| d == first) {
        let mut out = vec![0.0; kappas.len()];
        log_norm_const_of_one_dim(dim_of(first), kappas, &mut out);
        return out;
    }
    let max = dims.iter().map(|&d| dim_of(d)).max().unwrap_or(0);
    SCRATCH.with_borrow_mut(|scratch| {
        let Scratch {
            slot_of,
            gathered,
            values,
        } = scratch;
        let n = dims.len();
        // Every slot of the three buffers is written below before it is read: they are sized,
        // not cleared (zeroing them cost as much as the final pass).
        slot_of.resize(n, 0);
        gathered.resize(n, 0.0);
        values.resize(n, 0.0);
        // Each dimension's range in the sorted order.
        let mut groups: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
        if max <= 4 * n {
            // start[d]..start[d + 1] is the group of dimension d in sorted order.
            let mut start = vec![0usize; max + 2];
            for &d in dims {
                start[dim_of(d) + 1] += 1;
            }
            for d in 0..=max {
                start[d + 1] += start[d];
            }
            groups.extend(
                (0..=max)
                    .filter(|&d| start[d + 1] > start[d])
                    .map(|d| (d, start[d]..start[d + 1])),
            );
            // The slots first, then the κ scattered to them: two tight loops ran faster than
            // one that did both (measured).
            for (s, &d) in slot_of.iter_mut().zip(dims) {
                let slot = &mut start[dim_of(d)];
                *s = *slot;
                *slot += 1;
            }
            for (&s, &k) in slot_of.iter().zip(kappas) {
                gathered[s] = k;
            }
        } else {
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by_key(|&i| dim_of(dims[i]));
            let mut begin = 0;
            for run in order.chunk_by(|&a, &b| dim_of(dims[a]) == dim_of(dims[b])) {
                groups.push((dim_of(dims[run[0]]), begin..begin + run.len()));
                begin += run.len();
            }
            for (slot, &i) in order.iter().enumerate() {
                slot_of[i] = slot;
                gathered[slot] = kappas[i];
            }
        }
        for (dim, range) in groups {
            log_norm_const_of_one_dim(dim, &gathered[range.clone()], &mut values[range]);
        }
        let out = slot_of.iter().map(|&s| values[s]).collect();
        if slot_of.capacity() > SCRATCH_KEEP {
            *scratch = Scratch::default();
        }
        out
    })
}

/// The buffers of [`log_norm_const_grouped`]: each pair's slot in the order sorted by
/// dimension, the κ in that order, and the values. Kept between the calls of a thread: fresh, their first touch
/// (page faults) cost about a third of a call on 10⁵ pairs.
#[derive(Default)]
struct Scratch {
    slot_of: Vec<usize>,
    gathered: Vec<f64>,
    values: Vec<f64>,
}

/// The most pairs whose buffers are kept (6 MB); a larger call frees them when it ends.
const SCRATCH_KEEP: usize = 1 << 18;

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

dim_kappa_kernel!(exact_log_norm_const, vmf::exact::log_norm_const);
dim_kappa_kernel!(mean_resultant_length, vmf::mean_resultant_length);
dim_kappa_kernel!(
    exact_mean_resultant_length,
    vmf::exact::mean_resultant_length
);
dim_kappa_kernel!(
    mean_resultant_length_complement,
    vmf::mean_resultant_length_complement
);
dim_kappa_kernel!(
    exact_mean_resultant_length_complement,
    vmf::exact::mean_resultant_length_complement
);
dim_kappa_kernel!(entropy, vmf::entropy);
dim_kappa_kernel!(exact_entropy, vmf::exact::entropy);
dim_kappa_kernel!(kl_to_uniform, vmf::kl_to_uniform);
dim_kappa_kernel!(exact_kl_to_uniform, vmf::exact::kl_to_uniform);

/// A dimension from Python for a checked function: a negative one is an error naming `dim`.
pub fn checked_dim(d: i64) -> probdml::Result<usize> {
    usize::try_from(d).map_err(|_| Error::OutOfDomain {
        arg: "dim",
        value: d as f64,
        rule: "a dimension is a non-negative integer",
    })
}

#[pyfunction]
pub fn kappa_mle<'py>(py: Python<'py>, dim: Dims<'py>, rbar: In<'py>) -> Out<'py> {
    try_map2(py, dim, rbar, |d, r| vmf::kappa_mle(checked_dim(d)?, r))
}

#[pyfunction]
pub fn exact_kappa_mle<'py>(py: Python<'py>, dim: Dims<'py>, rbar: In<'py>) -> Out<'py> {
    try_map2(py, dim, rbar, |d, r| {
        vmf::exact::kappa_mle(checked_dim(d)?, r)
    })
}

#[pyfunction]
pub fn kappa_sra<'py>(
    py: Python<'py>,
    dim: Dims<'py>,
    rbar: In<'py>,
    newton_steps: &Bound<'py, PyAny>,
) -> Out<'py> {
    let newton_steps = arguments::count(newton_steps, "newton_steps")?;
    // One dimension: the crate's batch kernel (lanes), whose values are the scalar function's
    // bits (`proofs/batch_kernels.rs`). Where it refuses the call, the element-wise route raises
    // the first bad element's error under the argument's own name.
    let (dv, rv) = (dim.as_array(), rbar.as_array());
    if let (1, Ok(d)) = (
        dv.len(),
        usize::try_from(dv.iter().copied().next().unwrap_or(-1)),
    ) {
        let shape = broadcast_shape(dv.shape(), rv.shape())?;
        let batched = compute(py, || {
            let rbars = broadcast(&rv, &shape);
            let mut values = vec![0.0; rbars.len()];
            Ok(vmf::kappa_sra_batch(d, &rbars, newton_steps, &mut values)
                .ok()
                .map(|()| {
                    ArrayD::from_shape_vec(IxDyn(&shape), values).expect("one value per element")
                }))
        })?;
        if let Some(out) = batched {
            return Ok(out.into_pyarray(py));
        }
    }
    try_map2(py, dim, rbar, |d, r| {
        vmf::kappa_sra(checked_dim(d)?, r, newton_steps)
    })
}

#[pyfunction]
pub fn exact_kappa_sra<'py>(
    py: Python<'py>,
    dim: Dims<'py>,
    rbar: In<'py>,
    newton_steps: &Bound<'py, PyAny>,
) -> Out<'py> {
    let newton_steps = arguments::count(newton_steps, "newton_steps")?;
    try_map2(py, dim, rbar, |d, r| {
        vmf::exact::kappa_sra(checked_dim(d)?, r, newton_steps)
    })
}

/// ln f(x_i; μ, κ) for each row of `x` (flat, row-major, rows of `mu.len()`).
#[pyfunction]
pub fn log_density<'py>(
    py: Python<'py>,
    x: Slice<'py>,
    mu: Slice<'py>,
    kappa: &Bound<'py, PyAny>,
    exact: bool,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let kappa = arguments::real(kappa, "kappa")?;
    let (x, mu) = (x.as_slice()?, mu.as_slice()?);
    let out = compute(py, || {
        let dim = mu.len().max(1);
        x.chunks(dim)
            .map(|row| {
                if exact {
                    vmf::exact::log_density(row, mu, kappa)
                } else {
                    vmf::log_density(row, mu, kappa)
                }
            })
            .collect::<probdml::Result<Vec<f64>>>()
    })?;
    Ok(out.into_pyarray(py))
}

/// The mean direction, R̄ and n of row-major unit samples.
#[pyfunction]
pub fn mean_resultant<'py>(
    py: Python<'py>,
    samples: Slice<'py>,
    dim: usize,
    exact: bool,
) -> PyResult<(Bound<'py, PyArray1<f64>>, f64, usize)> {
    let samples = samples.as_slice()?;
    let r = compute(py, || {
        if exact {
            vmf::exact::mean_resultant(samples, dim)
        } else {
            vmf::mean_resultant(samples, dim)
        }
    })?;
    Ok((r.direction.into_pyarray(py), r.rbar, r.n))
}

/// Checks (μ, κ) as `VonMisesFisher::new` does; returns κ as read.
#[pyfunction]
pub fn check_vmf(py: Python<'_>, mu: Slice<'_>, kappa: &Bound<'_, PyAny>) -> PyResult<f64> {
    let kappa = arguments::real(kappa, "kappa")?;
    let mu = mu.as_slice()?;
    compute(py, || vmf::VonMisesFisher::new(mu, kappa).map(|_| kappa))
}

/// Draws from vMF(μ, κ) of shape `size + (dim,)` by `VonMisesFisher::sample_n_into` on
/// `generator(seed)` (`size` and `seed` as [`arguments::size`] and [`arguments::seed`] read them).
#[pyfunction]
#[pyo3(signature = (mu, kappa, size, seed, exact))]
pub fn sample<'py>(
    py: Python<'py>,
    mu: Slice<'py>,
    kappa: &Bound<'py, PyAny>,
    size: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    exact: bool,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    let kappa = arguments::real(kappa, "kappa")?;
    let (shape, n) = arguments::size(size)?;
    let seed = arguments::seed(py, seed)?;
    let mu = mu.as_slice()?.to_vec();
    let dim = mu.len();
    let shape = arguments::draws_shape(shape, n, dim)?;
    // The output is numpy's own array, written in place: numpy asks the kernel for huge pages
    // for large arrays (`madvise`), which makes the first touch of the 10⁵ × 128 draws about
    // five times cheaper than a page-by-page Rust allocation (chapter 11).
    let array = PyArrayDyn::<f64>::zeros(py, shape, false);
    interruptible::fill(py, &array, move |out| {
        let mut rng = generator(seed);
        if exact {
            let v = vmf::exact::VonMisesFisher::new(&mu, kappa)?;
            for row in out.chunks_mut(dim.max(1)) {
                v.sample_into(&mut rng, row)?;
            }
        } else {
            vmf::VonMisesFisher::new(&mu, kappa)?.sample_n_into(&mut rng, n, out)?;
        }
        Ok(())
    })?;
    Ok(array)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(log_norm_const, m)?)?;
    m.add_function(wrap_pyfunction!(exact_log_norm_const, m)?)?;
    m.add_function(wrap_pyfunction!(mean_resultant_length, m)?)?;
    m.add_function(wrap_pyfunction!(exact_mean_resultant_length, m)?)?;
    m.add_function(wrap_pyfunction!(mean_resultant_length_complement, m)?)?;
    m.add_function(wrap_pyfunction!(exact_mean_resultant_length_complement, m)?)?;
    m.add_function(wrap_pyfunction!(entropy, m)?)?;
    m.add_function(wrap_pyfunction!(exact_entropy, m)?)?;
    m.add_function(wrap_pyfunction!(kl_to_uniform, m)?)?;
    m.add_function(wrap_pyfunction!(exact_kl_to_uniform, m)?)?;
    m.add_function(wrap_pyfunction!(kappa_mle, m)?)?;
    m.add_function(wrap_pyfunction!(exact_kappa_mle, m)?)?;
    m.add_function(wrap_pyfunction!(kappa_sra, m)?)?;
    m.add_function(wrap_pyfunction!(exact_kappa_sra, m)?)?;
    m.add_function(wrap_pyfunction!(log_density, m)?)?;
    m.add_function(wrap_pyfunction!(mean_resultant, m)?)?;
    m.add_function(wrap_pyfunction!(check_vmf, m)?)?;
    m.add_function(wrap_pyfunction!(sample, m)?)?;
    Ok(())
}
