#!/usr/bin/env python3
"""Independent values for BTL Fig. 2's two counterexamples and the far tail of the triplet
likelihood (proofs/triplet_gradient.rs, proofs/triplet_likelihood.rs). Nothing here calls probdml.

In one dimension tau = |a - p|^2 - |a - n|^2 = X Y with X = n - p and Y = 2a - p - n, a
bivariate normal: mean (mu_n - mu_p, 2 mu_a - mu_p - mu_n), variances (s_p + s_n,
4 s_a + s_p + s_n), covariance s_p - s_n (s the variances). So
  exact: P(tau < -m) = int phi_X(x) P(x Y < -m | X = x) dx        (mpmath quad, split at 0),
  CLT:   P(tau < -m) ~ Phi((-m - E tau)/sqrt(Var tau)),
         E tau = mX mY + C,  Var tau = sX sY + C^2 + mX^2 sY + mY^2 sX + 2 mX mY C.
NLL = -ln P; its derivatives in (mu_a, mu_p, mu_n, s_a, s_p, s_n) by mpmath.diff at 40 digits.
Far tail: all means 0, variances 0.01, so X ~ N(0, 0.02) and Y ~ N(0, 0.06) are independent and
P(XY < -m) = (1/pi) int_{m/s}^inf K_0(u) du, s = sqrt(0.02 * 0.06) (product of normals),
integrated as e^{-m/s} int_0^inf [K_0(u) e^u]_{u = m/s + v} e^{-v} dv.

Command (from the repository root; .venv-reference with mpmath 1.3.0):
  .venv-reference/bin/python scripts/reference/triplet_fig2_values.py \
      > scripts/reference/triplet_fig2_values.txt
"""
import mpmath
from mpmath import mp, mpf, sqrt, log, exp, ncdf, quad, inf, pi, besselk

mp.dps = 40


def law(ma, mp_, mn, sa, sp, sn):
    mx, my = mn - mp_, 2 * ma - mp_ - mn
    vx, vy, c = sp + sn, 4 * sa + sp + sn, sp - sn
    return mx, my, vx, vy, c


def exact_nll(ma, mp_, mn, sa, sp, sn, m):
    mx, my, vx, vy, c = law(ma, mp_, mn, sa, sp, sn)
    sx = sqrt(vx)
    slope, cond_sd = c / vx, sqrt(vy - c * c / vx)

    def integrand(x):
        density = exp(-(x - mx) ** 2 / (2 * vx)) / sqrt(2 * pi * vx)
        mean = my + slope * (x - mx)
        if x > 0:
            return density * ncdf((-m / x - mean) / cond_sd)
        if x < 0:
            return density * (1 - ncdf((-m / x - mean) / cond_sd))
        return density * (1 if m < 0 else 0)

    points = sorted({mpf(0), mx, mx - 8 * sx, mx + 8 * sx, mx - 40 * sx, mx + 40 * sx})
    return -log(quad(integrand, [-inf] + points + [inf]))


def clt_nll(ma, mp_, mn, sa, sp, sn, m):
    mx, my, vx, vy, c = law(ma, mp_, mn, sa, sp, sn)
    mean = mx * my + c
    var = vx * vy + c * c + mx * mx * vy + my * my * vx + 2 * mx * my * c
    return -log(ncdf((-m - mean) / sqrt(var)))


NAMES = ["mu_a", "mu_p", "mu_n", "var_a", "var_p", "var_n"]


def gradient(f, point, m):
    out = []
    for k in range(6):
        g = lambda t, k=k: f(*[t if j == k else point[j] for j in range(6)], m)
        out.append(mpmath.diff(g, point[k]))
    return out


print("# scripts/reference/triplet_fig2_values.py, mpmath " + mpmath.__version__ + ", mp.dps = 40")
print("# command: .venv-reference/bin/python scripts/reference/triplet_fig2_values.py"
      " > scripts/reference/triplet_fig2_values.txt")
print("# gradient <point> <route> <nll> d/d" + " d/d".join(NAMES))
POINTS = {
    # BTL Fig. 2, refutation "the negative is repelled in all scenarios".
    "negative_attracted": ([0, mpf("1.95"), mpf("0.05")], mpf("0.01")),
    # BTL Fig. 2, refutation "a correctly ordered triplet lowers every variance".
    "variance_grows": ([0, mpf("0.5"), mpf("0.72")], mpf("0.1")),
}
for name, (mu, var) in POINTS.items():
    point = mu + [var, var, var]
    for route, f in [("clt", clt_nll), ("exact", exact_nll)]:
        value = f(*point, 0)
        g = gradient(f, point, 0)
        print("gradient", name, route, mpmath.nstr(value, 20), " ".join(mpmath.nstr(v, 20) for v in g))

print("# far_tail <margin> <ln P exact> <ln P CLT>  (all means 0, variances 0.01, D = 1)")
s = sqrt(mpf("0.02") * mpf("0.06"))
for m in [4, 25, 100, 400]:
    x0 = m / s
    # The integrand scaled by e^{x0} (K_0(u) e^u is smooth and slowly varying): quad on the
    # unscaled K_0(x0 + v) ~ e^{-115} loses digits (6e-8 in ln P at m = 4).
    scaled = quad(lambda v: besselk(0, x0 + v) * exp(x0 + v) * exp(-v), [0, 1, 5, 20, 80, inf])
    ln_tail = log(scaled / pi) - x0
    clt = log(ncdf(-m / s))
    print("far_tail", m, mpmath.nstr(ln_tail, 20), mpmath.nstr(clt, 20))
