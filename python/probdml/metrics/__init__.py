"""Uncertainty and retrieval metrics: AUROC and AUPRC (OOD is the positive class), ECE, the
sparsification curve and its area (AUSC), recall@k, precision@k, mAP@k, mAP@R and R-precision on
``float32`` or ``float64`` scores and embeddings (``float32`` is read without a copy).

Conventions, as the Rust crate states them (``probdml::metrics``): ties in distance are broken
by database index; a query without any positive is left out of every mean; AUROC counts a tied
(OOD, ID) pair as ½ and AUPRC takes tie groups whole, as scikit-learn does; ECE's equal-width
bins are half-open, [b/B, (b+1)/B), except the last, which is closed so that confidence 1.0 is
counted.
"""

from __future__ import annotations

from typing import overload

import numpy.typing as npt

from .. import _probdml
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
def auroc(
    *args: object,
    id_scores: npt.ArrayLike | None = None,
    ood_scores: npt.ArrayLike | None = None,
    y_true: npt.ArrayLike | None = None,
    y_score: npt.ArrayLike | None = None,
) -> float:
    """Area under the ROC curve of out-of-distribution detection, OOD the positive class.

    AUROC = P(s_OOD > s_ID) + ½ P(s_OOD = s_ID), the Mann–Whitney count over all (OOD, ID)
    pairs; equal to scikit-learn's ``roc_auc_score(y_true, y_score)`` with ``y_true`` 1 for OOD.

    Parameters
    ----------
    id_scores, ood_scores : array_like
        The scores (uncertainties) of the in-distribution and the OOD inputs, 1-D; ``float32``
        is read in place, any other real dtype as float64.
    y_true, y_score : array_like
        Instead of the two sets, scikit-learn's form: labels (1 or True for OOD, 0 or False
        for ID) and the scores, of one shape.

    Returns
    -------
    float
        The AUROC in [0, 1].

    Raises
    ------
    TypeError
        For a positional argument (``roc_auc_score`` puts the labels first, so
        ``auroc(labels, scores)`` would score the labels), for both forms or half of one, or
        arrays of the wrong type.
    ValueError
        For an empty set, a NaN or infinite score, labels other than 0/1, or shapes that differ.

    Notes
    -----
    A tied (OOD, ID) pair counts ½. Keyword arguments only, in either form.

    Examples
    --------
    Of the four (OOD, ID) pairs, 0.35 beats 0.1 and loses to 0.4, 0.8 beats both:

    >>> from probdml import metrics
    >>> print(f"{metrics.auroc(id_scores=[0.1, 0.4], ood_scores=[0.35, 0.8]):.6f}")
    0.750000
    >>> print(f"{metrics.auroc(y_true=[0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8]):.6f}")
    0.750000
    >>> print(f"{metrics.auroc(id_scores=[0.5], ood_scores=[0.5]):.6f}")  # a tie counts ½
    0.500000
    """
    ids, oods = _impl.ood_scores("auroc", args, id_scores, ood_scores, y_true, y_score)
    return _rust.auroc(ids, oods, False)


@overload
def auprc(*, id_scores: npt.ArrayLike, ood_scores: npt.ArrayLike) -> float: ...
@overload
def auprc(*, y_true: npt.ArrayLike, y_score: npt.ArrayLike) -> float: ...
def auprc(
    *args: object,
    id_scores: npt.ArrayLike | None = None,
    ood_scores: npt.ArrayLike | None = None,
    y_true: npt.ArrayLike | None = None,
    y_score: npt.ArrayLike | None = None,
) -> float:
    """Area under the precision–recall curve of OOD detection: the average precision of the OOD
    class, as scikit-learn's ``average_precision_score`` defines it.

    With the distinct scores t₁ > t₂ > … as thresholds, TP_t = #{OOD ≥ t}, FP_t = #{ID ≥ t},
    R_t = TP_t/n_OOD and P_t = TP_t/(TP_t + FP_t): AP = Σ_t (R_t − R_{t−1}) P_t, a step
    function without interpolation.

    Parameters
    ----------
    id_scores, ood_scores : array_like
        The scores of the in-distribution and the OOD inputs, 1-D (``float32`` read in place).
    y_true, y_score : array_like
        Instead, scikit-learn's labels (1 for OOD) and scores.

    Returns
    -------
    float
        The AUPRC in [0, 1].

    Raises
    ------
    TypeError
        As ``auroc``: positional arguments, mixed or incomplete forms, wrong types.
    ValueError
        For an empty set, a NaN or infinite score, labels other than 0/1, or shapes that differ.

    Notes
    -----
    Tied scores form one threshold (a tie group is taken whole).

    Examples
    --------
    From the top: 0.8 (OOD) gives P = 1 at R = ½; 0.4 (ID); 0.35 (OOD) gives P = 2/3 at R = 1;
    AP = ½ · 1 + ½ · 2/3:

    >>> from probdml import metrics
    >>> print(f"{metrics.auprc(id_scores=[0.1, 0.4], ood_scores=[0.35, 0.8]):.6f}")
    0.833333
    >>> print(f"{metrics.auprc(id_scores=[1.0, 1.0, 1.0], ood_scores=[1.0]):.6f}")  # one tie group
    0.250000
    """
    ids, oods = _impl.ood_scores("auprc", args, id_scores, ood_scores, y_true, y_score)
    return _rust.auprc(ids, oods, False)


@overload
def roc_curve(*, id_scores: npt.ArrayLike, ood_scores: npt.ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]: ...
@overload
def roc_curve(*, y_true: npt.ArrayLike, y_score: npt.ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]: ...
def roc_curve(
    *args: object,
    id_scores: npt.ArrayLike | None = None,
    ood_scores: npt.ArrayLike | None = None,
    y_true: npt.ArrayLike | None = None,
    y_score: npt.ArrayLike | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The ROC curve of OOD detection: one point per distinct score, from (0, 0) to (1, 1).

    scikit-learn's ``roc_curve(y_true, y_score, drop_intermediate=False)``, OOD positive, with
    the point (0, 0) at threshold +∞.

    Parameters
    ----------
    id_scores, ood_scores : array_like
        The scores of the in-distribution and the OOD inputs, 1-D (``float32`` read in place).
    y_true, y_score : array_like
        Instead, scikit-learn's labels (1 for OOD) and scores.

    Returns
    -------
    fpr : numpy.ndarray of float64
        #{ID ≥ t}/n_ID at each threshold t.
    tpr : numpy.ndarray of float64
        #{OOD ≥ t}/n_OOD at each threshold t.
    thresholds : numpy.ndarray of float64
        +∞, then the distinct scores in decreasing order.

    Raises
    ------
    TypeError
        As ``auroc``: positional arguments, mixed or incomplete forms, wrong types.
    ValueError
        For an empty set, a NaN or infinite score, labels other than 0/1, or shapes that differ.

    Notes
    -----
    The trapezoid area under the curve is ``auroc``: a tie group gives a diagonal segment.

    Examples
    --------
    >>> from probdml import metrics
    >>> fpr, tpr, thresholds = metrics.roc_curve(id_scores=[0.1, 0.4], ood_scores=[0.35, 0.8])
    >>> fpr
    array([0. , 0. , 0.5, 0.5, 1. ])
    >>> tpr
    array([0. , 0.5, 0.5, 1. , 1. ])
    >>> thresholds
    array([ inf, 0.8 , 0.4 , 0.35, 0.1 ])
    """
    ids, oods = _impl.ood_scores("roc_curve", args, id_scores, ood_scores, y_true, y_score)
    return _rust.roc_curve(ids, oods, False)


def expected_calibration_error(confidence: npt.ArrayLike, correct: npt.ArrayLike, bins: Count = 15) -> Calibration:
    """The expected calibration error over ``bins`` equal-width confidence bins, with the bins.

    ECE = Σ_b (|B_b|/n) |acc(B_b) − conf(B_b)| (Guo et al. 2017), acc the share of correct
    items of the bin and conf their mean confidence.

    Parameters
    ----------
    confidence : array_like
        Confidences in [0, 1], 1-D (``float32`` read in place, other real dtypes as float64).
    correct : array_like of bool
        Whether each prediction was right: booleans, or integers 0/1; same length.
    bins : int, optional
        B ≥ 1, the number of bins.

    Returns
    -------
    Calibration
        ``(ece, counts, accuracy, confidence)``: the ECE and, per bin, the number of items
        (unsigned integers), their mean accuracy and mean confidence (float64, shape ``(B,)``).

    Raises
    ------
    TypeError
        For a ``bins`` that is not an integer, or arrays of the wrong type.
    ValueError
        For an empty input, lengths that differ, a confidence outside [0, 1] or NaN, ``correct``
        other than booleans or 0/1, or ``bins`` = 0.

    Notes
    -----
    The bins are B_b = [b/B, (b+1)/B) for b < B − 1 and B_{B−1} = [(B−1)/B, 1]: the last bin is
    closed, so confidence 1.0 is counted (LAM's ``ece.py`` uses half-open bins throughout and
    drops it).

    Examples
    --------
    Two items at confidence 1.0 (one right), one at 0.25 (right); ECE = (2/3)|½ − 1| +
    (1/3)|1 − ¼|:

    >>> from probdml import metrics
    >>> c = metrics.expected_calibration_error([1.0, 1.0, 0.25], [True, False, True], bins=10)
    >>> print(f"{c.ece:.6f}")
    0.583333
    >>> int(c.counts[9]), int(c.counts[2])  # 1.0 is in the last bin
    (2, 1)
    """
    return _impl.calibration(confidence, correct, bins, False)


def sparsification_curve(uncertainty: npt.ArrayLike, performance: npt.ArrayLike) -> Sparsification:
    """The sparsification curve of per-query ``performance`` ordered by ``uncertainty``, its
    oracle, their areas (AUSC) and the area between them.

    Sort the queries by decreasing uncertainty; for f_i = i/100, i = 0 … 99, drop the first
    ⌊f_i n⌋ and average the performance of the rest: c_i. AUSC = Σ_{i=0}^{98} ½(c_i + c_{i+1})
    /100. The oracle sorts by increasing performance instead.

    Parameters
    ----------
    uncertainty : array_like
        One uncertainty per query, 1-D (``float32`` read in place).
    performance : array_like
        One performance per query (1-NN accuracy 0/1, or AP@k), same length, read as float64.

    Returns
    -------
    Sparsification
        ``(fractions, curve, oracle, ausc, oracle_ausc, area_between)``: the 100 fractions
        f_i, the curve c_i and the oracle's (float64, shape ``(100,)``), their areas and
        ``oracle_ausc − ausc``.

    Raises
    ------
    TypeError
        For arrays of the wrong type.
    ValueError
        For no query, lengths that differ, or NaN or ±∞.

    Notes
    -----
    Ties in uncertainty are broken by query index (the smaller index is dropped first).
    LAM's ``ausc.py`` keeps 99 points and spacing 1/99; this keeps 100 points, spacing 1/100.

    Examples
    --------
    The most uncertain query (0.9) is the one that failed, so the curve is the oracle's: 0.75
    until one query is dropped (i ≥ 25), then 1; AUSC = (24 · 0.75 + 0.875 + 74)/100:

    >>> from probdml import metrics
    >>> s = metrics.sparsification_curve([0.1, 0.9, 0.3, 0.2], [1.0, 0.0, 1.0, 1.0])
    >>> print(f"{s.curve[0]:.2f} {s.curve[24]:.2f} {s.curve[25]:.2f}")
    0.75 0.75 1.00
    >>> print(f"{s.ausc:.6f} {s.area_between:.6f}")
    0.928750 0.000000
    """
    return _impl.sparsification(uncertainty, performance, False)


def recall_at_k(embeddings: npt.ArrayLike, labels: npt.ArrayLike, k: Count, *, queries: npt.ArrayLike | None = None,
                query_labels: npt.ArrayLike | None = None, distance: str = "euclidean", threads: Count | None = None) -> float:
    """Recall@k: the share of queries with a positive (an item of the same label) among their k
    nearest neighbours.

    recall@k = (1/|Q⁺|) Σ_{q ∈ Q⁺} [∃ i ≤ k: rel_i(q)], Q⁺ the queries with at least one
    positive.

    Parameters
    ----------
    embeddings : array_like
        The database, rows of shape ``(n, D)``; ``float32`` is read in place (never widened
        into a copy), other real dtypes as float64.
    labels : array_like of int
        The class of each row, shape ``(n,)`` (integers; whole floats accepted; non-negative).
    k : int
        k ≥ 1.
    queries : array_like, optional
        Separate queries ``(m, D)``; without them every embedding queries the others
        (leave-one-out, the query excluded by index).
    query_labels : array_like of int, optional
        The classes of ``queries`` (given with them, or not at all).
    distance : {"euclidean", "cosine"}, optional
        The distance that ranks the neighbours.
    threads : int, optional
        The number of threads (None: chosen per task).

    Returns
    -------
    float
        Recall@k in [0, 1].

    Raises
    ------
    TypeError
        For arrays of the wrong type, a ``k`` or ``threads`` that is not an integer, or a
        ``distance`` that is not a string.
    ValueError
        For k = 0 or k beyond the database, lengths or widths that differ, NaN or ±∞, a
        negative label, ``queries`` without ``query_labels`` (or the reverse), an unknown
        ``distance``, or no query with a positive.

    Notes
    -----
    Ties in distance are broken by database index. A query without any positive is left out
    of the mean (LAM's reference code scores it 1 instead). The neighbours are those of the
    exact twin, bit for bit: the fast search re-ranks its ``float32`` candidates in float64.

    Examples
    --------
    Five 1-D points of two classes; the nearest neighbour of each is of the other class,
    except for 5.0, whose nearest is 1.1:

    >>> import numpy as np
    >>> from probdml import metrics
    >>> x = np.array([[0.0], [0.2], [1.0], [1.1], [5.0]])
    >>> print(f"{metrics.recall_at_k(x, [0, 1, 0, 1, 1], 1):.6f}")
    0.200000
    >>> print(f"{metrics.recall_at_k(x, [0, 1, 0, 1, 1], 4):.6f}")
    1.000000

    With labels ``[0, 1, 0, 1, 2]`` the last query has no positive and is left out: recall@2
    is 2 of the 4 others (not 2 of 5):

    >>> print(f"{metrics.recall_at_k(x, [0, 1, 0, 1, 2], 2):.6f}")
    0.500000
    """
    return _impl.retrieval("recall", k, embeddings, labels, queries, query_labels, distance, threads, False)


def precision_at_k(embeddings: npt.ArrayLike, labels: npt.ArrayLike, k: Count, *, queries: npt.ArrayLike | None = None,
                   query_labels: npt.ArrayLike | None = None, distance: str = "euclidean", threads: Count | None = None) -> float:
    """Precision@k: the share of positives among a query's k nearest neighbours, averaged over
    the queries with a positive.

    Parameters
    ----------
    embeddings : array_like
        The database ``(n, D)``, ``float32`` read in place, other real dtypes as float64.
    labels : array_like of int
        The class of each row, shape ``(n,)``.
    k : int
        k ≥ 1.
    queries, query_labels : array_like, optional
        Separate queries ``(m, D)`` and their classes; without them, leave-one-out.
    distance : {"euclidean", "cosine"}, optional
        The distance that ranks the neighbours.
    threads : int, optional
        The number of threads (None: chosen per task).

    Returns
    -------
    float
        Precision@k in [0, 1].

    Raises
    ------
    TypeError, ValueError
        As ``recall_at_k``.

    Notes
    -----
    Ties in distance are broken by database index; a query without any positive is left out
    of the mean.

    Examples
    --------
    The two nearest of 0.0, 0.2, 1.0, 1.1, 5.0 hold 1, 0, 0, 1 and 1 positives:

    >>> import numpy as np
    >>> from probdml import metrics
    >>> x = np.array([[0.0], [0.2], [1.0], [1.1], [5.0]])
    >>> print(f"{metrics.precision_at_k(x, [0, 1, 0, 1, 1], 2):.6f}")
    0.300000
    """
    return _impl.retrieval("precision", k, embeddings, labels, queries, query_labels, distance, threads, False)


def map_at_k(embeddings: npt.ArrayLike, labels: npt.ArrayLike, k: Count, *, queries: npt.ArrayLike | None = None,
             query_labels: npt.ArrayLike | None = None, distance: str = "euclidean", threads: Count | None = None) -> float:
    """mAP@k as LAM and BTL define it: the mean over queries of
    AP@k = (1/min(R, k)) Σ_{i ≤ k} precision@i · rel_i, R the query's number of positives.

    Parameters
    ----------
    embeddings : array_like
        The database ``(n, D)``, ``float32`` read in place, other real dtypes as float64.
    labels : array_like of int
        The class of each row, shape ``(n,)``.
    k : int
        k ≥ 1.
    queries, query_labels : array_like, optional
        Separate queries ``(m, D)`` and their classes; without them, leave-one-out.
    distance : {"euclidean", "cosine"}, optional
        The distance that ranks the neighbours.
    threads : int, optional
        The number of threads (None: chosen per task).

    Returns
    -------
    float
        mAP@k in [0, 1].

    Raises
    ------
    TypeError, ValueError
        As ``recall_at_k``.

    Notes
    -----
    Ties in distance are broken by database index; a query without any positive (R = 0) is
    left out of the mean.

    Examples
    --------
    AP@2 per query: ½ (R = 1, hit at rank 2), 0, 0, ¼ (R = 2, hit at rank 2), ½ (R = 2, hit
    at rank 1 only); the mean is 1.25/5:

    >>> import numpy as np
    >>> from probdml import metrics
    >>> x = np.array([[0.0], [0.2], [1.0], [1.1], [5.0]])
    >>> print(f"{metrics.map_at_k(x, [0, 1, 0, 1, 1], 2):.6f}")
    0.250000
    """
    return _impl.retrieval("map", k, embeddings, labels, queries, query_labels, distance, threads, False)


def map_at_r(embeddings: npt.ArrayLike, labels: npt.ArrayLike, *, queries: npt.ArrayLike | None = None,
             query_labels: npt.ArrayLike | None = None, distance: str = "euclidean", threads: Count | None = None) -> float:
    """mAP@R as pytorch-metric-learning defines it (Musgrave et al. 2020): the mean over queries
    of (1/R) Σ_{i ≤ R} precision@i · rel_i, R the query's number of positives.

    Parameters
    ----------
    embeddings : array_like
        The database ``(n, D)``, ``float32`` read in place, other real dtypes as float64.
    labels : array_like of int
        The class of each row, shape ``(n,)``.
    queries, query_labels : array_like, optional
        Separate queries ``(m, D)`` and their classes; without them, leave-one-out.
    distance : {"euclidean", "cosine"}, optional
        The distance that ranks the neighbours.
    threads : int, optional
        The number of threads (None: chosen per task).

    Returns
    -------
    float
        mAP@R in [0, 1].

    Raises
    ------
    TypeError, ValueError
        As ``recall_at_k`` (without ``k``).

    Notes
    -----
    Ties in distance are broken by database index; queries with R = 0 are left out of the
    mean. In leave-one-out the query is excluded by index, where the library drops the first
    neighbour (the same unless the query has an exact duplicate).

    Examples
    --------
    R = 1, 2, 1, 2, 2; MAP@R per query 0, 0, 0, ¼, ½; the mean is 0.15:

    >>> import numpy as np
    >>> from probdml import metrics
    >>> x = np.array([[0.0], [0.2], [1.0], [1.1], [5.0]])
    >>> print(f"{metrics.map_at_r(x, [0, 1, 0, 1, 1]):.6f}")
    0.150000
    """
    return _impl.retrieval("map_at_r", 0, embeddings, labels, queries, query_labels, distance, threads, False)


def evaluate_retrieval(embeddings: npt.ArrayLike, labels: npt.ArrayLike, ks: npt.ArrayLike, *, queries: npt.ArrayLike | None = None,
                       query_labels: npt.ArrayLike | None = None, distance: str = "euclidean", threads: Count | None = None) -> RetrievalReport:
    """Recall@k, precision@k and mAP@k at every k of ``ks``, from one nearest-neighbour search.

    Parameters
    ----------
    embeddings : array_like
        The database ``(n, D)``, ``float32`` read in place, other real dtypes as float64.
    labels : array_like of int
        The class of each row, shape ``(n,)``.
    ks : array_like of int
        The values of k, each ≥ 1.
    queries, query_labels : array_like, optional
        Separate queries ``(m, D)`` and their classes; without them, leave-one-out.
    distance : {"euclidean", "cosine"}, optional
        The distance that ranks the neighbours.
    threads : int, optional
        The number of threads (None: chosen per task).

    Returns
    -------
    RetrievalReport
        ``(ks, recall, precision, map)``: the ks as a tuple and the three metrics at each
        (float64, shape ``(len(ks),)``), each equal to its single-k function.

    Raises
    ------
    TypeError, ValueError
        As ``recall_at_k``, for each k of ``ks``.

    Notes
    -----
    Ties in distance are broken by database index; a query without any positive is left out
    of every mean.

    Examples
    --------
    >>> import numpy as np
    >>> from probdml import metrics
    >>> x = np.array([[0.0], [0.2], [1.0], [1.1], [5.0]])
    >>> r = metrics.evaluate_retrieval(x, [0, 1, 0, 1, 1], [1, 2])
    >>> r.ks
    (1, 2)
    >>> r.recall.round(6), r.precision.round(6), r.map.round(6)
    (array([0.2, 0.6]), array([0.2, 0.3]), array([0.2 , 0.25]))
    """
    return _impl.report(embeddings, labels, ks, queries, query_labels, distance, threads, False)


def r_precision(embeddings: npt.ArrayLike, labels: npt.ArrayLike, *, queries: npt.ArrayLike | None = None,
                query_labels: npt.ArrayLike | None = None, distance: str = "euclidean", threads: Count | None = None) -> float:
    """R-precision as pytorch-metric-learning defines it: the share of positives among the first
    R results, R the query's number of positives, averaged over queries.

    Parameters
    ----------
    embeddings : array_like
        The database ``(n, D)``, ``float32`` read in place, other real dtypes as float64.
    labels : array_like of int
        The class of each row, shape ``(n,)``.
    queries, query_labels : array_like, optional
        Separate queries ``(m, D)`` and their classes; without them, leave-one-out.
    distance : {"euclidean", "cosine"}, optional
        The distance that ranks the neighbours.
    threads : int, optional
        The number of threads (None: chosen per task).

    Returns
    -------
    float
        R-precision in [0, 1].

    Raises
    ------
    TypeError, ValueError
        As ``recall_at_k`` (without ``k``).

    Notes
    -----
    Ties in distance are broken by database index; queries with R = 0 are left out of the
    mean.

    Examples
    --------
    1.1 and 5.0 (R = 2 each) find one positive among their first two results, the other three
    none: (½ + ½)/5:

    >>> import numpy as np
    >>> from probdml import metrics
    >>> x = np.array([[0.0], [0.2], [1.0], [1.1], [5.0]])
    >>> print(f"{metrics.r_precision(x, [0, 1, 0, 1, 1]):.6f}")
    0.200000
    """
    return _impl.retrieval("r_precision", 0, embeddings, labels, queries, query_labels, distance, threads, False)


from . import exact  # noqa: E402  (the twins, as probdml.metrics.exact)
