#!/usr/bin/env bash
# Post-hoc LAM on a deterministic model trained under one protocol (the LAM reference code's by
# default) with our loss pairs or the reference's (book chapter 10, "post-hoc LAM with the
# reference code's loss pairs"): for each seed, `probdml train --method deterministic --protocol
# PROTOCOL --loss-mining LOSS_MINING`, then the post-hoc rows of lam-posthoc-ood.sh on that
# checkpoint (reference protocol, H ≡ 0, ‖x‖ alone, the checkpoint's own protocol, tr Cov(y);
# the marglik rows left out).
# Each run's config.json, metrics.json, curves.json and summary.json are copied into
# RECORD/<loss-mining>-seed<S>/{deterministic,<row>}/ (the checkpoints stay in WORK).
#
#   bash scripts/experiments/lam-posthoc-loss-pairs.sh RECORD WORK EPOCHS "SEEDS"
#
# Environment: LOSS_MINING (pairs, the default, or triplets), PROTOCOL (reference, the default,
# or ours: the training protocol and so the posthoc-ours row's prior and samples), PROBDML (default
# target/release/probdml), THREADS (libtorch CPU threads per process, default 1), DEVICE
# (default cpu).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [[ $# -ne 4 ]]; then
    echo "usage: $0 RECORD WORK EPOCHS \"SEEDS\"" >&2
    exit 2
fi
record="$1" work="$2" epochs="$3" seeds="$4"
loss_mining="${LOSS_MINING:-pairs}" protocol="${PROTOCOL:-reference}"
export PROBDML="${PROBDML:-$root/target/release/probdml}"
threads="${THREADS:-1}" device="${DEVICE:-cpu}"
mkdir -p "$record" "$work"
for seed in $seeds; do
    name="$loss_mining-seed$seed"
    "$PROBDML" train --method deterministic --protocol "$protocol" --loss-mining "$loss_mining" \
        --dataset fashion-mnist --epochs "$epochs" --latent-dim 3 --seed "$seed" \
        --device "$device" --threads "$threads" --out "$work/$name/deterministic" --force
    POSTHOC_FLAGS="--threads $threads --device $device" \
        SKIP_ROWS="posthoc-marglik marglik-output-variance" \
        bash "$root/scripts/experiments/lam-posthoc-ood.sh" "$work/$name/deterministic" \
        "$work/$name/no-online-run" "$work/$name"
    # Every run lam-posthoc-ood.sh finished (its rows are its own to name), and the model.
    for dir in "$work/$name"/*/; do
        run="$(basename "$dir")"
        [[ -f "$dir/metrics.json" ]] || continue
        mkdir -p "$record/$name/$run"
        for file in config.json metrics.json curves.json summary.json; do
            if [[ -f "$dir/$file" ]]; then cp "$dir/$file" "$record/$name/$run/"; fi
        done
    done
done
