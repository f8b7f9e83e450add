#!/usr/bin/env bash
# The post-hoc OOD-detection experiment of book chapter 09 over seeds: the rows of lam-posthoc-ood.sh, each as mean ± sample std
# over the given seeds (through `probdml summarise`).
#
#   bash scripts/experiments/lam-posthoc-ood-seeds.sh <seed-root>...
#
# Each <seed-root> holds one seed's runs under these names:
#   det20, refdet20             deterministic runs, our protocol and the reference protocol
#   online20, online-ref20      online LAM, our protocol and the reference protocol
#   posthoc-exp20               `lam-posthoc-ood.sh det20 online20 posthoc-exp20 online-ref20`
#   posthoc-exp-refdet20        the same on refdet20
# e.g. for seed k (from the repository root, `P=target/release/probdml`, `R=<seed-root>`):
#   $P train --method deterministic [--protocol reference] --seed k --epochs 20 --out $R/[ref]det20
#   $P train --method lam-online [--protocol reference] --seed k --epochs 20 --out $R/online[-ref]20
#   bash scripts/experiments/lam-posthoc-ood.sh $R/det20 $R/online20 $R/posthoc-exp20 $R/online-ref20
#   bash scripts/experiments/lam-posthoc-ood.sh $R/refdet20 $R/online20 $R/posthoc-exp-refdet20 $R/online-ref20
# Environment: PROBDML (default target/release/probdml).
set -euo pipefail
if [[ $# -lt 1 ]]; then
    echo "usage: $0 <seed-root>..." >&2
    exit 2
fi
probdml="${PROBDML:-target/release/probdml}"
[[ -x "$probdml" ]] || { echo "error: $probdml not built (bash scripts/cargo-tch.sh build --release --bin probdml)" >&2; exit 1; }
args=()
row() { # label, run folder relative to each seed root
    local label="$1" sub="$2" runs=() root
    shift 2
    for root in "${roots[@]}"; do
        runs+=("$root/$sub")
    done
    args+=(--row "$label=$(IFS=,; echo "${runs[*]}")")
}
roots=("$@")
row "ours-trained: post-hoc, our protocol" posthoc-exp20/posthoc-ours
row "ours-trained: post-hoc, reference protocol" posthoc-exp20/posthoc-reference
row "ours-trained: post-hoc, H ≡ 0" posthoc-exp20/posthoc-h0
row "ours-trained: ‖x‖ alone" posthoc-exp20/feature-norm
row "ours-trained: post-hoc, marglik prior" posthoc-exp20/posthoc-marglik
row "ours-trained: post-hoc, our protocol, tr Cov(y)" posthoc-exp20/output-variance
row "ours-trained: post-hoc, marglik prior, tr Cov(y)" posthoc-exp20/marglik-output-variance
row "reference-trained: our Hessian and vMF score, prior 1" posthoc-exp-refdet20/posthoc-ours
row "reference-trained: post-hoc, reference protocol" posthoc-exp-refdet20/posthoc-reference
row "reference-trained: post-hoc, H ≡ 0" posthoc-exp-refdet20/posthoc-h0
row "reference-trained: ‖x‖ alone" posthoc-exp-refdet20/feature-norm
row "reference-trained: post-hoc, marglik prior" posthoc-exp-refdet20/posthoc-marglik
row "reference-trained: post-hoc, prior 1, tr Cov(y)" posthoc-exp-refdet20/output-variance
row "reference-trained: post-hoc, marglik prior, tr Cov(y)" posthoc-exp-refdet20/marglik-output-variance
row "online, our protocol" online20
row "online, reference protocol" online-ref20
"$probdml" summarise "${args[@]}"
for root in "${roots[@]}"; do
    for exp in posthoc-exp20 posthoc-exp-refdet20; do
        if [[ -f "$root/$exp/posthoc-marglik/posthoc.json" ]]; then
            echo "$root/$exp marglik δ: $(jq -r '.prior_precision' "$root/$exp/posthoc-marglik/posthoc.json")"
        fi
    done
done
