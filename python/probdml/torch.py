"""PyTorch autograd functions on the crate's analytic gradients (needs ``torch``; import it as
``import probdml.torch``).

``btl_nll`` is the Bayesian triplet loss's mean CLT NLL of a batch and ``proxy_nca_loss`` the
ProxyNCA++ loss; both run forward and gradient in Rust in one call and hand the gradient to
autograd. CPU ``float64`` tensors are read without a copy (through numpy); other float dtypes are
converted to ``float64`` and the gradient back to the input's dtype. CUDA tensors are refused
with an error rather than silently copied to the host.

What autograd gets, and what it is refused rather than given wrong:

* first derivatives with respect to every tensor of embeddings, means, variances and proxies;
* no derivative with respect to the scalars (``margin``, ``temperature``): a tensor that requires
  grad there is refused with a ``ValueError`` (it would otherwise be detached silently; pass a
  number or ``.detach()`` it);
* no second derivatives: a backward pass that builds a graph (``create_graph=True``, as
  ``torch.autograd.functional.hessian`` and double backward do) raises a ``RuntimeError``; the
  gradient returned from Rust is a constant to autograd, so a second derivative through it would
  come out as zero or as only part of the Hessian, without a word.
"""

from __future__ import annotations

from typing import Any

try:
    import torch
except ImportError as err:  # pragma: no cover - exercised only without torch
    raise ImportError("probdml.torch needs PyTorch: pip install torch") from err

import numpy as np
import numpy.typing as npt

from . import nivmf as _nivmf
from . import triplet as _triplet
from ._types import Real

__all__ = ["btl_nll", "proxy_nca_loss", "BtlNll", "ProxyNcaLoss"]


def _host(arg: str, t: torch.Tensor) -> npt.NDArray[np.float64]:
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"argument `{arg}` must be a torch.Tensor, got {type(t).__name__}")
    if t.device.type != "cpu":
        raise ValueError(
            f"argument `{arg}` is on {t.device}: probdml's gradients run on the CPU; "
            "move the tensors with .cpu() (no silent device copy is made)"
        )
    if not t.is_floating_point():
        raise ValueError(f"argument `{arg}` must be a floating-point tensor, got {t.dtype}")
    # `.numpy()` shares the tensor's memory; a float64 contiguous tensor reaches Rust as is.
    return t.detach().to(torch.float64).contiguous().numpy()


def _scalar(arg: str, value: Real | torch.Tensor) -> Any:
    """A scalar argument without a gradient path: numbers pass, a tensor that requires grad is
    refused (the crate's gradients are with respect to the tensor inputs only). The result is
    typed ``Any`` because it is whatever the caller gave (a one-element tensor as its item),
    for the extension's rule for a real number to accept or refuse, naming the argument."""
    if isinstance(value, torch.Tensor) and value.requires_grad:
        raise ValueError(
            f"argument `{arg}` requires grad, but probdml gives no gradient with respect to it: "
            f"pass a number or `{arg}.detach()`"
        )
    return value.item() if isinstance(value, torch.Tensor) and value.numel() == 1 else value


def _first_derivatives_only() -> None:
    # Grad mode is on inside `backward` exactly when the caller asked for a graph of the
    # gradient (create_graph=True).
    if torch.is_grad_enabled():
        raise RuntimeError(
            "probdml.torch gives first derivatives only: backward with create_graph=True "
            "(double backward, torch.autograd.functional.hessian) is not supported"
        )


def _grad(g: npt.NDArray[np.float64], like: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    # torch.from_numpy shares the array that Rust moved out; only the scaling allocates.
    return torch.from_numpy(g).to(like.dtype) * scale


class BtlNll(torch.autograd.Function):
    """The autograd function behind ``btl_nll``: the mean −ln Φ((−m − E τ)/√Var τ) over a
    batch of triplets of ``(B, D)`` tensors, forward and gradient from one Rust call."""

    @staticmethod
    def forward(
        ctx: Any, mu_a: torch.Tensor, var_a: torch.Tensor, mu_p: torch.Tensor, var_p: torch.Tensor,
        mu_n: torch.Tensor, var_n: torch.Tensor, margin: Real | torch.Tensor,
    ) -> torch.Tensor:
        names = ("mu_a", "var_a", "mu_p", "var_p", "mu_n", "var_n")
        tensors = (mu_a, var_a, mu_p, var_p, mu_n, var_n)
        a = [_host(n, t) for n, t in zip(names, tensors)]
        out = _triplet.nll_gradient(a[0], a[1], a[2], a[3], a[4], a[5], margin=_scalar("margin", margin))
        ctx.grads = out[1:]
        ctx.likes = tensors
        return mu_a.new_tensor(out.nll)

    @staticmethod
    def backward(ctx: Any, grad_output: torch.Tensor) -> tuple[torch.Tensor | None, ...]:
        _first_derivatives_only()
        grads = tuple(_grad(g, like, grad_output) for g, like in zip(ctx.grads, ctx.likes))
        return (*grads, None)


class ProxyNcaLoss(torch.autograd.Function):
    """The autograd function behind ``proxy_nca_loss``: ProxyNCA++ with a distance that needs
    no nivMF concentrations, forward and gradient from one Rust call."""

    @staticmethod
    def forward(
        ctx: Any, embeddings: torch.Tensor, labels: torch.Tensor | npt.ArrayLike, proxies: torch.Tensor,
        temperature: Real | torch.Tensor, distance: str,
    ) -> torch.Tensor:
        if distance in ("nivmf", "nivmf_heuristic", "el_nivmf"):
            raise ValueError(f"argument `distance` = {distance!r}: the nivMF distances are not offered as autograd functions")
        lab = labels.detach().cpu().numpy() if isinstance(labels, torch.Tensor) else np.asarray(labels)
        out = _nivmf.proxy_nca_loss(
            _host("embeddings", embeddings),
            lab,
            _host("proxies", proxies),
            temperature=_scalar("temperature", temperature),
            distance=distance,
        )
        ctx.grads = (out.grad_embeddings, out.grad_proxies)
        ctx.likes = (embeddings, proxies)
        return embeddings.new_tensor(out.loss)

    @staticmethod
    def backward(ctx: Any, grad_output: torch.Tensor) -> tuple[torch.Tensor | None, ...]:
        _first_derivatives_only()
        ge, gp = (_grad(g, like, grad_output) for g, like in zip(ctx.grads, ctx.likes))
        return ge, None, gp, None, None


def btl_nll(
    mu_a: torch.Tensor, var_a: torch.Tensor, mu_p: torch.Tensor, var_p: torch.Tensor, mu_n: torch.Tensor, var_n: torch.Tensor,
    margin: Real | torch.Tensor = 0.0,
) -> torch.Tensor:
    """The Bayesian triplet loss's mean CLT NLL over a batch, with the crate's analytic gradient.

    The forward value is ``probdml.triplet.nll_gradient(...).nll``; backward hands autograd the
    gradient computed in the same Rust call.

    Parameters
    ----------
    mu_a, var_a, mu_p, var_p, mu_n, var_n : torch.Tensor
        Means and variances of the anchors, positives and negatives: CPU floating-point tensors
        of one shape ``(B, D)``. ``float64`` is read without a copy; other float dtypes are
        converted, and the gradient is returned in the input's dtype.
    margin : float or torch.Tensor, optional
        The margin m: a number or a one-element tensor that does not require grad.

    Returns
    -------
    torch.Tensor
        The scalar loss, of the dtype and device of ``mu_a``.

    Raises
    ------
    TypeError
        For an argument that is not a ``torch.Tensor``.
    ValueError
        For a CUDA tensor, an integer tensor, a ``margin`` that requires grad, or the
        ``probdml.triplet.nll_gradient`` errors (shapes, negative variances, NaN).
    RuntimeError
        In a backward pass with ``create_graph=True``: second derivatives are not offered.

    Examples
    --------
    One triplet with E τ = −1.95, Var τ = 4.02 (see ``probdml.triplet.moments``): the loss is
    −ln Φ((−0.5 + 1.95)/√4.02), and its gradient passes ``torch.autograd.gradcheck``:

    >>> import math
    >>> import torch
    >>> import probdml.torch as pt
    >>> rows = [[0.0, 0.0], [0.1, 0.1], [0.5, 0.0], [0.2, 0.2], [1.0, 1.0], [0.3, 0.3]]
    >>> xs = [torch.tensor([r], dtype=torch.float64, requires_grad=True) for r in rows]
    >>> print(f"{pt.btl_nll(*xs, margin=0.5).item():.9f}")
    0.267592257
    >>> print(f"{-math.log(math.erfc(-(-0.5 + 1.95) / math.sqrt(4.02) / math.sqrt(2)) / 2):.9f}")
    0.267592257
    >>> torch.autograd.gradcheck(lambda *x: pt.btl_nll(*x, margin=0.5), xs)
    True
    """
    # torch leaves Function.apply unannotated; it returns what forward returns, a Tensor.
    out: torch.Tensor = BtlNll.apply(mu_a, var_a, mu_p, var_p, mu_n, var_n, margin)  # type: ignore[no-untyped-call]
    return out


def proxy_nca_loss(
    embeddings: torch.Tensor, labels: torch.Tensor | npt.ArrayLike, proxies: torch.Tensor, *,
    temperature: Real | torch.Tensor = 1.0, distance: str = "cosine",
) -> torch.Tensor:
    """ProxyNCA++ with the crate's analytic gradients with respect to the embeddings and the
    proxies; the arguments in the order of ``probdml.nivmf.proxy_nca_loss``.

    Parameters
    ----------
    embeddings : torch.Tensor
        Unnormalised embeddings ``(B, D)``, a CPU floating-point tensor (``float64`` read
        without a copy).
    labels : torch.Tensor or array_like of int
        The proxy index of each embedding, shape ``(B,)``.
    proxies : torch.Tensor
        Unnormalised proxies ``(C, D)``.
    temperature : float or torch.Tensor, optional
        T > 0: a number or a one-element tensor that does not require grad.
    distance : {"cosine", "l2", "el_vmf", "b_vmf", "kl_vmf"}, optional
        The distance; the nivMF distances are not offered here.

    Returns
    -------
    torch.Tensor
        The scalar mean loss, of the dtype of ``embeddings``.

    Raises
    ------
    TypeError
        For ``embeddings`` or ``proxies`` that are not tensors.
    ValueError
        For a CUDA tensor, a nivMF distance, a ``temperature`` that requires grad, or the
        errors of ``probdml.nivmf.proxy_nca_loss``.
    RuntimeError
        In a backward pass with ``create_graph=True``.

    Notes
    -----
    ``"cosine"`` is the distance d = −cos(e, p) of the normalised vectors. Teh et al. (2020)
    write ProxyNCA++ with the squared distance of the normalised vectors, ‖ê − p̂‖² = 2 − 2 cos;
    the softmax over −d/T drops the constant, so ``"cosine"`` at temperature T is their loss at
    temperature 2T. ``"l2"`` is the squared distance of the unnormalised vectors.

    Examples
    --------
    The first embedding is aligned with its proxy (logits 1, 0), the second is at 45° from
    both: the loss is (ln(1 + e⁻¹) + ln 2)/2:

    >>> import math
    >>> import torch
    >>> import probdml.torch as pt
    >>> e = torch.tensor([[1.0, 0.0], [1.0, 1.0]], dtype=torch.float64, requires_grad=True)
    >>> p = torch.tensor([[1.0, 0.0], [0.0, 2.0]], dtype=torch.float64, requires_grad=True)
    >>> loss = pt.proxy_nca_loss(e, torch.tensor([0, 1]), p)
    >>> print(f"{loss.item():.9f}")
    0.503204434
    >>> print(f"{(math.log1p(math.exp(-1.0)) + math.log(2.0)) / 2:.9f}")
    0.503204434
    >>> torch.autograd.gradcheck(lambda e, p: pt.proxy_nca_loss(e, torch.tensor([0, 1]), p), (e, p))
    True
    """
    # torch leaves Function.apply unannotated; it returns what forward returns, a Tensor.
    out: torch.Tensor = ProxyNcaLoss.apply(embeddings, labels, proxies, temperature, distance)  # type: ignore[no-untyped-call]
    return out
