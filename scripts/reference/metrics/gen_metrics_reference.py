#!/usr/bin/env python3
"""Reference values for the chapter-08 metrics (retrieval and uncertainty), from scikit-learn,
SciPy and plain-Python definitions that share no code with probdml.

Writes
  scripts/reference/metrics/metrics_reference.tsv          every case, read by proofs/metrics_reference.rs
  scripts/reference/metrics/docs_values.txt the numbers shown in docs/src/08-metrics.md

Run it through generate.sh (see README.md beside this file), which pins the library versions.

Sources of truth, per metric:
  AUROC    sklearn.metrics.roc_auc_score(y, s), y = 1 for OOD
  AUPRC    sklearn.metrics.average_precision_score(y, s), y = 1 for OOD
  ROC      sklearn.metrics.roc_curve(y, s, drop_intermediate=False)
  tau-b    scipy.stats.kendalltau(x, y, variant="b").statistic
  retrieval (recall@k, precision@k, mAP@k, mAP@R, R-precision), sparsification/AUSC, ECE,
           closed-set ECE, ECE@k and the binned Kendall analysis: the definitions of book chapter 08
           written out below in plain Python (sequential float sums, stable sorts, the tie
           rule "equal distance -> smaller database index"), with scipy's tau-b inside the
           binned analysis. Retrieval cases use small-integer coordinates (Euclidean) or
           repeated directions (cosine), so that every tie is exact and no ranking depends on
           rounding.

Floats are written with repr(), the shortest string that round-trips, so the Rust side parses
the very doubles Python computed with.
"""
import argparse
import math
import os
import sys

import numpy as np
import scipy
import scipy.stats
import sklearn
from sklearn.metrics import average_precision_score, roc_auc_score, roc_curve

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def fmt(x):
    return repr(float(x))


def flist(xs):
    return ",".join(fmt(x) for x in xs)


def ilist(xs):
    return ",".join(str(int(x)) for x in xs)


# ------------------------------------------------------------------------------------------
# OOD detection: scikit-learn
# ------------------------------------------------------------------------------------------
def ood_values(id_scores, ood_scores):
    s = np.concatenate([np.asarray(id_scores, float), np.asarray(ood_scores, float)])
    y = np.concatenate([np.zeros(len(id_scores)), np.ones(len(ood_scores))])
    auroc = roc_auc_score(y, s)
    auprc = average_precision_score(y, s)
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    return float(auroc), float(auprc), fpr, tpr


def ood_cases(rng):
    cases = [
        ("hand", [0.1, 0.4], [0.35, 0.8]),
        ("all_tied", [1.0, 1.0, 1.0], [1.0]),
        ("perfect", [0.0, 1.0, 2.0], [3.0, 4.0]),
        ("reversed", [3.0, 4.0], [0.0, 1.0, 2.0]),
        ("single_pair_tie", [5.0], [5.0]),
        ("single_pair", [1.0], [2.0]),
        ("signed_zeros", [-0.0, 0.0, 1.0], [0.0, 2.0]),
        ("docs", [0.1, 0.2, 0.2, 0.4, 0.5], [0.2, 0.45, 0.5, 0.9]),
    ]
    cases.append(("small_ints", rng.integers(0, 5, 30).astype(float), rng.integers(1, 6, 20).astype(float)))
    cases.append(("three_levels", rng.choice([0.0, 0.5, 1.0], 500, p=[0.5, 0.3, 0.2]),
                  rng.choice([0.0, 0.5, 1.0], 400, p=[0.2, 0.3, 0.5])))
    cases.append(("normal_continuous", rng.normal(0.0, 1.0, 200), rng.normal(0.8, 1.2, 150)))
    cases.append(("normal_rounded", np.round(rng.normal(0.0, 1.0, 5000), 2),
                  np.round(rng.normal(0.5, 1.0, 3000), 2)))
    cases.append(("wide_range", rng.lognormal(0.0, 5.0, 300) * rng.choice([-1.0, 1.0], 300),
                  rng.lognormal(1.0, 5.0, 200)))
    return cases


# ------------------------------------------------------------------------------------------
# Kendall tau-b: SciPy
# ------------------------------------------------------------------------------------------
def kendall_cases(rng):
    n = 50
    x_cont = rng.normal(size=n)
    cases = [
        ("hand", [1.0, 1.0, 2.0], [1.0, 2.0, 3.0]),
        ("docs", [1.0, 2.0, 2.0, 3.0, 4.0, 4.0], [0.3, 0.1, 0.4, 0.4, 0.9, 0.8]),
        ("reversed", [1.0, 2.0, 3.0, 4.0], [4.0, 3.0, 2.0, 1.0]),
        ("continuous", x_cont, x_cont + rng.normal(size=n)),
        ("ties_both", rng.integers(0, 4, 100).astype(float), rng.integers(0, 3, 100).astype(float)),
        ("ties_x_only", np.repeat(np.arange(10.0), 5), rng.normal(size=50)),
        ("signed_zeros", [-0.0, 0.0, 1.0, -1.0], [1.0, 2.0, 2.0, 0.0]),
    ]
    z = rng.normal(size=2000)
    cases.append(("large_rounded", np.round(z, 1), np.round(z + rng.normal(size=2000), 1)))
    return cases


# ------------------------------------------------------------------------------------------
# Retrieval: the definitions, literally
# ------------------------------------------------------------------------------------------
def seq_dot(a, b):
    s = 0.0
    for u, v in zip(a, b):
        s += float(u) * float(v)
    return s


def ranking_distance(distance, q, x):
    if distance == "euclidean":
        s = 0.0
        for u, v in zip(q, x):
            t = float(u) - float(v)
            s += t * t
        return s
    return 1.0 - seq_dot(q, x) / (math.sqrt(seq_dot(q, q)) * math.sqrt(seq_dot(x, x)))


def retrieval_values(case):
    Q = case["queries"]
    X = case["database"]
    loo = Q is None
    if loo:
        Q = X
    n_db = len(X)
    ranks = []
    for q in range(len(Q)):
        items = [j for j in range(n_db) if not (loo and j == q)]
        d = [ranking_distance(case["distance"], Q[q], X[j]) for j in items]
        # Python's sort is stable: equal distances keep increasing index order.
        order = sorted(range(len(items)), key=lambda t: d[t])
        ranks.append([items[t] for t in order])

    def positive(q, j):
        if "positives" in case:
            return j in case["positives"][q]
        return case["db_labels"][j] == case["q_labels"][q]

    rel = [[positive(q, j) for j in ranks[q]] for q in range(len(Q))]
    R = [sum(1 for j in range(n_db) if not (loo and j == q) and positive(q, j)) for q in range(len(Q))]
    scored = [q for q in range(len(Q)) if R[q] > 0]

    def precision_at(q, i):
        return sum(1 for t in rel[q][:i] if t) / i

    def ap(q, k, norm):
        s = 0.0
        for i in range(1, k + 1):
            if rel[q][i - 1]:
                s += precision_at(q, i)
        return s / norm

    out = {"recall": [], "precision": [], "map": []}
    for k in case["ks"]:
        out["recall"].append(sum(1.0 if any(rel[q][:k]) else 0.0 for q in scored) / len(scored))
        acc = 0.0
        for q in scored:
            acc += precision_at(q, k)
        out["precision"].append(acc / len(scored))
        acc = 0.0
        for q in scored:
            acc += ap(q, k, min(R[q], k))
        out["map"].append(acc / len(scored))
    acc = 0.0
    for q in scored:
        acc += ap(q, R[q], R[q])
    out["map_at_r"] = acc / len(scored)
    acc = 0.0
    for q in scored:
        acc += precision_at(q, R[q])
    out["r_precision"] = acc / len(scored)
    out["excluded"] = len(Q) - len(scored)
    return out


def retrieval_cases(rng):
    cases = []
    # Euclidean, leave-one-out, integer grid: many exact distance ties.
    X = rng.integers(-2, 3, size=(40, 3)).astype(float)
    cases.append(dict(name="grid_loo", distance="euclidean", queries=None, database=X,
                      q_labels=list(rng.integers(0, 4, 40)), ks=[1, 2, 5, 10]))
    cases[-1]["db_labels"] = cases[-1]["q_labels"]
    # Separate queries, with a label absent from the database (excluded queries).
    Q = rng.integers(-3, 4, size=(25, 4)).astype(float)
    X = rng.integers(-3, 4, size=(60, 4)).astype(float)
    cases.append(dict(name="grid_query_database", distance="euclidean", queries=Q, database=X,
                      q_labels=list(rng.integers(0, 6, 25)), db_labels=list(rng.integers(0, 5, 60)),
                      ks=[1, 3, 7]))
    # Place recognition: explicit positive sets, with duplicates and an empty set.
    Q = rng.integers(0, 4, size=(12, 2)).astype(float)
    X = rng.integers(0, 4, size=(30, 2)).astype(float)
    positives = [sorted(set(rng.integers(0, 30, rng.integers(0, 5)).tolist())) for _ in range(12)]
    positives[0] = positives[0] + positives[0][:1]  # a repeated index counts once
    positives[1] = []
    cases.append(dict(name="positives_query_database", distance="euclidean", queries=Q, database=X,
                      positives=positives, ks=[1, 2, 4]))
    # Leave-one-out with positive sets that name the query itself (ignored).
    X = rng.integers(0, 3, size=(20, 2)).astype(float)
    positives = [sorted(set(rng.integers(0, 20, 4).tolist()) | {q}) for q in range(20)]
    cases.append(dict(name="positives_loo", distance="euclidean", queries=None, database=X,
                      positives=positives, ks=[1, 3]))
    # Cosine: five directions, each repeated with positive scalings -> exact ties only
    # between repeats of one direction, which compute identically.
    directions = rng.integers(-3, 4, size=(5, 3)).astype(float)
    directions[np.all(directions == 0, axis=1)] = 1.0
    pick = rng.integers(0, 5, 36)
    X = directions[pick]
    cases.append(dict(name="cosine_directions_loo", distance="cosine", queries=None, database=X,
                      q_labels=list(rng.integers(0, 3, 36)), ks=[1, 4, 8]))
    cases[-1]["db_labels"] = cases[-1]["q_labels"]
    # The docs example (2-D, three classes, one singleton class, a distance tie at query 0).
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [3.0, 3.0], [3.0, 4.0], [4.0, 3.0], [9.0, 9.0],
                  [2.0, 0.0]])
    cases.append(dict(name="docs", distance="euclidean", queries=None, database=X,
                      q_labels=[0, 1, 0, 1, 1, 0, 2, 1], ks=[1, 2, 3]))
    cases[-1]["db_labels"] = cases[-1]["q_labels"]
    return cases


def matrix_text(M):
    return ",".join(fmt(v) for v in np.asarray(M, float).ravel())


def positives_text(sets):
    return ";".join(" ".join(str(int(j)) for j in s) for s in sets)


# ------------------------------------------------------------------------------------------
# Uncertainty metrics: the definitions, literally
# ------------------------------------------------------------------------------------------
def sparsification(uncertainty, performance):
    n = len(uncertainty)

    def curve(order):
        out = []
        for i in range(100):
            drop = int(n * i / 100)
            s = 0.0
            for q in order[drop:]:
                s += performance[q]
            out.append(s / (n - drop))
        return out

    by_unc = sorted(range(n), key=lambda q: -uncertainty[q])  # stable: ties keep index order
    by_err = sorted(range(n), key=lambda q: performance[q])
    c, o = curve(by_unc), curve(by_err)
    ausc = float(np.trapezoid(c, dx=0.01))
    oracle = float(np.trapezoid(o, dx=0.01))
    return c, o, ausc, oracle


def ece_equal_width(confidence, correct, bins):
    n = len(confidence)
    total = 0.0
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        members = [i for i in range(n) if lo <= confidence[i] and (confidence[i] < hi or (b == bins - 1 and confidence[i] <= 1.0))]
        if not members:
            continue
        acc = sum(1.0 for i in members if correct[i]) / len(members)
        conf = 0.0
        for i in members:
            conf += confidence[i]
        conf /= len(members)
        total += len(members) / n * abs(acc - conf)
    return total


def closed_set(votes, labels, bins):
    confidence, correct = [], []
    for v, y in zip(votes, labels):
        counts = {}
        for label in v:
            counts[label] = counts.get(label, 0) + 1
        best = max(counts.values())
        mode = min(label for label, c in counts.items() if c == best)
        confidence.append(best / len(v))
        correct.append(mode == y)
    return ece_equal_width(confidence, correct, bins)


def ece_at_k(uncertainty, ap, bins):
    n = len(uncertainty)
    order = sorted(range(n), key=lambda q: uncertainty[q])
    total = 0.0
    for b in range(bins):
        members = order[b * n // bins:(b + 1) * n // bins]
        ranks = range(b * n // bins, (b + 1) * n // bins)
        acc = 0.0
        for q in members:
            acc += ap[q]
        acc /= len(members)
        conf = 0.0
        for r in ranks:
            conf += 1.0 - (r + 0.5) / n
        conf /= len(members)
        total += len(members) / n * abs(acc - conf)
    return total


def binned_kendall(uncertainty, performance, bins):
    n = len(uncertainty)
    order = sorted(range(n), key=lambda q: uncertainty[q])
    perf = []
    for b in range(bins):
        members = order[b * n // bins:(b + 1) * n // bins]
        s = 0.0
        for q in members:
            s += performance[q]
        perf.append(s / len(members))
    tau = scipy.stats.kendalltau(np.arange(bins, dtype=float), perf, variant="b").statistic
    return perf, -float(tau)


def uncertainty_cases(rng):
    cases = []
    n = 300
    u = np.round(rng.uniform(size=n), 2)  # ties in uncertainty
    hit = (rng.uniform(size=n) > 0.8 * u).astype(float)
    ap = np.round(np.clip(1.0 - u + rng.normal(0, 0.2, n), 0.0, 1.0), 3)
    cases.append(("sparsification", "accuracy_ties", list(u), list(hit)))
    cases.append(("sparsification", "ap_values", list(u), list(ap)))
    cases.append(("sparsification", "docs", [0.9, 0.1, 0.5, 0.3, 0.8, 0.2, 0.7, 0.4],
                  [0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0]))
    cases.append(("sparsification", "tiny", [0.3], [1.0]))
    conf = list(np.round(rng.uniform(size=200), 1))  # confidences on the bin edges
    conf[:5] = [1.0, 1.0, 0.0, 0.3, 0.7]
    correct = list(rng.uniform(size=200) < np.asarray(conf))
    cases.append(("ece", "edges", conf, correct))
    votes = [list(rng.integers(0, 3, 10)) for _ in range(120)]
    votes[:3] = [[2] * 10, [0] * 5 + [1] * 5, [1, 1, 2, 2, 0, 0, 0, 1, 2, 2]]
    labels = list(rng.integers(0, 3, 120))
    cases.append(("closed_set", "votes", votes, labels))
    cases.append(("closed_set", "docs", [[1, 1, 1, 1], [0, 2, 2, 0], [2, 2, 2, 0], [0, 1, 1, 1], [3, 3, 3, 3]],
                  [1, 2, 2, 1, 0]))
    cases.append(("ece_at_k", "ap_values", list(u), list(ap)))
    cases.append(("ece_at_k", "docs", [0.2, 0.9, 0.4, 0.1, 0.7, 0.3], [1.0, 0.0, 0.5, 1.0, 0.5, 1.0]))
    cases.append(("binned", "accuracy", list(u), list(hit)))
    cases.append(("binned", "docs", [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
                  [1.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]))
    return cases


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "scripts", "reference", "metrics", "metrics_reference.tsv"))
    parser.add_argument("--docs", default=os.path.join(HERE, "docs_values.txt"))
    args = parser.parse_args()
    rng = np.random.default_rng(20260808)
    lines = [
        "# Reference values for chapter 08 (probdml::metrics), generated by",
        "#   scripts/reference/metrics/generate.sh",
        f"# scikit-learn {sklearn.__version__}, scipy {scipy.__version__}, numpy {np.__version__}, "
        f"python {sys.version.split()[0]}",
        "# One case per line: kind<TAB>name<TAB>key=value... ; lists are comma-separated, floats are",
        "# Python repr() (shortest round-trip). Kinds: ood, kendall, retrieval, sparsification, ece,",
        "# closed_set, ece_at_k, binned. See scripts/reference/metrics/README.md.",
    ]
    docs = []

    for name, ids, oods in ood_cases(rng):
        auroc, auprc, fpr, tpr = ood_values(ids, oods)
        lines.append("\t".join(["ood", name, "id=" + flist(ids), "ood=" + flist(oods), "auroc=" + fmt(auroc),
                                "auprc=" + fmt(auprc), "fpr=" + flist(fpr), "tpr=" + flist(tpr)]))
        if name == "docs":
            docs.append(f"ood docs: id={flist(ids)} ood={flist(oods)} auroc={fmt(auroc)} auprc={fmt(auprc)}")

    for name, x, y in kendall_cases(rng):
        tau = float(scipy.stats.kendalltau(x, y, variant="b").statistic)
        lines.append("\t".join(["kendall", name, "x=" + flist(x), "y=" + flist(y), "tau=" + fmt(tau)]))
        if name == "docs":
            docs.append(f"kendall docs: x={flist(x)} y={flist(y)} tau={fmt(tau)}")

    for case in retrieval_cases(rng):
        v = retrieval_values(case)
        fields = ["retrieval", case["name"], "distance=" + case["distance"],
                  "dim=" + str(case["database"].shape[1]), "database=" + matrix_text(case["database"])]
        if case["queries"] is not None:
            fields.append("queries=" + matrix_text(case["queries"]))
        if "positives" in case:
            fields.append("positives=" + positives_text(case["positives"]))
        else:
            fields.append("query_labels=" + ilist(case["q_labels"]))
            fields.append("database_labels=" + ilist(case["db_labels"]))
        fields += ["ks=" + ilist(case["ks"]), "recall=" + flist(v["recall"]),
                   "precision=" + flist(v["precision"]), "map=" + flist(v["map"]),
                   "map_at_r=" + fmt(v["map_at_r"]), "r_precision=" + fmt(v["r_precision"]),
                   "excluded=" + str(v["excluded"])]
        lines.append("\t".join(fields))
        if case["name"] == "docs":
            docs.append(f"retrieval docs: ks={ilist(case['ks'])} recall={flist(v['recall'])} "
                        f"precision={flist(v['precision'])} map={flist(v['map'])} map_at_r={fmt(v['map_at_r'])} "
                        f"r_precision={fmt(v['r_precision'])} excluded={v['excluded']}")

    for kind, name, a, b in uncertainty_cases(rng):
        if kind != "closed_set":
            a = [float(t) for t in a]
            b = [float(t) if kind != "ece" else bool(t) for t in b]
        if kind == "sparsification":
            c, o, ausc, oracle = sparsification(a, b)
            lines.append("\t".join([kind, name, "uncertainty=" + flist(a), "performance=" + flist(b),
                                    "curve=" + flist(c), "oracle=" + flist(o), "ausc=" + fmt(ausc),
                                    "oracle_ausc=" + fmt(oracle)]))
            if name == "docs":
                docs.append(f"sparsification docs: curve[0]={fmt(c[0])} curve[50]={fmt(c[50])} "
                            f"curve[99]={fmt(c[99])} ausc={fmt(ausc)} oracle_ausc={fmt(oracle)}")
        elif kind == "ece":
            ece = ece_equal_width(a, b, 10)
            lines.append("\t".join([kind, name, "confidence=" + flist(a),
                                    "correct=" + ilist([int(t) for t in b]), "bins=10", "ece=" + fmt(ece)]))
        elif kind == "closed_set":
            ece = closed_set(a, b, 10)
            lines.append("\t".join([kind, name, "votes=" + ";".join(" ".join(str(int(t)) for t in v) for v in a),
                                    "labels=" + ilist(b), "bins=10", "ece=" + fmt(ece)]))
            if name == "docs":
                docs.append(f"closed_set docs: ece={fmt(ece)}")
        elif kind == "ece_at_k":
            bins = 10 if len(a) >= 10 else 3
            ece = ece_at_k(a, b, bins)
            lines.append("\t".join([kind, name, "uncertainty=" + flist(a), "average_precision=" + flist(b),
                                    "bins=" + str(bins), "ece=" + fmt(ece)]))
            if name == "docs":
                docs.append(f"ece_at_k docs: bins={bins} ece={fmt(ece)}")
        elif kind == "binned":
            bins = 20 if len(a) >= 20 else 4
            perf, tau = binned_kendall(a, b, bins)
            lines.append("\t".join([kind, name, "uncertainty=" + flist(a), "performance=" + flist(b),
                                    "bins=" + str(bins), "bin_performance=" + flist(perf), "tau=" + fmt(tau)]))
            if name == "docs":
                docs.append(f"binned docs: bins={bins} bin_performance={flist(perf)} tau={fmt(tau)}")

    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(args.docs, "w") as f:
        f.write("# Numbers shown in docs/src/08-metrics.md, from gen_metrics_reference.py\n")
        f.write(f"# scikit-learn {sklearn.__version__}, scipy {scipy.__version__}, numpy {np.__version__}\n")
        f.write("\n".join(docs) + "\n")
    print(f"wrote {len(lines)} lines to {os.path.relpath(args.out, ROOT)} and {os.path.relpath(args.docs, ROOT)}")


if __name__ == "__main__":
    main()
