"""PyTorch autograd functions on the crate's analytic gradients (needs ``torch``; import it as
``import probdml.torch``).

``btl_nll`` is the Bayesian triplet loss's mean CLT NLL of a batch and ``proxy_nca_loss`` the
ProxyNCA++ loss; both run forward and gradient in Rust in one call and hand the gradient to
autograd. CPU ``float64`` tensors are read without a copy (through numpy); other float dtypes are
converted to ``float64`` and the gradient back to the input's dtype. CUDA tensors are refused
with an error rather than silently copied to the host.
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


def _grad(g: np.ndarray, like: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    # torch.from_numpy shares the array that Rust moved out; only the scaling allocates.
    return torch.from_numpy(g).to(like.dtype) * scale


class BtlNll(torch.autograd.Function):
    """The mean −ln Φ((−m − E τ)/√Var τ) over a batch of triplets, (B, D) tensors."""

    @staticmethod
    def forward(ctx: Any, mu_a, var_a, mu_p, var_p, mu_n, var_n, margin: float):  # type: ignore[override]
        names = ("mu_a", "var_a", "mu_p", "var_p", "mu_n", "var_n")
        tensors = (mu_a, var_a, mu_p, var_p, mu_n, var_n)
        out = _triplet.nll_gradient(*[_host(n, t) for n, t in zip(names, tensors)], margin=margin)
        ctx.grads = out[1:]
        ctx.likes = tensors
        return mu_a.new_tensor(out.nll)

    @staticmethod
    def backward(ctx: Any, grad_output: torch.Tensor):  # type: ignore[override]
        grads = tuple(_grad(g, like, grad_output) for g, like in zip(ctx.grads, ctx.likes))
        return (*grads, None)


class ProxyNcaLoss(torch.autograd.Function):
    """ProxyNCA++ with a distance that needs no nivMF concentrations."""

    @staticmethod
    def forward(ctx: Any, embeddings, proxies, labels, temperature: float, distance: str):  # type: ignore[override]
        if distance in ("nivmf", "nivmf_heuristic", "el_nivmf"):
            raise ValueError(f"argument `distance` = {distance!r}: the nivMF distances are not offered as autograd functions")
        lab = labels.detach().cpu().numpy() if isinstance(labels, torch.Tensor) else np.asarray(labels)
        out = _nivmf.proxy_nca_loss(
            _host("embeddings", embeddings), lab, _host("proxies", proxies), temperature=temperature, distance=distance
        )
        ctx.grads = (out.grad_embeddings, out.grad_proxies)
        ctx.likes = (embeddings, proxies)
        return embeddings.new_tensor(out.loss)

    @staticmethod
    def backward(ctx: Any, grad_output: torch.Tensor):  # type: ignore[override]
        ge, gp = (_grad(g, like, grad_output) for g, like in zip(ctx.grads, ctx.likes))
        return ge, gp, None, None, None


def btl_nll(mu_a, var_a, mu_p, var_p, mu_n, var_n, margin: float = 0.0) -> torch.Tensor:
    """The Bayesian triplet loss's mean CLT NLL with the crate's analytic gradient."""
    return BtlNll.apply(mu_a, var_a, mu_p, var_p, mu_n, var_n, margin)


def proxy_nca_loss(embeddings, proxies, labels, temperature: float = 1.0, distance: str = "cosine") -> torch.Tensor:
    """ProxyNCA++ (``distance`` one of 'cosine', 'l2', 'el_vmf', 'b_vmf', 'kl_vmf') with the
    crate's analytic gradients with respect to the embeddings and the proxies."""
    return ProxyNcaLoss.apply(embeddings, proxies, labels, temperature, distance)
