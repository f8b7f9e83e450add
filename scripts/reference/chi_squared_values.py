#!/usr/bin/env python3
"""Independent values of the chi-square law for the sampler proofs, with mpmath 1.3.0.

Nothing here calls probdml. P(chi2_k > x) and P(chi2_k <= x) are mpmath's regularised
incomplete gamma functions Q(k/2, x/2) and P(k/2, x/2) at 40 digits, at odd and even k from 1
to 10^5, in both tails, down to 10^-12: the degrees of freedom and tails the proofs' tests
(the mean direction of a vMF sample, Mahalanobis distances, sums of n squared normals) use.
Run: python3 scripts/reference/chi_squared_values.py > scripts/reference/chi_squared_values.txt
"""
from mpmath import mp, mpf, gammainc, nstr

mp.dps = 40

POINTS = [
    (1, "0.5"), (1, "23.9"), (2, "27.6"), (3, "5"), (3, "30"), (4, "4"), (9, "44"),
    (16, "2"), (16, "40"), (127, "215"), (2047, "2300"), (2047, "1900"),
    (99999, "101500"), (100000, "97000"), (100000, "103000"),
]

print("# scripts/reference/chi_squared_values.py, mpmath " + __import__("mpmath").__version__ + ", mp.dps = 40")
print("# command: python3 scripts/reference/chi_squared_values.py > scripts/reference/chi_squared_values.txt")
print("# k x P(chi2_k > x) P(chi2_k <= x)")
for k, x in POINTS:
    a, y = mpf(k) / 2, mpf(x) / 2
    upper = gammainc(a, y, mp.inf, regularized=True)
    lower = gammainc(a, 0, y, regularized=True)
    print(k, x, nstr(upper, 20, min_fixed=1, max_fixed=0), nstr(lower, 20, min_fixed=1, max_fixed=0))
