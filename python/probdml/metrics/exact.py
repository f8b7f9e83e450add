"""The exact twins of ``probdml.metrics``: the definitions followed literally (brute-force
search, a full sort per query, AUROC as the Mann–Whitney pair count; slow; references)."""

from __future__ import annotations

from typing import overload

import numpy.typing as npt

from .. import _probdml
from .. import metrics as _fast
from .._twins import documented_as
from .._types import Count, FloatArray
from . import _impl
from ._impl import Calibration, RetrievalReport, Sparsification, scores

__all__ = ["auroc", "auprc", "roc_curve", "expected_calibration_error", "sparsification_curve",
           "recall_at_k", "precision_at_k", "map_at_k", "map_at_r", "r_precision", "evaluate_retrieval",
           "Calibration", "RetrievalReport", "Sparsification"]

_rust = _probdml.metrics


@overload
def auroc(*, id_scores: npt.ArrayLike, ood_scores: npt.ArrayLike) -> float: ...
@overload
def auroc(*, y_true: npt.ArrayLike, y_score: npt.ArrayLike) -> float: ...
@documented_as(_fast.auroc, "metrics")
def auroc(
    *args: object,
    id_scores: npt.ArrayLike | None = None,
    ood_scores: npt.ArrayLike | None = None,
    y_true: npt.ArrayLike | None = None,
    y_score: npt.ArrayLike | None = None,
) -> float:
    ids, oods = _impl.ood_scores("auroc", args, id_scores, ood_scores, y_true, y_score)
    return _rust.auroc(ids, oods, True)


@overload
def auprc(*, id_scores: npt.ArrayLike, ood_scores: npt.ArrayLike) -> float: ...
@overload
def auprc(*, y_true: npt.ArrayLike, y_score: npt.ArrayLike) -> float: ...
@documented_as(_fast.auprc, "metrics")
def auprc(
    *args: object,
    id_scores: npt.ArrayLike | None = None,
    ood_scores: npt.ArrayLike | None = None,
    y_true: npt.ArrayLike | None = None,
    y_score: npt.ArrayLike | None = None,
) -> float:
    ids, oods = _impl.ood_scores("auprc", args, id_scores, ood_scores, y_true, y_score)
    return _rust.auprc(ids, oods, True)


@overload
def roc_curve(*, id_scores: npt.ArrayLike, ood_scores: npt.ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]: ...
@overload
def roc_curve(*, y_true: npt.ArrayLike, y_score: npt.ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]: ...
@documented_as(_fast.roc_curve, "metrics")
def roc_curve(
    *args: object,
    id_scores: npt.ArrayLike | None = None,
    ood_scores: npt.ArrayLike | None = None,
    y_true: npt.ArrayLike | None = None,
    y_score: npt.ArrayLike | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    ids, oods = _impl.ood_scores("roc_curve", args, id_scores, ood_scores, y_true, y_score)
    return _rust.roc_curve(ids, oods, True)


@documented_as(_fast.expected_calibration_error, "metrics")
def expected_calibration_error(confidence: npt.ArrayLike, correct: npt.ArrayLike, bins: Count = 15) -> Calibration:
    return _impl.calibration(confidence, correct, bins, True)


@documented_as(_fast.sparsification_curve, "metrics")
def sparsification_curve(uncertainty: npt.ArrayLike, performance: npt.ArrayLike) -> Sparsification:
    return _impl.sparsification(uncertainty, performance, True)


@documented_as(_fast.recall_at_k, "metrics")
def recall_at_k(embeddings: npt.ArrayLike, labels: npt.ArrayLike, k: Count, *, queries: npt.ArrayLike | None = None,
                query_labels: npt.ArrayLike | None = None, distance: str = "euclidean", threads: Count | None = None) -> float:
    return _impl.retrieval("recall", k, embeddings, labels, queries, query_labels, distance, threads, True)


@documented_as(_fast.precision_at_k, "metrics")
def precision_at_k(embeddings: npt.ArrayLike, labels: npt.ArrayLike, k: Count, *, queries: npt.ArrayLike | None = None,
                   query_labels: npt.ArrayLike | None = None, distance: str = "euclidean", threads: Count | None = None) -> float:
    return _impl.retrieval("precision", k, embeddings, labels, queries, query_labels, distance, threads, True)


@documented_as(_fast.map_at_k, "metrics")
def map_at_k(embeddings: npt.ArrayLike, labels: npt.ArrayLike, k: Count, *, queries: npt.ArrayLike | None = None,
             query_labels: npt.ArrayLike | None = None, distance: str = "euclidean", threads: Count | None = None) -> float:
    return _impl.retrieval("map", k, embeddings, labels, queries, query_labels, distance, threads, True)


@documented_as(_fast.map_at_r, "metrics")
def map_at_r(embeddings: npt.ArrayLike, labels: npt.ArrayLike, *, queries: npt.ArrayLike | None = None,
             query_labels: npt.ArrayLike | None = None, distance: str = "euclidean", threads: Count | None = None) -> float:
    return _impl.retrieval("map_at_r", 0, embeddings, labels, queries, query_labels, distance, threads, True)


@documented_as(_fast.evaluate_retrieval, "metrics")
def evaluate_retrieval(embeddings: npt.ArrayLike, labels: npt.ArrayLike, ks: npt.ArrayLike, *, queries: npt.ArrayLike | None = None,
                       query_labels: npt.ArrayLike | None = None, distance: str = "euclidean", threads: Count | None = None) -> RetrievalReport:
    return _impl.report(embeddings, labels, ks, queries, query_labels, distance, threads, True)


@documented_as(_fast.r_precision, "metrics")
def r_precision(embeddings: npt.ArrayLike, labels: npt.ArrayLike, *, queries: npt.ArrayLike | None = None,
                query_labels: npt.ArrayLike | None = None, distance: str = "euclidean", threads: Count | None = None) -> float:
    return _impl.retrieval("r_precision", 0, embeddings, labels, queries, query_labels, distance, threads, True)
