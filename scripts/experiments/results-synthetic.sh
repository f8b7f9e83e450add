#!/usr/bin/env bash
# The runs of book chapter 10's synthetic section: every method of the method table on the seeded
# synthetic set (2 epochs at batch 64 on 384 images, evaluated on 100 ID and 100 OOD images with
# 8 samples each, D = 3), seeds 0 and 1, on the CPU with one libtorch thread per run. Keeps
# each run's config.json and metrics.json (what `probdml summarise` reads) and curves.json (what
# `probdml figures` draws) under <keep>.
#
#   bash scripts/experiments/results-synthetic.sh <work> <keep>
#
# e.g. `bash scripts/experiments/results-synthetic.sh /tmp/results docs/runs/2026-11-26-synthetic`,
# then `PROBDML_WRITE_RESULTS=1 cargo test --release -p probdml-train --test results_tables`.
# Environment: PROBDML (default target/release/probdml).
set -euo pipefail
if [[ $# -ne 2 ]]; then
    echo "usage: $0 <work> <keep>" >&2
    exit 2
fi
probdml="${PROBDML:-target/release/probdml}"
[[ -x "$probdml" ]] || { echo "error: $probdml not built (bash scripts/cargo-tch.sh build --release --bin probdml)" >&2; exit 1; }
work="$1"
keep="$2"
methods=(deterministic mc-dropout lam-posthoc lam-online ensemble hib proxy-nca btl-gaussian btl-vmf pfe)
start=$(date +%s)
for method in "${methods[@]}"; do
    for seed in 0 1; do
        run="$method-seed$seed"
        "$probdml" train --method "$method" --dataset synthetic --epochs 2 --batch 64 \
            --train-limit 384 --test-limit 100 --eval-samples 8 --ensemble-size 3 \
            --seed "$seed" --device cpu --threads 1 --force --out "$work/$run" >/dev/null 2>&1
        mkdir -p "$keep/$run"
        cp "$work/$run/config.json" "$work/$run/metrics.json" "$keep/$run/"
        # The figures' curves (`probdml figures`), where the binary writes them.
        if [[ -f "$work/$run/curves.json" ]]; then cp "$work/$run/curves.json" "$keep/$run/"; fi
    done
done
echo "wall time: $(( $(date +%s) - start )) s"
