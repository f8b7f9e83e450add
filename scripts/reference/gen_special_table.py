#!/usr/bin/env python3
"""Reference table for the special functions of probdml (book chapter 01).

Produces ``scripts/reference/special_reference.csv`` with high-precision values of

    log_bessel_i           ln I_nu(x)
    bessel_i_ratio         I_{nu+1}(x) / I_nu(x)
    log_norm_const         ln C_M(kappa)   (vMF normaliser on S^{M-1})
    mean_resultant_length  A_M(kappa) = I_{M/2}(kappa) / I_{M/2-1}(kappa)

computed with mpmath (an arbitrary-precision library independent of the crate).

Method
------
* Every input (nu, x, kappa) is an IEEE double.  It is written with Python's
  ``repr(float)`` (shortest round-trip form) and the mpmath value is computed from
  exactly that double (``mp.mpf(float_value)``), so the Rust side parses the same input.
* Primary values come from ``mpmath.besseli`` (then ``log`` / division), at a base
  working precision of ``mp.dps = 60``.  Each value is recomputed at 60 + 20 digits;
  the two must agree to ``AGREE`` relative, otherwise the working precision is raised
  in steps of 20 digits (this is needed where ln I is close to 0, e.g. nu = 0 at tiny x,
  since ln(1 + eps) loses digits, and in ln C where terms cancel).  The higher-precision
  value is the one printed.
* Where besseli is impractically slow (it falls back to its power series with ~x terms;
  see ``use_miller``), I_nu and I_{nu+1} come from Miller's backward recurrence,
  normalised with besseli at the fractional order; a self-test checks Miller against
  besseli at points where both are practical.
* Independent check of EVERY row: the defining positive series
      I_nu(x) = sum_k (x/2)^(2k+nu) / (k! Gamma(k+nu+1))
  summed in mpmath (own code, no besseli), in log-scaled form: the sum starts at the
  largest term k* (from lgamma) and walks up and down until the remaining terms are
  below the working precision, so even x = 1e8 needs only ~2e5 terms.  The besseli value
  and the series value must agree to ``CHECK_TOL`` relative or the script aborts.
* Closed-form checks (abort on disagreement):
      nu = 1/2:  ln I = ln( sqrt(2/(pi x)) sinh x ),  I_{3/2}/I_{1/2} = coth x - 1/x
      M = 3:     A_3(kappa) = coth kappa - 1/kappa
      spot values ln C_128(50) = 117.906858685..., ln C_512(50) = 865.538149369...,
      ln C_128(200) = 29.604... (where nivMF Supp. A's quadratic fit is off by -40.6).
* Output is deterministic: fixed grids, sorted rows, no timestamps; the result does not
  depend on the number of worker processes.

Run through ``scripts/reference/generate.sh`` (see README.md next to this file).
"""

import argparse
import math
import multiprocessing
import os
import sys
import time
from decimal import Decimal
from fractions import Fraction

import mpmath
from mpmath import mp, mpf
from mpmath.libmp import to_str

BASE_DPS = 60          # base working precision (decimal digits)
STEP_DPS = 20          # precision step for the self-consistency check / escalation
MAX_DPS = 400          # give up (abort) beyond this
OUT_DIGITS = 50        # significant digits written to the table
AGREE = mpf("1e-56")   # relative agreement needed between two working precisions
CHECK_TOL = mpf("1e-52")  # relative agreement needed between besseli and the series
MAXTERMS = 10 ** 7     # passed to besseli (default 6000 is too few near nu ~ x ~ 5e4)

COMMAND = "scripts/reference/generate.sh"
FUNCTIONS = ("log_bessel_i", "bessel_i_ratio", "log_norm_const", "mean_resultant_length")

# ---------------------------------------------------------------------------------------
# grids
# ---------------------------------------------------------------------------------------

NU_MAIN = [0.0, 0.5, 1.0, 1.5, 2.5, 31.0, 63.0, 255.0, 1023.0, 4095.0, 50000.0]
X_MAIN = [1e-8, 1e-3, 0.5, 1.0, 10.0, 50.0, 140.0, 300.0, 1e3, 1e4, 1e6, 1e8]

NU_SWITCH = [0.0, 0.5, 1.0, 2.0, 3.5, 5.0, 9.5, 10.0, 15.0, 20.0, 24.5, 25.0, 30.0, 35.0,
             39.5, 40.0, 49.5, 50.0, 60.0, 63.5, 80.0, 99.5, 100.0, 127.0, 200.0]
X_SWITCH = [0.1, 1.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 15.0, 17.0, 20.0, 25.0, 30.0, 35.0,
            40.0, 45.0, 50.0, 60.0, 70.0, 80.0, 100.0, 150.0, 200.0, 300.0, 500.0, 800.0,
            1000.0, 1500.0, 2000.0, 3000.0, 5000.0, 1e4]
Z_SWITCH = [0.5, 0.66, 0.6627434193, 0.7, 1.0, 2.0]

NU_HUGE = [4095.0, 50000.0]
Z_HUGE = [1e-6, 0.01, 0.3, 0.6627434193, 0.7, 1.0, 3.0, 1000.0]

NU_ZERO = [0.0, 0.5, 63.0]  # rows at x = 0

M_VMF = [2, 3, 4, 5, 10, 64, 128, 129, 256, 512, 1024, 2048, 4096, 10000, 100000]
KAPPA_VMF = [0.0, 1e-8, 1e-3, 0.1, 1.0, 5.0, 10.0, 50.0, 100.0, 140.0, 200.0, 500.0, 1e3,
             1e4, 1e5, 1e6, 1e8]

SPOT = {  # (M, kappa) -> ln C_M(kappa) as quoted in book chapters 01 and 06 (rounded to the digits shown)
    (128, 50.0): "117.906858685",
    (512, 50.0): "865.538149369",  # the full value is 865.53814936874...: rounded, not truncated
    (128, 200.0): "29.604",  # nivMF Supp. A's quadratic fit gives -11.0 here
}


def bessel_points():
    pts = set()
    for nu in NU_MAIN:
        for x in X_MAIN:
            pts.add((float(nu), float(x)))
    for nu in NU_SWITCH:
        nu = float(nu)
        for x in X_SWITCH:
            pts.add((nu, float(x)))
        pts.add((nu, 2.0 * math.sqrt(nu + 1.0)))
        for z in Z_SWITCH:
            x = nu * z
            if x > 0.0:
                pts.add((nu, x))
    for nu in NU_HUGE:
        for z in Z_HUGE:
            pts.add((float(nu), float(nu) * z))
    for nu in NU_ZERO:
        pts.add((float(nu), 0.0))
    for nu, x in pts:
        assert nu >= 0.0 and x >= 0.0 and math.isfinite(nu) and math.isfinite(x)
    return sorted(pts)


def vmf_points():
    return sorted((m, float(k)) for m in M_VMF for k in KAPPA_VMF)


# ---------------------------------------------------------------------------------------
# formatting
# ---------------------------------------------------------------------------------------

def fmt_value(v):
    """50-significant-digit decimal string (exact zero -> '0', -inf -> '-inf')."""
    if v == mpmath.ninf:
        return "-inf"
    if v == 0:
        return "0"
    return to_str(v._mpf_, OUT_DIGITS, strip_zeros=False, min_fixed=-3, max_fixed=OUT_DIGITS)


def hi_lo(s):
    """hi = nearest double to the decimal string s, lo = nearest double to (s - hi)."""
    if s == "-inf":
        return "-inf", "0.0"
    exact = Fraction(Decimal(s))
    hi = float(exact)  # Fraction -> float is correctly rounded
    lo = float(exact - Fraction(hi))
    return repr(hi), repr(lo)


# ---------------------------------------------------------------------------------------
# independent reference: the positive series, log-scaled and windowed around its peak
# ---------------------------------------------------------------------------------------

def log_series(nu_f, x_f):
    """ln sum_k (x/2)^(2k+nu) / (k! Gamma(k+nu+1)) at the current mp precision.

    nu_f, x_f are doubles, x_f > 0, taken as exact rationals.  The terms t_k are unimodal
    in k: start at the largest one, k0 = floor(k*) with t_{k*+1}/t_{k*} = 1, whose log
    comes from loggamma, and sum r_k = t_k / t_k0 in both directions in exact-rational
    steps on fixed-point integers (P bits, floor rounding; the accumulated rounding error
    is < n^2 units of 2^-P for n terms, negligible with 64 guard bits).  A direction stops
    when the geometric bound r q/(1-q) on its remaining tail is below 2^-(prec+10)."""
    nu_q, x_q = Fraction(nu_f), Fraction(x_f)
    h = x_q * x_q / 4
    hn, hd = h.numerator, h.denominator
    nn, nd = nu_q.numerator, nu_q.denominator
    nu, x = mpf(nu_f), mpf(x_f)
    kstar = (-nu + mp.sqrt(nu * nu + x * x)) / 2
    k0 = max(0, int(mp.floor(kstar)))
    log_t0 = (2 * k0 + nu) * mp.log(x / 2) - mp.loggamma(k0 + 1) - mp.loggamma(k0 + nu + 1)
    P = mp.prec + 64
    one = 1 << P
    stop = 1 << 54  # 2^(P - prec - 10)
    s = one
    # upwards: q_k = t_{k+1}/t_k = h / ((k+1)(k+1+nu)), decreasing in k
    r = one
    k = k0
    num_up = hn * nd
    while True:
        k += 1
        den = hd * k * (k * nd + nn)
        r = r * num_up // den
        s += r
        if num_up < den and r * num_up < stop * (den - num_up):
            break
    # downwards: t_{k-1}/t_k = k (k+nu) / h, decreasing as k decreases
    r = one
    k = k0
    den_dn = hn * nd
    while k > 0:
        num = k * (k * nd + nn) * hd
        r = r * num // den_dn
        s += r
        k -= 1
        if num < den_dn and r * num < stop * (den_dn - num):
            break
    return log_t0 + mp.log(mpf(s)) - P * mp.ln2


# ---------------------------------------------------------------------------------------
# primary values: mpmath.besseli with a precision self-check
# ---------------------------------------------------------------------------------------

def rel_close(a, b, tol):
    if a == b:
        return True
    return abs(a - b) <= tol * max(abs(a), abs(b))


def adaptive(fn, label, notes):
    """Evaluate fn() (returning a tuple of mpf) at dps and dps + STEP until all entries
    agree to AGREE relative; return the higher-precision tuple and the dps used."""
    dps = BASE_DPS
    with mp.workdps(dps):
        prev = fn()
    while True:
        dps += STEP_DPS
        if dps > MAX_DPS:
            raise RuntimeError("no convergence in precision at %s" % label)
        with mp.workdps(dps):
            cur = fn()
        if all(rel_close(a, b, AGREE) for a, b in zip(prev, cur)):
            if dps > BASE_DPS + STEP_DPS:
                notes.append("%s: needed %d digits of working precision" % (label, dps))
            return cur, dps
        prev = cur


def besseli(nu, x):
    return mp.besseli(nu, x, maxterms=MAXTERMS)


def use_miller(nu_f, x_f):
    """True where mpmath.besseli is impractically slow: its large-argument expansion does
    not reach the precision (nu^2/(2x) large) and it falls back to the power series with
    ~x terms: nu = 5e4 at x = 1e6 takes ~15 min per call, at x = 1.5e5 ~10-40 s).
    The rule is a fixed function of (nu, x), so the output does not depend on timing."""
    kstar = (-nu_f + math.sqrt(nu_f * nu_f + x_f * x_f)) / 2  # index of the largest term
    return kstar > 4e4 and nu_f * nu_f / (2 * x_f) > 100


def miller_pair(nu_f, x_f):
    """(I_nu(x), I_{nu+1}(x)) by Miller's backward recurrence, normalised with
    mpmath.besseli at the fractional order nu - floor(nu) (fast there: large x, small
    order).  I_{m-1} = (2m/x) I_m + I_{m+1} is stable downwards.  The start N is chosen
    so that the dominant (K-type) contamination, ~exp(-2 int_{n+1}^N asinh(m/x) dm), is
    below 10^-(dps+20)."""
    n = int(math.floor(nu_f))
    frac = nu_f - n  # exact
    target = math.log(10.0) * (mp.dps + 20)
    acc, big_n = 0.0, n + 1
    while 2.0 * acc < target:
        big_n += 1
        acc += math.asinh(big_n / x_f)
    big_n += 10
    x = mpf(x_f)
    two_over_x = 2 / x
    y_next, y = mpf(0), mpf(1)  # y_{N+1}, y_N
    y_n = y_n1 = None
    m = big_n
    while m > 0:
        if m == n + 1:
            y_n1 = y
        y_prev = two_over_x * (frac + m) * y + y_next  # y_{m-1}
        y_next, y = y, y_prev
        m -= 1
        if m == n:
            y_n = y
    if n == 0:
        y_n = y
    i_frac = besseli(mpf(frac), x)
    i_nu = i_frac * (y_n / y)
    return i_nu, i_nu * (y_n1 / y_n)


def bessel_pair(nu_f, x_f, method=None):
    """(I_nu(x), I_{nu+1}(x)) at the current precision: mpmath.besseli, or Miller's
    recurrence (normalised by besseli) where besseli is too slow."""
    if method is None:
        method = "miller" if use_miller(nu_f, x_f) else "besseli"
    if method == "miller":
        return miller_pair(nu_f, x_f)
    nu, x = mpf(nu_f), mpf(x_f)
    return besseli(nu, x), besseli(nu + 1, x)


def log_norm_const_zero(m):
    # ln C_M(0) = ln Gamma(M/2) - ln 2 - (M/2) ln pi
    return mp.loggamma(mpf(m) / 2) - mp.log(2) - (mpf(m) / 2) * mp.log(mp.pi)


def series_dps(nu, x):
    # enough digits that the absolute error of ln S (which can be ~1e8 or ~1e6 in size)
    # stays far below the relative tolerance of the smallest compared quantity
    mag = float(abs(x)) + float(abs(nu)) * (1.0 + abs(math.log(max(float(x), 1e-300))))
    return BASE_DPS + 40 + int(math.log10(1.0 + mag))


def task_bessel(args):
    nu_f, x_f = args
    t_start = time.time()
    notes = []
    label = "nu=%r x=%r" % (nu_f, x_f)
    nu, x = mpf(nu_f), mpf(x_f)
    if x_f == 0.0:
        lni = mpf(0) if nu_f == 0.0 else mpmath.ninf
        ratio = mpf(0)
        return [("log_bessel_i", repr(nu_f), repr(x_f), fmt_value(lni)),
                ("bessel_i_ratio", repr(nu_f), repr(x_f), fmt_value(ratio))], notes, 0.0

    def fn():
        i0, i1 = bessel_pair(nu_f, x_f)
        return (mp.log(i0), i1 / i0)

    (lni, ratio), dps = adaptive(fn, label, notes)
    if use_miller(nu_f, x_f):
        notes.append("%s: Miller recurrence (besseli too slow)" % label)

    with mp.workdps(series_dps(nu_f, x_f)):
        s0 = log_series(nu_f, x_f)
        s1 = log_series(nu_f + 1.0, x_f)
        s_ratio = mp.exp(s1 - s0)
        if not rel_close(lni, s0, CHECK_TOL):
            raise RuntimeError("%s: besseli ln I = %s but series = %s" % (label, lni, s0))
        if not rel_close(ratio, s_ratio, CHECK_TOL):
            raise RuntimeError("%s: besseli ratio = %s but series = %s" % (label, ratio, s_ratio))

    if nu_f == 0.5:
        with mp.workdps(dps + 40):
            closed = mp.log(mp.sqrt(2 / (mp.pi * x)) * mp.sinh(x))
            closed_ratio = mp.coth(x) - 1 / x
            if not rel_close(lni, closed, CHECK_TOL):
                raise RuntimeError("%s: ln I_1/2 = %s, closed form %s" % (label, lni, closed))
            if not rel_close(ratio, closed_ratio, CHECK_TOL):
                raise RuntimeError("%s: I_3/2/I_1/2 = %s, coth x - 1/x = %s"
                                   % (label, ratio, closed_ratio))

    rows = [("log_bessel_i", repr(nu_f), repr(x_f), fmt_value(lni)),
            ("bessel_i_ratio", repr(nu_f), repr(x_f), fmt_value(ratio))]
    return rows, notes, time.time() - t_start


def task_vmf(args):
    m, k_f = args
    t_start = time.time()
    notes = []
    label = "M=%d kappa=%r" % (m, k_f)
    nu_f = m / 2.0 - 1.0  # exact in double
    nu, kappa = mpf(nu_f), mpf(k_f)
    if k_f == 0.0:
        with mp.workdps(BASE_DPS + STEP_DPS):
            lnc = log_norm_const_zero(m)
        rows = [("log_norm_const", str(m), repr(k_f), fmt_value(lnc)),
                ("mean_resultant_length", str(m), repr(k_f), fmt_value(mpf(0)))]
        return rows, notes, 0.0

    def a_part():
        return (nu * mp.log(kappa)) - (mpf(m) / 2) * mp.log(2 * mp.pi)

    def fn():
        i0, i1 = bessel_pair(nu_f, k_f)
        return (a_part() - mp.log(i0), i1 / i0)

    (lnc, amk), dps = adaptive(fn, label, notes)
    if use_miller(nu_f, k_f):
        notes.append("%s: Miller recurrence (besseli too slow)" % label)

    with mp.workdps(series_dps(nu_f, k_f)):
        s0 = log_series(nu_f, k_f)
        s1 = log_series(nu_f + 1.0, k_f)
        s_lnc = a_part() - s0
        s_a = mp.exp(s1 - s0)
        if not rel_close(lnc, s_lnc, CHECK_TOL):
            raise RuntimeError("%s: besseli ln C = %s but series = %s" % (label, lnc, s_lnc))
        if not rel_close(amk, s_a, CHECK_TOL):
            raise RuntimeError("%s: besseli A = %s but series = %s" % (label, amk, s_a))

    if m == 3:
        with mp.workdps(dps + 40):
            closed = mp.coth(kappa) - 1 / kappa
            if not rel_close(amk, closed, CHECK_TOL):
                raise RuntimeError("%s: A_3 = %s, coth k - 1/k = %s" % (label, amk, closed))
    if k_f == 1e-8:
        # continuity of ln C at kappa -> 0: ln C_M(k) - ln C_M(0) = -k^2/(2M) + O(k^4)
        with mp.workdps(dps):
            d = lnc - log_norm_const_zero(m)
            if abs(d + kappa ** 2 / (2 * m)) > mpf("1e-30"):
                raise RuntimeError("%s: ln C not continuous at 0 (diff %s)" % (label, d))

    rows = [("log_norm_const", str(m), repr(k_f), fmt_value(lnc)),
            ("mean_resultant_length", str(m), repr(k_f), fmt_value(amk))]
    return rows, notes, time.time() - t_start


def run_task(t):
    kind, args = t
    t0 = time.time()
    if kind == "bessel":
        rows, notes, _ = task_bessel(args)
    else:
        rows, notes, _ = task_vmf(args)
    return kind, args, rows, notes, time.time() - t0


# ---------------------------------------------------------------------------------------

MILLER_SELFTEST = [(0.0, 1.0), (0.5, 3.0), (2.5, 1e-3), (63.0, 140.0), (1023.0, 1e4),
                   (4095.0, 1e4), (50000.0, 5e4), (49999.0, 1e5)]


def miller_selftest():
    """Miller's recurrence must agree with mpmath.besseli where both are practical."""
    with mp.workdps(BASE_DPS + STEP_DPS):
        for nu_f, x_f in MILLER_SELFTEST:
            a = bessel_pair(nu_f, x_f, "miller")
            b = bessel_pair(nu_f, x_f, "besseli")
            for u, v in zip(a, b):
                if not rel_close(u, v, CHECK_TOL):
                    raise SystemExit("Miller self-test failed at nu=%r x=%r: %s vs %s"
                                     % (nu_f, x_f, u, v))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(root, "scripts", "reference", "special_reference.csv"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--verbose", action="store_true", help="log tasks slower than 1 s")
    opts = ap.parse_args()

    if mpmath.__version__ != "1.3.0":
        print("warning: mpmath %s, the table was specified with 1.3.0" % mpmath.__version__,
              file=sys.stderr)

    miller_selftest()
    tasks = [("bessel", p) for p in bessel_points()] + [("vmf", p) for p in vmf_points()]
    # largest-first scheduling keeps the pool busy; the output order is fixed below
    order = sorted(range(len(tasks)), key=lambda i: -(tasks[i][1][0] + tasks[i][1][1]))
    t0 = time.time()
    results = {}
    if opts.jobs > 1:
        with multiprocessing.Pool(opts.jobs) as pool:
            for kind, args, rows, notes, dt in pool.imap_unordered(
                    run_task, [tasks[i] for i in order], chunksize=1):
                results[(kind, args)] = (rows, notes, dt)
                if opts.verbose and dt > 1.0:
                    print("  %s %r: %.1f s" % (kind, args, dt), file=sys.stderr, flush=True)
    else:
        for i in order:
            kind, args, rows, notes, dt = run_task(tasks[i])
            results[(kind, args)] = (rows, notes, dt)
    elapsed = time.time() - t0

    rows = []
    notes = []
    timings = []
    for t in tasks:
        r, n, dt = results[t]
        rows.extend(r)
        notes.extend(n)
        timings.append((dt, t))

    def sort_key(row):
        return (FUNCTIONS.index(row[0]), float(row[1]), float(row[2]))

    rows.sort(key=sort_key)

    # the spot values of SPOT
    lnc = {(int(r[1]), float(r[2])): r[3] for r in rows if r[0] == "log_norm_const"}
    for key, prefix in SPOT.items():
        half_ulp = Decimal(5) * Decimal(10) ** (-len(prefix.split(".")[1]) - 1)
        if abs(Decimal(lnc[key]) - Decimal(prefix)) > half_ulp:
            raise SystemExit("spot value mismatch at M=%d kappa=%r: %s (expected %s...)"
                             % (key[0], key[1], lnc[key], prefix))

    lines = [
        "# probdml special-function reference table (book chapter docs/src/01-special.md)",
        "# generator: scripts/reference/gen_special_table.py",
        "# mpmath %s; mp.dps = %d base (each value re-checked at +%d digits, raised where "
        "needed); values to %d significant digits"
        % (mpmath.__version__, BASE_DPS, STEP_DPS, OUT_DIGITS),
        "# every row cross-checked against the defining series sum_k (x/2)^(2k+nu)/(k! "
        "Gamma(k+nu+1)) to %s relative" % mpmath.nstr(CHECK_TOL, 3),
        "# inputs p (nu, or M for the vMF rows) and x (x, or kappa) are exact doubles; "
        "hi = double nearest value, lo = double nearest value - hi",
        "# regenerate: %s" % COMMAND,
        "function,p,x,value,hi,lo",
    ]
    for f, p, x, v in rows:
        hi, lo = hi_lo(v)
        lines.append(",".join((f, p, x, v, hi, lo)))
    os.makedirs(os.path.dirname(os.path.abspath(opts.out)), exist_ok=True)
    tmp = opts.out + ".tmp"
    with open(tmp, "w", newline="\n") as fh:
        fh.write("\n".join(lines) + "\n")
    os.replace(tmp, opts.out)

    print("wrote %d rows to %s in %.1f s (%d jobs, mpmath %s, backend %s)"
          % (len(rows), opts.out, elapsed, opts.jobs, mpmath.__version__,
             mpmath.libmp.BACKEND), file=sys.stderr)
    for n in sorted(set(notes)):
        print("note: " + n, file=sys.stderr)
    timings.sort(key=lambda t: -t[0])
    for dt, (kind, args) in timings[:8]:
        print("slowest: %-6s %r %.2f s" % (kind, args, dt), file=sys.stderr)


if __name__ == "__main__":
    main()
