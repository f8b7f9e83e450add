"""The BTL listing's loss in PyTorch against probdml's `triplet::nll_gradient`, on the inputs
`examples/compare_btl.rs` wrote (same batch, same isotropic variances, margin 0, float64, one
thread). The function below is the paper's `negative_loglikelihood` (BTL supplement, code
listing, lines 4–22) as printed: per-dimension sums over dim 0, `Normal(mu, sigma + 1e-8).cdf`,
`-log(probs + 1e-8)`, mean over the batch. Prints the markdown row of the peer table.

Run by scripts/compare-peers.sh with the project's libtorch environment (.venv, made by
scripts/setup-torch.sh): `python scripts/peers/btl_listing.py <crate seconds>`.
"""
import struct
import sys
import time

import torch
from torch.distributions.normal import Normal


def negative_loglikelihood(muA, muP, muN, varA, varP, varN, margin=0.0):
    muA2 = muA**2
    muP2 = muP**2
    muN2 = muN**2
    varP2 = varP**2
    varN2 = varN**2
    mu = torch.sum(muP2 + varP - muN2 - varN - 2 * muA * (muP - muN), dim=0)
    T1 = varP2 + 2 * muP2 * varP + 2 * (varA + muA2) * (varP + muP2) - 2 * muA2 * muP2 - 4 * muA * muP * varP
    T2 = varN2 + 2 * muN2 * varN + 2 * (varA + muA2) * (varN + muN2) - 2 * muA2 * muN2 - 4 * muA * muN * varN
    T3 = 4 * muP * muN * varA
    sigma2 = torch.sum(2 * T1 + 2 * T2 - 2 * T3, dim=0)
    sigma = sigma2**0.5
    # torch ≥ 2 validates the argument of cdf as a Tensor; the listing passed the float margin.
    probs = Normal(loc=mu, scale=sigma + 1e-8).cdf(torch.as_tensor(margin, dtype=mu.dtype))
    nll = -torch.log(probs + 1e-8)
    return nll.mean()


def main():
    crate_seconds = float(sys.argv[1])
    torch.set_num_threads(1)
    def load(path):
        with open(path, "rb") as f:
            data = f.read()
        return torch.frombuffer(bytearray(data), dtype=torch.float64)  # little-endian hosts
    raw = load("target/peers/btl_inputs.bin")
    b, d = int(raw[0]), int(raw[1])
    rest = raw[2:]
    mats = [rest[i * b * d:(i + 1) * b * d].reshape(b, d) for i in range(3)]
    off = 3 * b * d
    vars_ = [rest[off + i * b: off + (i + 1) * b] for i in range(3)]
    crate = load("target/peers/btl_crate.bin")

    def leaves():
        # The listing's layout: D × B means and 1 × B isotropic variances.
        mu = [m.T.contiguous().clone().requires_grad_(True) for m in mats]
        var = [v[None, :].clone().requires_grad_(True) for v in vars_]
        return mu, var

    best = float("inf")
    for _ in range(20):
        mu, var = leaves()
        start = time.perf_counter()
        loss = negative_loglikelihood(mu[0], mu[1], mu[2], var[0], var[1], var[2], margin=0.0)
        loss.backward()
        best = min(best, time.perf_counter() - start)
    nll = loss.item()
    torch_grads = [m.grad.T.reshape(-1) for m in mu] + [v.grad.reshape(-1) for v in var]
    crate_nll = crate[0].item()
    pos = 1
    crate_grads = []
    for _ in range(3):
        crate_grads.append(crate[pos:pos + b * d])
        pos += b * d
    for _ in range(3):
        crate_grads.append(crate[pos:pos + b])
        pos += b
    rel = max(
        (torch.max(torch.abs(t - c)) / torch.max(torch.abs(c))).item() for t, c in zip(torch_grads, crate_grads)
    )
    print(
        f"| BTL NLL + gradient (μ, σ² of a, p, n), B = 256, D = 2048, margin 0, f64, 1 thread "
        f"(Δ NLL; max gradient Δ / max\\|gradient\\|) | PyTorch {torch.__version__} BTL listing "
        f"| {crate_seconds * 1e3:.2f} ms | {best * 1e3:.2f} ms | {best / crate_seconds:.2f}× "
        f"| NLL {crate_nll:.12f} | NLL {nll:.12f} (Δ {abs(nll - crate_nll):.1e}; gradient Δ {rel:.1e}) |"
    )


if __name__ == "__main__":
    main()
