"""probdml.special against scipy.special where scipy is right and mpmath where it is not."""

import mpmath
import numpy as np
import pytest
import scipy.special as sc
from hypothesis import assume, given
from hypothesis import strategies as st

import probdml
import mpmath_reference
from budgets import check
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


# (ν, x) across the regimes of the fast twin (series, Debye, Hankel) and of its exact twin.
BESSEL_POINTS = [(0.0, 1e-3), (0.0, 1.0), (0.5, 10.0), (2.5, 1.0), (3.0, 0.7), (10.5, 123.4), (63.0, 50.0),
                 (200.0, 3.0), (50.0, 5000.0), (4095.0, 100.0), (0.0, 1e5), (1e4, 1e3), (17.25, 17.25)]
NDTR_POINTS = [-40.0, -10.0, -3.0, -1.0, -0.1, 0.0, 0.5, 2.0, 5.0, 8.0]


@pytest.mark.parametrize("twin", ["fast", "exact"])
def test_both_twins_against_mpmath_within_the_registered_budgets(twin):
    f = special if twin == "fast" else special.exact
    nu, x = np.array(BESSEL_POINTS).T
    check("special::log_bessel_i", f.log_bessel_i(nu, x), [mpmath_reference.log_bessel_i(*p) for p in BESSEL_POINTS])
    check("special::bessel_i_ratio", f.bessel_i_ratio(nu, x), [mpmath_reference.bessel_i_ratio(*p) for p in BESSEL_POINTS])
    for z in NDTR_POINTS:
        check("special::log_normal_cdf", f.log_ndtr(z), mpmath_reference.log_ndtr(z), case=f"z = {z}")


def test_exact_twins_are_the_correctly_rounded_values():
    """The exact twins return the double nearest their 256-bit value: for ln I_ν and I_{ν+1}/I_ν
    the leading part of a double-double that agrees with a 60-digit mpmath table to 10⁻²⁵
    relative (budget::EXACT_VS_TABLE in src/registry.rs), for ln Φ the 256-bit value rounded
    once (crates/probdml-reference/src/special/exact/normal_cdf.rs). A double that close to the true value is the mpmath
    value rounded to nearest (unless that value lies within 10⁻²⁵ of a rounding midpoint, which
    none of these does), so the comparison is equality; the fast twins miss it by an ulp on some
    of these points."""
    nu, x = np.array(BESSEL_POINTS).T
    assert list(special.exact.log_bessel_i(nu, x)) == [mpmath_reference.log_bessel_i(*p) for p in BESSEL_POINTS]
    assert list(special.exact.bessel_i_ratio(nu, x)) == [mpmath_reference.bessel_i_ratio(*p) for p in BESSEL_POINTS]
    assert list(special.exact.log_ndtr(NDTR_POINTS)) == [mpmath_reference.log_ndtr(z) for z in NDTR_POINTS]


def test_the_extension_runs_the_dispatched_kernels_of_a_generic_build():
    """The wheel is built for any x86-64 (no target-cpu=native): AVX2 is not assumed at
    compile time, only chosen at run time."""
    assert probdml._probdml.built_with_avx2() is False
    assert probdml.instruction_set() in ("avx512", "avx2-fma", "portable")
