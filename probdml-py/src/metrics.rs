//! `probdml.metrics` and `probdml.metrics.exact`: OOD scores, calibration, sparsification and
//! retrieval on `float32` or `float64` scores and embeddings.

use crate::arguments;
use crate::compute::{compute, named};
use crate::interruptible::interruptible;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use probdml::metrics::{self, exact, Distance, Embeddings, Labels, OodScores, Retrieval};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use std::borrow::Cow;

type Slice<'py> = PyReadonlyArray1<'py, f64>;
type Vector<'py> = Bound<'py, PyArray1<f64>>;

/// Class labels as `usize`, for the functions that take them so; a negative one is an error
/// naming the argument and its index (the crate's own check of class labels).
pub fn labels_of(arg: &'static str, labels: &[i64]) -> probdml::Result<Vec<usize>> {
    Labels::I64(labels).check(arg)?;
    // Checked non-negative, and the extension is built for 64-bit targets: exact.
    Ok(labels.iter().map(|&l| l as usize).collect())
}

/// A 1-D `float32` or `float64` array borrowed from numpy in its own precision: scores,
/// uncertainties, confidences, or row-major embeddings. `float32` reaches the fast twins without
/// a widened copy (they take either precision; retrieval widens each coordinate where it computes
/// with it). The exact twins are written in `f64`, so for them, and when two score sets differ
/// in precision, `float32` is widened (exactly).
pub enum Floats<'py> {
    F32(PyReadonlyArray1<'py, f32>),
    F64(PyReadonlyArray1<'py, f64>),
}

impl<'py> Floats<'py> {
    fn extract(arg: &str, ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(a) = ob.extract::<PyReadonlyArray1<'py, f32>>() {
            return Ok(Self::F32(a));
        }
        if let Ok(a) = ob.extract::<PyReadonlyArray1<'py, f64>>() {
            return Ok(Self::F64(a));
        }
        Err(PyTypeError::new_err(format!(
            "argument `{arg}` must be a 1-D float32 or float64 numpy array"
        )))
    }

    /// The values in `f64`: borrowed when they are, widened otherwise.
    fn widened(&self) -> PyResult<Cow<'_, [f64]>> {
        Ok(match self {
            Self::F32(a) => Cow::Owned(a.as_slice()?.iter().map(|&x| f64::from(x)).collect()),
            Self::F64(a) => Cow::Borrowed(a.as_slice()?),
        })
    }
}

/// [`Floats`] copied out of numpy, for work that may outlive the call
/// ([`crate::interruptible`]).
enum Owned {
    F32(Vec<f32>),
    F64(Vec<f64>),
}

impl Floats<'_> {
    fn owned(&self) -> PyResult<Owned> {
        Ok(match self {
            Self::F32(a) => Owned::F32(a.as_slice()?.to_vec()),
            Self::F64(a) => Owned::F64(a.as_slice()?.to_vec()),
        })
    }
}

impl Owned {
    fn embeddings(&self, dim: usize) -> probdml::Result<Embeddings<'_>> {
        match self {
            Self::F32(a) => Embeddings::from_f32(a, dim),
            Self::F64(a) => Embeddings::new(a, dim),
        }
    }
}

/// One OOD metric of an (ID, OOD) pair of score sets: both `float32` go to the fast twin as
/// they are; otherwise both in `f64`.
fn ood_pair<T: Send>(
    py: Python<'_>,
    id_scores: &Bound<'_, PyAny>,
    ood_scores: &Bound<'_, PyAny>,
    exact: bool,
    fast32: impl FnOnce(&[f32], &[f32]) -> probdml::Result<T> + Send,
    fast64: impl FnOnce(&[f64], &[f64]) -> probdml::Result<T> + Send,
    exact64: impl FnOnce(&[f64], &[f64]) -> probdml::Result<T> + Send,
) -> PyResult<T> {
    let id = Floats::extract("id_scores", id_scores)?;
    let ood = Floats::extract("ood_scores", ood_scores)?;
    if let (Floats::F32(a), Floats::F32(b), false) = (&id, &ood, exact) {
        let (a, b) = (a.as_slice()?, b.as_slice()?);
        return compute(py, || fast32(a, b));
    }
    let (a, b) = (id.widened()?, ood.widened()?);
    let (a, b) = (&*a, &*b);
    compute(py, || if exact { exact64(a, b) } else { fast64(a, b) })
}

#[pyfunction]
pub fn auroc(
    py: Python<'_>,
    id_scores: &Bound<'_, PyAny>,
    ood_scores: &Bound<'_, PyAny>,
    exact: bool,
) -> PyResult<f64> {
    ood_pair(
        py,
        id_scores,
        ood_scores,
        exact,
        |id, ood| OodScores { id, ood }.auroc(),
        |id, ood| OodScores { id, ood }.auroc(),
        exact::auroc,
    )
}

#[pyfunction]
pub fn auprc(
    py: Python<'_>,
    id_scores: &Bound<'_, PyAny>,
    ood_scores: &Bound<'_, PyAny>,
    exact: bool,
) -> PyResult<f64> {
    ood_pair(
        py,
        id_scores,
        ood_scores,
        exact,
        |id, ood| OodScores { id, ood }.auprc(),
        |id, ood| OodScores { id, ood }.auprc(),
        exact::auprc,
    )
}

#[pyfunction]
pub fn roc_curve<'py>(
    py: Python<'py>,
    id_scores: &Bound<'py, PyAny>,
    ood_scores: &Bound<'py, PyAny>,
    exact: bool,
) -> PyResult<(Vector<'py>, Vector<'py>, Vector<'py>)> {
    let r = ood_pair(
        py,
        id_scores,
        ood_scores,
        exact,
        |id, ood| OodScores { id, ood }.roc_curve(),
        |id, ood| OodScores { id, ood }.roc_curve(),
        exact::roc_curve,
    )?;
    Ok((
        r.false_positive_rate.into_pyarray(py),
        r.true_positive_rate.into_pyarray(py),
        r.thresholds.into_pyarray(py),
    ))
}

/// (ECE, per-bin count, accuracy, confidence) over equal-width bins.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn expected_calibration_error<'py>(
    py: Python<'py>,
    confidence: &Bound<'py, PyAny>,
    correct: PyReadonlyArray1<'py, bool>,
    bins: &Bound<'py, PyAny>,
    exact: bool,
) -> PyResult<(f64, Bound<'py, PyArray1<usize>>, Vector<'py>, Vector<'py>)> {
    let bins = arguments::count(bins, "bins")?;
    let confidence = Floats::extract("confidence", confidence)?;
    let correct = correct.as_slice()?;
    let c = match (&confidence, exact) {
        (Floats::F32(a), false) => {
            let a = a.as_slice()?;
            compute(py, || metrics::expected_calibration_error(a, correct, bins))?
        }
        _ => {
            let a = confidence.widened()?;
            let a = &*a;
            compute(py, || {
                if exact {
                    exact::expected_calibration_error(a, correct, bins)
                } else {
                    metrics::expected_calibration_error(a, correct, bins)
                }
            })?
        }
    };
    let counts: Vec<usize> = c.bins.iter().map(|b| b.count).collect();
    let accuracy: Vec<f64> = c.bins.iter().map(|b| b.accuracy).collect();
    let conf: Vec<f64> = c.bins.iter().map(|b| b.confidence).collect();
    Ok((
        c.ece,
        counts.into_pyarray(py),
        accuracy.into_pyarray(py),
        conf.into_pyarray(py),
    ))
}

/// (fractions, curve, oracle, AUSC, oracle AUSC, area between).
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn sparsification_curve<'py>(
    py: Python<'py>,
    uncertainty: &Bound<'py, PyAny>,
    performance: Slice<'py>,
    exact: bool,
) -> PyResult<(Vector<'py>, Vector<'py>, Vector<'py>, f64, f64, f64)> {
    let uncertainty = Floats::extract("uncertainty", uncertainty)?;
    let p = performance.as_slice()?;
    let s = match (&uncertainty, exact) {
        (Floats::F32(u), false) => {
            let u = u.as_slice()?;
            compute(py, || metrics::sparsification_curve(u, p))?
        }
        _ => {
            let u = uncertainty.widened()?;
            let u = &*u;
            compute(py, || {
                if exact {
                    exact::sparsification_curve(u, p)
                } else {
                    metrics::sparsification_curve(u, p)
                }
            })?
        }
    };
    Ok((
        s.fractions.into_pyarray(py),
        s.curve.into_pyarray(py),
        s.oracle.into_pyarray(py),
        s.ausc,
        s.oracle_ausc,
        s.area_between,
    ))
}

/// The names of `distance`.
const DISTANCES: &[&str] = &["euclidean", "cosine"];

/// One retrieval metric (`recall`, `precision`, `map` at k; `map_at_r`, `r_precision`) of a
/// leave-one-out task (no `queries`) or a query/database task, as a one-element list; or, for
/// `report`, recall, precision and mAP at each of `ks` from one search (3·len(ks) values).
/// The search runs for seconds on a large database, so it is [`interruptible`]: the
/// embeddings are copied for the worker.
#[pyfunction]
#[pyo3(signature = (metric, k, embeddings, labels, dim, queries, query_labels, distance, threads, exact, ks))]
#[allow(clippy::too_many_arguments)]
pub fn retrieval<'py>(
    py: Python<'py>,
    metric: &str,
    k: &Bound<'py, PyAny>,
    embeddings: &Bound<'py, PyAny>,
    labels: PyReadonlyArray1<'py, i64>,
    dim: usize,
    queries: Option<&Bound<'py, PyAny>>,
    query_labels: Option<PyReadonlyArray1<'py, i64>>,
    distance: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
    exact: bool,
    ks: &Bound<'py, PyAny>,
) -> PyResult<Vec<f64>> {
    let report = metric == "report";
    let k = if report { 0 } else { arguments::count(k, "k")? };
    let ks = if report {
        ks.try_iter()?
            .map(|x| arguments::count(&x?, "ks"))
            .collect::<PyResult<Vec<usize>>>()?
    } else {
        Vec::new()
    };
    let threads = arguments::optional_count(threads, "threads")?;
    let distance = match arguments::choice(distance, "distance", DISTANCES)? {
        "euclidean" => Distance::Euclidean,
        _ => Distance::Cosine,
    };
    let database = Floats::extract("embeddings", embeddings)?.owned()?;
    let queries = queries
        .map(|q| Floats::extract("queries", q)?.owned())
        .transpose()?;
    let labels = labels.as_slice()?.to_vec();
    let query_labels = query_labels
        .map(|q| q.as_slice().map(<[i64]>::to_vec))
        .transpose()?;
    let metric = metric.to_string();
    // The crate checks a single `k` as an element of a list of ks: the message names `k`.
    let k_names: &'static [(&str, &str)] = if report { &[] } else { &[("ks", "k")] };
    interruptible(py, move || {
        let database = database
            .embeddings(dim)
            .map_err(named(&[("data", "embeddings")]))?;
        let queries = queries
            .as_ref()
            .map(|q| q.embeddings(dim))
            .transpose()
            .map_err(named(&[("data", "queries")]))?;
        // numpy's int64 labels as they are: the task checks them (a negative one is refused
        // naming its index).
        let task = match (queries, &query_labels) {
            (Some(q), Some(ql)) => {
                Retrieval::query_database(q, ql.as_slice(), database, labels.as_slice(), distance)?
            }
            _ => Retrieval::leave_one_out(database, labels.as_slice(), distance)?,
        };
        let task = match threads {
            Some(t) => task.with_threads(t)?,
            None => task,
        };
        if report {
            let r = if exact {
                exact::evaluate_retrieval(&task, &ks)?
            } else {
                metrics::evaluate_retrieval(&task, &ks)?
            };
            return Ok([r.recall, r.precision, r.map].concat());
        }
        let value = match (metric.as_str(), exact) {
            ("recall", false) => metrics::recall_at_k(&task, k),
            ("recall", true) => exact::recall_at_k(&task, k),
            ("precision", false) => metrics::precision_at_k(&task, k),
            ("precision", true) => exact::precision_at_k(&task, k),
            ("map", false) => metrics::map_at_k(&task, k),
            ("map", true) => exact::map_at_k(&task, k),
            ("map_at_r", false) => metrics::map_at_r(&task),
            ("map_at_r", true) => exact::map_at_r(&task),
            ("r_precision", false) => metrics::r_precision(&task),
            _ => exact::r_precision(&task),
        }
        .map_err(named(k_names))?;
        Ok(vec![value])
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(auroc, m)?)?;
    m.add_function(wrap_pyfunction!(auprc, m)?)?;
    m.add_function(wrap_pyfunction!(roc_curve, m)?)?;
    m.add_function(wrap_pyfunction!(expected_calibration_error, m)?)?;
    m.add_function(wrap_pyfunction!(sparsification_curve, m)?)?;
    m.add_function(wrap_pyfunction!(retrieval, m)?)?;
    Ok(())
}
