#!/usr/bin/env python3
"""Every number shown in the book chapters docs/src/01-special.md and docs/src/02-vmf.md.

This script produced the worked values of those two chapters. The chapters assert each value
in a ```rust block against probdml (so `cargo test --release --doc` checks them); the values
themselves come from here, computed with mpmath only, never copied from probdml's output.

Run (from the repository root; about a minute, pure Python + mpmath 1.3.0):

    MPMATH_NOGMPY=1 python3 scripts/reference/docs_values.py > scripts/reference/docs_values.txt

Method. Inputs are IEEE doubles (mp.mpf(float) is exact), as the Rust side sees them.
ln I_nu(x) and I_{nu+1}(x)/I_nu(x) are summed from the defining positive series
    I_nu(x) = sum_k (x/2)^(2k+nu) / (k! Gamma(k+nu+1))
in log-scaled form (outward from the largest term, so x = 5e6 costs ~3e4 terms and nothing
overflows), at 60 significant digits; where mpmath.besseli converges (moderate x) the two are
cross-checked and the script aborts on disagreement. The kappa MLE is the root of
A_M(kappa) = Rbar by Newton's method at 60 digits, and Banerjee's start and Sra's Newton steps are
iterated in the same arithmetic (Sra 2012, as LAM App. C uses it).
"""
import math
import sys

import mpmath as mp

mp.mp.dps = 60
DPS_CHECK = mp.mpf(10) ** -40


# --------------------------------------------------------------------------------------------
# Bessel series (independent of probdml's code; same mathematics as any textbook)
# --------------------------------------------------------------------------------------------
def _series(nu, x, want_ratio):
    """(ln I_nu(x), I_{nu+1}(x)/I_nu(x) or None) for nu >= 0, x > 0."""
    nu = mp.mpf(nu)
    x = mp.mpf(x)
    q = x * x / 4
    u = x * x / (2 * (nu + mp.sqrt(nu * nu + x * x)))
    kstar = int(mp.floor(u))
    half_x = x / 2
    ln_peak = (2 * kstar + nu) * mp.log(half_x) - mp.loggamma(kstar + 1) - mp.loggamma(kstar + nu + 1)
    eps = mp.mpf(2) ** (-(mp.mp.prec + 10))
    s = mp.mpf(1)
    r = half_x / (kstar + nu + 1) if want_ratio else mp.mpf(0)
    # upward
    t = mp.mpf(1)
    k = kstar
    while True:
        ratio = q / ((k + 1) * (k + nu + 1))
        t *= ratio
        k += 1
        s += t
        if want_ratio:
            r += t * half_x / (k + nu + 1)
        if ratio < 1 and t * ratio / (1 - ratio) < eps * s:
            break
    # downward
    t = mp.mpf(1)
    k = kstar
    while k > 0:
        ratio = k * (k + nu) / q  # t_{k-1} / t_k
        t *= ratio
        k -= 1
        s += t
        if want_ratio:
            r += t * half_x / (k + nu + 1)
        if ratio < 1 and t * ratio / (1 - ratio) < eps * s:
            break
    return ln_peak + mp.log(s), (r / s if want_ratio else None)


def ln_i(nu, x):
    v = _series(nu, x, False)[0]
    if x <= 1e3:  # cross-check with mpmath's own Bessel function where it converges
        w = mp.log(mp.besseli(mp.mpf(nu), mp.mpf(x)))
        assert abs(v - w) <= DPS_CHECK * max(1, abs(w)), (nu, x, v, w)
    return v


def ratio(nu, x):
    v = _series(nu, x, True)[1]
    if x <= 1e3:
        w = mp.besseli(mp.mpf(nu) + 1, mp.mpf(x)) / mp.besseli(mp.mpf(nu), mp.mpf(x))
        assert abs(v / w - 1) <= DPS_CHECK, (nu, x, v, w)
    return v


def ln_c(m, kappa):
    """ln C_M(kappa) = (M/2 - 1) ln kappa - (M/2) ln 2pi - ln I_{M/2-1}(kappa); kappa = 0 limit."""
    m = mp.mpf(m)
    if kappa == 0:
        return mp.loggamma(m / 2) - mp.log(2) - (m / 2) * mp.log(mp.pi)
    kappa = mp.mpf(kappa)
    nu = m / 2 - 1
    return nu * mp.log(kappa) - (m / 2) * mp.log(2 * mp.pi) - ln_i(nu, kappa)


def a_m(m, kappa):
    return ratio(mp.mpf(m) / 2 - 1, kappa)


def ln_sphere_area(m):
    m = mp.mpf(m)
    return mp.log(2) + (m / 2) * mp.log(mp.pi) - mp.loggamma(m / 2)


def entropy(m, kappa):
    return -ln_c(m, kappa) - mp.mpf(kappa) * a_m(m, kappa)


def kl_uniform(m, kappa):
    return ln_c(m, kappa) + mp.mpf(kappa) * a_m(m, kappa) + ln_sphere_area(m)


# --------------------------------------------------------------------------------------------
# Output helpers
# --------------------------------------------------------------------------------------------
def out(label, value, digits=20):
    print(f"{label:<58} {mp.nstr(value, digits, strip_zeros=False)}")


def fixed(value, decimals):
    """value rounded to `decimals` places, as shown on the page."""
    return mp.nstr(mp.mpf(value), int(mp.floor(mp.log10(abs(value)))) + 1 + decimals if value != 0
                   else 1, strip_zeros=False, min_fixed=-mp.inf, max_fixed=mp.inf)


def budget_decimals(value, budget=4e-15):
    """The most decimals whose rounding unit is not below the error budget at `value`."""
    return int(mp.floor(-mp.log10(budget * max(1, abs(value)))))


def shown(label, value, budget=4e-15):
    d = budget_decimals(value, budget)
    print(f"{label:<58} {fixed(value, d)}   (shown to {d} decimals)")


def sig2(value):
    """Two significant digits in Rust's `{:.1e}` form (what the chapter's table shows)."""
    if value == 0:
        return "0.0e0"
    e = int(mp.floor(mp.log10(abs(value))))
    m = value / mp.mpf(10) ** e
    r = mp.nint(m * 10) / 10
    if abs(r) >= 10:
        r, e = r / 10, e + 1
    return f"{float(r):.1f}e{e}"


def head(title):
    print()
    print("## " + title)


# --------------------------------------------------------------------------------------------
# Chapter 01
# --------------------------------------------------------------------------------------------
def chapter_01():
    head("01: why log space")
    for nu, x in [(255, 10.0), (255, 1e5), (0, 1e5)]:
        v = ln_i(nu, x)
        out(f"ln I_{nu}({x})", v)
        out(f"log10 I_{nu}({x})", v / mp.log(10))

    head("01: the zero of ln I_nu near x = 0.66 nu (nu = 50000)")
    nu = mp.mpf(50000)
    x0 = mp.findroot(lambda x: ln_i(nu, x), mp.mpf("33137"))
    out("x0 with ln I_50000(x0) = 0", x0)
    out("x0 / nu", x0 / nu)
    x = 33140.72
    out("ln I_50000(33140.72)", ln_i(nu, x), 25)
    xm = mp.mpf(x)
    s = mp.sqrt(nu * nu + xm * xm)
    out("s = sqrt(nu^2 + x^2)", s)
    out("nu ln x", nu * mp.log(xm))
    out("nu ln(nu + s)", nu * mp.log(nu + s))
    out("g = ln I - nu ln x", ln_i(nu, x) - nu * mp.log(xm))
    out("ulp(2^19) = 2^-33", mp.mpf(2) ** -33)

    head("01: spot values and the scipy +inf points")
    for m, k in [(128, 50.0), (512, 50.0), (512, 5.0), (2048, 100.0), (100000, 1e3),
                 (100000, 1e5), (100000, 1e7), (512, 0.0), (2048, 0.0), (100000, 0.0)]:
        out(f"ln C_{m}({k})", ln_c(m, k), 25)
        shown("  shown", ln_c(m, k))
    out("ln I_255(5)", ln_i(255, 5.0))
    out("ln I_1023(100)", ln_i(1023, 100.0))
    out("log10 I_255(5)", ln_i(255, 5.0) / mp.log(10))
    out("log10 I_1023(100)", ln_i(1023, 100.0) / mp.log(10))

    head("01: A_M(kappa) and its limits")
    for m, k in [(3, 10.0), (128, 1e-3), (512, 5.0), (512, 50.0), (512, 1e4), (2048, 100.0),
                 (2048, 1e6), (100000, 1e7)]:
        a = a_m(m, k)
        out(f"A_{m}({k})", a, 25)
        print(f"{'  shown (12 significant digits)':<58} {mp.nstr(a, 12, strip_zeros=False)}")
        out(f"  kappa/M", mp.mpf(k) / m)
        out(f"  1 - (M-1)/(2 kappa)", 1 - mp.mpf(m - 1) / (2 * mp.mpf(k)))
        out(f"  1 - A", 1 - a)

    head("01: the nivMF quadratic fits (fit - exact)")
    fits = {128: (127, mp.mpf("0.01909"), mp.mpf("0.003355")),
            512: (868, mp.mpf("0.0002662"), mp.mpf("0.0009685"))}
    for m, (c0, c1, c2) in fits.items():
        for k in [10, 50, 100, 140, 200]:
            exact = ln_c(m, float(k))
            fit = c0 - c1 * k - c2 * k * k
            out(f"M={m} kappa={k}: exact", exact)
            out(f"M={m} kappa={k}: fit - exact", fit - exact)


# --------------------------------------------------------------------------------------------
# Chapter 02
# --------------------------------------------------------------------------------------------
def banerjee(m, rbar):
    return rbar * (m - rbar * rbar) / (1 - rbar * rbar)


def newton_step(m, rbar, kappa):
    a = a_m(m, kappa)
    return kappa - (a - rbar) / (1 - a * a - (m - 1) / kappa * a)


def kappa_mle(m, rbar):
    kappa = banerjee(m, rbar)
    for _ in range(100):
        nxt = newton_step(m, rbar, kappa)
        if abs(nxt - kappa) < mp.mpf(10) ** -50 * kappa:
            return nxt
        kappa = nxt
    raise RuntimeError("no convergence")


def chapter_02():
    head("02: M = 3 closed forms at kappa = 2")
    k = mp.mpf(2)
    lc = mp.log(k / (4 * mp.pi * mp.sinh(k)))
    a3 = mp.coth(k) - 1 / k
    assert abs(lc - ln_c(3, 2.0)) < DPS_CHECK and abs(a3 - a_m(3, 2.0)) < DPS_CHECK
    out("ln C_3(2)", lc)
    out("A_3(2)", a3)
    out("H_3(2)", -lc - k * a3)
    out("KL_3(2)", lc + k * a3 + mp.log(4 * mp.pi))
    out("ln|S^2| = ln 4pi", mp.log(4 * mp.pi))

    head("02: entropy and KL at M = 128, 512")
    for m in [128, 512]:
        for kk in [1.0, 10.0, 50.0, 500.0]:
            out(f"H_{m}({kk})", entropy(m, kk))
            out(f"KL_{m}({kk})", kl_uniform(m, kk))
        out(f"ln|S^{m - 1}|", ln_sphere_area(m))

    head("02: BTL listing kl_div_vMF = kappa - D ln 2 vs true KL, D = 128")
    d = 128
    for kk in [1.0, 10.0, 88.0, 100.0, 1000.0]:
        out(f"D={d} kappa={kk}: listing", kk - d * mp.log(2))
        out(f"D={d} kappa={kk}: true KL", kl_uniform(d, kk))
    out("D ln 2 (listing's zero)", d * mp.log(2))

    head("02: duality nu = kappa mu, z = (0, 3, 4), x = (0, 0, 1)")
    out("ln f(x) = ln C_3(5) + 5 * 0.8", ln_c(3, 5.0) + 4)

    head("02: Wood's b")
    for m, kk in [(3, 1e3), (3, 1e5), (3, 1e7), (3, 1e8), (128, 100.0)]:
        m1 = mp.mpf(m - 1)
        kk = mp.mpf(kk)
        b = m1 / (2 * kk + mp.sqrt(4 * kk * kk + m1 * m1))
        out(f"b(M={m}, kappa={kk}) exact", b)
        # the naive form in IEEE double arithmetic (Python floats are IEEE doubles and sqrt is
        # correctly rounded, so this is what any f64 code computes)
        mf, kf = float(m - 1), float(kk)
        naive = (-2.0 * kf + math.sqrt(4.0 * kf * kf + mf * mf)) / mf
        print(f"{'  naive f64 (-2k + sqrt(4k^2 + (M-1)^2))/(M-1)':<58} {naive!r}")
        out("  naive relative error", (naive - b) / b, 6)
    out("A_128(100)", a_m(128, 100.0))
    a = a_m(128, 100.0)
    out("A'_128(100) = 1 - A^2 - 127 A / 100 = Var[mu^T X]", 1 - a * a - mp.mpf(127) / 100 * a)
    out("1 - A_3(1e8)", 1 - a_m(3, 1e8))
    out("sigma of the mean of mu^T X, n = 10000", mp.sqrt((1 - a * a - mp.mpf(127) / 100 * a) / 10000))
    out("sigma of kappa-hat = sigma / A'", mp.sqrt((1 - a * a - mp.mpf(127) / 100 * a) / 10000)
        / (1 - a * a - mp.mpf(127) / 100 * a))

    head("02: kappa estimators, relative error (kappa_t - mle)/mle")
    rows = []
    for m in [3, 128, 512, 2048, 100000]:
        for rb in [0.1, 0.5, 0.9, 0.99]:
            rbar = mp.mpf(rb)
            mle = kappa_mle(m, rbar)
            k0 = banerjee(m, rbar)
            k1 = newton_step(m, rbar, k0)
            k2 = newton_step(m, rbar, k1)
            errs = [(kt - mle) / mle for kt in (k0, k1, k2)]
            print(f"M={m:<6} Rbar={rb:<5} mle={mp.nstr(mle, 20)}  "
                  + "  ".join(mp.nstr(e, 6) for e in errs))
            rows.append((m, rb, mle, errs))
    print()
    print("markdown rows (errors below 1e-13 shown as '< 1e-13'):")
    cell = lambda e: f"{sig2(e)}" if abs(e) >= mp.mpf("1e-13") else "< 1e-13"
    for m, rb, mle, errs in rows:
        mm = "10⁵" if m == 100000 else str(m)
        print(f"| {mm} | {rb} | {mp.nstr(mle, 10)} | " + " | ".join(cell(e) for e in errs) + " |")
    print()
    print("rust rows (M, Rbar, mle, [errors]):")
    for m, rb, mle, errs in rows:
        print(f"    ({m}, {rb!r}, {float(mle)!r}, [" + ", ".join(repr(float(e)) for e in errs) + "]),")

    head("02: LAM uncertainty, M = 2, samples (1,0), (0.8,0.6), (0.8,-0.6)")
    rbar = mp.mpf(26) / 30  # |sum| = 2.6 exactly in exact arithmetic
    out("Rbar", rbar)
    out("kappa_0 (Banerjee)", banerjee(2, rbar))
    out("1/kappa_0", 1 / banerjee(2, rbar))
    out("kappa_mle", kappa_mle(2, rbar))


if __name__ == "__main__":
    which = sys.argv[1:] or ["01", "02"]
    print("# docs_values.py: mpmath", mp.__version__, "at", mp.mp.dps, "digits")
    if "01" in which:
        chapter_01()
    if "02" in which:
        chapter_02()
