"""OOD scores, calibration, sparsification and retrieval, written once for both twins."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .. import _probdml
from .._arrays import floats, labels, real, vector
from .._types import Count, FloatArray

_rust = _probdml.metrics


class Calibration(NamedTuple):
    """The ECE and, per equal-width bin, the item count, mean accuracy and mean confidence.

    Attributes
    ----------
    ece : float
        The expected calibration error.
    counts : numpy.ndarray of numpy.uintp
        The number of items of each bin, shape ``(bins,)``.
    accuracy : numpy.ndarray of float64
        The share of correct items of each bin (0 for an empty bin).
    confidence : numpy.ndarray of float64
        The mean confidence of each bin (0 for an empty bin).
    """

    ece: float
    counts: npt.NDArray[np.uintp]
    accuracy: FloatArray
    confidence: FloatArray


class Sparsification(NamedTuple):
    """The sparsification curve (performance after removing the most uncertain fraction), the
    oracle's curve, their areas (AUSC) and the area between them.

    Attributes
    ----------
    fractions : numpy.ndarray of float64
        The fractions removed, i/100 for i = 0 … 99.
    curve : numpy.ndarray of float64
        The mean performance left after removing the most uncertain fraction.
    oracle : numpy.ndarray of float64
        The same with the queries removed in order of increasing performance.
    ausc : float
        The trapezoid area under ``curve`` (spacing 1/100).
    oracle_ausc : float
        The area under ``oracle``.
    area_between : float
        ``oracle_ausc − ausc``.
    """

    fractions: FloatArray
    curve: FloatArray
    oracle: FloatArray
    ausc: float
    oracle_ausc: float
    area_between: float


def scores(arg: str, value: object) -> npt.NDArray[np.float32] | FloatArray:
    """Scores, uncertainties or confidences as a 1-D C-contiguous array: ``float32`` stays
    ``float32`` (the crate reads it in place, without upcasting), anything else is ``float64``."""
    a = real(arg, value)
    if a.dtype != np.float32:
        return vector(arg, a)
    if a.ndim > 1:
        raise ValueError(f"argument `{arg}` must be 1-D, got shape {a.shape}")
    return np.ascontiguousarray(a).reshape(-1)


def ood_scores(
    name: str, args: tuple[object, ...], id_scores: npt.ArrayLike | None, ood_scores: npt.ArrayLike | None,
    y_true: npt.ArrayLike | None, y_score: npt.ArrayLike | None,
) -> tuple[npt.NDArray[np.float32] | FloatArray, npt.NDArray[np.float32] | FloatArray]:
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


def calibration(confidence: npt.ArrayLike, correct: npt.ArrayLike, bins: Count, exact: bool) -> Calibration:
    ok = real("correct", correct)
    if ok.dtype != np.bool_:
        if ok.dtype.kind not in "iu" or not np.all((ok == 0) | (ok == 1)):
            raise ValueError(f"argument `correct` must hold booleans (or 0/1), got dtype {ok.dtype}")
        ok = ok.astype(np.bool_)
    ok = np.ascontiguousarray(ok).reshape(-1)
    return Calibration(*_rust.expected_calibration_error(scores("confidence", confidence), ok, bins, exact))


def sparsification(uncertainty: npt.ArrayLike, performance: npt.ArrayLike, exact: bool) -> Sparsification:
    return Sparsification(*_rust.sparsification_curve(scores("uncertainty", uncertainty), vector("performance", performance), exact))


def embeddings(arg: str, value: npt.ArrayLike) -> tuple[npt.NDArray[np.float32] | FloatArray, int]:
    """Rows of ``float32`` or ``float64`` as a flat buffer of the same dtype: a C-contiguous
    array is passed as is (``float32`` is never widened into a copy)."""
    a = real(arg, value)
    if a.dtype not in (np.float32, np.float64):
        a = floats(arg, a)
    if a.ndim != 2:
        raise ValueError(f"argument `{arg}` must be 2-D (rows of embeddings), got shape {a.shape}")
    return np.ascontiguousarray(a).reshape(-1), a.shape[1]


class RetrievalReport(NamedTuple):
    """Recall@k, precision@k and mAP@k at each k of ``ks``, from one search.

    Attributes
    ----------
    ks : tuple of int
        The values of k, in the order given.
    recall, precision, map : numpy.ndarray of float64
        The metric at each k, shape ``(len(ks),)``.
    """

    ks: tuple[int, ...]
    recall: FloatArray
    precision: FloatArray
    map: FloatArray


def _search(
    metric: str, k: Count, embeddings_: npt.ArrayLike, labels_: npt.ArrayLike, queries: npt.ArrayLike | None,
    query_labels: npt.ArrayLike | None, distance: str, threads: Count | None, exact: bool, ks: list[Any],
) -> list[float]:
    flat, dim = embeddings(arg="embeddings", value=embeddings_)
    q = ql = None
    if (queries is None) != (query_labels is None):
        raise ValueError("arguments `queries` and `query_labels` go together: give both or neither")
    if queries is not None:
        q, qdim = embeddings("queries", queries)
        if qdim != dim:
            raise ValueError(f"dimension mismatch: `queries` has rows of length {qdim}, expected {dim} (the row length of `embeddings`)")
        ql = labels("query_labels", query_labels)
    return _rust.retrieval(metric, k, flat, labels("labels", labels_), dim, q, ql, distance, threads, exact, ks)


def retrieval(
    metric: str, k: Count, embeddings_: npt.ArrayLike, labels_: npt.ArrayLike, queries: npt.ArrayLike | None,
    query_labels: npt.ArrayLike | None, distance: str, threads: Count | None, exact: bool,
) -> float:
    """The retrieval metric ``metric`` ("recall", "precision", "map", "map_at_r", "r_precision")."""
    return _search(metric, k, embeddings_, labels_, queries, query_labels, distance, threads, exact, [])[0]


def report(
    embeddings_: npt.ArrayLike, labels_: npt.ArrayLike, ks: npt.ArrayLike, queries: npt.ArrayLike | None,
    query_labels: npt.ArrayLike | None, distance: str, threads: Count | None, exact: bool,
) -> RetrievalReport:
    """Recall, precision and mAP at each k of ``ks``, from one search."""
    # `ks` is an array argument (its dtype checked here); the extension checks each k.
    wanted: list[Any] = real("ks", ks).reshape(-1).tolist()
    values = np.asarray(_search("report", 0, embeddings_, labels_, queries, query_labels, distance, threads, exact, wanted))
    n = len(wanted)
    return RetrievalReport(tuple(wanted), values[:n], values[n : 2 * n], values[2 * n :])
