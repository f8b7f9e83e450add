"""probdml.torch: gradcheck in float64, and the losses against the training module's tensor
formulas (src/train/method/triplet_loss.rs `TripletBatch::clt_nll`, crates/probdml-train/src/method/proxy_nca.rs
`proxy_nca_loss_tensor` with the cosine distance), re-written here in torch because the
training module's functions are Rust (tch) and not callable from Python."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import probdml.torch as pt  # noqa: E402

MARGIN = 0.2


def batch(seed, b=3, d=4, dtype=torch.float64):
    g = torch.Generator().manual_seed(seed)
    out = []
    for i in range(6):
        x = torch.randn(b, d, generator=g, dtype=dtype) if i % 2 == 0 else torch.rand(b, d, generator=g, dtype=dtype) * 0.5 + 0.05
        out.append(x.requires_grad_())
    return out


def train_module_clt_nll(mu_a, var_a, mu_p, var_p, mu_n, var_n, margin):
    # TripletBatch::tau_moments and ::clt_nll of src/train/method/triplet_loss.rs.
    dp, dn, e = mu_p - mu_a, mu_n - mu_a, mu_p - mu_n
    mean = (dp**2 - dn**2 + var_p - var_n).sum(1)
    var = (2 * var_p**2 + 2 * var_n**2 + 4 * var_p * dp**2 + 4 * var_n * dn**2 + 4 * var_a * (var_p + var_n + e**2)).sum(1)
    return -torch.special.log_ndtr((-mean - margin) / var.sqrt()).mean()


def test_btl_nll_passes_gradcheck_in_float64():
    assert torch.autograd.gradcheck(lambda *x: pt.btl_nll(*x, margin=MARGIN), batch(0), eps=1e-6, atol=1e-7, rtol=1e-5)


def test_btl_nll_equals_the_training_module_formula_and_its_autograd():
    xs = batch(1, b=8, d=16)
    ours = pt.btl_nll(*xs, margin=MARGIN)
    ours.backward()
    grads = [x.grad.clone() for x in xs]
    for x in xs:
        x.grad = None
    ref = train_module_clt_nll(*xs, MARGIN)
    ref.backward()
    assert ours.item() == pytest.approx(ref.item(), rel=1e-13)
    for g, x in zip(grads, xs):
        assert torch.allclose(g, x.grad, rtol=1e-10, atol=1e-13)


def train_module_proxy_nca_cosine(embeddings, proxies, labels, t):
    d = -torch.nn.functional.normalize(embeddings, dim=1) @ torch.nn.functional.normalize(proxies, dim=1).T
    return -(d / -t).log_softmax(1)[torch.arange(len(labels)), labels].mean()


def test_proxy_nca_passes_gradcheck_and_equals_the_training_module_formula():
    g = torch.Generator().manual_seed(2)
    emb = torch.randn(6, 5, generator=g, dtype=torch.float64, requires_grad=True)
    prox = torch.randn(4, 5, generator=g, dtype=torch.float64, requires_grad=True)
    labels = torch.tensor([0, 3, 1, 1, 2, 0])
    assert torch.autograd.gradcheck(lambda e, p: pt.proxy_nca_loss(e, p, labels, 0.3), (emb, prox), eps=1e-6, atol=1e-7)
    for distance in ("el_vmf", "kl_vmf", "l2"):
        assert torch.autograd.gradcheck(lambda e, p: pt.proxy_nca_loss(e, p, labels, 0.5, distance), (emb, prox), eps=1e-6, atol=1e-6)
    ours = pt.proxy_nca_loss(emb, prox, labels, 0.3)
    ours.backward()
    ge, gp = emb.grad.clone(), prox.grad.clone()
    emb.grad = prox.grad = None
    ref = train_module_proxy_nca_cosine(emb, prox, labels, 0.3)
    ref.backward()
    assert ours.item() == pytest.approx(ref.item(), rel=1e-13)
    assert torch.allclose(ge, emb.grad, rtol=1e-10, atol=1e-14) and torch.allclose(gp, prox.grad, rtol=1e-10, atol=1e-14)


def test_float32_tensors_get_float32_gradients():
    xs = batch(3, dtype=torch.float32)
    loss = pt.btl_nll(*xs, margin=MARGIN)
    loss.backward()
    assert loss.dtype == torch.float32 and all(x.grad.dtype == torch.float32 for x in xs)


def test_cuda_tensors_get_a_clear_error():
    meta = [x.detach().to("meta") for x in batch(4)]
    with pytest.raises(ValueError, match="on meta.*CPU"):
        pt.btl_nll(*meta)
    if torch.cuda.is_available():
        with pytest.raises(ValueError, match="cuda"):
            pt.btl_nll(*[x.detach().cuda() for x in batch(4)])


def test_bad_input_names_the_argument():
    xs = [x.detach() for x in batch(5)]
    xs[3] = -xs[3]
    with pytest.raises(ValueError, match="var_p"):
        pt.btl_nll(*xs)


def test_backward_scales_by_the_incoming_gradient():
    xs = batch(6)
    (3.0 * pt.btl_nll(*xs, margin=MARGIN)).backward()
    tripled = [x.grad.clone() for x in xs]
    for x in xs:
        x.grad = None
    pt.btl_nll(*xs, margin=MARGIN).backward()
    assert all(torch.allclose(t, 3.0 * x.grad, rtol=1e-15, atol=0) for t, x in zip(tripled, xs))
