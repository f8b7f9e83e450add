#!/usr/bin/env bash
# MC dropout under one layout and one protocol (book chapter 10, "MC dropout where the LAM
# reference code drops units"): `probdml train --method mc-dropout` on the whole Fashion-MNIST
# training set, D = 3, for each seed, one after another; each run's config.json, metrics.json,
# curves.json and state.json copied into RECORD/<layout>-<protocol>-seed<S>/ (the checkpoints
# stay in WORK). `probdml summarise` of those folders prints the table.
#
#   bash scripts/experiments/mc-dropout-ablation.sh RECORD WORK LAYOUT PROTOCOL EPOCHS "SEEDS"
#
# LAYOUT: features (ours: element-wise before the last layer) or channels (the LAM reference
# code's Dropout2d after conv1 and after the pool). PROTOCOL: ours or reference (100 samples
# scored by Σ_d std_d, RMSprop at 0.001 × batch 256 with weight decay 10⁻⁵; chapter 09).
# Environment: PROBDML (default target/release/probdml), DEVICE (default cpu), THREADS
# (default 1), CONV_INIT (kaiming, the default, or pytorch: the convolutions' initialisation;
# pytorch adds "-pytorch-init" to the folders' names), LOSS_MINING (pairs, the default, or
# triplets: form L over the reference's triplet pairs, each once per triplet; triplets adds
# "-triplet-loss").
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [[ $# -ne 6 ]]; then
    echo "usage: $0 RECORD WORK LAYOUT PROTOCOL EPOCHS \"SEEDS\"" >&2
    exit 2
fi
record="$1" work="$2" layout="$3" protocol="$4" epochs="$5" seeds="$6"
probdml="${PROBDML:-$root/target/release/probdml}"
conv_init="${CONV_INIT:-kaiming}"
suffix=""
loss_mining="${LOSS_MINING:-pairs}"
if [[ "$conv_init" != kaiming ]]; then suffix="-$conv_init-init"; fi
if [[ "$loss_mining" != pairs ]]; then suffix="$suffix-triplet-loss"; fi
mkdir -p "$record" "$work"
for seed in $seeds; do
    name="$layout-$protocol$suffix-seed$seed"
    "$probdml" train --method mc-dropout --dropout-layout "$layout" --protocol "$protocol" \
        --conv-init "$conv_init" --loss-mining "$loss_mining" \
        --dataset fashion-mnist --epochs "$epochs" --latent-dim 3 --seed "$seed" \
        --device "${DEVICE:-cpu}" --threads "${THREADS:-1}" --out "$work/$name" --force
    mkdir -p "$record/$name"
    for file in config.json metrics.json curves.json state.json summary.json; do
        if [[ -f "$work/$name/$file" ]]; then cp "$work/$name/$file" "$record/$name/"; fi
    done
done
