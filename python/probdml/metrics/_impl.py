"""OOD scores, calibration, sparsification and retrieval, written once for both twins."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import _probdml
from .._arrays import count, floats, labels, real, vector

_rust = _probdml.metrics


class Calibration(NamedTuple):
    """The ECE and, per equal-width bin, the item count, mean accuracy and mean confidence."""

    ece: float
    counts: np.ndarray
    accuracy: np.ndarray
    confidence: np.ndarray


class Sparsification(NamedTuple):
    """The sparsification curve (performance after removing the most uncertain fraction), the
    oracle's curve, their areas (AUSC) and the area between them."""

    fractions: np.ndarray
    curve: np.ndarray
    oracle: np.ndarray
    ausc: float
    oracle_ausc: float
    area_between: float


def scores(arg: str, value: Any) -> np.ndarray:
    """Scores, uncertainties or confidences as a 1-D C-contiguous array: ``float32`` stays
    ``float32`` (the crate reads it in place, without upcasting), anything else is ``float64``."""
    a = real(arg, value)
    if a.dtype != np.float32:
        return vector(arg, a)
    if a.ndim > 1:
        raise ValueError(f"argument `{arg}` must be 1-D, got shape {a.shape}")
    return np.ascontiguousarray(a).reshape(-1)


def calibration(confidence: Any, correct: Any, bins: int, exact: bool) -> Calibration:
    ok = real("correct", correct)
    if ok.dtype != np.bool_:
        if ok.dtype.kind not in "iu" or not np.all((ok == 0) | (ok == 1)):
            raise ValueError(f"argument `correct` must hold booleans (or 0/1), got dtype {ok.dtype}")
        ok = ok.astype(np.bool_)
    ok = np.ascontiguousarray(ok).reshape(-1)
    return Calibration(*_rust.expected_calibration_error(scores("confidence", confidence), ok, count("bins", bins), exact))


def sparsification(uncertainty: Any, performance: Any, exact: bool) -> Sparsification:
    return Sparsification(*_rust.sparsification_curve(scores("uncertainty", uncertainty), vector("performance", performance), exact))


def embeddings(arg: str, value: Any) -> tuple[np.ndarray, int]:
    """Rows of ``float32`` or ``float64`` as a flat buffer of the same dtype: a C-contiguous
    array is passed as is (``float32`` is never widened into a copy)."""
    a = real(arg, value)
    if a.dtype not in (np.float32, np.float64):
        a = floats(arg, a)
    if a.ndim != 2:
        raise ValueError(f"argument `{arg}` must be 2-D (rows of embeddings), got shape {a.shape}")
    return np.ascontiguousarray(a).reshape(-1), a.shape[1]


class RetrievalReport(NamedTuple):
    """Recall@k, precision@k and mAP@k at each k of ``ks``, from one search."""

    ks: tuple[int, ...]
    recall: np.ndarray
    precision: np.ndarray
    map: np.ndarray


def retrieval(
    metric: str, k: int, embeddings_: Any, labels_: Any, queries: Any, query_labels: Any,
    distance: str, threads: int | None, exact: bool, ks: tuple[int, ...] = (),
) -> Any:
    flat, dim = embeddings(arg="embeddings", value=embeddings_)
    q = ql = None
    if (queries is None) != (query_labels is None):
        raise ValueError("arguments `queries` and `query_labels` go together: give both or neither")
    if queries is not None:
        q, qdim = embeddings("queries", queries)
        if qdim != dim:
            raise ValueError(f"dimension mismatch: `queries` has rows of length {qdim}, expected {dim} (the row length of `embeddings`)")
        ql = labels("query_labels", query_labels)
    t = None if threads is None else count("threads", threads)
    ks = tuple(count("ks", x) for x in real("ks", ks).reshape(-1))
    out = _rust.retrieval(metric, count("k", k), flat, labels("labels", labels_), dim, q, ql, distance, t, exact, list(ks))
    if metric != "report":
        return out[0]
    n = len(ks)
    values = np.asarray(out)
    return RetrievalReport(ks, values[:n], values[n : 2 * n], values[2 * n :])
