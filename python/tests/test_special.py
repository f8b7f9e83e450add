"""probdml.special against scipy.special where scipy is right and mpmath where it is not."""

import mpmath
import numpy as np
import pytest
import scipy.special as sc
from hypothesis import assume, given
from hypothesis import strategies as st

import probdml
from budgets import LN_NORMAL_CDF, LOG_BESSEL_I, RATIO, within_abs_or_rel, within_rel
from probdml import special

mpmath.mp.dps = 40


def mp_log_bessel_i(nu: float, x: float) -> float:
    return float(mpmath.log(mpmath.besseli(nu, x)))


@given(st.floats(0.0, 200.0), st.floats(1e-3, 500.0))
def test_log_bessel_i_matches_scipy_where_ive_is_normal(nu, x):
    ive = sc.ive(nu, x)
    assume(1e-300 < ive < np.inf)  # elsewhere scipy has no answer: see the mpmath test below
    reference = np.log(ive) + x
    got = special.log_bessel_i(nu, x)
    assert got == pytest.approx(reference, rel=1e-12, abs=1e-12)


def test_log_bessel_i_where_scipy_underflows_matches_mpmath():
    """scipy's log(ive(ν, x)) + x is −∞ here (ive underflows to 0 for large ν at small x), so
    these inputs are checked against mpmath at 40 digits instead:
    (ν, x) = (500, 1), (1000, 10), (2047, 0.5), (4095, 100), (300, 1e-3)."""
    cases = [(500.0, 1.0), (1000.0, 10.0), (2047.0, 0.5), (4095.0, 100.0), (300.0, 1e-3)]
    for nu, x in cases:
        assert np.log(sc.ive(nu, x)) + x == -np.inf  # the reason for switching reference
        assert special.log_bessel_i(nu, x) == pytest.approx(mp_log_bessel_i(nu, x), rel=1e-14)


def test_elementwise_functions_broadcast_and_give_nan_outside_the_domain():
    nu = np.array([[0.0], [1.5], [-1.0]])
    x = np.array([0.5, 2.0, -3.0, np.nan])
    out = special.log_bessel_i(nu, x)
    assert out.shape == (3, 4)
    assert np.isnan(out[2]).all()  # ν < 0
    assert np.isnan(out[:, 2]).all() and np.isnan(out[:, 3]).all()  # x < 0, x = NaN
    assert np.isfinite(out[:2, :2]).all()
    assert isinstance(special.log_bessel_i(1.0, 2.0), np.float64)
    with pytest.raises(ValueError, match="broadcast"):
        special.log_bessel_i(np.zeros(2), np.zeros(3))


@given(st.floats(0.0, 100.0), st.floats(1e-2, 300.0))
def test_bessel_i_ratio_matches_scipy(nu, x):
    lo, hi = sc.ive(nu, x), sc.ive(nu + 1, x)
    assume(1e-280 < lo and 1e-280 < hi)
    assert special.bessel_i_ratio(nu, x) == pytest.approx(hi / lo, rel=1e-12)


@given(st.floats(-30.0, 8.0))
def test_log_ndtr_matches_scipy(z):
    assert special.log_ndtr(z) == pytest.approx(sc.log_ndtr(z), rel=1e-13, abs=1e-300)


def test_exact_twins_agree_with_the_fast_ones():
    nu = np.array([0.0, 2.5, 63.0, 1000.0])
    x = np.array([1e-3, 1.0, 50.0, 1e4])
    assert within_abs_or_rel(special.log_bessel_i(nu, x), special.exact.log_bessel_i(nu, x), LOG_BESSEL_I)
    assert within_rel(special.bessel_i_ratio(nu, x), special.exact.bessel_i_ratio(nu, x), RATIO)
    z = np.array([-40.0, -3.0, 0.0, 5.0])
    assert within_abs_or_rel(special.log_ndtr(z), special.exact.log_ndtr(z), LN_NORMAL_CDF)


def test_the_extension_runs_the_dispatched_kernels_of_a_generic_build():
    """The wheel is built for any x86-64 (no target-cpu=native): AVX2 is not assumed at
    compile time, only chosen at run time."""
    assert probdml._probdml.built_with_avx2() is False
    assert probdml.instruction_set() in ("avx512", "avx2-fma", "portable")
