#!/usr/bin/env python3
"""Independent spectrum of the 4-point counterexample to LAM Prop. F.3 (docs chapter 04,
proofs/ggn_approximations.rs).

Fixed approximation, Euclidean split, linear last layer y = Wx (M = 2, F = 3):
  H = sum_i w_i J_i^T J_i,  J_i = (P_i / r_i) (x) x_i^T,  P_i = I - y_i y_i^T / r_i^2,
  w_i = 2 (#positives of i / |P| - #negatives of i inside the margin / |N|).
Every entry is rational, so H is built exactly with Fraction; eigenvalues with mpmath at 50 digits.
"""
from fractions import Fraction as Fr
import mpmath

mpmath.mp.dps = 50
W = [[1, 0, 0], [0, 1, 0]]
X = [[1, 0, 1], [0, 1, 0], [1, 1, 0], [-1, 1, 0]]
labels = [0, 1, 1, 1]
n, M, F = 4, 2, 3

Y = [[sum(W[k][l] * x[l] for l in range(F)) for k in range(M)] for x in X]
P_count = sum(1 for i in range(n) for j in range(n) if labels[i] == labels[j])
N_count = n * n - P_count
# Margin 2: every negative pair is inside (no antipodal pair here; checked below).
for i in range(n):
    for j in range(n):
        if labels[i] != labels[j]:
            assert Y[i] != [-v for v in Y[j]]
w = [2 * (Fr(sum(labels[i] == labels[j] for j in range(n)), P_count)
          - Fr(sum(labels[i] != labels[j] for j in range(n)), N_count)) for i in range(n)]
H = [[Fr(0)] * (M * F) for _ in range(M * F)]
for i in range(n):
    r2 = Fr(sum(v * v for v in Y[i]))
    for k in range(M):
        for k2 in range(M):
            pk = (Fr(int(k == k2)) - Fr(Y[i][k] * Y[i][k2]) / r2) / r2
            for l in range(F):
                for l2 in range(F):
                    H[k * F + l][k2 * F + l2] += w[i] * pk * X[i][l] * X[i][l2]
print("w =", [str(v) for v in w])
print("H =")
for row in H:
    print("  ", [str(v) for v in row])
ev = mpmath.eigsy(mpmath.matrix([[mpmath.mpf(v.numerator) / v.denominator for v in row] for row in H]),
                  eigvals_only=True)
print("eigenvalues =", [mpmath.nstr(e, 20) for e in sorted(ev)])
