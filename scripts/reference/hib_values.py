#!/usr/bin/env python3
"""Independent values for chapter 07 (hedged instance embeddings), with mpmath 1.3.0.

Nothing here calls probdml. The match probability E sigmoid(-a|z1 - z2| + b) for
z_i ~ N(mu_i, diag var_i) is computed from its definition as an integral over
Delta = z1 - z2 ~ N(delta, diag s):
  * D = 1: one tanh-sinh quadrature over the real line, split at the kink Delta = 0;
  * D = 2 (any variances): a 2-D tanh-sinh quadrature over the plane, each axis split at 0;
  * isotropic D: one quadrature against the non-central chi-square density of |Delta|^2/s,
    with mpmath's besseli.
The KL divergence is the closed form at 40 digits; eta of a point mass is 1 - sigmoid(b).
Run: python3 scripts/reference/hib_values.py > scripts/reference/hib_values.txt
"""
from mpmath import mp, mpf, quad, exp, sqrt, log, pi, besseli, inf

mp.dps = 30

print("# scripts/reference/hib_values.py, mpmath " + __import__("mpmath").__version__ + ", mp.dps = 30")
print("# command: python3 scripts/reference/hib_values.py > scripts/reference/hib_values.txt")


def sigmoid(t):
    return 1 / (1 + exp(-t))


def gauss(x, m, s):
    return exp(-(x - m) ** 2 / (2 * s)) / sqrt(2 * pi * s)


def p_1d(delta, s, a, b):
    delta, s, a, b = map(mpf, (delta, s, a, b))
    f = lambda x: sigmoid(-a * abs(x) + b) * gauss(x, delta, s)
    sd = sqrt(s)
    return quad(f, [-inf, min(0, delta - 10 * sd), 0, max(0, delta + 10 * sd), inf])


def p_2d(delta, s, a, b):
    d1, d2 = map(mpf, delta)
    s1, s2 = map(mpf, s)
    a, b = mpf(a), mpf(b)
    f = lambda x, y: sigmoid(-a * sqrt(x * x + y * y) + b) * gauss(x, d1, s1) * gauss(y, d2, s2)
    return quad(f, [-inf, 0, inf], [-inf, 0, inf])


def p_isotropic(delta, s, a, b, offset=0):
    """|Delta|^2 = offset + s X, X ~ noncentral chi2(nu = len(delta), lam = |delta|^2/s)."""
    nu = len(delta)
    s, a, b, offset = mpf(s), mpf(a), mpf(b), mpf(offset)
    lam = sum(mpf(d) ** 2 for d in delta) / s

    def density(x):
        if lam == 0:
            return x ** (mpf(nu) / 2 - 1) * exp(-x / 2) / (2 ** (mpf(nu) / 2) * mp.gamma(mpf(nu) / 2))
        return exp(-(x + lam) / 2) / 2 * (x / lam) ** (mpf(nu) / 4 - mpf(1) / 2) * besseli(
            mpf(nu) / 2 - 1, sqrt(lam * x))

    f = lambda t: sigmoid(-a * sqrt(offset + s * t * t) + b) * 2 * t * density(t * t)
    centre = sqrt(lam)
    pts = [0] + [max(mpf(0), centre + k) for k in (-20, -8, -3, 0, 3, 8, 20)] + [inf]
    pts = sorted(set(pts))
    return quad(f, pts)


def kl(mean, var):
    return sum((mpf(v) + mpf(m) ** 2 - 1 - log(mpf(v))) / 2 for m, v in zip(mean, var))


def show(name, value):
    print(f"{name} = {mp.nstr(value, 20)}")


show("p_1d(delta=0, s=1, a=1, b=0)", p_1d(0, 1, 1, 0))
show("p_1d(delta=1.5, s=0.3, a=2, b=1)", p_1d(1.5, 0.3, 2, 1))
show("p_1d(delta=8, s=0.5, a=3, b=0.5)", p_1d(8, 0.5, 3, 0.5))
show("p_2d(delta=(1, 0.5), s=(0.5, 0.7), a=2, b=1)", p_2d((1, 0.5), (0.5, 0.7), 2, 1))
show("p_2d(delta=(0.2, -0.1), s=(0.05, 0.9), a=4, b=2)", p_2d((0.2, -0.1), (0.05, 0.9), 4, 2))
show("p_iso(delta=(1, 0.5), s=0.6, a=2, b=1)", p_isotropic((1, 0.5), 0.6, 2, 1))
show("p_iso(delta=(0.3, -0.2, 0.1), s=0.5, a=1.5, b=0.5)", p_isotropic((0.3, -0.2, 0.1), 0.5, 1.5, 0.5))
show("p_iso(delta=(6, 0, 0, 0), s=0.2, a=3, b=1)", p_isotropic((6, 0, 0, 0), 0.2, 3, 1))
delta128 = [mpf(k % 7 - 3) / 10 for k in range(128)]
show("p_iso(delta_k=((k mod 7) - 3)/10, k<128, s=0.02, a=1, b=3)", p_isotropic(delta128, 0.02, 1, 3))
show("p_iso(delta=0 in R^2, s=1, a=1, b=0)", p_isotropic((0, 0), 1, 1, 0))
for s in ("0.01", "0.1", "0.5", "1"):
    show(f"curve D=2 distance=1.5 s={s} a=2 b=2", p_isotropic((mpf("1.5"), 0), mpf(s), 2, 2))
show("kl(mean=(0.5, -1), var=(0.25, 2))", kl((0.5, -1), (0.25, 2)))
show("eta_point_mass(b=1.5)", 1 - sigmoid(mpf("1.5")))
show("eta_gaussian(D=2, var=(0.1, 0.1), a=2, b=1.5)", 1 - p_isotropic((0, 0), mpf("0.2"), 2, mpf("1.5")))
