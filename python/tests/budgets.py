"""The error budgets of src/registry.rs (`budget::…`) that the Python tests compare the fast and
exact twins with, under the registry's rules (`Budget::AbsOrRel`: |fast − exact| ≤ tol·max(1,
|exact|)). The values are copied, not computed: a change there must be made here too."""

import numpy as np

LOG_BESSEL_I = 2e-15  # budget::LOG_BESSEL_I
LN_NORMAL_CDF = 3.5e-15  # budget::LN_NORMAL_CDF
RATIO = 1e-14  # budget::RATIO (I_{ν+1}/I_ν, relative)
NIVMF_PROXY_FD = 1e-7  # budget::NIVMF_PROXY_FD (gradients, relative to the largest entry)


def within_abs_or_rel(fast, exact, tol) -> bool:
    fast, exact = np.asarray(fast), np.asarray(exact)
    return bool(np.all(np.abs(fast - exact) <= tol * np.maximum(1.0, np.abs(exact))))


def within_rel(fast, exact, tol) -> bool:
    fast, exact = np.asarray(fast), np.asarray(exact)
    return bool(np.all(np.abs(fast - exact) <= tol * np.abs(exact)))


def within_scale(fast, exact, tol) -> bool:
    fast, exact = np.asarray(fast), np.asarray(exact)
    return bool(np.all(np.abs(fast - exact) <= tol * max(np.max(np.abs(exact)), 1e-300)))
