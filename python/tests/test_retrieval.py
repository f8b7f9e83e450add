"""Every retrieval metric of probdml.metrics and probdml.metrics.exact against a brute-force numpy
evaluation of its definition (crates/probdml/src/metrics/retrieval.rs, crates/probdml-core/src/metrics/input/retrieval_task.rs):
leave-one-out and query/database tasks, Euclidean and cosine distances, float32 and float64
embeddings (2-D arrays), ties.

The definitions, as the crate documents them:

* ranking: database items by increasing distance, ties by increasing database index, on the
  exact f64 distance Σ(q − x)² or 1 − ⟨q, x⟩/(‖q‖‖x‖) (float32 widened exactly); in a
  leave-one-out task query q is database row q and never retrieves itself;
* R(q): the number of database items sharing the query's label (itself excluded); a query with
  R = 0 is left out of every mean, and a task where every query has R = 0 is an error;
* recall@k: a positive among the first k; precision@k: positives among the first k, over k;
  AP@k = Σ_{i ≤ k} precision@i·rel_i / min(R, k); mAP@R = AP@R; R-precision = precision@R.
"""

import numpy as np
import pytest

from budgets import check
from probdml import metrics

TWINS = {"fast": metrics, "exact": metrics.exact}


def ranking(query: np.ndarray, database: np.ndarray, distance: str, exclude: int | None) -> np.ndarray:
    """Database indices in retrieval order for one query."""
    q, x = query.astype(np.float64), database.astype(np.float64)
    if distance == "euclidean":
        d = np.array([sum((a - b) ** 2 for a, b in zip(q, row)) for row in x])
    else:
        d = 1.0 - (x @ q) / (np.sqrt(q @ q) * np.sqrt(np.einsum("ij,ij->i", x, x)))
    index = np.arange(len(x))
    keep = index != exclude
    order = np.lexsort((index[keep], d[keep]))  # by distance, then by index
    return index[keep][order]


def relevance_lists(embeddings, labels, queries, query_labels, distance):
    """(rel_1 … rel_n, R) for every query that has a positive."""
    loo = queries is None
    if loo:
        queries, query_labels = embeddings, labels
    out = []
    for q in range(len(queries)):
        order = ranking(queries[q], embeddings, distance, q if loo else None)
        rel = labels[order] == query_labels[q]
        if rel.sum() > 0:
            out.append((rel, int(rel.sum())))
    return out


def average_precision(rel: np.ndarray, k: int, norm: int) -> float:
    hits = np.cumsum(rel[:k])
    return float(np.sum((hits / np.arange(1, k + 1))[rel[:k]]) / norm)


def reference(metric: str, k: int, lists) -> float:
    if metric == "recall":
        return float(np.mean([rel[:k].any() for rel, _ in lists]))
    if metric == "precision":
        return float(np.mean([rel[:k].sum() / k for rel, _ in lists]))
    if metric == "map":
        return float(np.mean([average_precision(rel, k, min(r, k)) for rel, r in lists]))
    if metric == "map_at_r":
        return float(np.mean([average_precision(rel, r, r) for rel, r in lists]))
    assert metric == "r_precision"
    return float(np.mean([rel[:r].sum() / r for rel, r in lists]))


def call(f, metric: str, k: int, x, labels, queries, query_labels, distance):
    kw = {"distance": distance}
    if queries is not None:
        kw.update(queries=queries, query_labels=query_labels)
    if metric in ("map_at_r", "r_precision"):
        return getattr(f, metric)(x, labels, **kw)
    name = {"recall": "recall_at_k", "precision": "precision_at_k", "map": "map_at_k"}[metric]
    return getattr(f, name)(x, labels, k, **kw)


def tasks():
    """(name, database, labels, queries, query_labels, distance): integer coordinates under the
    Euclidean distance, so that many distances tie exactly and the tie rule decides; Gaussian
    coordinates under the cosine distance. Some labels are singletons (leave-one-out queries
    with R = 0) and some query labels are absent from the database (query/database R = 0)."""
    rng = np.random.default_rng(20)
    grid = rng.integers(-2, 3, size=(60, 3)).astype(np.float64)
    grid_labels = np.r_[rng.integers(0, 4, 56), [7, 8, 9, 10]]
    grid_queries = rng.integers(-2, 3, size=(25, 3)).astype(np.float64)
    grid_query_labels = np.r_[rng.integers(0, 4, 21), [11, 12, 7, 13]]
    gauss = rng.normal(size=(80, 6))
    gauss_labels = np.r_[rng.integers(0, 5, 78), [20, 21]]
    gauss_queries = rng.normal(size=(30, 6))
    gauss_query_labels = np.r_[rng.integers(0, 5, 28), [22, 20]]
    return [
        ("integer grid, leave-one-out", grid, grid_labels, None, None, "euclidean"),
        ("integer grid, query/database", grid, grid_labels, grid_queries, grid_query_labels, "euclidean"),
        ("Gaussian, leave-one-out", gauss, gauss_labels, None, None, "cosine"),
        ("Gaussian, query/database", gauss, gauss_labels, gauss_queries, gauss_query_labels, "cosine"),
        ("Gaussian, query/database, Euclidean", gauss, gauss_labels, gauss_queries, gauss_query_labels, "euclidean"),
    ]


TASKS = {t[0]: t[1:] for t in tasks()}
METRICS = ["recall", "precision", "map", "map_at_r", "r_precision"]
REGISTERED = {"recall": "recall_at_k", "precision": "precision_at_k", "map": "map_at_k", "map_at_r": "map_at_r", "r_precision": "r_precision"}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("twin", TWINS)
@pytest.mark.parametrize("task", TASKS)
def test_every_retrieval_metric_equals_the_brute_force_definition(task, twin, dtype):
    x, labels, queries, query_labels, distance = TASKS[task]
    x = x.astype(dtype)
    queries = None if queries is None else queries.astype(dtype)
    # The reference ranks the float32 values themselves, widened exactly.
    lists = relevance_lists(x, labels, queries, query_labels, distance)
    n_queries = len(x) if queries is None else len(queries)
    assert 0 < len(lists) < n_queries  # some queries have no positive and must be left out
    max_k = len(x) - 1 if queries is None else len(x)
    f = TWINS[twin]
    for metric in METRICS:
        for k in (1, 2, 5, max_k) if metric in ("recall", "precision", "map") else (0,):
            got = call(f, metric, k, x, labels, queries, query_labels, distance)
            want = reference(metric, k, lists)
            case = f"({twin}, {np.dtype(dtype).name}, {task}) k = {k}"
            if metric == "recall":
                assert got == want, case  # a ratio of integers, correctly rounded on both sides
            else:
                check(f"metrics::{REGISTERED[metric]}", got, want, case=case)
    ks = (1, 3, max_k)
    kw = {} if queries is None else {"queries": queries, "query_labels": query_labels}
    report = f.evaluate_retrieval(x, labels, ks, distance=distance, **kw)
    assert report.ks == ks
    for i, k in enumerate(ks):
        assert report.recall[i] == reference("recall", k, lists)
        check("metrics::precision_at_k", report.precision[i], reference("precision", k, lists))
        check("metrics::map_at_k", report.map[i], reference("map", k, lists))


@pytest.mark.parametrize("twin", TWINS)
def test_the_tie_rule_ranks_equal_distances_by_database_index(twin):
    # A query at the origin: database items 1 and 2 are both at distance 1; item 1 (label 1)
    # comes first, so recall@1 misses the positive item 2 (label 0). With the two swapped, the
    # positive comes first.
    x = np.array([[9.0], [1.0], [-1.0], [5.0]])
    f = TWINS[twin]
    queries, query_labels = np.array([[0.0]]), np.array([0])
    assert f.recall_at_k(x, [9, 1, 0, 2], 1, queries=queries, query_labels=query_labels) == 0.0
    assert f.recall_at_k(x[[0, 2, 1, 3]], [9, 0, 1, 2], 1, queries=queries, query_labels=query_labels) == 1.0
    assert f.map_at_k(x, [9, 1, 0, 2], 2, queries=queries, query_labels=query_labels) == 0.5


@pytest.mark.parametrize("twin", TWINS)
def test_a_task_where_no_query_has_a_positive_is_an_error(twin):
    f = TWINS[twin]
    x = np.arange(8.0).reshape(4, 2)
    with pytest.raises(ValueError, match="`labels`.*no query has a positive"):
        f.recall_at_k(x, [0, 1, 2, 3], 1)
    with pytest.raises(ValueError, match="`query_labels`.*no query has a positive"):
        f.r_precision(x, [0, 0, 1, 1], queries=x[:2], query_labels=[5, 6])
    with pytest.raises(ValueError, match="`query_labels`.*no query has a positive"):
        f.map_at_r(x, [0, 0, 1, 1], queries=x[:2], query_labels=[5, 6])


@pytest.mark.parametrize("twin", TWINS)
def test_a_negative_label_is_refused_naming_its_index(twin):
    # -1, the "ignore" label of many datasets, is not a class: int64 labels reach the crate as
    # they are, and its check names the argument and the index.
    f = TWINS[twin]
    x = np.arange(10.0).reshape(5, 2)
    with pytest.raises(ValueError, match=r"`labels`: element 3 = -1 .*>= 0"):
        f.recall_at_k(x, np.array([0, 0, 1, -1, 1]), 1)
    with pytest.raises(ValueError, match=r"`query_labels`: element 0 = -1"):
        f.recall_at_k(x, [0, 0, 1, 1, 1], 1, queries=x[:2], query_labels=[-1, 1])


@pytest.mark.parametrize("twin", TWINS)
def test_k_above_the_database_is_refused_with_its_bound(twin):
    f = TWINS[twin]
    x = np.arange(10.0).reshape(5, 2)
    f.recall_at_k(x, [0, 0, 1, 1, 1], 5, queries=x[:2], query_labels=[0, 1])  # k = database size: allowed
    with pytest.raises(ValueError, match=r"argument `k` = 6 is out of range: must satisfy 1 <= k <= 5 "):
        f.recall_at_k(x, [0, 0, 1, 1, 1], 6, queries=x[:2], query_labels=[0, 1])
    with pytest.raises(ValueError, match=r"argument `k` = 5 is out of range: must satisfy 1 <= k <= 4 "):
        f.precision_at_k(x, [0, 0, 1, 1, 1], 5)  # leave-one-out: at most n − 1
    with pytest.raises(ValueError, match=r"argument `ks`: element 1 = 6 is out of range: must satisfy 1 <= k <= 5 "):
        f.evaluate_retrieval(x, [0, 0, 1, 1, 1], [1, 6], queries=x[:2], query_labels=[0, 1])
