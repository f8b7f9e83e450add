# probdml-py/src/metrics.rs: scores and embeddings in their own precision (float32 is read in
# place), labels as int64, flat row-major embeddings with their dim.
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from probdml._types import Count

__all__ = ["auroc", "auprc", "roc_curve", "expected_calibration_error", "sparsification_curve", "retrieval"]

_F64 = npt.NDArray[np.float64]
_I64 = npt.NDArray[np.int64]
_Scores = npt.NDArray[np.float32] | npt.NDArray[np.float64]

def auroc(id_scores: _Scores, ood_scores: _Scores, exact: bool) -> float: ...
def auprc(id_scores: _Scores, ood_scores: _Scores, exact: bool) -> float: ...
def roc_curve(id_scores: _Scores, ood_scores: _Scores, exact: bool) -> tuple[_F64, _F64, _F64]: ...
def expected_calibration_error(
    confidence: _Scores, correct: npt.NDArray[np.bool_], bins: Count, exact: bool
) -> tuple[float, npt.NDArray[np.uintp], _F64, _F64]: ...
def sparsification_curve(uncertainty: _Scores, performance: _F64, exact: bool) -> tuple[_F64, _F64, _F64, float, float, float]: ...
def retrieval(
    metric: str, k: Count, embeddings: _Scores, labels: _I64, dim: int, queries: _Scores | None,
    query_labels: _I64 | None, distance: str, threads: Count | None, exact: bool, ks: Iterable[object],
) -> list[float]: ...
