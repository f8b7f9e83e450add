#!/usr/bin/env python3
"""Independent values for docs/src/03-contrastive.md (LAM App. A, B, D), with mpmath.

Nothing here calls probdml: distances, losses, vMF normalisers (via mpmath's Bessel I) and the
minibatch expectations (by enumerating every batch) are computed from the definitions.
Run: python3 scripts/reference/contrastive_values.py
"""
from itertools import combinations
from mpmath import mp, mpf, besseli, log, pi, sqrt, cos, sin, radians

mp.dps = 40


def ln_c(M, k):
    """ln C_M(κ) = (M/2−1) ln κ − (M/2) ln 2π − ln I_{M/2−1}(κ)."""
    nu = mpf(M) / 2 - 1
    return nu * log(k) - mpf(M) / 2 * log(2 * pi) - log(besseli(nu, k))


def d2(a, b):
    return sum((x - y) ** 2 for x, y in zip(a, b))


# The worked batch: six points on the circle, three classes, margin 1.2.
angles = [0, 30, 100, 140, 200, 290]
labels = [0, 0, 1, 1, 2, 2]
z = [(cos(radians(a)), sin(radians(a))) for a in angles]
m = mpf("1.2")
n = len(z)
pairs = [(i, j) for i in range(n) for j in range(n)]
P = [(i, j) for i, j in pairs if labels[i] == labels[j]]
N = [(i, j) for i, j in pairs if labels[i] != labels[j]]
Nm = [(i, j) for i, j in N if d2(z[i], z[j]) < m * m]

lpos = {"S": lambda q: q / 2, "H": lambda q: q / 2, "L": lambda q: sqrt(q)}
lneg = {
    "S": lambda q: max(m * m - q, 0) / 2,
    "H": lambda q: max(m - sqrt(q), 0) ** 2 / 2,
    "L": lambda q: max(m - sqrt(q), 0),
}
loss = {}
for f in "SHL":
    loss[f] = sum(lpos[f](d2(z[i], z[j])) for i, j in P) / len(P) + sum(
        lneg[f](d2(z[i], z[j])) for i, j in N
    ) / len(N)
    print(f"loss_{f} = {mp.nstr(loss[f], 17)}")
print(f"|P| = {len(P)}, |N| = {len(N)}, |N_m| = {len(Nm)}, hard negatives = {Nm}")

kp, kn = mpf(1) / len(P), mpf(1) / len(N)
dot = lambda a, b: sum(x * y for x, y in zip(a, b))
nll = -sum(ln_c(2, kp) + kp * dot(z[j], z[i]) for i, j in P) - sum(
    ln_c(2, kn) - kn * dot(z[j], z[i]) for i, j in Nm
)
const = -len(P) * (ln_c(2, kp) + kp) - len(Nm) * (ln_c(2, kn) + kn * (m * m / 2 - 1))
# The m = 2 constant with N replaced by N_m, the reading the book corrects.
naive_const = -len(P) * (ln_c(2, kp) + kp) - len(Nm) * (ln_c(2, kn) + kn)
print(f"nll = {mp.nstr(nll, 17)}")
print(f"nll - loss_S = {mp.nstr(nll - loss['S'], 17)}")
print(f"constant = {mp.nstr(const, 17)}; with N replaced by N_m = {mp.nstr(naive_const, 17)}")

# Eq. (48) for class 0 with κ± = 1: ν = Σ_{c=0} z_j − Σ_{c≠0} z_j.
nu = [sum((1 if labels[j] == 0 else -1) * z[j][k] for j in range(n)) for k in range(2)]
kappa = sqrt(dot(nu, nu))
scale = 2 * ln_c(2, 1) + 4 * ln_c(2, 1) - ln_c(2, kappa)
print(f"class 0: nu = {[mp.nstr(v, 17) for v in nu]}, kappa = {mp.nstr(kappa, 17)}, log_scale = {mp.nstr(scale, 17)}")

# Minibatches p = q = 1 (every batch), rescaled and naive.
ell = {(i, j): (lpos["S"](d2(z[i], z[j])) if labels[i] == labels[j] else lneg["S"](d2(z[i], z[j]))) for i, j in pairs}
resc = [ell[a] + ell[b] for a in P for b in N]
naive = [mpf(n * n) / 2 * (ell[a] / len(P) + ell[b] / len(N)) for a in P for b in N]
print(f"E rescaled (p=q=1) = {mp.nstr(sum(resc) / len(resc), 17)}")
print(f"E naive (p=q=1) = {mp.nstr(sum(naive) / len(naive), 17)}")
