"""float32 scores: passed to the crate without upcasting, with the result of the same values in
float64 (every float32 is exactly a float64), and scikit-learn's."""

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

from budgets import check
from probdml import metrics


class _Recorder:
    """Stands in for the extension module, recording the dtype of every array it is given."""

    def __init__(self, rust):
        self.rust = rust
        self.dtypes = []

    def __getattr__(self, name):
        function = getattr(self.rust, name)

        def call(*args):
            self.dtypes.extend(a.dtype for a in args if isinstance(a, np.ndarray) and a.dtype.kind == "f")
            return function(*args)

        return call


@pytest.fixture
def recorder(monkeypatch):
    from probdml.metrics import _impl

    rec = _Recorder(metrics._rust)
    monkeypatch.setattr(metrics, "_rust", rec)
    monkeypatch.setattr(_impl, "_rust", rec)
    return rec


def _scores(seed):
    rng = np.random.default_rng(seed)
    # Quarters give ties; the rest are continuous float32 values.
    id_scores = np.r_[rng.integers(0, 5, 300) / 4, rng.normal(0.0, 1.0, 700)].astype(np.float32)
    ood_scores = np.r_[rng.integers(1, 6, 300) / 4, rng.normal(0.7, 1.0, 500)].astype(np.float32)
    return id_scores, ood_scores


def test_ood_scores_in_float32_are_not_upcast_and_equal_float64(recorder):
    id32, ood32 = _scores(7)
    auroc, auprc = metrics.auroc(id_scores=id32, ood_scores=ood32), metrics.auprc(id_scores=id32, ood_scores=ood32)
    fpr, tpr, thresholds = metrics.roc_curve(id_scores=id32, ood_scores=ood32)
    assert recorder.dtypes and all(d == np.float32 for d in recorder.dtypes)
    id64, ood64 = id32.astype(np.float64), ood32.astype(np.float64)
    assert auroc == metrics.auroc(id_scores=id64, ood_scores=ood64)
    assert auprc == metrics.auprc(id_scores=id64, ood_scores=ood64)
    for got, want in zip((fpr, tpr, thresholds), metrics.roc_curve(id_scores=id64, ood_scores=ood64)):
        np.testing.assert_array_equal(got, want)
    y = np.r_[np.zeros(len(id32)), np.ones(len(ood32))]
    s = np.r_[id64, ood64]
    for f in (metrics, metrics.exact):
        check("metrics::auroc", f.auroc(id_scores=id32, ood_scores=ood32), roc_auc_score(y, s))
        check("metrics::auprc", f.auprc(id_scores=id32, ood_scores=ood32), average_precision_score(y, s))


@pytest.mark.parametrize("name", ["auroc", "auprc", "roc_curve"])
def test_two_dimensional_float32_scores_are_refused_naming_the_argument(name):
    # A column (n, 1) or a matrix of float32 scores is not silently flattened: scores are 1-D.
    id32, ood32 = _scores(5)
    for f in (metrics, metrics.exact):
        with pytest.raises(ValueError, match="`id_scores` must be 1-D"):
            getattr(f, name)(id_scores=id32.reshape(-1, 1), ood_scores=ood32)
        with pytest.raises(ValueError, match="`ood_scores` must be 1-D"):
            getattr(f, name)(id_scores=id32, ood_scores=ood32[:800].reshape(40, 20))


def test_two_dimensional_float32_uncertainty_and_confidence_are_refused():
    u = np.full((4, 2), 0.5, dtype=np.float32)
    for f in (metrics, metrics.exact):
        with pytest.raises(ValueError, match="`uncertainty` must be 1-D"):
            f.sparsification_curve(u, np.ones(8))
        with pytest.raises(ValueError, match="`confidence` must be 1-D"):
            f.expected_calibration_error(u, np.ones(8, dtype=bool))


def test_uncertainty_and_confidence_in_float32_are_not_upcast(recorder):
    rng = np.random.default_rng(3)
    uncertainty = rng.uniform(0, 1, 400).astype(np.float32)
    performance = (rng.uniform(0, 1, 400) > uncertainty).astype(np.float64)
    s32 = metrics.sparsification_curve(uncertainty, performance)
    confidence = (rng.integers(0, 9, 400) / 8).astype(np.float32)
    c32 = metrics.expected_calibration_error(confidence, performance > 0.5, bins=10)
    assert [d for d in recorder.dtypes] == [np.float32, np.float64, np.float32]
    s64 = metrics.sparsification_curve(uncertainty.astype(np.float64), performance)
    np.testing.assert_array_equal(s32.curve, s64.curve)
    assert s32.ausc == s64.ausc
    c64 = metrics.expected_calibration_error(confidence.astype(np.float64), performance > 0.5, bins=10)
    assert c32.ece == c64.ece
    np.testing.assert_array_equal(c32.counts, c64.counts)


def test_mixed_precisions_and_bad_float32_input():
    id32, ood32 = _scores(11)
    assert metrics.auroc(id_scores=id32, ood_scores=ood32.astype(np.float64)) == metrics.auroc(id_scores=id32, ood_scores=ood32)
    with pytest.raises(ValueError, match="ood_scores"):
        metrics.auroc(id_scores=id32, ood_scores=np.array([0.5, np.nan], dtype=np.float32))
    with pytest.raises(ValueError, match="id_scores"):
        metrics.auprc(id_scores=np.array([], dtype=np.float32), ood_scores=ood32)
    with pytest.raises(ValueError, match="performance"):
        metrics.sparsification_curve(np.array([0.1, 0.2], dtype=np.float32), [1.0])
    with pytest.raises(ValueError, match="confidence"):
        metrics.expected_calibration_error(np.array([np.nan], dtype=np.float32), [True], bins=10)
