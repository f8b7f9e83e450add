#!/usr/bin/env bash
# A deep ensemble's disagreement taken apart (book chapter 10, "The deep ensemble's spread taken
# apart"): `probdml train --method ensemble` (five deterministic members) on the whole
# Fashion-MNIST training set, D = 3, for each seed one after another, then `probdml diagnose` of
# its checkpoint; each run's config.json, metrics.json, summary.json and diagnosis.json copied
# into RECORD/ensemble-seed<S>/ (the checkpoints stay in WORK). The chapter's table is
# `probdml_train::ensemble_disagreement::disagreement_table` of those folders.
#
#   bash scripts/experiments/ensemble-disagreement.sh RECORD WORK EPOCHS "SEEDS"
#
# A folder WORK/ensemble-seed<S> that already holds a finished ensemble is diagnosed without
# training. Environment: PROBDML (default target/release/probdml), DEVICE (default cpu), THREADS
# (default 1).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [[ $# -ne 4 ]]; then
    echo "usage: $0 RECORD WORK EPOCHS \"SEEDS\"" >&2
    exit 2
fi
record="$1" work="$2" epochs="$3" seeds="$4"
probdml="${PROBDML:-$root/target/release/probdml}"
device="${DEVICE:-cpu}" threads="${THREADS:-1}"
mkdir -p "$record" "$work"
for seed in $seeds; do
    name="ensemble-seed$seed"
    if [[ ! -f "$work/$name/metrics.json" ]]; then
        "$probdml" train --method ensemble --dataset fashion-mnist --epochs "$epochs" \
            --latent-dim 3 --seed "$seed" --device "$device" --threads "$threads" \
            --out "$work/$name" --force
    fi
    "$probdml" diagnose --checkpoint "$work/$name" --device "$device" --threads "$threads" \
        > /dev/null
    mkdir -p "$record/$name"
    for file in config.json metrics.json summary.json diagnosis.json; do
        cp "$work/$name/$file" "$record/$name/"
    done
done
