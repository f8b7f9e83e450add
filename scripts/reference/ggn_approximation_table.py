#!/usr/bin/env python3
"""Independent values of chapter 04's table "How the approximations differ on that batch"
(docs/src/04-ggn.md): the smallest and largest eigenvalue of the dense GGN for each split and
approximation, the first diagonal entry W_00 of the diagonal GGN, and the spectrum of the exact
Hessian, on the four-point batch of the LAM Prop. F.3 counterexample. Nothing here calls probdml.

Batch: labels [0, 1, 1, 1], W = [[1,0,0],[0,1,0]] (parameters W_kl row-major), features
x = (1,0,1), (0,1,0), (1,1,0), (-1,1,0), y_i = W x_i, z_i = y_i/|y_i|, margin 2.
Pairs: every ordered (i, j), (i, i) included; target t = 1/|P| for equal labels,
-1/|N| for unequal labels at distance |z_i - z_j| < 2, else 0 (|P| = sum_c |C_c|^2, |N| = n^2 - |P|).
GGN = sum_pairs J_pair^T Ht_pair J_pair with
  Euclidean split: outputs z_i, pair loss (t/2)|z_i - z_j|^2, J_i = dz_i/dW (closed form);
  Arccos split:    outputs y_i, pair loss t(1 - y_i.y_j/(|y_i||y_j|)), J_i = dy_i/dW,
                   Ht by mpmath's numerical differentiation (mp.diff) at 50 digits;
  positive: pairs with t < 0 dropped; fixed: the cross blocks (i-j) of Ht zeroed; full: all kept.
The diagonal entry is the GGN's (0, 0) entry, clamped at 0 for "full" (the fast diagonal's ReLU).
The exact Hessian of sum_pairs t(1 - cos) in W is taken by mp.diff of the whole loss.
Eigenvalues: mpmath.eigsy at 50 digits.

Command (from the repository root; .venv-reference with mpmath 1.3.0, see README.md here):
  .venv-reference/bin/python scripts/reference/ggn_approximation_table.py \
      > scripts/reference/ggn_approximation_table.txt
"""
import mpmath
from mpmath import mp, mpf, sqrt

mp.dps = 50

W = [[1, 0, 0], [0, 1, 0]]
X = [[1, 0, 1], [0, 1, 0], [1, 1, 0], [-1, 1, 0]]
LABELS = [0, 1, 1, 1]
MARGIN = 2
n, M, F = 4, 2, 3
P = M * F


def outputs(w):
    return [[sum(mpf(w[k * F + l]) * X[i][l] for l in range(F)) for k in range(M)] for i in range(n)]


def normalise(y):
    r = sqrt(sum(v * v for v in y))
    return [v / r for v in y]


theta = [mpf(W[k][l]) for k in range(M) for l in range(F)]
Y = outputs(theta)
Z = [normalise(y) for y in Y]
n_pos = sum(1 for i in range(n) for j in range(n) if LABELS[i] == LABELS[j])
n_neg = n * n - n_pos
pairs = []
for i in range(n):
    for j in range(n):
        if LABELS[i] == LABELS[j]:
            pairs.append((i, j, mpf(1) / n_pos))
        else:
            d = sqrt(sum((a - b) ** 2 for a, b in zip(Z[i], Z[j])))
            pairs.append((i, j, -mpf(1) / n_neg if d < MARGIN else mpf(0)))


def jacobian(i, split):
    """d(output_i)/dW as an M x P matrix."""
    y = Y[i]
    r2 = sum(v * v for v in y)
    r = sqrt(r2)
    J = [[mpf(0)] * P for _ in range(M)]
    for k in range(M):
        for k2 in range(M):
            if split == "Euclidean":
                c = ((1 if k == k2 else 0) - y[k] * y[k2] / r2) / r
            else:
                c = mpf(1 if k == k2 else 0)
            for l in range(F):
                J[k][k2 * F + l] = c * X[i][l]
    return J


def arccos_loss(t):
    def f(*v):
        a, b = v[:M], v[M:]
        dot = sum(p * q for p, q in zip(a, b))
        return t * (1 - dot / (sqrt(sum(p * p for p in a)) * sqrt(sum(q * q for q in b))))
    return f


def pair_hessian(i, j, t, split):
    """The 2M x 2M Hessian of the pair loss in (output_i, output_j)."""
    if split == "Euclidean":
        return [[t * ((1 if a % M == b % M else 0) * (1 if (a < M) == (b < M) else -1))
                 for b in range(2 * M)] for a in range(2 * M)]
    f = arccos_loss(t)
    point = Y[i] + Y[j]
    H = [[mpf(0)] * (2 * M) for _ in range(2 * M)]
    for a in range(2 * M):
        for b in range(a, 2 * M):
            order = [0] * (2 * M)
            order[a] += 1
            order[b] += 1
            H[a][b] = H[b][a] = mpmath.diff(f, point, tuple(order))
    return H


def ggn(split, approximation):
    G = [[mpf(0)] * P for _ in range(P)]
    for i, j, t in pairs:
        if t == 0 or (approximation == "positive" and t < 0):
            continue
        H = pair_hessian(i, j, t, split)
        if approximation == "fixed":
            for a in range(2 * M):
                for b in range(2 * M):
                    if (a < M) != (b < M):
                        H[a][b] = mpf(0)
        J = jacobian(i, split) + jacobian(j, split)
        for u in range(P):
            for v in range(P):
                G[u][v] += sum(J[a][u] * H[a][b] * J[b][v] for a in range(2 * M) for b in range(2 * M))
    return G


def total_loss(*w):
    y = outputs(w)
    return sum(arccos_loss(t)(*(y[i] + y[j])) for i, j, t in pairs if t != 0)


def spectrum(G):
    return sorted(mpmath.eigsy(mpmath.matrix(G), eigvals_only=True))


print("# scripts/reference/ggn_approximation_table.py, mpmath " + mpmath.__version__ + ", mp.dps = 50")
print("# command: .venv-reference/bin/python scripts/reference/ggn_approximation_table.py"
      " > scripts/reference/ggn_approximation_table.txt")
print("# split approximation lambda_min lambda_max diag_W00")
for split in ["Euclidean", "Arccos"]:
    for approximation in ["positive", "fixed", "full"]:
        G = ggn(split, approximation)
        ev = spectrum(G)
        d00 = G[0][0]
        if approximation == "full":
            d00 = max(d00, mpf(0))
        print(split, approximation, mpmath.nstr(ev[0], 20, min_fixed=-1, max_fixed=1),
              mpmath.nstr(ev[-1], 20, min_fixed=-1, max_fixed=1), mpmath.nstr(d00, 20, min_fixed=-1, max_fixed=1))
hessian = [[mpf(0)] * P for _ in range(P)]
for u in range(P):
    for v in range(u, P):
        order = [0] * P
        order[u] += 1
        order[v] += 1
        hessian[u][v] = hessian[v][u] = mpmath.diff(total_loss, theta, tuple(order))
ev = spectrum(hessian)
print("hessian", "exact", mpmath.nstr(ev[0], 20, min_fixed=-1, max_fixed=1),
      mpmath.nstr(ev[-1], 20, min_fixed=-1, max_fixed=1), "-")
