#!/usr/bin/env python3
"""Every number shown in the book chapter docs/src/06-nivmf.md (nivMF, PPK, KL between vMFs).

The chapter asserts each value in a ```rust block against probdml (`cargo test --release --doc`);
the values come from here, computed with mpmath only (never copied from probdml's output):
integrals over S^2 by mpmath.quad (tanh-sinh, 30 digits) in spherical coordinates, normalisers
from mpmath.besseli.

Run (from the repository root; a few minutes, pure Python + mpmath 1.3.0):

    MPMATH_NOGMPY=1 python3 scripts/reference/nivmf_values.py > scripts/reference/nivmf_values.txt
"""
import mpmath as mp

mp.mp.dps = 30
PI = mp.pi


def log_c(m, k):
    """ln C_M(kappa) = (M/2-1) ln k - (M/2) ln 2pi - ln I_{M/2-1}(k); the uniform density at 0."""
    m, k = mp.mpf(m), mp.mpf(k)
    if k == 0:
        return mp.loggamma(m / 2) - mp.log(2) - (m / 2) * mp.log(PI)
    nu = m / 2 - 1
    return nu * mp.log(k) - (m / 2) * mp.log(2 * PI) - mp.log(mp.besseli(nu, k))


def mean_resultant(m, k):
    m, k = mp.mpf(m), mp.mpf(k)
    return mp.besseli(m / 2, k) / mp.besseli(m / 2 - 1, k)


def sphere_quad(f, pole_split=()):
    """Integral of f(x) over S^2, x = (sin t cos p, sin t sin p, cos t)."""
    def g(t, p):
        st = mp.sin(t)
        return f((st * mp.cos(p), st * mp.sin(p), mp.cos(t))) * st
    ts = [0] + list(pole_split) + [PI]
    return mp.quad(g, ts, [0, PI / 2, PI, 3 * PI / 2, 2 * PI])


def show(name, value):
    print(f"{name} = {mp.nstr(value, 20)}")


# 1. KL between vMFs on S^2: kappa_z = 5, kappa_p = 2, angle 1 rad (nivMF Supp. E).
kz, kp, w = mp.mpf(5), mp.mpf(2), mp.mpf(1)
mu_z = (0, 0, 1)
mu_p = (mp.sin(w), 0, mp.cos(w))
def log_vmf(x, mu, k):
    return log_c(3, k) + k * sum(a * b for a, b in zip(x, mu))
lcz, lcp = log_c(3, kz), log_c(3, kp)
kl_quad = sphere_quad(lambda x: mp.exp(lcz + kz * x[2]) * (lcz + kz * x[2] - lcp - kp * (x[0] * mu_p[0] + x[2] * mu_p[2])), [mp.mpf(1) / 2, 1])
kl_closed = lcz - lcp + mean_resultant(3, kz) * (kz - kp * mp.cos(w))
kl_paper = lcz - lcp + kz - kp * mp.cos(w)
show("kl_quadrature(M=3,kz=5,kp=2,angle=1)", kl_quad)
show("kl_corrected_closed_form", kl_closed)
show("kl_paper_eq39", kl_paper)

# 2. KL where the normalisers cancel: M = 3, same direction, kappa_z = 1e4, kappa_p = 1e4 + 1.
kz2, kp2 = mp.mpf(10000), mp.mpf(10001)
kl_near = log_c(3, kz2) - log_c(3, kp2) + mean_resultant(3, kz2) * (kz2 - kp2)
show("kl_near(M=3,kz=1e4,kp=1e4+1)", kl_near)
show("ln_c3(1e4)", log_c(3, kz2))

# 3. nivMF on S^2: K = diag(2, 5, 9), mu = (1,1,1)/sqrt(3).
K = (mp.mpf(2), mp.mpf(5), mp.mpf(9))
mu = tuple(mp.mpf(1) / mp.sqrt(3) for _ in range(3))
kmu = [k * m for k, m in zip(K, mu)]
kt = mp.sqrt(sum(v * v for v in kmu))
det = K[0] * K[1] * K[2]
def nivmf(x, heuristic):
    kx = [k * v for k, v in zip(K, x)]
    nkx = mp.sqrt(sum(v * v for v in kx))
    e = sum(a * b for a, b in zip(kx, kmu)) / nkx
    jac = det / kt if heuristic else det / nkx ** 3
    return mp.exp(log_c(3, kt) + e) * jac
mass_exact = sphere_quad(lambda x: nivmf(x, False), [mp.mpf(1) / 2, 1])
mass_heur = sphere_quad(lambda x: nivmf(x, True), [mp.mpf(1) / 2, 1])
show("nivmf_kappa_tilde", kt)
show("nivmf_mass_exact", mass_exact)
show("nivmf_mass_heuristic", mass_heur)
x0 = (mp.mpf(0), mp.mpf(3) / 5, mp.mpf(4) / 5)
show("nivmf_log_density(x=(0,0.6,0.8))", mp.log(nivmf(x0, False)))
show("nivmf_log_density_heuristic(x=(0,0.6,0.8))", mp.log(nivmf(x0, True)))

# 4. PPK between vMFs on S^2: nu_z = (3, 0, 0), nu_p = (0, 4, 0); |nu_z + nu_p| = 5.
for gamma in (mp.mpf(1), mp.mpf(1) / 2):
    closed = gamma * (log_c(3, 3) + log_c(3, 4)) - log_c(3, gamma * 5)
    quad = mp.log(sphere_quad(lambda x: mp.exp(gamma * (log_c(3, 3) + 3 * x[0] + log_c(3, 4) + 4 * x[1]))))
    show(f"log_ppk(gamma={mp.nstr(gamma, 2)})_closed", closed)
    show(f"log_ppk(gamma={mp.nstr(gamma, 2)})_quadrature", quad)

# 5. Supp. A quadratic fits of ln C_M against the exact values.
for m, k, fit in ((128, 200, lambda k: 127 - 0.01909 * k - 0.003355 * k * k),
                  (128, 30, lambda k: 127 - 0.01909 * k - 0.003355 * k * k),
                  (512, 140, lambda k: 868 - 0.0002662 * k - 0.0009685 * k * k)):
    exact = log_c(m, k)
    show(f"ln_c({m},{k})_exact", exact)
    show(f"ln_c({m},{k})_supp_a_fit", mp.mpf(fit(mp.mpf(k))))
