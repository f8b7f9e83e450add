"""probdml.metrics and probdml.metrics.exact against scikit-learn (AUROC, AUPRC, the ROC curve,
nearest neighbours) and numpy evaluations of the definitions (ECE, sparsification); retrieval
metrics in test_retrieval.py."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, roc_auc_score
from sklearn.metrics import roc_curve as sklearn_roc_curve
from sklearn.neighbors import NearestNeighbors

from budgets import check
from probdml import metrics
from probdml.metrics import _impl

TWINS = {"fast": metrics, "exact": metrics.exact}
score_lists = st.lists(st.integers(0, 20).map(lambda i: i / 4), min_size=1, max_size=60)


@pytest.mark.parametrize("twin", TWINS)
@given(id_scores=score_lists, ood_scores=score_lists)
def test_auroc_and_auprc_equal_scikit_learn_with_ood_positive(twin, id_scores, ood_scores):
    f = TWINS[twin]
    y = np.r_[np.zeros(len(id_scores)), np.ones(len(ood_scores))]
    s = np.r_[id_scores, ood_scores]
    check("metrics::auroc", f.auroc(id_scores=id_scores, ood_scores=ood_scores), roc_auc_score(y, s))
    check("metrics::auprc", f.auprc(id_scores=id_scores, ood_scores=ood_scores), average_precision_score(y, s))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("twin", TWINS)
def test_roc_curve_equals_scikit_learn_without_dropped_points(twin, dtype):
    # scikit-learn's roc_curve(y, s, drop_intermediate=False): one point per distinct score
    # (decreasing), after the (0, 0) point at threshold +∞; the rates are counts over class sizes.
    rng = np.random.default_rng(8)
    id_scores = np.r_[rng.integers(0, 6, 200) / 4, rng.normal(0, 1, 300)].astype(dtype)
    ood_scores = np.r_[rng.integers(2, 8, 150) / 4, rng.normal(0.8, 1, 250)].astype(dtype)
    fpr, tpr, thresholds = TWINS[twin].roc_curve(id_scores=id_scores, ood_scores=ood_scores)
    y = np.r_[np.zeros(len(id_scores)), np.ones(len(ood_scores))]
    want_fpr, want_tpr, want_thresholds = sklearn_roc_curve(y, np.r_[id_scores, ood_scores].astype(np.float64), drop_intermediate=False)
    np.testing.assert_array_equal(fpr, want_fpr)
    np.testing.assert_array_equal(tpr, want_tpr)
    np.testing.assert_array_equal(thresholds, want_thresholds)
    assert thresholds[0] == np.inf
    check("metrics::auroc", np.trapezoid(tpr, fpr), roc_auc_score(y, np.r_[id_scores, ood_scores]))


def numpy_ece(conf, correct, bins):
    """Guo et al. (2017) with the crate's bins: b(c) = the largest b with b/B ≤ c, capped at
    B − 1 (crates/probdml/src/metrics/calibration.rs), found by searching the edges b/B themselves."""
    conf = np.asarray(conf, dtype=np.float64)
    idx = np.minimum(np.searchsorted(np.arange(bins) / bins, conf, side="right") - 1, bins - 1)
    counts = np.bincount(idx, minlength=bins)
    acc = np.array([correct[idx == b].mean() if counts[b] else 0.0 for b in range(bins)])
    mean_conf = np.array([conf[idx == b].mean() if counts[b] else 0.0 for b in range(bins)])
    return float(np.sum(counts / len(conf) * np.abs(acc - mean_conf))), counts, acc, mean_conf


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("twin", TWINS)
def test_expected_calibration_error_matches_numpy(twin, dtype):
    rng = np.random.default_rng(2)
    # Continuous confidences, the bin edges themselves (0.3, 0.7, …) and 1.0 (in the last bin).
    conf = np.r_[rng.uniform(0, 1, 500), np.arange(11) / 10, [1.0, 1.0]].astype(dtype)
    correct = rng.uniform(0, 1, len(conf)) < conf
    for bins in (10, 15):
        out = TWINS[twin].expected_calibration_error(conf, correct, bins=bins)
        ece, counts, acc, mean_conf = numpy_ece(conf, correct, bins)
        np.testing.assert_array_equal(out.counts, counts)
        check("metrics::expected_calibration_error", out.ece, ece, case=f"({twin}) B = {bins}")
        check("metrics::expected_calibration_error", out.accuracy, acc)
        check("metrics::expected_calibration_error", out.confidence, mean_conf)


def numpy_sparsification(uncertainty, performance):
    """LAM App. G.3 with the crate's grid (crates/probdml/src/metrics/sparsification.rs): drop the ⌊i·n/100⌋
    most uncertain queries (ties: the smaller index first), i = 0 … 99; the oracle drops the
    worst-performing first; areas by the trapezoid rule with spacing 1/100."""
    n = len(performance)
    performance = np.asarray(performance, dtype=np.float64)
    by_uncertainty = np.lexsort((np.arange(n), -np.asarray(uncertainty, dtype=np.float64)))
    by_error = np.argsort(performance, kind="stable")
    drops = [i * n // 100 for i in range(100)]
    curve = np.array([performance[by_uncertainty[m:]].mean() for m in drops])
    oracle = np.array([performance[by_error[m:]].mean() for m in drops])
    ausc, oracle_ausc = np.trapezoid(curve, dx=0.01), np.trapezoid(oracle, dx=0.01)
    return np.arange(100) / 100, curve, oracle, ausc, oracle_ausc


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("twin", TWINS)
def test_sparsification_matches_numpy(twin, dtype):
    rng = np.random.default_rng(5)
    n = 437
    uncertainty = np.r_[rng.uniform(0, 1, n - 100), rng.integers(0, 4, 100) / 4].astype(dtype)  # with ties
    performance = np.where(rng.uniform(0, 1, n) > uncertainty, 1.0, rng.uniform(0, 0.5, n))
    s = TWINS[twin].sparsification_curve(uncertainty, performance)
    fractions, curve, oracle, ausc, oracle_ausc = numpy_sparsification(uncertainty, performance)
    check("metrics::sparsification_curve", s.fractions, fractions)
    check("metrics::sparsification_curve", s.curve, curve)
    check("metrics::sparsification_curve", s.oracle, oracle)
    check("metrics::sparsification_curve", [s.ausc, s.oracle_ausc, s.area_between], [ausc, oracle_ausc, oracle_ausc - ausc])


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
        for f in TWINS.values():
            assert f.recall_at_k(x, labels, k) == numpy_recall_at_k(x.astype(np.float64), labels, k)
            assert f.recall_at_k(x, labels, k, threads=1) == numpy_recall_at_k(x.astype(np.float64), labels, k)


def test_float32_embeddings_are_passed_without_a_copy():
    x = np.random.default_rng(0).normal(size=(50, 4)).astype(np.float32)
    flat, dim = _impl.embeddings("embeddings", x)
    assert flat.dtype == np.float32 and dim == 4 and np.shares_memory(flat, x)


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="ood_scores"):
        metrics.auroc(id_scores=[0.1, 0.2], ood_scores=[0.3, np.nan])
    with pytest.raises(ValueError, match="id_scores"):
        metrics.auroc(id_scores=[], ood_scores=[0.3])
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
