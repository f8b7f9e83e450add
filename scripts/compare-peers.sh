#!/usr/bin/env bash
# Times the crate against what a user would call instead, in one run, on identical inputs, and
# prints a markdown table with the ratios and the accuracy of both sides:
#
#   * scipy: log(ive(ν, x)) + x for ln I_ν(x) and ln C_M(κ), a brentq κ solver on the ive
#     ratio, vonmises_fisher.rvs and vonmises_fisher.fit;
#   * scikit-learn: roc_auc_score, average_precision_score, brute-force NearestNeighbors;
#   * faiss-cpu: IndexFlatL2, for leave-one-out retrieval on 10 000 × 128 f32 embeddings;
#   * the BTL listing (chapter 05) in PyTorch, from .venv (scripts/setup-torch.sh);
#   * mpmath (40 digits): the reference that non-finite and wrong outputs of both sides are
#     counted against.
#
# Each row where a user with many values would call a batch kernel is run twice: through the
# scalar function (what a one-off call costs) and through the batch kernel (one call per order or
# dimension); the batch rows carry the goal ratio (peer time / probdml time) they must reach and
# say whether this run met it, and whether the batch returned the scalar calls' bits.
#
# `examples/compare_peers.rs` writes the inputs and the crate's outputs and timings to
# target/peers/; scripts/peers/compare.py reads the same files, times the peers and prints the
# table. The peers live in their own virtual environment, .venv-peers/ (git-ignored), created
# once with the pinned versions below. Timings are the best of 3–5 runs (20 for the ln I_ν and
# ln C_M rows on both sides, which take milliseconds or less; 1 for the scipy κ
# solver and the crate's exact twin); the retrieval rows are run at 1 and 2 threads on both
# sides (Retrieval::with_threads; faiss.omp_set_num_threads and threadpoolctl for the peers).
#
# The last table is measured from Python (scripts/peers/python_view.py, the probdml wheel in
# .venv-peers): the same comparisons with the goals of the Python package.
#
# Usage: bash scripts/compare-peers.sh [--record] [--isa portable|avx2-fma|avx512]
#        (about 2 minutes after the first install)
#
# `--isa NAME` runs the crate's side with every dispatched kernel compiled for NAME
# (`InstructionSet::run`): an AVX-512 CPU measures the AVX2 copy that AVX2-only CPUs (most
# laptops, many cloud CPUs) run, and the portable one. Only the first table depends on the copy;
# the BTL and Python tables are left out. Without `--isa` the CPU's own copy runs.
#
# The tables go to standard output and to target/peers/report.md. With --record they are also
# written to docs/runs/peers/latest.md (with `--isa NAME`: docs/runs/peers/NAME.md) under a
# header naming the commit, the command, the CPU and the date: the book includes its parts
# (`{{#include}}` of the anchors rust, btl and python), so that no peers number in the book is
# typed by hand.
set -euo pipefail

record=false
isa=""
usage="usage: bash scripts/compare-peers.sh [--record] [--isa portable|avx2-fma|avx512]"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --record) record=true ;;
        --isa)
            [[ $# -ge 2 ]] || { echo "$usage" >&2; exit 2; }
            isa="$2"
            shift
            ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
    shift
done

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv="$root/.venv-peers"
python="${PYTHON:-python3}"
PEERS=(numpy==2.2.6 scipy==1.15.3 scikit-learn==1.6.1 threadpoolctl==3.8.0 faiss-cpu==1.11.0 mpmath==1.3.0)

if ! "$venv/bin/python" -c 'import faiss, scipy, sklearn, mpmath, threadpoolctl' >/dev/null 2>&1; then
    echo "compare-peers: creating $venv with ${PEERS[*]}" >&2
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet "${PEERS[@]}"
fi

out="$root/target/peers"
if [[ -n "$isa" ]]; then
    out="$root/target/peers/$isa"
fi
cargo run --locked --release --quiet --example compare_peers -- "$out" ${isa:+"$isa"}
report="$out/report.md"
cpu="$(grep -c processor /proc/cpuinfo) logical CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "compare-peers: $cpu; $(rustc --version); RUSTFLAGS=${RUSTFLAGS:-(none)}" >&2

# The peers' own dispatch is held to the same instruction set: faiss loads its library for it
# (FAISS_OPT_LEVEL), OpenBLAS its kernels (OPENBLAS_CORETYPE, under scikit-learn and scipy), and
# numpy leaves out the AVX-512 loops (NPY_DISABLE_CPU_FEATURES), so that a forced table compares
# both sides as an older CPU runs them.
peer_env=()
case "$isa" in
    avx2-fma) peer_env=(FAISS_OPT_LEVEL=AVX2 OPENBLAS_CORETYPE=Haswell
        "NPY_DISABLE_CPU_FEATURES=AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL AVX512_SPR") ;;
    portable) peer_env=(FAISS_OPT_LEVEL=generic OPENBLAS_CORETYPE=Prescott
        "NPY_DISABLE_CPU_FEATURES=SSE3 SSSE3 SSE41 POPCNT SSE42 AVX F16C FMA3 AVX2 AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL AVX512_SPR") ;;
esac
{
echo "<!-- ANCHOR: rust -->"
env ${peer_env[@]+"${peer_env[@]}"} "$venv/bin/python" -W ignore scripts/peers/compare.py "$out"
echo "<!-- ANCHOR_END: rust -->"

if [[ -z "$isa" ]]; then
# The Bayesian triplet loss against the paper's PyTorch listing (chapter 05). PyTorch comes from
# the project's libtorch environment (.venv, torch 2.11.0 from PyPI, made by
# scripts/setup-torch.sh), not from .venv-peers: the PyPI wheel is 4.6 GB and already installed
# there for the training module. One thread on both sides, float64, the same inputs.
if [[ -x "$root/.venv/bin/python" ]] && "$root/.venv/bin/python" -c 'import torch' >/dev/null 2>&1; then
    btl=$(RAYON_NUM_THREADS=1 cargo run --locked --release --quiet --example compare_btl)
    seconds=$(echo "$btl" | sed -n 's/^btl_crate_seconds=//p')
    echo
    echo "<!-- ANCHOR: btl -->"
    echo "Bayesian triplet loss, batch NLL + gradient (time: best of 20; PyTorch: forward + backward):"
    echo
    echo "| task | peer | probdml | peer | peer / probdml | probdml | peer |"
    echo "|---|---|---:|---:|---:|---|---|"
    "$root/.venv/bin/python" -W ignore scripts/peers/btl_listing.py "$seconds"
    echo "<!-- ANCHOR_END: btl -->"
else
    echo "compare-peers: no PyTorch in .venv: run bash scripts/setup-torch.sh for the BTL listing row" >&2
fi

# The same peers from Python, as a user of the Python package meets them: the probdml wheel
# (scripts/setup-python.sh builds it into target/wheels/) is installed into .venv-peers beside
# scipy, scikit-learn and faiss-cpu, and scripts/peers/python_view.py times both sides on the same
# numpy arrays in one process, one thread each, call overhead and conversions included.
bash scripts/setup-python.sh >&2
wheel=(target/wheels/probdml-*.whl)
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "${wheel[0]}" >&2
echo
echo "<!-- ANCHOR: python -->"
echo "From Python (time: best of 3–5 calls, 20 for ln C_M; one thread):"
echo
RAYON_NUM_THREADS=1 OMP_NUM_THREADS=1 "$venv/bin/python" -W ignore scripts/peers/python_view.py
echo "<!-- ANCHOR_END: python -->"
fi
} | tee "$report"

if $record; then
    commit="$(git rev-parse --short HEAD)"
    # The recorded tables themselves do not count: recording both copies in a row leaves the
    # first one's table changed while the second runs.
    if [[ -n "$(git status --porcelain --untracked-files=no -- . ':!docs/runs/peers')" ]]; then
        commit="$commit with uncommitted changes"
    fi
    mkdir -p docs/runs/peers
    recorded="docs/runs/peers/${isa:-latest}.md"
    {
        echo "<!-- Written by \`bash scripts/compare-peers.sh --record\`; do not edit. -->"
        echo "<!-- ANCHOR: header -->"
        echo "Measured at commit $commit on $(date -u +%Y-%m-%d) with \`bash scripts/compare-peers.sh --record${isa:+ --isa $isa}\`; $cpu; $(rustc --version), RUSTFLAGS ${RUSTFLAGS:-none} (none: the baseline x86-64, with run-time dispatch, chapter 01)."
        echo "<!-- ANCHOR_END: header -->"
        echo
        cat "$report"
    } > "$recorded"
    echo "compare-peers: recorded in $recorded" >&2
fi
