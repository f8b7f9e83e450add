"""The exact twins of ``probdml.metrics``: the definitions followed literally (brute-force
search, a full sort per query, AUROC as the Mann–Whitney pair count; slow; references)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _probdml
from . import _impl
from ._impl import Calibration, RetrievalReport, Sparsification, scores

__all__ = ["auroc", "auprc", "roc_curve", "expected_calibration_error", "sparsification_curve",
           "recall_at_k", "precision_at_k", "map_at_k", "map_at_r", "r_precision", "evaluate_retrieval",
           "Calibration", "RetrievalReport", "Sparsification"]

_rust = _probdml.metrics


def auroc(*args: Any, id_scores: Any = None, ood_scores: Any = None, y_true: Any = None, y_score: Any = None) -> float:
    """Area under the ROC curve with OOD as the positive class: P(s_ood > s_id) + ½ P(s_ood = s_id).

    Keyword arguments only: ``id_scores=…, ood_scores=…``, or scikit-learn's ``y_true=…,
    y_score=…`` (``y_true`` 1 for OOD)."""
    ids, oods = _impl.ood_scores("auroc", args, id_scores, ood_scores, y_true, y_score)
    return _rust.auroc(ids, oods, True)


def auprc(*args: Any, id_scores: Any = None, ood_scores: Any = None, y_true: Any = None, y_score: Any = None) -> float:
    """Area under the precision–recall curve with OOD positive (step-wise average precision).

    Keyword arguments only: ``id_scores=…, ood_scores=…``, or scikit-learn's ``y_true=…,
    y_score=…`` (``y_true`` 1 for OOD)."""
    ids, oods = _impl.ood_scores("auprc", args, id_scores, ood_scores, y_true, y_score)
    return _rust.auprc(ids, oods, True)


def roc_curve(*args: Any, id_scores: Any = None, ood_scores: Any = None, y_true: Any = None, y_score: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(false positive rate, true positive rate, thresholds), OOD positive.

    Keyword arguments only: ``id_scores=…, ood_scores=…``, or scikit-learn's ``y_true=…,
    y_score=…`` (``y_true`` 1 for OOD)."""
    ids, oods = _impl.ood_scores("roc_curve", args, id_scores, ood_scores, y_true, y_score)
    return _rust.roc_curve(ids, oods, True)


def expected_calibration_error(confidence: Any, correct: Any, bins: int = 15) -> Calibration:
    """The ECE over ``bins`` equal-width confidence bins, with the bins."""
    return _impl.calibration(confidence, correct, bins, True)


def sparsification_curve(uncertainty: Any, performance: Any) -> Sparsification:
    """The sparsification curve of per-query ``performance`` ordered by ``uncertainty``, and AUSC."""
    return _impl.sparsification(uncertainty, performance, True)


def recall_at_k(embeddings: Any, labels: Any, k: int, *, queries: Any = None, query_labels: Any = None,
                distance: str = "euclidean", threads: int | None = None) -> float:
    """Recall@k: the share of queries with a positive (same label) among their k nearest
    neighbours. Without ``queries`` every embedding queries the others (leave-one-out)."""
    return _impl.retrieval("recall", k, embeddings, labels, queries, query_labels, distance, threads, True)


def precision_at_k(embeddings: Any, labels: Any, k: int, *, queries: Any = None, query_labels: Any = None,
                   distance: str = "euclidean", threads: int | None = None) -> float:
    """Precision@k, averaged over queries."""
    return _impl.retrieval("precision", k, embeddings, labels, queries, query_labels, distance, threads, True)


def map_at_k(embeddings: Any, labels: Any, k: int, *, queries: Any = None, query_labels: Any = None,
             distance: str = "euclidean", threads: int | None = None) -> float:
    """mAP@k, averaged over queries."""
    return _impl.retrieval("map", k, embeddings, labels, queries, query_labels, distance, threads, True)


def map_at_r(embeddings: Any, labels: Any, *, queries: Any = None, query_labels: Any = None,
             distance: str = "euclidean", threads: int | None = None) -> float:
    """mAP@R (Musgrave et al. 2020): R = the query's number of positives."""
    return _impl.retrieval("map_at_r", 0, embeddings, labels, queries, query_labels, distance, threads, True)


def evaluate_retrieval(embeddings: Any, labels: Any, ks: Any, *, queries: Any = None, query_labels: Any = None,
                       distance: str = "euclidean", threads: int | None = None) -> RetrievalReport:
    """Recall@k, precision@k and mAP@k at every k of ``ks`` from one nearest-neighbour search."""
    return _impl.retrieval("report", 0, embeddings, labels, queries, query_labels, distance, threads, True, ks)


def r_precision(embeddings: Any, labels: Any, *, queries: Any = None, query_labels: Any = None,
                distance: str = "euclidean", threads: int | None = None) -> float:
    """R-precision: precision at R = the query's number of positives."""
    return _impl.retrieval("r_precision", 0, embeddings, labels, queries, query_labels, distance, threads, True)
