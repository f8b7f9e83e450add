#!/usr/bin/env bash
# Book chapter 10's GPU experiments on one GPU, side by side, every process stopped after
# LIMIT_S seconds (the runs finished by then are kept, the rest discarded):
#
#   1. LAM Table 2's schedule, every method, 20 epochs, seeds FIRST … FIRST + SEEDS − 1
#      (scripts/experiments/paper-sharded.sh: four processes per seed) → OUT/table-2/all/;
#   2. MC dropout with the LAM reference code's layout (channels), 20 epochs, seeds 0–4, under
#      our protocol and under the reference protocol, one process each
#      (scripts/experiments/mc-dropout-ablation.sh) → OUT/mc-dropout/;
#   3. HIB on N-digit MNIST, N = 2, D = 2, the paper's data scale, HIB_EPOCHS epochs at 10⁻⁴,
#      seed 0, the methods of HIB_METHODS one after another (scripts/hib-n-digit.sh) → OUT/hib/.
#
#   bash scripts/experiments/gpu-side-by-side.sh OUT LIMIT_S
#
# Environment: PARTS (default "table-2 mc-dropout hib": the parts to run), PROBDML (default
# target/release/probdml), FIRST (default 0), SEEDS (default 1), HIB_EPOCHS (default 20),
# HIB_METHODS (default "mog1 point"), THREADS (CPU threads per process, default 2), DEVICE
# (default cuda; cpu for a smoke test of the plumbing); CONV_INIT and LOSS_MINING reach the MC
# dropout part (mc-dropout-ablation.sh). E.g. Table 2's seeds 2–4 alone:
# PARTS=table-2 FIRST=2 SEEDS=3; the MC dropout ablation on the reference code's loss pairs:
# PARTS=mc-dropout LOSS_MINING=triplets.
# Each run's files are the ones its script copies (config, metrics, curves, state); checkpoints
# stay under OUT/work/ and OUT/table-2/. Every finished deep ensemble of Table 2 is diagnosed
# at the end (scripts/experiments/ensemble-disagreement.sh), into OUT/ensemble-disagreement/. Logs in OUT/logs/; OUT/timeline.txt says when each part ended.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [[ $# -ne 2 ]]; then
    echo "usage: $0 OUT LIMIT_S" >&2
    exit 2
fi
out="$1" limit="$2"
export PROBDML="${PROBDML:-$root/target/release/probdml}"
export THREADS="${THREADS:-2}"
mkdir -p "$out/logs" "$out/work"
started=$SECONDS
mark() { echo "$((SECONDS - started)) s: $*" | tee -a "$out/timeline.txt"; }
mark "start on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $(nproc) cores"

parts=" ${PARTS:-table-2 mc-dropout hib} "
pids=()
if [[ "$parts" == *" table-2 "* ]]; then
    FIRST_SEED="${FIRST:-0}" LIMIT_S="$limit" DEVICES="${DEVICE:-cuda}" \
        bash "$root/scripts/experiments/paper-sharded.sh" "$out/table-2" "${SEEDS:-1}" \
        >"$out/logs/table-2.log" 2>&1 &
    pids+=($!)
fi
if [[ "$parts" == *" mc-dropout "* ]]; then
    for protocol in ours reference; do
        DEVICE="${DEVICE:-cuda}" timeout "$limit" bash "$root/scripts/experiments/mc-dropout-ablation.sh" \
            "$out/mc-dropout" "$out/work/mc-dropout" channels "$protocol" 20 "0 1 2 3 4" \
            >"$out/logs/mc-dropout-$protocol.log" 2>&1 &
        pids+=($!)
    done
fi
if [[ "$parts" == *" hib "* ]]; then
    DEVICE="${DEVICE:-cuda}" LR=0.0001 METHODS="${HIB_METHODS:-mog1 point}" timeout "$limit" \
        bash "$root/scripts/hib-n-digit.sh" "$out/hib" "$out/work/hib" 2 2 100000 10000 \
        "${HIB_EPOCHS:-20}" 0 "$THREADS" >"$out/logs/hib.log" 2>&1 &
    pids+=($!)
fi
nvidia-smi dmon -s u -d 10 >"$out/logs/gpu-utilisation.txt" 2>&1 &
dmon=$!
for p in "${pids[@]}"; do wait "$p"; done
mark "every part ended (Table 2's runs gathered)"
kill "$dmon" 2>/dev/null
shopt -s nullglob
# Each finished ensemble's disagreement taken apart while its checkpoint is here
# (ensemble-disagreement.sh only diagnoses a finished one): OUT/ensemble-disagreement/.
for dir in "$out"/table-2/*/ensemble-seed*/; do
    [[ "$dir" != "$out/table-2/all/"* && -f "$dir/metrics.json" ]] || continue
    seed="${dir%/}" && seed="${seed##*-seed}"
    DEVICE="${DEVICE:-cuda}" timeout 300 bash "$root/scripts/experiments/ensemble-disagreement.sh" \
        "$out/ensemble-disagreement" "$(dirname "$dir")" 20 "$seed" \
        >>"$out/logs/ensemble-disagreement.log" 2>&1 || mark "no diagnosis of $dir"
done
mark "ensembles diagnosed"
for run in "$out"/mc-dropout/*/ "$out"/hib/*/; do
    [[ -f "$run/metrics.json" ]] || { rm -rf "$run"; mark "unfinished: $run"; }
done
exit 0
