"""The Python user's view of scripts/compare-peers.sh: probdml called from Python against scipy,
scikit-learn and faiss-cpu on the same numpy arrays, in one process, one thread on every side
(RAYON_NUM_THREADS=1 and `threads=1` for probdml, threadpoolctl and faiss.omp_set_num_threads
for the peers), call overhead and conversions included. Prints a markdown table with each
row's goal (peer time / probdml time) and whether this run met it.

Usage: python python_view.py   (run by scripts/compare-peers.sh inside .venv-peers, where the
probdml wheel is installed)
"""

import os
import sys
import time

import faiss
import numpy as np
import scipy
import sklearn
from scipy.special import ive
from scipy.stats import vonmises_fisher
from sklearn.metrics import average_precision_score, roc_auc_score
from threadpoolctl import threadpool_limits

import probdml
from probdml import metrics, vmf

assert os.environ.get("RAYON_NUM_THREADS") == "1", "run with RAYON_NUM_THREADS=1 (one thread on every side)"
faiss.omp_set_num_threads(1)
rng = np.random.default_rng(20261126)


def best(reps, f):
    t_best, out = float("inf"), None
    for _ in range(reps):
        t = time.perf_counter()
        out = f()
        t_best = min(t_best, time.perf_counter() - t)
    return t_best, out


rows = []

with threadpool_limits(limits=1):
    # ln C_M(κ): 10⁵ (M, κ) pairs, M in [2, 700] (where scipy's ive stays finite at these κ), κ log-uniform.
    n = 100_000
    dims = rng.integers(2, 700, n)
    kappas = 10 ** rng.uniform(-2, 2.5, n)

    def scipy_lnc():
        v = dims / 2 - 1
        return v * np.log(kappas) - dims / 2 * np.log(2 * np.pi) - (np.log(ive(v, kappas)) + kappas)

    t_p, ours = best(20, lambda: vmf.log_norm_const(dims, kappas))
    t_s, theirs = best(20, scipy_lnc)
    ok = np.isfinite(theirs)
    dev = np.max(np.abs(ours[ok] - theirs[ok]) / np.maximum(1, np.abs(theirs[ok])))
    rows.append((f"ln C_M(κ), {n} (M, κ) pairs, one broadcast call", "scipy log(ive) + κ", t_p, t_s, 10, f"max rel. diff {dev:.1e}; scipy non-finite: {int(np.sum(~ok))}"))

    # AUROC / AUPRC: 10⁶ + 10⁶ scores with ties (OOD positive).
    ind = np.round(rng.normal(0.0, 1.0, 1_000_000), 3)
    ood = np.round(rng.normal(0.5, 1.0, 1_000_000), 3)
    y = np.r_[np.zeros(ind.size), np.ones(ood.size)]
    s = np.r_[ind, ood]
    t_p, a_p = best(3, lambda: metrics.auroc(id_scores=ind, ood_scores=ood))
    t_s, a_s = best(3, lambda: roc_auc_score(y, s))
    rows.append(("AUROC, 10⁶ + 10⁶ scores with ties", "sklearn roc_auc_score", t_p, t_s, 15, f"Δ {abs(a_p - a_s):.1e}"))
    t_p, a_p = best(3, lambda: metrics.auprc(id_scores=ind, ood_scores=ood))
    t_s, a_s = best(3, lambda: average_precision_score(y, s))
    rows.append(("AUPRC, same scores", "sklearn average_precision_score", t_p, t_s, 15, f"Δ {abs(a_p - a_s):.1e}"))

    # vMF sampling: M = 128, κ = 50, 10⁵ draws.
    mu = np.zeros(128)
    mu[0] = 1.0
    t_p, d_p = best(3, lambda: vmf.VonMisesFisher(mu, 50.0).rvs(100_000, seed=5))
    t_s, d_s = best(3, lambda: vonmises_fisher(mu, 50.0).rvs(100_000, random_state=np.random.default_rng(5)))
    a = vmf.mean_resultant_length(128, 50.0)
    rows.append(("vMF sampling, M = 128, κ = 50, 10⁵ draws", "scipy vonmises_fisher.rvs", t_p, t_s, 10,
                 f"|R̄ − A_M(κ)|: probdml {abs(d_p[:, 0].mean() - a):.1e}, scipy {abs(d_s[:, 0].mean() - a):.1e}"))

    # Leave-one-out retrieval on 10 000 × 128 float32: recall@1/5/10 and mAP@10 from one search.
    n, d = 10_000, 128
    centres = rng.normal(size=(100, d)).astype(np.float32)
    labels = rng.integers(0, 100, n)
    x = (centres[labels] + rng.normal(scale=2.0, size=(n, d)).astype(np.float32)).astype(np.float32)

    def faiss_eval():
        index = faiss.IndexFlatL2(d)
        index.add(x)
        _, idx = index.search(x, 11)
        keep = idx != np.arange(n)[:, None]
        nn = np.array([r[k][:10] for r, k in zip(idx, keep)])
        rel = labels[nn] == labels[:, None]
        counts = np.bincount(labels)[labels] - 1
        recall = [float(np.mean(rel[:, :k].any(axis=1))) for k in (1, 5, 10)]
        prec = np.cumsum(rel, axis=1) / np.arange(1, 11)
        ap = (prec * rel).sum(axis=1) / np.minimum(counts, 10)
        return recall, float(np.mean(ap[counts > 0]))

    t_p, rep = best(3, lambda: metrics.evaluate_retrieval(x, labels, ks=(1, 5, 10), threads=1))
    t_s, (r_s, m_s) = best(3, faiss_eval)
    rows.append(("leave-one-out recall@1/5/10 + mAP@10, 10 000 × 128 float32", "faiss-cpu IndexFlatL2 (+ numpy for the metrics)", t_p, t_s, 1.5,
                 f"recall@1 {rep.recall[0]:.4f} vs {r_s[0]:.4f}; mAP@10 {rep.map[2]:.4f} vs {m_s:.4f}"))

print(
    f"versions: probdml {probdml.__version__} ({probdml.instruction_set()}), numpy {np.__version__}, scipy {scipy.__version__}, "
    f"scikit-learn {sklearn.__version__}, faiss-cpu {faiss.__version__}; python {sys.version.split()[0]}; one thread"
)
print()
print("| task (from Python) | peer | probdml | peer | peer / probdml | goal | met | notes |")
print("|---|---|---:|---:|---:|---:|---|---|")
for task, peer, tp, ts, goal, note in rows:
    ratio = ts / tp
    print(f"| {task} | {peer} | {tp * 1e3:.1f} ms | {ts * 1e3:.1f} ms | {ratio:.2f}× | ≥ {goal:g}× | {'met' if ratio >= goal else 'NOT met'} | {note} |")
