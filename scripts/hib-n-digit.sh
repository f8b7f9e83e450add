#!/usr/bin/env bash
# HIB's experiment (Oh et al. 2019, §4; book chapter 10, "HIB Tables 1 and 2"): trains point
# embeddings (deterministic), HIB MoG-1 and MoG-2 on N-digit MNIST for each seed, and copies each
# run's config.json, metrics.json and hib_tasks.json, and its hib_embedding.json and curves.json
# where the binary writes them, into RECORD/<method>-n<N>-d<D>-seed<S>/ (the checkpoints stay in
# WORK). Then `probdml hib-tables RECORD/*` prints the tables.
#
#   bash scripts/hib-n-digit.sh RECORD WORK DIGITS DIM TRAIN TEST EPOCHS "SEEDS" [THREADS]
#
# e.g. the paper's scale for N = 2, D = 2: ... 2 2 100000 10000 EPOCHS "0 1 2". The binary is
# target/release/probdml (`bash scripts/cargo-tch.sh build --release --bin probdml`).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
record="$1" work="$2" digits="$3" dim="$4" train="$5" test="$6" epochs="$7" seeds="$8"
threads="${9:-2}"
probdml="$root/target/release/probdml"
mkdir -p "$record" "$work"
for seed in $seeds; do
    for method in point mog1 mog2; do
        case "$method" in
            point) flags=(--method deterministic) ;;
            mog1) flags=(--method hib --hib-components 1) ;;
            mog2) flags=(--method hib --hib-components 2) ;;
        esac
        name="$method-n$digits-d$dim-seed$seed"
        "$probdml" train "${flags[@]}" --dataset "n-digit-mnist-$digits" \
            --train-limit "$train" --test-limit "$test" --latent-dim "$dim" \
            --epochs "$epochs" --batch 128 --eval-samples 8 --seed "$seed" \
            --device cpu --threads "$threads" --out "$work/$name" --force
        mkdir -p "$record/$name"
        cp "$work/$name/config.json" "$work/$name/metrics.json" "$work/$name/hib_tasks.json" \
            "$record/$name/"
        # The figures' files, absent from runs of a binary older than them.
        for file in hib_embedding.json curves.json; do
            if [[ -f "$work/$name/$file" ]]; then
                cp "$work/$name/$file" "$record/$name/"
            fi
        done
    done
done
