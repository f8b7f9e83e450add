"""The von Mises–Fisher functions, written once for both twins (``exact`` picks the Rust side)."""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import numpy.typing as npt

from .. import _probdml
from .._arrays import floats, integers, owned_vector, rows, scalar_or_array, vector
from .._types import Count, FloatArray, Real, Seed, Size

_rust = _probdml.vmf

_Vmf = TypeVar("_Vmf", bound="VonMisesFisherBase")


def _kernel(name: str, exact: bool, dim: npt.ArrayLike, kappa: npt.ArrayLike) -> FloatArray | np.float64:
    f = getattr(_rust, ("exact_" if exact else "") + name)
    out: FloatArray = f(integers("dim", dim), floats("kappa", kappa))
    return scalar_or_array(out)


def kappa_mle(dim: npt.ArrayLike, rbar: npt.ArrayLike, exact: bool) -> FloatArray | np.float64:
    f = _rust.exact_kappa_mle if exact else _rust.kappa_mle
    return scalar_or_array(f(integers("dim", dim), floats("rbar", rbar)))


def kappa_sra(dim: npt.ArrayLike, rbar: npt.ArrayLike, newton_steps: Count, exact: bool) -> FloatArray | np.float64:
    f = _rust.exact_kappa_sra if exact else _rust.kappa_sra
    return scalar_or_array(f(integers("dim", dim), floats("rbar", rbar), newton_steps))


def mean_resultant(samples: npt.ArrayLike, exact: bool) -> tuple[FloatArray, float]:
    flat, _, dim = rows("samples", samples)
    direction, rbar, _ = _rust.mean_resultant(flat, dim, exact)
    return direction, rbar


def log_density(x: npt.ArrayLike, mu: npt.ArrayLike, kappa: Real, exact: bool) -> FloatArray | np.float64:
    mu = vector("mu", mu)
    xa = floats("x", x)
    flat, n, dim = rows("x", xa)
    if dim != mu.size:
        raise ValueError(f"dimension mismatch: `x` has rows of length {dim}, expected {mu.size} (the length of `mu`)")
    out = _rust.log_density(flat, mu, kappa, exact)
    return out[0] if xa.ndim == 1 else out


class VonMisesFisherBase:
    """The methods of ``probdml.vmf.VonMisesFisher`` and its exact twin (documented there)."""

    _exact = False

    def __init__(self, mu: npt.ArrayLike, kappa: Real) -> None:
        self._mu = owned_vector("mu", mu)
        self._kappa = _rust.check_vmf(self._mu, kappa)

    @property
    def mu(self) -> FloatArray:
        """The mean direction μ, a read-only float64 copy of the ``mu`` given, shape ``(M,)``."""
        return self._mu

    @property
    def kappa(self) -> float:
        """The concentration κ ≥ 0."""
        return self._kappa

    @property
    def dim(self) -> int:
        """M, the dimension of the ambient space (the sphere is S^{M−1})."""
        return int(self._mu.size)

    def logpdf(self, x: npt.ArrayLike) -> FloatArray | np.float64:
        """ln f(x; μ, κ) = ln C_M(κ) + κ⟨μ, x⟩.

        Parameters
        ----------
        x : array_like
            One point, shape ``(M,)``, or rows of points, shape ``(n, M)`` (read as float64;
            unit length is not checked: the formula is evaluated as it stands).

        Returns
        -------
        numpy.float64 or numpy.ndarray of float64
            A numpy scalar for one point, shape ``(n,)`` for rows.

        Raises
        ------
        TypeError
            For ``None``, a string or a complex array.
        ValueError
            When the rows are not of length M, or ``x`` has more than two axes.

        Examples
        --------
        On S², ln f = ln(κ/(4π sinh κ)) + κ⟨μ, x⟩:

        >>> import numpy as np
        >>> from probdml.vmf import VonMisesFisher
        >>> d = VonMisesFisher([0.0, 0.0, 1.0], 2.0)
        >>> print(f"{d.logpdf([0.0, 0.0, 1.0]):.9f}")
        -1.126244439
        >>> print(f"{np.log(2.0 / (4 * np.pi * np.sinh(2.0))) + 2.0:.9f}")
        -1.126244439
        >>> d.logpdf([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0]]).round(6)
        array([-3.126244, -5.126244])
        """
        return log_density(x, self._mu, self._kappa, self._exact)

    def pdf(self, x: npt.ArrayLike) -> FloatArray | np.float64:
        """f(x; μ, κ), the density with respect to the surface measure of the sphere.

        Parameters
        ----------
        x : array_like
            One point ``(M,)`` or rows ``(n, M)``, as :meth:`logpdf` takes them.

        Returns
        -------
        numpy.float64 or numpy.ndarray of float64
            ``exp(logpdf(x))``: a scalar for one point, shape ``(n,)`` for rows.

        Raises
        ------
        TypeError, ValueError
            As :meth:`logpdf`.

        Examples
        --------
        The uniform density on S² is 1/(4π):

        >>> import numpy as np
        >>> from probdml.vmf import VonMisesFisher
        >>> print(f"{VonMisesFisher([1.0, 0.0, 0.0], 0.0).pdf([0.0, 1.0, 0.0]):.9f}")
        0.079577472
        >>> print(f"{1 / (4 * np.pi):.9f}")
        0.079577472
        """
        return np.exp(self.logpdf(x))

    def log_norm_const(self) -> float:
        """ln C_M(κ), the log of the normalising constant.

        Returns
        -------
        float
            ln C_M(κ) = (M/2 − 1) ln κ − (M/2) ln 2π − ln I_{M/2−1}(κ).

        Examples
        --------
        >>> from probdml.vmf import VonMisesFisher
        >>> print(f"{VonMisesFisher([0.0, 0.0, 1.0], 2.0).log_norm_const():.9f}")
        -3.126244439
        """
        return float(_kernel("log_norm_const", self._exact, self.dim, self._kappa))

    def entropy(self) -> float:
        """The differential entropy in nats, −ln C_M(κ) − κ A_M(κ).

        Returns
        -------
        float
            The entropy with respect to the surface measure (ln of the area for κ = 0).

        Examples
        --------
        At κ = 0 the entropy is ln(4π) on S²:

        >>> import numpy as np
        >>> from probdml.vmf import VonMisesFisher
        >>> print(f"{VonMisesFisher([0.0, 0.0, 1.0], 0.0).entropy():.9f}")
        2.531024247
        >>> print(f"{np.log(4 * np.pi):.9f}")
        2.531024247
        """
        return float(_kernel("entropy", self._exact, self.dim, self._kappa))

    def kl_to_uniform(self) -> float:
        """KL(vMF(μ, κ) ‖ uniform on the sphere) = ln C_M(κ) + κ A_M(κ) + ln |S^{M−1}|.

        Returns
        -------
        float
            The divergence in nats (0 at κ = 0).

        Examples
        --------
        >>> from probdml.vmf import VonMisesFisher
        >>> print(f"{VonMisesFisher([0.0, 0.0, 1.0], 2.0).kl_to_uniform():.9f}")
        0.479409249
        """
        return float(_kernel("kl_to_uniform", self._exact, self.dim, self._kappa))

    def mean_resultant_length(self) -> float:
        """A_M(κ) = E⟨x, μ⟩ = I_{M/2}(κ)/I_{M/2−1}(κ).

        Returns
        -------
        float
            The mean resultant length, in [0, 1).

        Examples
        --------
        On S², A_3(κ) = coth κ − 1/κ:

        >>> from probdml.vmf import VonMisesFisher
        >>> print(f"{VonMisesFisher([0.0, 0.0, 1.0], 2.0).mean_resultant_length():.9f}")
        0.537314721
        """
        return float(_kernel("mean_resultant_length", self._exact, self.dim, self._kappa))

    def rvs(self, size: Size = None, seed: Seed = None) -> FloatArray:
        """Draws of shape ``size + (M,)``, as scipy's ``vonmises_fisher.rvs`` gives them.

        The draws are Rust's ``sample_n_into`` on ``Xoshiro256PlusPlusX8::seed_from_u64(seed)``
        (module ``probdml::xoshiro_x8``): the same seed gives the same draws in Rust and here.

        Parameters
        ----------
        size : None, int or tuple of ints, optional
            None (one draw, shape ``(M,)``), an integer ``n`` (shape ``(n, M)``) or a tuple of
            integers (shape ``size + (M,)``). A float, even a whole one, is refused.
        seed : None, int, numpy.random.Generator or numpy.random.RandomState, optional
            An integer in ``[0, 2**64)`` seeds the generator; a numpy generator gives a seed
            drawn from it (advancing it); None draws fresh entropy.

        Returns
        -------
        numpy.ndarray of float64
            Unit vectors, shape ``size + (M,)``.

        Raises
        ------
        TypeError
            For a ``size`` or ``seed`` of the wrong type (a float, a string).
        ValueError
            For a negative size or a seed outside ``[0, 2**64)``.

        Examples
        --------
        >>> import numpy as np
        >>> from probdml.vmf import VonMisesFisher
        >>> d = VonMisesFisher([0.0, 0.0, 1.0], 50.0)
        >>> x = d.rvs(size=(2, 3), seed=7)
        >>> x.shape
        (2, 3, 3)
        >>> bool(np.allclose(np.linalg.norm(x, axis=-1), 1.0))
        True
        >>> bool(np.array_equal(x, d.rvs(size=(2, 3), seed=7)))
        True
        """
        out: FloatArray = _rust.sample(self._mu, self._kappa, size, seed, self._exact)
        return out

    @classmethod
    def fit(cls: type[_Vmf], samples: npt.ArrayLike, method: str = "mle", newton_steps: Count = 2) -> _Vmf:
        """The maximum-likelihood vMF of unit rows.

        μ̂ is the mean direction; κ̂ = A_M⁻¹(R̄) (``method="mle"``) or Sra's estimate, Banerjee's
        κ₀ followed by ``newton_steps`` Newton steps (``method="sra"``).

        Parameters
        ----------
        samples : array_like
            Unit vectors as rows, shape ``(n, M)`` with M ≥ 2 (read as float64).
        method : {"mle", "sra"}, optional
            The estimator of κ.
        newton_steps : int, optional
            The Newton steps of ``method="sra"`` (ignored by ``"mle"``).

        Returns
        -------
        VonMisesFisher
            The fitted distribution, of the class ``fit`` is called on.

        Raises
        ------
        TypeError
            For a ``method`` that is not a string, or arrays of the wrong type.
        ValueError
            For an unknown ``method``, an empty sample or R̄ outside [0, 1).

        Examples
        --------
        Two orthogonal unit vectors: μ̂ = (1, 1, 0)/√2 and R̄ = 1/√2; on S² κ̂ solves
        coth κ − 1/κ = R̄:

        >>> from probdml.vmf import VonMisesFisher
        >>> d = VonMisesFisher.fit([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
        >>> d.mu.round(6)
        array([0.707107, 0.707107, 0.      ])
        >>> print(f"{d.kappa:.6f}")
        3.387781
        """
        # The rule of every named option (probdml-py/src/arguments.rs, `choice`): a wrong type
        # is a TypeError, an unknown name a ValueError, both naming the argument.
        if not isinstance(method, str):
            shown = "None" if method is None else f"{type(method).__name__} {method!r}"
            raise TypeError(f"argument `method` must be a str, one of 'mle', 'sra'; got {shown}")
        if method not in ("mle", "sra"):
            raise ValueError(f"argument `method` = {method!r} is not one of 'mle', 'sra'")
        direction, rbar = mean_resultant(samples, cls._exact)
        dim = direction.size
        if method == "mle":
            kappa = kappa_mle(dim, rbar, cls._exact)
        else:
            kappa = kappa_sra(dim, rbar, newton_steps, cls._exact)
        return cls(direction, float(kappa))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(dim={self.dim}, kappa={self._kappa!r})"
