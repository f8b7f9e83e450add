"""The von Mises–Fisher distribution on the sphere S^{M−1} ⊂ R^M.

Element-wise kernels over broadcast ``(dim, kappa)`` arrays give NaN outside the domain
(``log_norm_const``, ``mean_resultant_length``, its complement, ``entropy``, ``kl_to_uniform``);
the estimators ``kappa_mle`` and ``kappa_sra`` raise ``ValueError``. ``VonMisesFisher`` carries
``logpdf``, ``entropy``, ``rvs(size, seed)``, ``fit`` and ``kl_to_uniform``.
"""

from __future__ import annotations

from typing import overload

import numpy as np
import numpy.typing as npt

from .._types import Count, FloatArray, Real
from . import _impl

__all__ = [
    "log_norm_const",
    "mean_resultant_length",
    "mean_resultant_length_complement",
    "entropy",
    "kl_to_uniform",
    "kappa_mle",
    "kappa_sra",
    "mean_resultant",
    "log_density",
    "VonMisesFisher",
]

# The element-wise kernels share their parameters and conventions; each docstring states them.


@overload
def log_norm_const(dim: Count, kappa: Real) -> np.float64: ...
@overload
def log_norm_const(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64: ...
def log_norm_const(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64:
    """ln C_M(κ) = (M/2 − 1) ln κ − (M/2) ln 2π − ln I_{M/2−1}(κ), the log normaliser of vMF.

    Parameters
    ----------
    dim : array_like of int
        M ≥ 2, the dimension of the ambient space (integers; whole floats are read as integers,
        as ``scipy.special`` reads them; a float with a fraction is a ``ValueError``).
    kappa : array_like
        The concentration κ ≥ 0 (read as float64), broadcast against ``dim``.

    Returns
    -------
    numpy.float64 or numpy.ndarray of float64
        ln C_M(κ) with the broadcast shape; a numpy scalar when both inputs are scalars. NaN
        for an element with M < 2 or κ < 0 or NaN.

    Raises
    ------
    TypeError
        For ``None``, a string or a complex array.
    ValueError
        For a non-integral ``dim`` or shapes that do not broadcast.

    See Also
    --------
    probdml.vmf.exact.log_norm_const : the reference (256-bit Bessel series).

    Examples
    --------
    On S² (M = 3), C_3(κ) = κ/(4π sinh κ):

    >>> import numpy as np
    >>> from probdml import vmf
    >>> print(f"{vmf.log_norm_const(3, 2.0):.9f}")
    -3.126244439
    >>> print(f"{np.log(2.0 / (4 * np.pi * np.sinh(2.0))):.9f}")
    -3.126244439
    >>> vmf.log_norm_const(3, [2.0, -1.0]).round(6)
    array([-3.126244,       nan])
    """
    return _impl._kernel("log_norm_const", False, dim, kappa)


@overload
def mean_resultant_length(dim: Count, kappa: Real) -> np.float64: ...
@overload
def mean_resultant_length(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64: ...
def mean_resultant_length(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64:
    """A_M(κ) = I_{M/2}(κ) / I_{M/2−1}(κ) = E⟨x, μ⟩ under vMF(μ, κ).

    Parameters
    ----------
    dim : array_like of int
        M ≥ 2 (integers; whole floats accepted).
    kappa : array_like
        κ ≥ 0, broadcast against ``dim``.

    Returns
    -------
    numpy.float64 or numpy.ndarray of float64
        A_M(κ) ∈ [0, 1) with the broadcast shape; a numpy scalar for scalar input; NaN outside
        the domain.

    Raises
    ------
    TypeError
        For ``None``, a string or a complex array.
    ValueError
        For a non-integral ``dim`` or shapes that do not broadcast.

    Examples
    --------
    On S², A_3(κ) = coth κ − 1/κ:

    >>> import numpy as np
    >>> from probdml import vmf
    >>> print(f"{vmf.mean_resultant_length(3, 2.0):.9f}")
    0.537314721
    >>> print(f"{1 / np.tanh(2.0) - 1 / 2.0:.9f}")
    0.537314721
    """
    return _impl._kernel("mean_resultant_length", False, dim, kappa)


@overload
def mean_resultant_length_complement(dim: Count, kappa: Real) -> np.float64: ...
@overload
def mean_resultant_length_complement(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64: ...
def mean_resultant_length_complement(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64:
    """1 − A_M(κ), without the cancellation of subtracting A_M(κ) from 1 at large κ.

    Parameters
    ----------
    dim : array_like of int
        M ≥ 2 (integers; whole floats accepted).
    kappa : array_like
        κ ≥ 0, broadcast against ``dim``.

    Returns
    -------
    numpy.float64 or numpy.ndarray of float64
        1 − A_M(κ) ∈ (0, 1] with the broadcast shape; a numpy scalar for scalar input; NaN
        outside the domain.

    Raises
    ------
    TypeError
        For ``None``, a string or a complex array.
    ValueError
        For a non-integral ``dim`` or shapes that do not broadcast.

    Examples
    --------
    On S², 1 − A_3(κ) = 1 − coth κ + 1/κ:

    >>> from probdml import vmf
    >>> print(f"{vmf.mean_resultant_length_complement(3, 2.0):.9f}")
    0.462685279
    """
    return _impl._kernel("mean_resultant_length_complement", False, dim, kappa)


@overload
def entropy(dim: Count, kappa: Real) -> np.float64: ...
@overload
def entropy(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64: ...
def entropy(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64:
    """The differential entropy of vMF(·, κ) on S^{M−1} in nats: −ln C_M(κ) − κ A_M(κ).

    Parameters
    ----------
    dim : array_like of int
        M ≥ 2 (integers; whole floats accepted).
    kappa : array_like
        κ ≥ 0, broadcast against ``dim``.

    Returns
    -------
    numpy.float64 or numpy.ndarray of float64
        The entropy with respect to the surface measure, with the broadcast shape; a numpy
        scalar for scalar input; NaN outside the domain.

    Raises
    ------
    TypeError
        For ``None``, a string or a complex array.
    ValueError
        For a non-integral ``dim`` or shapes that do not broadcast.

    Examples
    --------
    On S² at κ = 2: −ln(2/(4π sinh 2)) − 2(coth 2 − ½):

    >>> import numpy as np
    >>> from probdml import vmf
    >>> print(f"{vmf.entropy(3, 2.0):.9f}")
    2.051614998
    >>> print(f"{-np.log(2 / (4 * np.pi * np.sinh(2.0))) - 2 * (1 / np.tanh(2.0) - 0.5):.9f}")
    2.051614998
    """
    return _impl._kernel("entropy", False, dim, kappa)


@overload
def kl_to_uniform(dim: Count, kappa: Real) -> np.float64: ...
@overload
def kl_to_uniform(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64: ...
def kl_to_uniform(dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64:
    """KL(vMF(·, κ) ‖ uniform on S^{M−1}) = ln C_M(κ) + κ A_M(κ) + ln |S^{M−1}|.

    Parameters
    ----------
    dim : array_like of int
        M ≥ 2 (integers; whole floats accepted).
    kappa : array_like
        κ ≥ 0, broadcast against ``dim``.

    Returns
    -------
    numpy.float64 or numpy.ndarray of float64
        The divergence in nats (0 at κ = 0) with the broadcast shape; a numpy scalar for scalar
        input; NaN outside the domain.

    Raises
    ------
    TypeError
        For ``None``, a string or a complex array.
    ValueError
        For a non-integral ``dim`` or shapes that do not broadcast.

    Examples
    --------
    On S² (area 4π) at κ = 2, the entropy of the uniform law minus that of the vMF:

    >>> import numpy as np
    >>> from probdml import vmf
    >>> print(f"{vmf.kl_to_uniform(3, 2.0):.9f}")
    0.479409249
    >>> print(f"{np.log(4 * np.pi) - vmf.entropy(3, 2.0):.9f}")
    0.479409249
    """
    return _impl._kernel("kl_to_uniform", False, dim, kappa)


@overload
def kappa_mle(dim: Count, rbar: Real) -> np.float64: ...
@overload
def kappa_mle(dim: npt.ArrayLike, rbar: npt.ArrayLike) -> FloatArray | np.float64: ...
def kappa_mle(dim: npt.ArrayLike, rbar: npt.ArrayLike) -> FloatArray | np.float64:
    """κ̂ = A_M⁻¹(R̄), the maximum-likelihood concentration for a mean resultant length R̄.

    Parameters
    ----------
    dim : array_like of int
        M ≥ 2 (integers; whole floats accepted).
    rbar : array_like
        R̄ ∈ [0, 1), broadcast against ``dim``.

    Returns
    -------
    numpy.float64 or numpy.ndarray of float64
        κ̂ ≥ 0 (0 for R̄ = 0) with the broadcast shape; a numpy scalar for scalar input.

    Raises
    ------
    TypeError
        For ``None``, a string or a complex array.
    ValueError
        Unlike the kernels above, for an element outside the domain (R̄ < 0, R̄ ≥ 1, NaN,
        M < 2), for a non-integral ``dim`` or shapes that do not broadcast.

    Examples
    --------
    On S², κ̂ solves coth κ − 1/κ = R̄:

    >>> from probdml import vmf
    >>> print(f"{vmf.kappa_mle(3, 0.6):.9f}")
    2.400503775
    >>> print(f"{vmf.kappa_mle(3, vmf.mean_resultant_length(3, 2.0)):.9f}")
    2.000000000
    """
    return _impl.kappa_mle(dim, rbar, False)


@overload
def kappa_sra(dim: Count, rbar: Real, newton_steps: Count = 2) -> np.float64: ...
@overload
def kappa_sra(dim: npt.ArrayLike, rbar: npt.ArrayLike, newton_steps: Count = 2) -> FloatArray | np.float64: ...
def kappa_sra(dim: npt.ArrayLike, rbar: npt.ArrayLike, newton_steps: Count = 2) -> FloatArray | np.float64:
    """Sra's (2012) estimate of κ: Banerjee's κ₀ = R̄(M − R̄²)/(1 − R̄²) followed by
    ``newton_steps`` Newton steps on A_M(κ) = R̄.

    Parameters
    ----------
    dim : array_like of int
        M ≥ 2 (integers; whole floats accepted).
    rbar : array_like
        R̄ ∈ [0, 1), broadcast against ``dim``.
    newton_steps : int, optional
        The number of Newton steps (0 gives Banerjee's κ₀).

    Returns
    -------
    numpy.float64 or numpy.ndarray of float64
        The estimate with the broadcast shape; a numpy scalar for scalar input.

    Raises
    ------
    TypeError
        For a ``newton_steps`` that is not an integer, or arrays of the wrong type.
    ValueError
        For an element outside the domain (as ``kappa_mle``) or a negative ``newton_steps``.

    Examples
    --------
    R̄ = 0.6 on S²: κ₀ = 0.6 · 2.64/0.64, and two Newton steps come within 10⁻⁶ of
    ``kappa_mle(3, 0.6)`` = 2.4005038:

    >>> from probdml import vmf
    >>> print(f"{vmf.kappa_sra(3, 0.6, newton_steps=0):.6f}")
    2.475000
    >>> print(f"{vmf.kappa_sra(3, 0.6):.6f}")
    2.400503
    """
    return _impl.kappa_sra(dim, rbar, newton_steps, False)


def mean_resultant(samples: npt.ArrayLike) -> tuple[FloatArray, float]:
    """The mean direction and the mean resultant length R̄ of unit rows.

    Parameters
    ----------
    samples : array_like
        Unit vectors as rows, shape ``(n, M)`` (a 1-D array is one row; read as float64).

    Returns
    -------
    direction : numpy.ndarray of float64
        The unit vector Σx/‖Σx‖, shape ``(M,)``.
    rbar : float
        R̄ = ‖Σx‖/n.

    Raises
    ------
    TypeError
        For ``None``, a string or a complex array.
    ValueError
        For an empty sample, a zero resultant, or more than two axes.

    Examples
    --------
    >>> from probdml import vmf
    >>> direction, rbar = vmf.mean_resultant([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    >>> direction.round(6)
    array([0.707107, 0.707107, 0.      ])
    >>> print(f"{rbar:.9f}")  # √2/2
    0.707106781
    """
    return _impl.mean_resultant(samples, False)


def log_density(x: npt.ArrayLike, mu: npt.ArrayLike, kappa: Real) -> FloatArray | np.float64:
    """ln f(x; μ, κ) = ln C_M(κ) + κ⟨μ, x⟩ for one point or rows of points.

    Parameters
    ----------
    x : array_like
        One point, shape ``(M,)``, or rows, shape ``(n, M)`` (read as float64).
    mu : array_like
        The mean direction, a unit vector of length M ≥ 2.
    kappa : float
        κ ≥ 0.

    Returns
    -------
    numpy.float64 or numpy.ndarray of float64
        A numpy scalar for one point, shape ``(n,)`` for rows.

    Raises
    ------
    TypeError
        For arrays of the wrong type, or a ``kappa`` that is not a real number.
    ValueError
        For a ``mu`` that is not a unit vector, κ < 0, or rows not of length M.

    Examples
    --------
    >>> from probdml import vmf
    >>> mu = [0.0, 0.0, 1.0]
    >>> print(f"{vmf.log_density([0.0, 0.0, 1.0], mu, 2.0):.9f}")  # ln C_3(2) + 2
    -1.126244439
    >>> vmf.log_density([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0]], mu, 2.0).round(6)
    array([-3.126244, -5.126244])
    """
    return _impl.log_density(x, mu, kappa, False)


class VonMisesFisher(_impl.VonMisesFisherBase):
    """The von Mises–Fisher distribution vMF(μ, κ) on S^{M−1}, in the manner of
    ``scipy.stats.vonmises_fisher``.

    Parameters
    ----------
    mu : array_like
        The mean direction, a unit vector of length M ≥ 2. The distribution keeps a read-only
        float64 copy: changing the caller's array afterwards changes nothing.
    kappa : float
        The concentration κ ≥ 0.

    Attributes
    ----------
    mu : numpy.ndarray of float64
        The mean direction (read-only), shape ``(M,)``.
    kappa : float
        The concentration.
    dim : int
        M.

    Raises
    ------
    TypeError
        For a ``mu`` of the wrong type or a ``kappa`` that is not a real number.
    ValueError
        For a ``mu`` that is not a unit vector (or shorter than 2) or κ < 0.

    See Also
    --------
    probdml.vmf.exact.VonMisesFisher : the same with the exact sampler.

    Examples
    --------
    >>> import numpy as np
    >>> from probdml.vmf import VonMisesFisher
    >>> d = VonMisesFisher([0.0, 0.0, 1.0], 2.0)
    >>> d
    VonMisesFisher(dim=3, kappa=2.0)
    >>> print(f"{d.mean_resultant_length():.9f}")  # coth 2 − 1/2
    0.537314721
    >>> d.rvs(size=4, seed=0).shape
    (4, 3)
    """

    _exact = False


from . import exact  # noqa: E402  (the twins, as probdml.vmf.exact)
