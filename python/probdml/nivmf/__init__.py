"""vMF divergences and product kernels, the non-isotropic vMF (nivMF) and the ProxyNCA++ loss
with probabilistic distances (Kirchhof et al. 2022).

An unnormalised embedding z is read as vMF(z/‖z‖, ‖z‖), whose natural parameter is ν = z.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .. import _probdml
from .._arrays import vector
from .._types import Count, FloatArray, Real, Seed
from . import _impl
from ._impl import DISTANCES, ProxyNcaLoss

__all__ = [
    "kl_vmf",
    "log_ppk_vmf",
    "bhattacharyya_distance",
    "expected_likelihood_distance",
    "log_density",
    "log_density_heuristic",
    "proxy_nca_loss",
    "NonIsotropicVmf",
    "ProxyNcaLoss",
    "DISTANCES",
]


def kl_vmf(mu_z: npt.ArrayLike, kappa_z: Real, mu_p: npt.ArrayLike, kappa_p: Real) -> float:
    """KL(vMF(μ_z, κ_z) ‖ vMF(μ_p, κ_p)) = ln C_M(κ_z) − ln C_M(κ_p) + A_M(κ_z)(κ_z − κ_p μ_pᵀμ_z).

    Parameters
    ----------
    mu_z : array_like
        The first mean direction, a unit vector of length M ≥ 2 (read as float64).
    kappa_z : float
        Its concentration κ_z ≥ 0.
    mu_p : array_like
        The second mean direction, a unit vector of the same length.
    kappa_p : float
        Its concentration κ_p ≥ 0.

    Returns
    -------
    float
        The divergence in nats.

    Raises
    ------
    TypeError
        For arrays of the wrong type or a concentration that is not a real number.
    ValueError
        For a direction that is not a unit vector, lengths that differ, a negative κ, NaN or ±∞.

    Notes
    -----
    The nivMF paper's eq. (39) takes E_ζ[x] = μ_z where the mean of a vMF is A_M(κ_z) μ_z; this
    is the divergence with the true mean.

    Examples
    --------
    On S², with C_3(κ) = κ/(4π sinh κ) and A_3(κ) = coth κ − 1/κ:

    >>> import numpy as np
    >>> from probdml import nivmf
    >>> print(f"{nivmf.kl_vmf([0, 0, 1], 2.0, [0, 0, 1], 1.0):.9f}")
    0.103533890
    >>> ln_c = lambda k: np.log(k / (4 * np.pi * np.sinh(k)))
    >>> print(f"{ln_c(2.0) - ln_c(1.0) + (1 / np.tanh(2.0) - 0.5) * (2.0 - 1.0):.9f}")
    0.103533890
    """
    return _impl.kl_vmf(mu_z, kappa_z, mu_p, kappa_p, False)


def log_ppk_vmf(nu_z: npt.ArrayLike, nu_p: npt.ArrayLike, gamma: Real) -> float:
    """ln of the probability product kernel ∫ f_z^γ f_p^γ of two vMFs in natural parameters
    ν = κμ: γ ln C_M(‖ν_z‖) + γ ln C_M(‖ν_p‖) − ln C_M(γ‖ν_z + ν_p‖).

    Parameters
    ----------
    nu_z, nu_p : array_like
        The natural parameters, 1-D of one length M ≥ 2 (read as float64).
    gamma : float
        γ > 0 (½: the Bhattacharyya kernel; 1: the expected likelihood kernel).

    Returns
    -------
    float
        ln PPK_γ.

    Raises
    ------
    TypeError
        For arrays of the wrong type or a ``gamma`` that is not a real number.
    ValueError
        For lengths that differ, γ ≤ 0, NaN or ±∞.

    Examples
    --------
    ν_z = (0, 0, 2), ν_p = (0, 2, 0), γ = 1 on S²: 2 ln C_3(2) − ln C_3(2√2):

    >>> import numpy as np
    >>> from probdml import nivmf
    >>> print(f"{nivmf.log_ppk_vmf([0, 0, 2], [0, 2, 0], 1.0):.9f}")
    -2.629405063
    >>> ln_c = lambda k: np.log(k / (4 * np.pi * np.sinh(k)))
    >>> print(f"{2 * ln_c(2.0) - ln_c(2 * np.sqrt(2)):.9f}")
    -2.629405063
    """
    return _impl.log_ppk_vmf(nu_z, nu_p, gamma, False)


def bhattacharyya_distance(nu_z: npt.ArrayLike, nu_p: npt.ArrayLike) -> float:
    """The Bhattacharyya distance d_B = −ln PPK_½ of two vMFs in natural parameters.

    Parameters
    ----------
    nu_z, nu_p : array_like
        The natural parameters κμ, 1-D of one length M ≥ 2.

    Returns
    -------
    float
        d_B ≥ 0 (0 when ν_z = ν_p).

    Raises
    ------
    TypeError
        For arrays of the wrong type.
    ValueError
        For lengths that differ, NaN or ±∞.

    Examples
    --------
    >>> from probdml import nivmf
    >>> print(f"{nivmf.bhattacharyya_distance([0, 0, 2], [0, 2, 0]):.9f}")
    0.281651923
    >>> print(f"{-nivmf.log_ppk_vmf([0, 0, 2], [0, 2, 0], 0.5):.9f}")
    0.281651923
    """
    return _probdml.nivmf.bhattacharyya_distance(vector("nu_z", nu_z), vector("nu_p", nu_p))


def expected_likelihood_distance(nu_z: npt.ArrayLike, nu_p: npt.ArrayLike) -> float:
    """The expected likelihood distance d_EL = −ln PPK_1 of two vMFs in natural parameters.

    Parameters
    ----------
    nu_z, nu_p : array_like
        The natural parameters κμ, 1-D of one length M ≥ 2.

    Returns
    -------
    float
        d_EL.

    Raises
    ------
    TypeError
        For arrays of the wrong type.
    ValueError
        For lengths that differ, NaN or ±∞.

    Examples
    --------
    2 ln C_3(2) − ln C_3(2√2), negated:

    >>> from probdml import nivmf
    >>> print(f"{nivmf.expected_likelihood_distance([0, 0, 2], [0, 2, 0]):.9f}")
    2.629405063
    """
    return _probdml.nivmf.expected_likelihood_distance(vector("nu_z", nu_z), vector("nu_p", nu_p))


def log_density(x: npt.ArrayLike, mu: npt.ArrayLike, kappas: npt.ArrayLike) -> FloatArray | np.float64:
    """ln f(x) under the exactly normalised nivMF(μ, K = diag(κ)):
    f(x) = C_M(κ̃) det K/‖Kx‖^M exp(κ̃ s(Kx, Kμ)), κ̃ = ‖Kμ‖, s the cosine similarity.

    Parameters
    ----------
    x : array_like
        One point ``(M,)`` or rows ``(n, M)`` on the sphere (read as float64).
    mu : array_like
        The direction, a unit vector of length M ≥ 2.
    kappas : array_like
        The per-axis concentrations κ_m > 0, length M.

    Returns
    -------
    numpy.float64 or numpy.ndarray of float64
        A numpy scalar for one point, shape ``(n,)`` for rows.

    Raises
    ------
    TypeError
        For arrays of the wrong type.
    ValueError
        For a ``mu`` that is not a unit vector, a κ_m ≤ 0, lengths that differ, NaN or ±∞.

    Notes
    -----
    f is a probability density on the sphere (the surface Jacobian of x ↦ Kx/‖Kx‖ is
    det K/‖Kx‖^M) and reduces to vMF(μ, c) at K = cI; the paper's heuristic normalisation is
    ``log_density_heuristic``.

    Examples
    --------
    K = diag(1, 2, 3), μ = e₃: κ̃ = 3, and at x = e₃, ln f = ln C_3(3) + ln(6/27) + 3:

    >>> import numpy as np
    >>> from probdml import nivmf
    >>> print(f"{nivmf.log_density([0, 0, 1], [0, 0, 1], [1, 2, 3]):.9f}")
    -2.240860345
    >>> print(f"{np.log(3 / (4 * np.pi * np.sinh(3.0))) + np.log(6 / 27) + 3:.9f}")
    -2.240860345
    >>> nivmf.log_density([[1, 0, 0], [0, 0, 1]], [0, 0, 1], [1, 2, 3]).round(6)
    array([-1.945023, -2.24086 ])
    """
    return _impl.log_density(x, mu, kappas, False, False)


def log_density_heuristic(x: npt.ArrayLike, mu: npt.ArrayLike, kappas: npt.ArrayLike) -> FloatArray | np.float64:
    """ln f_h(x), the nivMF paper's heuristic normalisation:
    f_h(x) = C_M(κ̃) (Πκ_m/κ̃) exp(κ̃ s(Kx, Kμ)).

    Parameters
    ----------
    x : array_like
        One point ``(M,)`` or rows ``(n, M)`` (read as float64).
    mu : array_like
        The direction, a unit vector of length M ≥ 2.
    kappas : array_like
        The per-axis concentrations κ_m > 0, length M.

    Returns
    -------
    numpy.float64 or numpy.ndarray of float64
        A numpy scalar for one point, shape ``(n,)`` for rows.

    Raises
    ------
    TypeError, ValueError
        As ``log_density``.

    Notes
    -----
    f_h/f = ‖Kx‖^M/κ̃: f_h does not integrate to 1 unless K = cI.

    Examples
    --------
    K = diag(1, 2, 3), μ = x = e₃: ln C_3(3) + ln(6/3) + 3:

    >>> from probdml import nivmf
    >>> print(f"{nivmf.log_density_heuristic([0, 0, 1], [0, 0, 1], [1, 2, 3]):.9f}")
    -0.043635768
    """
    return _impl.log_density(x, mu, kappas, True, False)


def proxy_nca_loss(
    embeddings: npt.ArrayLike,
    labels: npt.ArrayLike,
    proxies: npt.ArrayLike,
    temperature: Real = 1.0,
    distance: str = "cosine",
    concentrations: npt.ArrayLike | None = None,
    samples: Count = 10,
    seed: Seed = 0,
) -> ProxyNcaLoss:
    """ProxyNCA++ with the distance ``distance``, averaged over the batch, with its analytic
    gradients: the mean of −ln softmax_c(−d(ρ_c, ζ_b)/T)[y_b].

    Parameters
    ----------
    embeddings : array_like
        Unnormalised embeddings ``(B, D)`` (their norms are the concentrations of the vMF
        distances; read as float64).
    labels : array_like of int
        The proxy index of each embedding, shape ``(B,)``, in ``[0, C)``.
    proxies : array_like
        Unnormalised proxies ``(C, D)``.
    temperature : float, optional
        T > 0.
    distance : str, optional
        One of ``DISTANCES``: ``"cosine"`` (−cos), ``"l2"`` (squared Euclidean of the
        unnormalised vectors), ``"nivmf"``, ``"nivmf_heuristic"``, ``"el_vmf"``, ``"b_vmf"``,
        ``"kl_vmf"``, ``"el_nivmf"``.
    concentrations : array_like, optional
        The proxies' per-axis concentrations ``(C, D)``, needed by the nivMF distances.
    samples : int, optional
        Monte Carlo draws of ``"el_nivmf"``.
    seed : None, int or numpy.random.Generator, optional
        The seed of ``"el_nivmf"``'s draws.

    Returns
    -------
    ProxyNcaLoss
        ``(loss, distances, grad_embeddings, grad_proxies, grad_concentrations)``: the mean
        loss, d as ``(B, C)`` and the gradients ``(B, D)``, ``(C, D)`` and ``(C, D)`` (empty
        when the distance uses no concentrations, or has no gradient).

    Raises
    ------
    TypeError
        For arrays of the wrong type, a ``distance`` that is not a string, a ``samples`` that
        is not an integer or a ``seed`` of the wrong type.
    ValueError
        For an unknown ``distance``, a label outside ``[0, C)``, widths that differ, T ≤ 0,
        missing ``concentrations`` for a nivMF distance, NaN or ±∞.

    Examples
    --------
    Cosine distance, T = 1: the first embedding is aligned with its proxy (logits 1, 0), the
    second is at 45° from both (logits equal); the loss is (ln(1 + e⁻¹) + ln 2)/2:

    >>> import numpy as np
    >>> from probdml import nivmf
    >>> out = nivmf.proxy_nca_loss([[1.0, 0.0], [1.0, 1.0]], [0, 1], [[1.0, 0.0], [0.0, 2.0]])
    >>> print(f"{out.loss:.9f}")
    0.503204434
    >>> print(f"{(np.log1p(np.exp(-1.0)) + np.log(2.0)) / 2:.9f}")
    0.503204434
    >>> out.distances.shape, out.distances[1].round(6)
    ((2, 2), array([-0.707107, -0.707107]))
    """
    return _impl.proxy_nca_loss(embeddings, labels, proxies, temperature, distance, concentrations, samples, seed, False)


class NonIsotropicVmf(_impl.NonIsotropicVmfBase):
    """nivMF(μ, K = diag(κ)), the law of g⁻¹(Y) for Y ~ vMF(Kμ/‖Kμ‖, ‖Kμ‖) and
    g(x) = Kx/‖Kx‖.

    Parameters
    ----------
    mu : array_like
        The direction, a unit vector of length M ≥ 2 (kept as a read-only float64 copy).
    kappas : array_like
        The per-axis concentrations κ_m > 0, length M (kept as a read-only copy).

    Attributes
    ----------
    mu : numpy.ndarray of float64
        The direction (read-only), shape ``(M,)``.
    kappas : numpy.ndarray of float64
        The concentrations (read-only), shape ``(M,)``.

    Raises
    ------
    TypeError
        For arrays of the wrong type.
    ValueError
        For a ``mu`` that is not a unit vector, a κ_m ≤ 0, lengths that differ, NaN or ±∞.

    Examples
    --------
    >>> import numpy as np
    >>> from probdml.nivmf import NonIsotropicVmf
    >>> d = NonIsotropicVmf([0.0, 0.0, 1.0], [1.0, 2.0, 3.0])
    >>> print(f"{d.logpdf([0.0, 0.0, 1.0]):.9f}")  # ln C_3(3) + ln(6/27) + 3
    -2.240860345
    >>> x = d.rvs(size=5, seed=3)
    >>> x.shape, bool(np.allclose(np.linalg.norm(x, axis=1), 1.0))
    ((5, 3), True)
    """


from . import exact  # noqa: E402  (the twins, as probdml.nivmf.exact)
