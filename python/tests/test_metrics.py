"""probdml.metrics against scikit-learn (AUROC, AUPRC, nearest neighbours) and numpy."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, roc_auc_score
from sklearn.neighbors import NearestNeighbors

from probdml import metrics
from probdml.metrics import _impl

score_lists = st.lists(st.integers(0, 20).map(lambda i: i / 4), min_size=1, max_size=60)


@given(score_lists, score_lists)
def test_auroc_and_auprc_equal_scikit_learn_with_ood_positive(id_scores, ood_scores):
    y = np.r_[np.zeros(len(id_scores)), np.ones(len(ood_scores))]
    s = np.r_[id_scores, ood_scores]
    assert metrics.auroc(id_scores, ood_scores) == pytest.approx(roc_auc_score(y, s), abs=1e-15)
    assert metrics.auprc(id_scores, ood_scores) == pytest.approx(average_precision_score(y, s), abs=1e-14)
    assert metrics.exact.auroc(id_scores, ood_scores) == metrics.auroc(id_scores, ood_scores)


def test_expected_calibration_error_matches_numpy():
    rng = np.random.default_rng(2)
    conf = rng.uniform(0, 1, 500)
    correct = rng.uniform(0, 1, 500) < conf
    out = metrics.expected_calibration_error(conf, correct, bins=10)
    idx = np.minimum((conf * 10).astype(int), 9)
    ref = sum(abs(correct[idx == b].mean() - conf[idx == b].mean()) * np.mean(idx == b) for b in range(10) if np.any(idx == b))
    assert out.ece == pytest.approx(ref, rel=1e-12)
    assert out.counts.sum() == 500
    assert metrics.exact.expected_calibration_error(conf, correct, bins=10).ece == pytest.approx(out.ece, rel=1e-13)


def test_sparsification_pinned_example():
    # The Rust docs' example: the most uncertain query is the failed one.
    s = metrics.sparsification_curve([0.1, 0.9, 0.3, 0.2], [1.0, 0.0, 1.0, 1.0])
    assert s.curve[0] == 0.75 and s.curve[25] == 1.0
    assert np.array_equal(s.curve, s.oracle) and s.area_between == 0.0


def numpy_recall_at_k(x, labels, k):
    nn = NearestNeighbors(n_neighbors=k + 1, algorithm="brute").fit(x)
    _, idx = nn.kneighbors(x)
    hits = [np.any(labels[[j for j in row if j != i][:k]] == labels[i]) for i, row in enumerate(idx)]
    return np.mean(hits)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_recall_at_k_matches_scikit_learn_nearest_neighbours(dtype):
    rng = np.random.default_rng(4)
    x = rng.normal(size=(200, 8)).astype(dtype)
    labels = rng.integers(0, 5, 200)
    for k in (1, 4):
        assert metrics.recall_at_k(x, labels, k) == pytest.approx(numpy_recall_at_k(x.astype(np.float64), labels, k), abs=1e-15)
        assert metrics.exact.recall_at_k(x, labels, k) == metrics.recall_at_k(x, labels, k)
    assert metrics.map_at_r(x, labels, threads=1) == metrics.exact.map_at_r(x, labels)
    q = rng.normal(size=(10, 8)).astype(dtype)
    ql = rng.integers(0, 5, 10)
    assert 0 <= metrics.map_at_k(x, labels, 3, queries=q, query_labels=ql, distance="cosine") <= 1


def test_float32_embeddings_are_passed_without_a_copy():
    x = np.random.default_rng(0).normal(size=(50, 4)).astype(np.float32)
    flat, dim = _impl.embeddings("embeddings", x)
    assert flat.dtype == np.float32 and dim == 4 and np.shares_memory(flat, x)


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="ood_scores"):
        metrics.auroc([0.1, 0.2], [0.3, np.nan])
    with pytest.raises(ValueError, match="id_scores"):
        metrics.auroc([], [0.3])
    x = np.zeros((5, 2))
    with pytest.raises(ValueError, match="k"):
        metrics.recall_at_k(x, [0, 0, 1, 1, 1], 9)
    with pytest.raises(ValueError, match="embeddings"):
        metrics.recall_at_k(np.array([[0.0, np.inf], [1.0, 1.0]]), [0, 0], 1)
    with pytest.raises(ValueError, match="labels"):
        metrics.recall_at_k(x, [0, 0, 1, 1], 1)
    with pytest.raises(ValueError, match="distance"):
        metrics.recall_at_k(x, [0, 0, 1, 1, 1], 1, distance="manhattan")


def test_evaluate_retrieval_equals_the_single_metrics():
    rng = np.random.default_rng(6)
    x = rng.normal(size=(120, 5)).astype(np.float32)
    labels = rng.integers(0, 4, 120)
    report = metrics.evaluate_retrieval(x, labels, ks=(1, 5))
    assert report.ks == (1, 5)
    for i, k in enumerate((1, 5)):
        assert report.recall[i] == metrics.recall_at_k(x, labels, k)
        assert report.precision[i] == metrics.precision_at_k(x, labels, k)
        assert report.map[i] == metrics.map_at_k(x, labels, k)
    assert np.array_equal(metrics.exact.evaluate_retrieval(x, labels, ks=(1, 5)).map, report.map)
