"""The public signatures tell the truth: each call below is checked twice, by mypy --strict
(scripts/check-python-types.sh: `assert_type` is the type the signature promises) and by pytest
(`type(...) is`: the type the installed package returns). An overload that promised a numpy
scalar where an array comes back, or the reverse, fails one of the two."""

import numpy as np
import numpy.typing as npt
from typing_extensions import assert_type

from probdml import hib, laplace, metrics, nivmf, special, triplet, vmf
from probdml.vmf import VonMisesFisher

FloatArray = npt.NDArray[np.float64]


def test_scalar_in_gives_a_numpy_float64() -> None:
    for out in (special.log_ndtr(0.0), special.log_bessel_i(0.5, 2.0), vmf.log_norm_const(3, 2.0), vmf.kappa_mle(3, 0.6)):
        assert_type(out, np.float64)
        assert type(out) is np.float64
    # numpy scalars are scalars too.
    out = vmf.entropy(np.int64(3), np.float32(2.0))
    assert_type(out, np.float64)
    assert type(out) is np.float64


def test_array_in_gives_an_array_or_for_0d_a_scalar() -> None:
    out = special.log_ndtr(np.array([0.0, 1.0]))
    assert_type(out, FloatArray | np.float64)
    assert type(out) is np.ndarray and out.dtype == np.float64 and out.shape == (2,)
    # A 0-d array gives a numpy scalar, as scipy.special does: why the array overload says
    # "FloatArray | np.float64".
    zero_d = vmf.log_norm_const(np.array(3), np.array(2.0))
    assert_type(zero_d, FloatArray | np.float64)
    assert type(zero_d) is np.float64


def test_float_results_are_python_floats() -> None:
    values: list[float] = [
        metrics.auroc(id_scores=[0.1, 0.4], ood_scores=[0.35, 0.8]),
        triplet.gaussian_prior_variance(4),
        hib.kl_to_standard_normal([0.5, -1.0], [0.5, 2.0]),
        laplace.optimal_prior_precision([1.0, 2.0], [3.0, 5.0]),
        nivmf.bhattacharyya_distance([0, 0, 2], [0, 2, 0]),
        VonMisesFisher([0.0, 0.0, 1.0], 2.0).entropy(),
    ]
    for value in values:
        assert type(value) is float


def test_results_with_arrays() -> None:
    direction, rbar = vmf.mean_resultant([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    assert_type(direction, FloatArray)
    assert_type(rbar, float)
    assert direction.dtype == np.float64 and type(rbar) is float
    calibration = metrics.expected_calibration_error([1.0, 0.25], [True, False], bins=4)
    assert_type(calibration.counts, npt.NDArray[np.uintp])
    assert calibration.counts.dtype == np.uintp
    draws = VonMisesFisher([0.0, 0.0, 1.0], 2.0).rvs(size=3, seed=0)
    assert_type(draws, FloatArray)
    assert draws.dtype == np.float64 and draws.shape == (3, 3)
    fitted = VonMisesFisher.fit(draws)
    assert_type(fitted, VonMisesFisher)
    assert type(fitted) is VonMisesFisher
    exact_fit = vmf.exact.VonMisesFisher.fit(draws)
    assert_type(exact_fit, vmf.exact.VonMisesFisher)
    assert type(exact_fit) is vmf.exact.VonMisesFisher


def test_float32_scores_are_accepted() -> None:
    scores: npt.NDArray[np.float32] = np.array([0.1, 0.4], dtype=np.float32)
    value: float = metrics.auprc(id_scores=scores, ood_scores=np.array([0.35, 0.8], dtype=np.float32))
    assert type(value) is float
