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
    assert torch.autograd.gradcheck(lambda e, p: pt.proxy_nca_loss(e, labels, p, temperature=0.3), (emb, prox), eps=1e-6, atol=1e-7)
    for distance in ("el_vmf", "kl_vmf", "l2"):
        assert torch.autograd.gradcheck(lambda e, p: pt.proxy_nca_loss(e, labels, p, temperature=0.5, distance=distance), (emb, prox), eps=1e-6, atol=1e-6)
    ours = pt.proxy_nca_loss(emb, labels, prox, temperature=0.3)
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


def test_a_margin_or_temperature_that_requires_grad_is_refused_not_detached():
    xs = batch(6)
    margin = torch.tensor(0.2, dtype=torch.float64, requires_grad=True)
    with pytest.raises(ValueError, match="`margin` requires grad"):
        pt.btl_nll(*xs, margin=margin)
    # Without grad, a 0-d tensor is a number: the same loss as the float.
    assert pt.btl_nll(*xs, margin=margin.detach()).item() == pt.btl_nll(*xs, margin=0.2).item()
    emb = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
    prox = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    labels = torch.tensor([0, 1, 0, 1])
    temperature = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
    with pytest.raises(ValueError, match="`temperature` requires grad"):
        pt.proxy_nca_loss(emb, labels, prox, temperature=temperature)


def test_second_derivatives_raise_instead_of_a_silent_zero_hessian():
    xs = batch(7)
    loss = pt.btl_nll(*xs, margin=MARGIN)
    with pytest.raises(RuntimeError, match="first derivatives only"):
        torch.autograd.grad(loss, xs[0], create_graph=True)
    # torch.autograd.functional.hessian (strict=False) returned all zeros for the BTL before.
    with pytest.raises(RuntimeError, match="first derivatives only"):
        torch.autograd.functional.hessian(lambda mu_a: pt.btl_nll(mu_a, *xs[1:], margin=MARGIN), xs[0].detach())
    emb = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
    prox = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    loss = pt.proxy_nca_loss(emb, torch.tensor([0, 1, 0, 1]), prox)
    with pytest.raises(RuntimeError, match="first derivatives only"):
        torch.autograd.grad(loss, emb, create_graph=True)
    # A first derivative taken with grad mode on elsewhere is unaffected.
    (g,) = torch.autograd.grad(pt.btl_nll(*xs, margin=MARGIN), xs[0])
    assert torch.isfinite(g).all()


def test_proxy_nca_takes_the_argument_order_of_nivmf():
    emb = torch.randn(6, 4, dtype=torch.float64)
    prox = torch.randn(3, 4, dtype=torch.float64)
    labels = torch.tensor([0, 1, 2, 0, 1, 2])
    from probdml import nivmf

    ours = pt.proxy_nca_loss(emb, labels, prox, temperature=0.5).item()
    assert ours == nivmf.proxy_nca_loss(emb.numpy(), labels.numpy(), prox.numpy(), temperature=0.5).loss
    # The old order (proxies before labels) is refused by name, not computed.
    with pytest.raises((TypeError, ValueError), match="labels|proxies"):
        pt.proxy_nca_loss(emb, prox, labels)


def test_cosine_proxy_nca_is_teh_et_al_squared_distance_at_twice_the_temperature():
    # Teh et al. (2020): softmax over -||e^ - p^||^2 / T of the normalised vectors, written here
    # in torch; probdml's "cosine" (d = -cos) at T/2 must give the same loss.
    g = torch.Generator().manual_seed(3)
    emb = torch.randn(8, 5, generator=g, dtype=torch.float64)
    prox = torch.randn(4, 5, generator=g, dtype=torch.float64)
    labels = torch.tensor([0, 1, 2, 3, 0, 1, 2, 3])
    t = 0.6
    e, p = torch.nn.functional.normalize(emb, dim=1), torch.nn.functional.normalize(prox, dim=1)
    d2 = torch.cdist(e, p) ** 2
    teh = torch.nn.functional.cross_entropy(-d2 / t, labels).item()
    ours = pt.proxy_nca_loss(emb, labels, prox, temperature=t / 2).item()
    assert abs(ours - teh) < 1e-12
