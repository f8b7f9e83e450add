"""The "fix" Hessian of StochMan's ContrastiveHessianCalculator before and after commit 4b15dcf,
evaluated on a small random last layer (pure Python, no dependencies).

Fork IlMioFrizzantinoAmabile/stochman, file stochman/hessian.py, method == "fix", from commit
f2afa2b (2022-10-13) to ee257da (2022-12-13):

    pos = nnj_module._jTmjp(positives, None, None, wrt="weight", to_diag=True, ...)
    pos = torch.sum(pos, dim=0)          # (P,) after summing the batch
    neg = nnj_module._jTmjp(negatives, ...)
    neg = torch.sum(pos, dim=0)          # the bug: Σ_k pos_k, a scalar (pos is already summed)
    return pos - neg

4b15dcf (2022-12-23) changes the last sum to torch.sum(neg, dim=0). With matrix None the
sandwich is diag(JᵀJ), a sum of squares, so pos_k ≥ 0 for every k, and the buggy return is
pos_k − Σ_i pos_i = −Σ_{i≠k} pos_i ≤ 0: after the reference's ReLU, H ≡ 0, and its posterior
std 1/(√(0 + prior 1) + 1e-6) is ≈ 1 for every weight.

This evaluates both versions for a linear layer z = Wx + b (diag(JᵀJ) w.r.t. W[d, j] is x_j²,
w.r.t. b[d] is 1; the contrastive config keeps the L2-normalisation layer in the Jacobian, which
changes the values but not the sign argument) and prints the sign counts.

Run: python3 scripts/reference/stochman_fix_hessian.py > scripts/reference/stochman_fix_hessian.txt
"""
import random

random.seed(12)
D, F, B = 3, 20, 64  # latent dim, features, batch


def diag_jtj(x):
    # Per-sample diag(JᵀJ) of z = Wx + b w.r.t. (W row-major, then b).
    return [xj * xj for _ in range(D) for xj in x] + [1.0] * D


positives = [[random.gauss(0, 1) for _ in range(F)] for _ in range(B)]
negatives = [[random.gauss(0, 1) for _ in range(F)] for _ in range(B)]
pos = [sum(v) for v in zip(*[diag_jtj(x) for x in positives])]
neg_true = [sum(v) for v in zip(*[diag_jtj(x) for x in negatives])]

buggy = [p - sum(pos) for p in pos]            # f2afa2b … ee257da
fixed = [p - n for p, n in zip(pos, neg_true)]  # 4b15dcf and later
relu = [max(h, 0.0) for h in buggy]
std = [1.0 / ((h + 1.0) ** 0.5 + 1e-6) for h in relu]

P = len(pos)
print(f"parameters P = {P} (D = {D}, F = {F}), batch {B}")
print(f"pos >= 0 everywhere: {all(p >= 0 for p in pos)}")
print(f"buggy  pos - sum(pos): max {max(buggy):.6g}, entries > 0: {sum(h > 0 for h in buggy)} of {P}")
print(f"after ReLU: nonzero entries {sum(h > 0 for h in relu)}; posterior std min {min(std):.9f} max {max(std):.9f}")
print(f"fixed  pos - neg:      entries > 0: {sum(h > 0 for h in fixed)} of {P}, min {min(fixed):.6g}, max {max(fixed):.6g}")
