"""vMF divergences, the nivMF and ProxyNCA++, written once for both twins."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from .. import _probdml
from .._arrays import floats, labels, owned_vector, rows, vector
from .._types import Count, FloatArray, Real, Seed, Size

_rust = _probdml.nivmf

DISTANCES = ("cosine", "l2", "nivmf", "nivmf_heuristic", "el_vmf", "b_vmf", "kl_vmf", "el_nivmf")


class ProxyNcaLoss(NamedTuple):
    """The mean ProxyNCA++ loss of a batch, the distances and the gradients.

    Attributes
    ----------
    loss : float
        The mean loss over the batch.
    distances : numpy.ndarray of float64
        d(ρ_c, ζ_b), shape ``(B, C)``.
    grad_embeddings : numpy.ndarray of float64
        ∂loss/∂embeddings, shape ``(B, D)``.
    grad_proxies : numpy.ndarray of float64
        ∂loss/∂proxies, shape ``(C, D)``.
    grad_concentrations : numpy.ndarray of float64
        ∂loss/∂concentrations, shape ``(C, D)``; empty when the distance uses none.
    """

    loss: float
    distances: FloatArray
    grad_embeddings: FloatArray
    grad_proxies: FloatArray
    grad_concentrations: FloatArray


def kl_vmf(mu_z: npt.ArrayLike, kappa_z: Real, mu_p: npt.ArrayLike, kappa_p: Real, exact: bool) -> float:
    return _rust.kl_vmf(vector("mu_z", mu_z), kappa_z, vector("mu_p", mu_p), kappa_p, exact)


def log_ppk_vmf(nu_z: npt.ArrayLike, nu_p: npt.ArrayLike, gamma: Real, exact: bool) -> float:
    return _rust.log_ppk_vmf(gamma, vector("nu_z", nu_z), vector("nu_p", nu_p), exact)


def log_density(x: npt.ArrayLike, mu: npt.ArrayLike, kappas: npt.ArrayLike, heuristic: bool, exact: bool) -> FloatArray | np.float64:
    m, k = vector("mu", mu), vector("kappas", kappas)
    xa = floats("x", x)
    flat, _, dim = rows("x", xa)
    if dim != m.size:
        raise ValueError(f"dimension mismatch: `x` has rows of length {dim}, expected {m.size} (the length of `mu`)")
    out = _rust.log_density(flat, m, k, heuristic, exact)
    return out[0] if xa.ndim == 1 else out


def proxy_nca_loss(
    embeddings: npt.ArrayLike,
    labels_: npt.ArrayLike,
    proxies: npt.ArrayLike,
    temperature: Real,
    distance: str,
    concentrations: npt.ArrayLike | None,
    samples: Count,
    seed: Seed,
    exact: bool,
) -> ProxyNcaLoss:
    emb, b, dim = rows("embeddings", embeddings)
    prox, c, pdim = rows("proxies", proxies)
    if pdim != dim:
        raise ValueError(f"dimension mismatch: `proxies` has rows of length {pdim}, expected {dim} (the row length of `embeddings`)")
    conc = np.empty(0) if concentrations is None else floats("concentrations", concentrations).reshape(-1)
    out = _rust.proxy_nca_loss(
        distance, emb, labels("labels", labels_), prox, conc, dim, temperature, samples, seed, exact
    )
    loss, d, ge, gp, gc = out
    return ProxyNcaLoss(
        loss,
        d.reshape(b, c),
        ge.reshape(b, dim) if ge.size else ge,
        gp.reshape(c, dim) if gp.size else gp,
        gc.reshape(c, dim) if gc.size else gc,
    )


class NonIsotropicVmfBase:
    """The methods of ``probdml.nivmf.NonIsotropicVmf`` (documented there)."""

    _exact = False

    def __init__(self, mu: npt.ArrayLike, kappas: npt.ArrayLike) -> None:
        self._mu = owned_vector("mu", mu)
        self._kappas = owned_vector("kappas", kappas)
        # Validates (μ, κ) as the Rust constructor does.
        _rust.sample(self._mu, self._kappas, 0, 0)

    @property
    def mu(self) -> FloatArray:
        """The direction μ, a read-only float64 copy of the ``mu`` given, shape ``(M,)``."""
        return self._mu

    @property
    def kappas(self) -> FloatArray:
        """The per-axis concentrations, a read-only float64 copy, shape ``(M,)``."""
        return self._kappas

    def logpdf(self, x: npt.ArrayLike) -> FloatArray | np.float64:
        """ln f(x) under the exactly normalised nivMF (``probdml.nivmf.log_density``).

        Parameters
        ----------
        x : array_like
            One point ``(M,)`` or rows ``(n, M)`` (read as float64).

        Returns
        -------
        numpy.float64 or numpy.ndarray of float64
            A numpy scalar for one point, shape ``(n,)`` for rows.

        Raises
        ------
        TypeError
            For an array of the wrong type.
        ValueError
            For rows not of length M, NaN or ±∞.

        Examples
        --------
        At K = 2I the nivMF is vMF(μ, 2): ln f(x) = ln(2/(4π sinh 2)) + 2⟨μ, x⟩ on S²:

        >>> import numpy as np
        >>> from probdml.nivmf import NonIsotropicVmf
        >>> d = NonIsotropicVmf([0.0, 0.0, 1.0], [2.0, 2.0, 2.0])
        >>> print(f"{d.logpdf([0.6, 0.0, 0.8]):.9f}")
        -1.526244439
        >>> print(f"{np.log(2 / (4 * np.pi * np.sinh(2.0))) + 2 * 0.8:.9f}")
        -1.526244439
        """
        return log_density(x, self._mu, self._kappas, False, self._exact)

    def rvs(self, size: Size = None, seed: Seed = None) -> FloatArray:
        """Draws of shape ``size + (M,)``: Rust ``NonIsotropicVmf::sample`` on
        ``Xoshiro256PlusPlusX8::seed_from_u64(seed)``, module ``probdml::xoshiro_x8``.

        Parameters
        ----------
        size : None, int or tuple of ints, optional
            As ``VonMisesFisher.rvs`` reads it: None (one draw), ``n`` or a shape.
        seed : None, int, numpy.random.Generator or numpy.random.RandomState, optional
            An integer in ``[0, 2**64)``, a generator to draw it from, or None (fresh entropy).

        Returns
        -------
        numpy.ndarray of float64
            Unit vectors, shape ``size + (M,)``.

        Raises
        ------
        TypeError
            For a ``size`` or ``seed`` of the wrong type.
        ValueError
            For a negative size or a seed outside ``[0, 2**64)``.

        Examples
        --------
        >>> import numpy as np
        >>> from probdml.nivmf import NonIsotropicVmf
        >>> d = NonIsotropicVmf([0.0, 0.0, 1.0], [1.0, 2.0, 30.0])
        >>> x = d.rvs(size=(2, 4), seed=0)
        >>> x.shape
        (2, 4, 3)
        >>> bool(np.array_equal(x, d.rvs(size=(2, 4), seed=0)))
        True
        """
        out: FloatArray = _rust.sample(self._mu, self._kappas, size, seed)
        return out
