"""OOD scores, calibration, sparsification and retrieval, written once for both twins."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import _probdml
from .._arrays import floats, labels, real, vector

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


def ood_scores(name: str, args: tuple[Any, ...], id_scores: Any, ood_scores: Any, y_true: Any, y_score: Any) -> tuple[np.ndarray, np.ndarray]:
    """The (ID, OOD) score sets of the OOD metric ``name``, given by keyword in one of two forms:
    ``id_scores=…, ood_scores=…``, or scikit-learn's ``y_true=…, y_score=…`` with ``y_true`` 1 (or
    True) for OOD, the positive class.

    Positional arguments are refused: scikit-learn's ``roc_auc_score(y_true, y_score)`` puts the
    labels first, so ``auroc(labels, scores)`` would silently score the labels as ID scores."""
    form = f"{name}(id_scores=..., ood_scores=...) (OOD is the positive class), or scikit-learn's {name}(y_true=..., y_score=...)"
    if args:
        raise TypeError(f"{name}() takes keyword arguments only ({len(args)} positional given): call {form}")
    ours = id_scores is not None or ood_scores is not None
    theirs = y_true is not None or y_score is not None
    if ours and theirs:
        raise TypeError(f"{name}() takes either (id_scores, ood_scores) or (y_true, y_score), not both: call {form}")
    if not theirs:
        for arg, value in (("id_scores", id_scores), ("ood_scores", ood_scores)):
            if value is None:
                raise TypeError(f"{name}() is missing the keyword argument `{arg}`: call {form}")
        return scores("id_scores", id_scores), scores("ood_scores", ood_scores)
    for arg, value in (("y_true", y_true), ("y_score", y_score)):
        if value is None:
            raise TypeError(f"{name}() is missing the keyword argument `{arg}`: call {form}")
    truth, score = real("y_true", y_true), scores("y_score", y_score)
    if truth.shape != score.shape:
        raise ValueError(f"dimension mismatch: `y_true` has shape {truth.shape}, expected {score.shape} (the shape of `y_score`)")
    if truth.dtype != np.bool_:
        if not np.all((truth == 0) | (truth == 1)):
            raise ValueError("argument `y_true` must hold 0 (in-distribution) or 1 (OOD, the positive class)")
        truth = truth == 1
    return np.ascontiguousarray(score[~truth]), np.ascontiguousarray(score[truth])


def calibration(confidence: Any, correct: Any, bins: int, exact: bool) -> Calibration:
    ok = real("correct", correct)
    if ok.dtype != np.bool_:
        if ok.dtype.kind not in "iu" or not np.all((ok == 0) | (ok == 1)):
            raise ValueError(f"argument `correct` must hold booleans (or 0/1), got dtype {ok.dtype}")
        ok = ok.astype(np.bool_)
    ok = np.ascontiguousarray(ok).reshape(-1)
    return Calibration(*_rust.expected_calibration_error(scores("confidence", confidence), ok, bins, exact))


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
    distance: str, threads: int | None, exact: bool, ks: Any = (),
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
    # `ks` is an array argument (its dtype checked here); the extension checks each k.
    ks = real("ks", ks).reshape(-1).tolist()
    out = _rust.retrieval(metric, k, flat, labels("labels", labels_), dim, q, ql, distance, threads, exact, ks)
    if metric != "report":
        return out[0]
    ks = tuple(ks)
    n = len(ks)
    values = np.asarray(out)
    return RetrievalReport(ks, values[:n], values[n : 2 * n], values[2 * n :])
