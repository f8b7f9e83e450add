#!/usr/bin/env bash
# LAM Table 2's schedule (`probdml reproduce --paper`: every method, 20 epochs, seeds 0 … S−1)
# sharded over processes: one `probdml reproduce --paper --first-seed k --seeds 1 --methods GROUP`
# per seed and group of methods, all at once, each in its own folder, spread round-robin over the
# devices in DEVICES; then every run gathered as <out>/all/<method>-seed<k> and the table printed
# by `probdml summarise`.
#
#   bash scripts/experiments/paper-sharded.sh <out> [seeds]     (seeds: default 5)
#
# Worth it over several GPUs, not on one: on one H200, 20 processes kept it 99 % busy and each
# ran 12–17 times slower than alone (the deterministic model's epoch 9.2 s against 0.73 s, LAM
# online's 60 s against 4.2 s), so one GPU trains them no faster than one process at a time
# (book chapter 10).
#
# The groups keep each post-hoc method with the deterministic run it starts from (post-hoc LAM
# and PFE read <group folder>/deterministic-seed<k>); the rest are split so that no process
# holds much more work than LAM online alone.
# Environment: FIRST_SEED (default 0: seeds FIRST_SEED … FIRST_SEED + S − 1), PROBDML (default target/release/probdml), DEVICES (space-separated, default
# "cuda"; e.g. "cuda:0 cuda:1 cuda:2 cuda:3"), THREADS (CPU threads per process, default 1),
# LIMIT_S (stop every process after this many seconds; runs finished by then are gathered;
# default: no limit), FLAGS (more flags for every process, e.g. "--epochs 1 --dataset synthetic"
# for a smoke test).
set -uo pipefail
if [[ $# -lt 1 || $# -gt 2 ]]; then
    echo "usage: $0 <out> [seeds]" >&2
    exit 2
fi
out="$1"
seeds="${2:-5}"
first="${FIRST_SEED:-0}"
probdml="${PROBDML:-target/release/probdml}"
read -r -a devices <<<"${DEVICES:-cuda}"
threads="${THREADS:-1}"
limit="${LIMIT_S:-0}"
[[ -x "$probdml" ]] || { echo "error: $probdml not built (bash scripts/cargo-tch.sh build --release --bin probdml)" >&2; exit 1; }
groups=(
    deterministic,pfe,lam-posthoc,hib
    lam-online
    ensemble,mc-dropout
    proxy-nca,btl-gaussian,btl-vmf
)
mkdir -p "$out/logs"
started=$SECONDS
pids=()
for ((k = first; k < first + seeds; k++)); do
    for g in "${!groups[@]}"; do
        timeout "${limit}" "$probdml" reproduce --paper --first-seed "$k" --seeds 1 \
            --methods "${groups[$g]}" --device "${devices[${#pids[@]} % ${#devices[@]}]}" --threads "$threads" ${FLAGS:-} \
            --out "$out/seed$k-group$g" >"$out/logs/seed$k-group$g.log" 2>&1 &
        pids+=($!)
    done
done
echo "paper-sharded: ${#pids[@]} processes ($seeds seeds × ${#groups[@]} groups) on ${devices[*]}"
failed=0
for p in "${pids[@]}"; do
    wait "$p" || failed=$((failed + 1))
done
echo "paper-sharded: done in $((SECONDS - started)) s; $failed process(es) failed or were stopped"

# Gather: one folder per run, as `probdml reproduce` names them.
mkdir -p "$out/all"
rows=()
methods=(deterministic ensemble pfe hib mc-dropout lam-posthoc lam-online proxy-nca btl-gaussian btl-vmf)
for m in "${methods[@]}"; do
    runs=()
    for ((k = first; k < first + seeds; k++)); do
        for run in "$out"/seed"$k"-group*/"$m-seed$k"; do
            [[ -f "$run/metrics.json" ]] || continue
            rm -rf "$out/all/$m-seed$k"
            mkdir -p "$out/all/$m-seed$k"
            cp "$run"/{metrics,config}.json "$out/all/$m-seed$k/"
            # The figures' curves (`probdml figures`), where the binary writes them.
            if [[ -f "$run/curves.json" ]]; then cp "$run/curves.json" "$out/all/$m-seed$k/"; fi
            [[ -f "$run/summary.json" ]] && cp "$run/summary.json" "$out/all/$m-seed$k/"
            runs+=("$out/all/$m-seed$k")
        done
    done
    echo "paper-sharded: $m: ${#runs[@]} of $seeds seeds finished"
    [[ ${#runs[@]} -gt 0 ]] && rows+=(--row "$m=$(IFS=,; echo "${runs[*]}")")
done
[[ ${#rows[@]} -gt 0 ]] && "$probdml" summarise "${rows[@]}"
exit $((failed > 0))
