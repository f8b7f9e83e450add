#!/usr/bin/env bash
# The CUDA path of the training module, exercised in one run on a machine with an NVIDIA GPU
# (sized for one H100: under 8 minutes with the dependencies already compiled in target/).
#
#   1. builds `probdml` and the checks with features "tch distributed" against the torch
#      scripts/cargo-tch.sh finds (the machine's own python3 torch 2.11.0, else the .venv's);
#      says whether NCCL was compiled in (build.rs needs a CUDA toolkit: set CUDA_HOME);
#   2. crates/probdml-train/tests/train_cuda_parity.rs: the last-layer GGN diagonal of a seeded model on a seeded
#      batch, and one training step's loss, on the CPU and on CUDA, within the tolerance that
#      test states and derives (cuDNN's TF32 convolutions);
#   3. every method trained one epoch on Fashion-MNIST on CUDA, and on the CPU beside it, on the
#      same --train-limit (the CPU would take far longer on the whole set), printing both epoch
#      times from each run's summary;
#   4. with two GPUs and NCCL compiled in: the two-rank checks of crates/probdml-train/tests/distributed_group.rs
#      over NCCL, and the two-rank training equivalence of crates/probdml-train/tests/train_distributed.rs on CUDA.
#
# Usage: bash scripts/gpu-check.sh [--train-limit N]   (default 60000: the whole training set)
#        bash scripts/gpu-check.sh --build-only DIR     (on a machine with Rust and no GPU)
#        bash scripts/gpu-check.sh --prebuilt DIR [--train-limit N]   (on the GPU machine)
# A GPU machine without a Rust toolchain runs binaries built elsewhere: --build-only builds
# `probdml` and the parity test against the same torch 2.11.0+cu130 wheel and copies them into
# DIR; --prebuilt skips step 1 and points the dynamic loader at the python3 torch's libraries
# (the binaries' rpath names the building machine's). Both machines need glibc ≥ the builder's.
# Writes its runs into ${TMPDIR:-/tmp}/probdml-gpu-check; prints one line per check and exits
# non-zero if any failed.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

train_limit=60000
cpu_limit=2000
prebuilt=""
build_only=""
while [[ $# -gt 0 ]]; do
    case "$1" in
    --train-limit) train_limit="${2:?--train-limit needs a number}"; shift 2 ;;
    --prebuilt) prebuilt="${2:?--prebuilt needs a folder}"; shift 2 ;;
    --build-only) build_only="${2:?--build-only needs a folder}"; shift 2 ;;
    *) echo "gpu-check: unknown argument $1" >&2; exit 2 ;;
    esac
done
features=(--features distributed)

if [[ -n "$build_only" ]]; then
    mkdir -p "$build_only"
    bash scripts/cargo-tch.sh build --release --locked "${features[@]}" --bin probdml
    exe="$(bash scripts/cargo-tch.sh test --release --locked "${features[@]}" -p probdml-train \
        --test train_cuda_parity --no-run --message-format=json 2>/dev/null |
        python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "train_cuda_parity" and m.get("executable"):
        print(m["executable"])')"
    cp target/release/probdml "$build_only/probdml"
    cp "$exe" "$build_only/train_cuda_parity"
    if ! readelf -d "$build_only/probdml" | grep -q 'libtorch_cuda.so'; then
        echo "gpu-check: probdml does not link libtorch_cuda.so (this torch has no CUDA backend?)" >&2
        exit 1
    fi
    echo "gpu-check: built into $build_only"
    exit 0
fi
work="${TMPDIR:-/tmp}/probdml-gpu-check"
rm -rf "$work"
mkdir -p "$work"
status=0
started=$SECONDS
say() { printf '[gpu-check %4ds] %s\n' "$((SECONDS - started))" "$*"; }
fail() { say "FAIL: $*"; status=1; }

if ! command -v nvidia-smi >/dev/null 2>&1; then
    say "no nvidia-smi: this script needs an NVIDIA GPU"
    exit 2
fi
gpus="$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)"
say "GPUs: $gpus ($(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | head -1))"
cores="$(nproc)"

# 1. Build, or take the binaries built elsewhere.
if [[ -n "$prebuilt" ]]; then
    torch_lib="$(python3 -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')"
    export LD_LIBRARY_PATH="$torch_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    probdml="$(cd "$prebuilt" && pwd)/probdml"
    parity=("$(cd "$prebuilt" && pwd)/train_cuda_parity")
    # The binaries default to the builder's data folder (CARGO_MANIFEST_DIR/data).
    export PROBDML_DATA="${PROBDML_DATA:-$root/data}"
    say "prebuilt binaries from $prebuilt; libtorch from $torch_lib; data from $PROBDML_DATA"
    say "NCCL: not compiled in (built on a machine without the CUDA toolkit)"
    nccl=0
else
    if ! bash scripts/cargo-tch.sh build --release --locked "${features[@]}" --bin probdml \
        >"$work/build.log" 2>&1; then
        tail -30 "$work/build.log"
        say "FAIL: build (log: $work/build.log)"
        exit 1
    fi
    if grep -q "built without NCCL" "$work/build.log"; then
        say "NCCL: not compiled in ($(grep -m1 'built without NCCL' "$work/build.log" | sed 's/.*warning=//'))"
        nccl=0
    else
        nccl=1
        say "NCCL: compiled in"
    fi
    probdml="$root/target/release/probdml"
    parity=(bash scripts/cargo-tch.sh test --release --locked "${features[@]}" -p probdml-train --test train_cuda_parity --)
    say "built in $((SECONDS - started)) s"
fi

# 2. CPU against CUDA, one model, one batch.
if timeout 300 "${parity[@]}" --include-ignored --nocapture >"$work/parity.log" 2>&1; then
    grep -E "^(ggn|loss)" "$work/parity.log" | sed 's/^/    /'
    say "ok: CPU and CUDA agree (GGN diagonal, one step's loss)"
else
    tail -30 "$work/parity.log"
    fail "CPU against CUDA (log: $work/parity.log)"
fi

# 3. Every method, one epoch, CUDA then CPU.
methods=(deterministic mc-dropout lam-posthoc lam-online ensemble hib proxy-nca btl-gaussian btl-vmf pfe)
epoch_seconds() { # summary.json -> mean epoch seconds
    python3 -c 'import json,sys; print("%.2f" % json.load(open(sys.argv[1]))["timing"]["mean_epoch_seconds"])' "$1" 2>/dev/null || echo "?"
}
printf '    %-14s %12s %14s %14s\n' method "cuda s/epoch" "cpu s/epoch" "(cpu images)"
for m in "${methods[@]}"; do
    extra=()
    [[ "$m" == ensemble ]] && extra=(--ensemble-size 2)
    if ! timeout 120 "$probdml" train --method "$m" "${extra[@]}" --epochs 1 --device cuda \
        --train-limit "$train_limit" --test-limit 2000 --out "$work/cuda-$m" \
        >"$work/cuda-$m.log" 2>&1; then
        fail "$m on CUDA (log: $work/cuda-$m.log)"
        continue
    fi
    if ! timeout 120 "$probdml" train --method "$m" "${extra[@]}" --epochs 1 --device cpu \
        --threads "$cores" --train-limit "$cpu_limit" --test-limit 500 --out "$work/cpu-$m" \
        >"$work/cpu-$m.log" 2>&1; then
        fail "$m on the CPU (log: $work/cpu-$m.log)"
        continue
    fi
    printf '    %-14s %12s %14s %14s\n' "$m" "$(epoch_seconds "$work/cuda-$m/summary.json")" \
        "$(epoch_seconds "$work/cpu-$m/summary.json")" "$cpu_limit"
done
say "methods done (CUDA on $train_limit images, CPU on $cpu_limit with $cores threads)"

# 4. Two GPUs: NCCL.
if [[ "$gpus" -ge 2 && "$nccl" == 1 ]]; then
    if bash scripts/cargo-tch.sh test --release --locked "${features[@]}" -p probdml-train --test distributed_group \
        -- --ignored nccl --nocapture >"$work/nccl.log" 2>&1; then
        say "ok: two ranks over NCCL (collectives, a killed rank named)"
    else
        tail -30 "$work/nccl.log"
        fail "two ranks over NCCL (log: $work/nccl.log)"
    fi
    if PROBDML_DIST_DEVICE=cuda bash scripts/cargo-tch.sh test --release --locked "${features[@]}" -p probdml-train \
        --test train_distributed -- --nocapture >"$work/nccl-train.log" 2>&1; then
        say "ok: two-rank training on CUDA matches one rank"
    else
        tail -30 "$work/nccl-train.log"
        fail "two-rank training on CUDA (log: $work/nccl-train.log)"
    fi
else
    say "skipped: NCCL checks (need 2 GPUs and NCCL compiled in; have $gpus GPU(s), nccl=$nccl)"
fi

say "total $((SECONDS - started)) s; status $status"
exit "$status"
