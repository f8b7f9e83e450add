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

from . import nivmf as _nivmf
from . import triplet as _triplet

__all__ = ["btl_nll", "proxy_nca_loss", "BtlNll", "ProxyNcaLoss"]


def _host(arg: str, t: torch.Tensor) -> np.ndarray:
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


def _scalar(arg: str, value: Any) -> Any:
    """A scalar argument without a gradient path: numbers pass, a tensor that requires grad is
    refused (the crate's gradients are with respect to the tensor inputs only)."""
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


def _grad(g: np.ndarray, like: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    # torch.from_numpy shares the array that Rust moved out; only the scaling allocates.
    return torch.from_numpy(g).to(like.dtype) * scale


class BtlNll(torch.autograd.Function):
    """The mean −ln Φ((−m − E τ)/√Var τ) over a batch of triplets, (B, D) tensors."""

    @staticmethod
    def forward(ctx: Any, mu_a, var_a, mu_p, var_p, mu_n, var_n, margin: float):  # type: ignore[override]
        names = ("mu_a", "var_a", "mu_p", "var_p", "mu_n", "var_n")
        tensors = (mu_a, var_a, mu_p, var_p, mu_n, var_n)
        out = _triplet.nll_gradient(*[_host(n, t) for n, t in zip(names, tensors)], margin=_scalar("margin", margin))
        ctx.grads = out[1:]
        ctx.likes = tensors
        return mu_a.new_tensor(out.nll)

    @staticmethod
    def backward(ctx: Any, grad_output: torch.Tensor):  # type: ignore[override]
        _first_derivatives_only()
        grads = tuple(_grad(g, like, grad_output) for g, like in zip(ctx.grads, ctx.likes))
        return (*grads, None)


class ProxyNcaLoss(torch.autograd.Function):
    """ProxyNCA++ with a distance that needs no nivMF concentrations."""

    @staticmethod
    def forward(ctx: Any, embeddings, labels, proxies, temperature: float, distance: str):  # type: ignore[override]
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
    def backward(ctx: Any, grad_output: torch.Tensor):  # type: ignore[override]
        _first_derivatives_only()
        ge, gp = (_grad(g, like, grad_output) for g, like in zip(ctx.grads, ctx.likes))
        return ge, None, gp, None, None


def btl_nll(mu_a, var_a, mu_p, var_p, mu_n, var_n, margin: float = 0.0) -> torch.Tensor:
    """The Bayesian triplet loss's mean CLT NLL with the crate's analytic gradient."""
    return BtlNll.apply(mu_a, var_a, mu_p, var_p, mu_n, var_n, margin)


def proxy_nca_loss(
    embeddings, labels, proxies, *, temperature: float = 1.0, distance: str = "cosine"
) -> torch.Tensor:
    """ProxyNCA++ (``distance`` one of 'cosine', 'l2', 'el_vmf', 'b_vmf', 'kl_vmf') with the
    crate's analytic gradients with respect to the embeddings and the proxies; the arguments in
    the order of ``probdml.nivmf.proxy_nca_loss`` (embeddings, labels, proxies).

    ``"cosine"`` is the distance d = −cos(e, p) of the normalised vectors. Teh et al. (2020)
    write ProxyNCA++ with the squared distance of the normalised vectors, ‖ê − p̂‖² = 2 − 2 cos;
    the softmax over −d/T drops the constant, so ``"cosine"`` at temperature T is their loss at
    temperature 2T. ``"l2"`` is the squared distance of the unnormalised vectors."""
    return ProxyNcaLoss.apply(embeddings, labels, proxies, temperature, distance)
