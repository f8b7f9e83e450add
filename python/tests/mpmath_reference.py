"""Reference values of the Bessel functions, the normal CDF and the von Mises–Fisher quantities in
mpmath at 50 significant digits, written from their definitions (A&S 9.6.10 through
``mpmath.besseli``, LAM App. C, Sra 2012, Banerjee et al. 2005), independently of the crate.

``float(·)`` of an mpmath number is the nearest double, so a reference here is the correctly
rounded value of the function."""

import mpmath

DIGITS = 50


def log_bessel_i(nu: float, x: float) -> float:
    """ln I_ν(x)."""
    with mpmath.workdps(DIGITS):
        return float(mpmath.log(mpmath.besseli(nu, x)))


def bessel_i_ratio(nu: float, x: float) -> float:
    """I_{ν+1}(x) / I_ν(x)."""
    with mpmath.workdps(DIGITS):
        return float(mpmath.besseli(nu + 1, x) / mpmath.besseli(nu, x))


def log_ndtr(z: float) -> float:
    """ln Φ(z); Φ(z) = ½ erfc(−z/√2)."""
    with mpmath.workdps(DIGITS):
        return float(mpmath.log(mpmath.erfc(-mpmath.mpf(z) / mpmath.sqrt(2)) / 2))


def _nu(dim: int):
    return mpmath.mpf(dim) / 2 - 1


def _log_norm_const(dim: int, kappa):
    """ln C_M(κ) = (M/2 − 1) ln κ − (M/2) ln 2π − ln I_{M/2−1}(κ), in mpmath."""
    k = mpmath.mpf(kappa)
    return _nu(dim) * mpmath.log(k) - mpmath.mpf(dim) / 2 * mpmath.log(2 * mpmath.pi) - mpmath.log(mpmath.besseli(_nu(dim), k))


def _mean_resultant_length(dim: int, kappa):
    """A_M(κ) = I_{M/2}(κ) / I_{M/2−1}(κ), in mpmath."""
    k = mpmath.mpf(kappa)
    return mpmath.besseli(_nu(dim) + 1, k) / mpmath.besseli(_nu(dim), k)


def _log_sphere_area(dim: int):
    """ln |S^{M−1}| = ln 2 + (M/2) ln π − ln Γ(M/2)."""
    return mpmath.log(2) + mpmath.mpf(dim) / 2 * mpmath.log(mpmath.pi) - mpmath.loggamma(mpmath.mpf(dim) / 2)


def log_norm_const(dim: int, kappa: float) -> float:
    with mpmath.workdps(DIGITS):
        return float(_log_norm_const(dim, kappa))


def mean_resultant_length(dim: int, kappa: float) -> float:
    with mpmath.workdps(DIGITS):
        return float(_mean_resultant_length(dim, kappa))


def mean_resultant_length_complement(dim: int, kappa: float) -> float:
    with mpmath.workdps(DIGITS):
        return float(1 - _mean_resultant_length(dim, kappa))


def entropy(dim: int, kappa: float) -> float:
    """H = −ln C_M(κ) − κ A_M(κ)."""
    with mpmath.workdps(DIGITS):
        return float(-_log_norm_const(dim, kappa) - kappa * _mean_resultant_length(dim, kappa))


def kl_to_uniform(dim: int, kappa: float) -> float:
    """KL(vMF ‖ uniform) = ln C_M(κ) + κ A_M(κ) + ln |S^{M−1}|."""
    with mpmath.workdps(DIGITS):
        return float(_log_norm_const(dim, kappa) + kappa * _mean_resultant_length(dim, kappa) + _log_sphere_area(dim))


def log_density(x, mu, kappa: float) -> tuple[float, float]:
    """(ln C_M(κ) + κ μᵀx, the registry's magnitude max(1, |ln C_M| + κ|μᵀx|))."""
    with mpmath.workdps(DIGITS):
        dot = mpmath.fsum(mpmath.mpf(float(a)) * mpmath.mpf(float(b)) for a, b in zip(x, mu))
        ln_c = _log_norm_const(len(mu), kappa)
        return float(ln_c + kappa * dot), float(max(1, abs(ln_c) + kappa * abs(dot)))


def kappa_mle(dim: int, rbar: float) -> float:
    """The root κ̂ of A_M(κ̂) = R̄ (Sra 2012, eq. 4), by mpmath's secant solver from Banerjee's start."""
    with mpmath.workdps(DIGITS):
        r = mpmath.mpf(rbar)
        start = r * (dim - r**2) / (1 - r**2)
        return float(mpmath.findroot(lambda k: _mean_resultant_length(dim, k) - r, start, tol=mpmath.mpf(10) ** (-45)))


def kappa_sra(dim: int, rbar: float, newton_steps: int) -> float:
    """Banerjee's κ₀ = R̄(M − R̄²)/(1 − R̄²) (Banerjee et al. 2005, eq. 4.4), then Newton steps
    κ ← κ − (A_M(κ) − R̄)/(1 − A_M(κ)² − (M − 1)A_M(κ)/κ) (Sra 2012, eqs. 5–6)."""
    with mpmath.workdps(DIGITS):
        r = mpmath.mpf(rbar)
        k = r * (dim - r**2) / (1 - r**2)
        for _ in range(newton_steps):
            a = _mean_resultant_length(dim, k)
            k = k - (a - r) / (1 - a**2 - (dim - 1) * a / k)
        return float(k)


def mean_resultant(samples) -> tuple[list[float], float, float]:
    """(Σx/‖Σx‖, R̄ = ‖Σx‖/n, the condition number ‖(Σ_i |x_id|)_d‖/‖Σx‖ of the sum, which
    scales the registry's budget) of the rows of ``samples``, every sum exact in mpmath."""
    with mpmath.workdps(DIGITS):
        n, dim = len(samples), len(samples[0])
        total = [mpmath.fsum(mpmath.mpf(float(row[d])) for row in samples) for d in range(dim)]
        absolute = [mpmath.fsum(abs(mpmath.mpf(float(row[d]))) for row in samples) for d in range(dim)]
        norm = mpmath.sqrt(mpmath.fsum(t**2 for t in total))
        cond = mpmath.sqrt(mpmath.fsum(t**2 for t in absolute)) / norm
        return [float(t / norm) for t in total], float(norm / n), float(cond)
