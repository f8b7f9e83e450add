"""The peers' half of scripts/compare-peers.sh.

Reads the inputs and the crate's outputs/timings that `examples/compare_peers.rs` wrote to
DIR, times scipy, scikit-learn and faiss-cpu on the same inputs, checks both sides against
mpmath where a reference value exists, and prints one table (markdown) to stdout.

Usage: python compare.py DIR
"""

import sys
import time
from pathlib import Path

import faiss
import mpmath
import numpy as np
import scipy
import sklearn
from scipy.optimize import brentq
from scipy.special import ive
from scipy.stats import vonmises_fisher
from sklearn.metrics import average_precision_score, roc_auc_score
from sklearn.neighbors import NearestNeighbors
from threadpoolctl import threadpool_limits

DIR = Path(sys.argv[1])
mpmath.mp.dps = 40


def load(name, dtype):
    return np.fromfile(DIR / name, dtype=dtype)


def best(reps, f):
    t_best, out = float("inf"), None
    for _ in range(reps):
        t = time.perf_counter()
        out = f()
        t_best = min(t_best, time.perf_counter() - t)
    return t_best, out


def best_cpu(reps, f):
    """Best wall time, best process CPU time (all threads) and the last result."""
    t_best, c_best, out = float("inf"), float("inf"), None
    for _ in range(reps):
        t, c = time.perf_counter(), time.process_time()
        out = f()
        t_best = min(t_best, time.perf_counter() - t)
        c_best = min(c_best, time.process_time() - c)
    return t_best, c_best, out


crate_times = dict(
    (line.split()[0], float(line.split()[1])) for line in (DIR / "crate_times.txt").read_text().splitlines()
)
crate_values = {}
instruction_set = None
for line in (DIR / "crate_values.txt").read_text().splitlines():
    key, value = line.split()
    if key == "instruction_set":
        instruction_set = value
        continue
    crate_values.setdefault(key, []).append(float(value))

rows = []


def verdict(met):
    """The goal column's word for a goal met or missed."""
    return "met" if met else "NOT met"


def row(task, peer, crate_t, peer_t, crate_acc, peer_acc, goal=None):
    """One table row; `goal` is the peer/probdml time ratio the row must reach (None: no goal,
    a one-off scalar call shown for what it costs)."""
    rows.append((task, peer, crate_t, peer_t, crate_acc, peer_acc, goal))


def bit_check(key, what):
    return f"{what}: {'same bits' if crate_values[key][0] == 1 else 'DIFFERENT BITS'}"


def accuracy(values, reference, rel):
    """'non-finite n, wrong m (max err e)' against reference: wrong = |err| > rel·max(1, |ref|)."""
    values = np.asarray(values, dtype=float)
    finite = np.isfinite(values)
    err = np.abs(values - reference) / np.maximum(1.0, np.abs(reference))
    err[~finite] = np.inf
    wrong = int(np.sum((err > rel) & finite))
    worst = np.max(err[finite]) if finite.any() else float("nan")
    return f"non-finite {int(np.sum(~finite))}, wrong {wrong} (max rel err {worst:.1e})"


# --- ln I_ν(x) -----------------------------------------------------------------------------
nu, x = load("bessel_nu.f64", "<f8"), load("bessel_x.f64", "<f8")
crate_lni = load("crate_log_bessel_i.f64", "<f8")
with np.errstate(all="ignore"):
    t_scipy, scipy_lni = best(20, lambda: np.log(ive(nu, x)) + x)
subset = np.arange(0, len(nu), 30)
ref = np.array([float(mpmath.log(mpmath.besseli(mpmath.mpf(nu[i]), mpmath.mpf(x[i]), maxterms=10**7))) for i in subset])
row(
    f"ln I_ν(x), {len(nu)} points (accuracy on {len(subset)} vs mpmath, wrong: rel err > 1e-12)",
    "scipy log(ive)+x",
    crate_times["log_bessel_i"],
    t_scipy,
    accuracy(crate_lni[subset], ref, 1e-12),
    accuracy(scipy_lni[subset], ref, 1e-12),
)
row(
    f"ln I_ν(x), the same {len(nu)} points, one `log_bessel_i_batch` call per order",
    "scipy log(ive)+x",
    crate_times["log_bessel_i_batch"],
    t_scipy,
    bit_check("log_bessel_i_batch_equals_scalar", "against the scalar calls"),
    "(as above)",
    goal=10,
)

# --- ln C_M(κ) -----------------------------------------------------------------------------
dims, kappas = load("normconst_dim.f64", "<f8"), load("normconst_kappa.f64", "<f8")
crate_lnc = load("crate_log_norm_const.f64", "<f8")


def scipy_lnc():
    v = dims / 2 - 1
    return v * np.log(kappas) - dims / 2 * np.log(2 * np.pi) - (np.log(ive(v, kappas)) + kappas)


with np.errstate(all="ignore"):
    t_scipy, scipy_c = best(20, scipy_lnc)
subset = np.arange(0, len(dims), 10)


def mp_lnc(m, k):
    m, k = mpmath.mpf(m), mpmath.mpf(k)
    v = m / 2 - 1
    return float(v * mpmath.log(k) - m / 2 * mpmath.log(2 * mpmath.pi) - mpmath.log(mpmath.besseli(v, k, maxterms=10**7)))


ref = np.array([mp_lnc(dims[i], kappas[i]) for i in subset])
row(
    f"ln C_M(κ), {len(dims)} points, M ∈ {{3,16,128,512}} (accuracy on {len(subset)}, rel 1e-12)",
    "scipy log(ive)+κ",
    crate_times["log_norm_const"],
    t_scipy,
    accuracy(crate_lnc[subset], ref, 1e-12),
    accuracy(scipy_c[subset], ref, 1e-12),
)
row(
    f"ln C_M(κ), the same {len(dims)} points, one `log_norm_const_batch` call per M",
    "scipy log(ive)+κ",
    crate_times["log_norm_const_batch"],
    t_scipy,
    bit_check("log_norm_const_batch_equals_scalar_for_m_not_3", "M ≠ 3 against the scalar calls"),
    "(as above)",
    goal=15,
)

# --- κ from R̄ ------------------------------------------------------------------------------
kdims, rbars = load("kappa_dim.f64", "<f8"), load("kappa_rbar.f64", "<f8")
crate_kappa = load("crate_kappa_mle.f64", "<f8")


def scipy_kappa_one(m, r):
    a = lambda k: ive(m / 2, k) / ive(m / 2 - 1, k) - r
    hi = 1.0
    while a(hi) < 0 and hi < 1e12:
        hi *= 2
    try:
        return brentq(a, 1e-12, hi, xtol=1e-14, rtol=4 * np.finfo(float).eps, maxiter=200)
    except (ValueError, RuntimeError):
        return np.nan


with np.errstate(all="ignore"):
    t_scipy, scipy_kappa = best(1, lambda: np.array([scipy_kappa_one(m, r) for m, r in zip(kdims, rbars)]))
subset = np.arange(0, len(kdims), 25)


def mp_kappa(m, r):
    m, r = mpmath.mpf(m), mpmath.mpf(r)
    start = r * (m - r * r) / (1 - r * r)  # Banerjee et al.'s approximation
    return float(mpmath.findroot(lambda k: mpmath.besseli(m / 2, k) / mpmath.besseli(m / 2 - 1, k) - r, start))


ref = np.array([mp_kappa(kdims[i], rbars[i]) for i in subset])
row(
    f"κ̂ = A_M⁻¹(R̄), {len(kdims)} points, M ∈ {{3,128,512}} (accuracy on {len(subset)} vs mpmath root, rel 1e-10)",
    "scipy brentq on ive ratio",
    crate_times["kappa_mle"],
    t_scipy,
    accuracy(crate_kappa[subset], ref, 1e-10),
    accuracy(scipy_kappa[subset], ref, 1e-10),
)
row(
    f"κ̂ = A_M⁻¹(R̄), the same {len(kdims)} points, one `kappa_mle_batch` call per M",
    "scipy brentq on ive ratio",
    crate_times["kappa_mle_batch"],
    t_scipy,
    bit_check("kappa_mle_batch_equals_scalar", "against the scalar calls"),
    "(as above)",
    goal=100,
)

# --- vMF sampling and fitting --------------------------------------------------------------
# Sra (2012), eq. (5)-(6): Banerjee's start and two Newton steps on A_M(κ) = R̄, vectorised in
# numpy on scipy's ive ratio, as a numpy user writes it; the reference is mpmath's Newton steps
# from the same start (the estimator, not the root: Sra's two steps are the quantity compared).
sra_dims, sra_rbars = load("sra_dim.f64", "<f8"), load("sra_rbar.f64", "<f8")
crate_sra = load("crate_kappa_sra.f64", "<f8")


def numpy_sra(m, r):
    k = r * (m - r * r) / (1 - r * r)
    for _ in range(2):
        a = ive(m / 2, k) / ive(m / 2 - 1, k)
        k = k - (a - r) / (1 - a * a - (m - 1) / k * a)
    return k


def mp_sra(m, r):
    m, r = mpmath.mpf(m), mpmath.mpf(r)
    k = r * (m - r * r) / (1 - r * r)
    for _ in range(2):
        # κ reaches 5·10⁴ at M = 4096: more series terms than mpmath's default 6000.
        a = mpmath.besseli(m / 2, k, maxterms=10**6) / mpmath.besseli(m / 2 - 1, k, maxterms=10**6)
        k = k - (a - r) / (1 - a * a - (m - 1) / k * a)
    return float(k)


t_numpy_sra, numpy_sra_out = best(5, lambda: numpy_sra(sra_dims, sra_rbars))
subset = np.arange(0, len(sra_dims), 50)
ref = np.array([mp_sra(sra_dims[i], sra_rbars[i]) for i in subset])
row(
    f"κ̂ by Sra's two Newton steps, M ∈ {{512, 4096}}, {len(sra_dims)} points (accuracy on {len(subset)} vs the same steps in mpmath, rel 1e-10)",
    "numpy/scipy vectorised (ive ratio)",
    crate_times["kappa_sra"],
    t_numpy_sra,
    accuracy(crate_sra[subset], ref, 1e-10),
    accuracy(numpy_sra_out[subset], ref, 1e-10),
)
row(
    f"κ̂ by Sra's two Newton steps, the same {len(sra_dims)} points, one `kappa_sra_batch` call per M",
    "numpy/scipy vectorised (ive ratio)",
    crate_times["kappa_sra_batch"],
    t_numpy_sra,
    bit_check("kappa_sra_batch_equals_scalar", "against the scalar calls"),
    "(as above)",
    goal=10,
)

dim, kappa, n_draws = 128, 50.0, 100_000
mu = np.zeros(dim)
mu[0] = 1.0
t_scipy, draws_scipy = best(3, lambda: vonmises_fisher(mu, kappa).rvs(n_draws, random_state=np.random.default_rng(5)))
expected_rbar = crate_values["vmf_expected_rbar"][0]
rbar_scipy = np.linalg.norm(draws_scipy.sum(axis=0)) / n_draws
draws = load("vmf_draws.f64", "<f8").reshape(-1, dim)
rbar_crate = np.linalg.norm(draws.sum(axis=0)) / n_draws
# R̄ of n draws has standard deviation about σ = sqrt(Var(μᵀx)/n) around A, with
# Var(μᵀx) = 1 − A² − (M−1)A/κ for the vMF.
a = expected_rbar
sigma = np.sqrt(max(1 - a * a - (dim - 1) * a / kappa, 0.0) / n_draws)
row(
    f"vMF sampling, M = {dim}, κ = {kappa:g}, {n_draws} draws; generators: the crate's eight-lane Xoshiro256++, numpy's PCG64 (deviation of R̄ from A_M(κ); σ ≈ {sigma:.1e})",
    "scipy vonmises_fisher.rvs",
    crate_times["vmf_sample"],
    t_scipy,
    f"{abs(rbar_crate - expected_rbar):.1e}",
    f"{abs(rbar_scipy - expected_rbar):.1e}",
)
normals = crate_times["vmf_standard_normals"]
batch = crate_times["vmf_sample_batch"]
row(
    f"vMF sampling, {n_draws} draws by one `sample_n_into` call into a buffer allocated once (the row above allocates its output in every run, as scipy does)",
    "scipy vonmises_fisher.rvs",
    batch,
    t_scipy,
    f"|R̄ − A_M(κ)| of its draws {abs(crate_values['vmf_sample_batch_rbar'][0] - expected_rbar):.1e}"
    + f"; {batch / normals:.2f}× the time of the {n_draws}·{dim} standard normals alone"
    + f" (goal ≤ 1.3×, {verdict(batch <= 1.3 * normals)};"
    + f" the crate's ziggurat, {normals * 1e3:.1f} ms; rand_distr's StandardNormal takes"
    + f" {crate_times['vmf_standard_normals_rand_distr'] * 1e3:.1f} ms)",
    "(as above)",
    goal=15,
)
t_scipy, fit = best(3, lambda: vonmises_fisher.fit(draws))
kappa_crate = crate_values["vmf_fit_kappa"][0]
row(
    f"vMF fit (μ̂, κ̂) on the crate's {n_draws} draws (κ̂; relative difference)",
    "scipy vonmises_fisher.fit",
    crate_times["vmf_fit"],
    t_scipy,
    f"κ̂ = {kappa_crate:.10g}",
    f"κ̂ = {fit[1]:.10g} (rel diff {abs(fit[1] - kappa_crate) / kappa_crate:.1e}"
    + ("; WRONG: the draws have κ = 50" if abs(fit[1] - kappa) / kappa > 0.05 else "")
    + ")",
)

# --- AUROC, AUPRC ---------------------------------------------------------------------------
ind, ood = load("ood_id.f64", "<f8"), load("ood_ood.f64", "<f8")
y = np.concatenate([np.zeros(len(ind)), np.ones(len(ood))])
s = np.concatenate([ind, ood])
t_roc, roc = best(3, lambda: roc_auc_score(y, s))
t_pr, pr = best(3, lambda: average_precision_score(y, s))
row(
    "AUROC, 10⁶ + 10⁶ scores with ties (value; Δ to the crate)",
    "sklearn roc_auc_score",
    crate_times["auroc"],
    t_roc,
    f"{crate_values['auroc'][0]:.12f}",
    f"{roc:.12f} (Δ {abs(roc - crate_values['auroc'][0]):.1e})",
    goal=25,
)
row(
    "AUPRC (average precision), same scores",
    "sklearn average_precision_score",
    crate_times["auprc"],
    t_pr,
    f"{crate_values['auprc'][0]:.12f}",
    f"{pr:.12f} (Δ {abs(pr - crate_values['auprc'][0]):.1e})",
    goal=25,
)

# --- Retrieval -----------------------------------------------------------------------------
n, d = 10_000, 128
X = load("retrieval_x.f32", "<f4").reshape(n, d)
labels = load("retrieval_labels.u32", "<u4").astype(np.int64)
crate_nn = load("crate_neighbours.u32", "<u4").reshape(n, 10).astype(np.int64)


def metrics_from(idx):
    """Leave-one-out recall@1/5/10 and mAP@10 (LAM/BTL) from 11-NN lists that include self."""
    keep = idx != np.arange(n)[:, None]
    nn = np.array([r[k][:10] for r, k in zip(idx, keep)])
    rel = labels[nn] == labels[:, None]
    counts = np.bincount(labels)[labels] - 1
    recall = [float(np.mean(rel[:, :k].any(axis=1))) for k in (1, 5, 10)]
    hits = np.cumsum(rel, axis=1)
    prec = hits / np.arange(1, 11)
    ap = (prec * rel).sum(axis=1) / np.minimum(counts, 10)
    return recall, float(np.mean(ap[counts > 0])), nn


def faiss_search():
    index = faiss.IndexFlatL2(d)
    index.add(X)
    _, idx = index.search(X, 11)
    return metrics_from(idx)


def sklearn_search(threads):
    nbrs = NearestNeighbors(n_neighbors=11, algorithm="brute", n_jobs=threads).fit(X)
    _, idx = nbrs.kneighbors(X)
    return metrics_from(idx)


crate_recall = crate_values["recall@1"][0], crate_values["recall@5"][0], crate_values["recall@10"][0]
crate_map = crate_values["map@10"][0]
same = "identical to the exact twin" if crate_values["fast_equals_exact_neighbours"][0] == 1 else "DIFFERS from the exact twin"
cpu_rows = []
for threads in (1, 2):
    faiss.omp_set_num_threads(threads)
    with threadpool_limits(limits=threads):
        t_faiss, c_faiss, (r_f, m_f, nn_f) = best_cpu(5, faiss_search)
        t_skl, c_skl, (r_s, m_s, nn_s) = best_cpu(3, lambda: sklearn_search(threads))
    crate_t = crate_times[f"retrieval_threads{threads}"]
    crate_c = crate_times[f"retrieval_threads{threads}_cpu"]
    cpu_rows.append((threads, crate_t, crate_c, t_faiss, c_faiss, t_skl, c_skl))
    crate_acc = f"R@1,5,10 = {crate_recall[0]:.4f},{crate_recall[1]:.4f},{crate_recall[2]:.4f}; mAP@10 {crate_map:.4f}; neighbours {same}"
    for name, t, r, m, nn in (("faiss-cpu IndexFlatL2", t_faiss, r_f, m_f, nn_f), ("sklearn NearestNeighbors brute", t_skl, r_s, m_s, nn_s)):
        differing = int(np.sum((nn != crate_nn).any(axis=1)))
        row(
            f"leave-one-out recall@1/5/10 + mAP@10, 10 000 × 128 f32, {threads} thread{'s' if threads > 1 else ''}",
            name,
            crate_t,
            t,
            crate_acc,
            f"R@1,5,10 = {r[0]:.4f},{r[1]:.4f},{r[2]:.4f}; mAP@10 {m:.4f}; {differing} queries' top-10 differ from the exact one",
            goal=2.5 if (threads == 1 and name.startswith("faiss")) else None,
        )

print(
    f"probdml's kernels: the copy compiled for {instruction_set}; "
    f"versions: numpy {np.__version__}, scipy {scipy.__version__}, scikit-learn {sklearn.__version__}, "
    f"faiss-cpu {faiss.__version__}, mpmath {mpmath.__version__}; python {sys.version.split()[0]}"
)
print()
print("| task | peer | probdml | peer | peer / probdml | goal | met | probdml accuracy | peer accuracy |")
print("|---|---|---:|---:|---:|---:|---|---|---|")
for task, peer, ct, pt, ca, pa, goal in rows:
    ratio = pt / ct
    goal_cell, met = ("—", "—") if goal is None else (f"≥ {goal:g}×", verdict(ratio >= goal))
    print(f"| {task} | {peer} | {ct * 1e3:.1f} ms | {pt * 1e3:.1f} ms | {ratio:.2f}× | {goal_cell} | {met} | {ca} | {pa} |")

print()
print("Retrieval, wall and CPU time (best of 5 for probdml and faiss, 3 for scikit-learn; CPU = all threads of the process):")
print()
print("| threads | probdml wall | probdml CPU | faiss wall | faiss CPU | sklearn wall | sklearn CPU | faiss / probdml (wall, CPU) |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|")
for threads, ct, cc, tf, cf, ts, cs in cpu_rows:
    print(f"| {threads} | {ct * 1e3:.0f} ms | {cc * 1e3:.0f} ms | {tf * 1e3:.0f} ms | {cf * 1e3:.0f} ms | {ts * 1e3:.0f} ms | {cs * 1e3:.0f} ms | {tf / ct:.2f}×, {cf / cc:.2f}× |")
