//! `probdml.metrics` and `probdml.metrics.exact`: OOD scores, calibration, sparsification and
//! retrieval on `float32` or `float64` embeddings.

use crate::compute::{compute, compute_named, named};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use probdml::metrics::{self, exact, Distance, Embeddings, Retrieval};
use probdml::Error;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

type Slice<'py> = PyReadonlyArray1<'py, f64>;
type Vector<'py> = Bound<'py, PyArray1<f64>>;

/// Class labels as the crate's `usize`; a negative one is an error naming the argument.
pub fn labels_of(arg: &'static str, labels: &[i64]) -> probdml::Result<Vec<usize>> {
    labels
        .iter()
        .map(|&l| {
            usize::try_from(l).map_err(|_| Error::OutOfDomain {
                arg,
                value: l as f64,
                rule: "a class label is a non-negative integer",
            })
        })
        .collect()
}

#[pyfunction]
pub fn auroc(
    py: Python<'_>,
    id_scores: Slice<'_>,
    ood_scores: Slice<'_>,
    exact: bool,
) -> PyResult<f64> {
    let (id, ood) = (id_scores.as_slice()?, ood_scores.as_slice()?);
    compute(py, || {
        if exact {
            exact::auroc(id, ood)
        } else {
            metrics::auroc(id, ood)
        }
    })
}

#[pyfunction]
pub fn auprc(
    py: Python<'_>,
    id_scores: Slice<'_>,
    ood_scores: Slice<'_>,
    exact: bool,
) -> PyResult<f64> {
    let (id, ood) = (id_scores.as_slice()?, ood_scores.as_slice()?);
    compute(py, || {
        if exact {
            exact::auprc(id, ood)
        } else {
            metrics::auprc(id, ood)
        }
    })
}

#[pyfunction]
pub fn roc_curve<'py>(
    py: Python<'py>,
    id_scores: Slice<'py>,
    ood_scores: Slice<'py>,
    exact: bool,
) -> PyResult<(Vector<'py>, Vector<'py>, Vector<'py>)> {
    let (id, ood) = (id_scores.as_slice()?, ood_scores.as_slice()?);
    let r = compute(py, || {
        if exact {
            exact::roc_curve(id, ood)
        } else {
            metrics::roc_curve(id, ood)
        }
    })?;
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
    confidence: Slice<'py>,
    correct: PyReadonlyArray1<'py, bool>,
    bins: usize,
    exact: bool,
) -> PyResult<(f64, Bound<'py, PyArray1<usize>>, Vector<'py>, Vector<'py>)> {
    let (confidence, correct) = (confidence.as_slice()?, correct.as_slice()?);
    let c = compute(py, || {
        if exact {
            exact::expected_calibration_error(confidence, correct, bins)
        } else {
            metrics::expected_calibration_error(confidence, correct, bins)
        }
    })?;
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
    uncertainty: Slice<'py>,
    performance: Slice<'py>,
    exact: bool,
) -> PyResult<(Vector<'py>, Vector<'py>, Vector<'py>, f64, f64, f64)> {
    let (u, p) = (uncertainty.as_slice()?, performance.as_slice()?);
    let s = compute(py, || {
        if exact {
            exact::sparsification_curve(u, p)
        } else {
            metrics::sparsification_curve(u, p)
        }
    })?;
    Ok((
        s.fractions.into_pyarray(py),
        s.curve.into_pyarray(py),
        s.oracle.into_pyarray(py),
        s.ausc,
        s.oracle_ausc,
        s.area_between,
    ))
}

/// Row-major embeddings borrowed from numpy in their own precision: `float32` is never
/// widened into a copy (the crate widens each coordinate where it computes with it).
pub enum Coordinates<'py> {
    F32(PyReadonlyArray1<'py, f32>),
    F64(PyReadonlyArray1<'py, f64>),
}

impl<'py> Coordinates<'py> {
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

    fn embeddings(&self, dim: usize) -> PyResult<probdml::Result<Embeddings<'_>>> {
        Ok(match self {
            Self::F32(a) => Embeddings::from_f32(a.as_slice()?, dim),
            Self::F64(a) => Embeddings::new(a.as_slice()?, dim),
        })
    }
}

/// One retrieval metric (`recall`, `precision`, `map` at k; `map_at_r`, `r_precision`) of a
/// leave-one-out task (no `queries`) or a query/database task, as a one-element list; or, for
/// `report`, recall, precision and mAP at each of `ks` from one search (3·len(ks) values).
#[pyfunction]
#[pyo3(signature = (metric, k, embeddings, labels, dim, queries, query_labels, distance, threads, exact, ks))]
#[allow(clippy::too_many_arguments)]
pub fn retrieval<'py>(
    py: Python<'py>,
    metric: &str,
    k: usize,
    embeddings: &Bound<'py, PyAny>,
    labels: PyReadonlyArray1<'py, i64>,
    dim: usize,
    queries: Option<&Bound<'py, PyAny>>,
    query_labels: Option<PyReadonlyArray1<'py, i64>>,
    distance: &str,
    threads: Option<usize>,
    exact: bool,
    ks: Vec<usize>,
) -> PyResult<Vec<f64>> {
    let database = Coordinates::extract("embeddings", embeddings)?;
    let queries = queries
        .map(|q| Coordinates::extract("queries", q))
        .transpose()?;
    let database = database.embeddings(dim)?;
    let queries = match &queries {
        Some(q) => Some(q.embeddings(dim)?),
        None => None,
    };
    let labels = labels.as_slice()?;
    let query_labels = match &query_labels {
        Some(q) => Some(q.as_slice()?),
        None => None,
    };
    let distance = match distance {
        "euclidean" => Distance::Euclidean,
        "cosine" => Distance::Cosine,
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "argument `distance` = {other:?} is not one of 'euclidean', 'cosine'"
            )))
        }
    };
    let metric = metric.to_string();
    compute_named(py, move || {
        let database = database.map_err(named(&[("data", "embeddings")]))?;
        let queries = queries.transpose().map_err(named(&[("data", "queries")]))?;
        let labels = labels_of("labels", labels)?;
        let query_labels = query_labels
            .map(|q| labels_of("query_labels", q))
            .transpose()?;
        let task = match (queries, &query_labels) {
            (Some(q), Some(ql)) => Retrieval::query_database(q, ql, database, &labels, distance)?,
            _ => Retrieval::leave_one_out(database, &labels, distance)?,
        };
        let task = match threads {
            Some(t) => task.with_threads(t)?,
            None => task,
        };
        if metric == "report" {
            let r = if exact {
                exact::evaluate_retrieval(&task, &ks)?
            } else {
                metrics::evaluate_retrieval(&task, &ks)?
            };
            return Ok([r.recall, r.precision, r.map].concat());
        }
        Ok(vec![match (metric.as_str(), exact) {
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
        }?])
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
