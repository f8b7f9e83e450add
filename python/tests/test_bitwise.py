"""The Python package returns the Rust crate's bits: examples/python_bitwise.rs calls the crate
on seeded inputs and writes inputs and outputs as hexadecimal f64 bits; this test calls the
package on the same inputs and compares bits, with no tolerance. The example is run here through
cargo (built in the same target directory as the extension)."""

import os
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

from probdml import hib, laplace, metrics, nivmf, special, triplet, vmf

ROOT = Path(__file__).resolve().parents[2]


def bits(values) -> list[str]:
    return [f"{struct.unpack('<Q', struct.pack('<d', float(v)))[0]:016x}" for v in np.ravel(values)]


def decode(tokens: list[str]) -> np.ndarray:
    return np.array([struct.unpack("<d", struct.pack("<Q", int(t, 16)))[0] for t in tokens])


@pytest.fixture(scope="module")
def cases() -> dict[str, dict[str, np.ndarray]]:
    path = ROOT / "target" / "python-bitwise.txt"
    if os.environ.get("PROBDML_BITWISE_FILE"):
        path = Path(os.environ["PROBDML_BITWISE_FILE"])
    else:
        subprocess.run(
            ["cargo", "run", "--locked", "--release", "--quiet", "--example", "python_bitwise", "--", str(path)],
            cwd=ROOT,
            check=True,
        )
    out: dict[str, dict[str, np.ndarray]] = {}
    current: dict[str, np.ndarray] = {}
    for line in path.read_text().splitlines():
        label, *tokens = line.split()
        if label == "case":
            current = out.setdefault(tokens[0], {})
        elif label.startswith("int_"):
            current[label[4:]] = np.array([int(t) for t in tokens], dtype=np.int64)
        else:
            current[label] = decode(tokens)
    return out


def same_bits(got, want) -> None:
    assert bits(got) == bits(want)


def test_special_and_vmf(cases):
    c = cases["log_bessel_i"]
    same_bits(special.log_bessel_i(c["nu"], c["x"]), c["out"])
    c = cases["log_norm_const"]
    same_bits(vmf.log_norm_const(c["dim"], c["kappa"]), c["out"])
    c = cases["kappa_mle"]
    same_bits(vmf.kappa_mle(int(c["dim"][0]), c["rbar"]), c["out"])
    c = cases["vmf_rvs"]
    same_bits(vmf.VonMisesFisher(c["mu"], c["kappa"][0]).rvs(16, seed=int(c["seed"][0])), c["out"])


def test_triplet(cases):
    c = cases["triplet_nll_gradient"]
    names = ["mu_a", "var_a", "mu_p", "var_p", "mu_n", "var_n"]
    g = triplet.nll_gradient(*[c[n].reshape(4, 3) for n in names], margin=c["margin"][0])
    same_bits(g.nll, c["nll"])
    for n in names:
        same_bits(getattr(g, n), c["g_" + n])


@pytest.mark.parametrize("name,distance", [("proxy_nca_cosine", "cosine"), ("proxy_nca_el_vmf", "el_vmf")])
def test_proxy_nca(cases, name, distance):
    c = cases[name]
    out = nivmf.proxy_nca_loss(
        c["embeddings"].reshape(3, 4), c["labels"], c["proxies"].reshape(5, 4), temperature=c["temperature"][0], distance=distance
    )
    same_bits(out.loss, c["loss"])
    same_bits(out.distances, c["distances"])
    same_bits(out.grad_embeddings, c["grad_embeddings"])
    same_bits(out.grad_proxies, c["grad_proxies"])


def test_metrics(cases):
    c = cases["auroc_auprc"]
    same_bits([metrics.auroc(id_scores=c["id"], ood_scores=c["ood"]), metrics.auprc(id_scores=c["id"], ood_scores=c["ood"])], c["out"])
    c = cases["retrieval_f32"]
    x = c["embeddings"].astype(np.float32).reshape(40, 6)  # exact: the values are f32 widened
    got = [metrics.recall_at_k(x, c["labels"], 1), metrics.map_at_k(x, c["labels"], 5), metrics.map_at_r(x, c["labels"])]
    same_bits(got, c["out"])


def test_hib_and_laplace(cases):
    c = cases["hib_match_probability"]
    same_bits(hib.match_probability(c["mu1"], c["var1"], c["mu2"], c["var2"], 2.0, 1.0, n_samples=8, seed=int(c["seed"][0])), c["out"])
    c = cases["laplace_output_variance"]
    same_bits(laplace.output_variance(c["weight_precision"].reshape(2, 3), c["bias_precision"], c["features"]), c["out"])
