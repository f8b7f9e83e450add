#!/usr/bin/env bash
# The post-hoc OOD-detection experiment of book chapter 09 (our protocol against the LAM
# reference code's): every post-hoc row from ONE deterministic
# checkpoint, the online rows from given runs, in one table (AUROC, AUPRC, AUSC, ECE, mAP@k).
#
#   bash scripts/experiments/lam-posthoc-ood.sh <det-checkpoint> <online-ours-run> <out> \
#        [online-reference-run]
#
# Rows (each a `probdml posthoc --checkpoint <det> --out <out>/<row>` run, resumable: a row whose
# metrics.json exists is not recomputed):
#   posthoc-ours        chapter 09's post-hoc LAM (prior = fan-in F, 16 samples, vMF 1/κ̂ score)
#   posthoc-reference   the reference protocol (prior 1, shuffled pass, triplet-mined Hessian,
#                       100 samples, Σ_d std_d score)
#   posthoc-h0          H ≡ 0 under the reference protocol: the isotropic N(θ*, I) posterior
#   feature-norm        ‖x‖ of the backbone alone as the OOD score (no posterior)
#   posthoc-marglik     our protocol with the prior precision maximising the Laplace evidence
#   output-variance     posthoc-ours scored by tr Cov(y), the posterior's spread of the raw
#                       output before normalisation (same samples, so same ECE and retrieval)
#   marglik-output-variance   posthoc-marglik scored the same way
#   online-ours / online-reference   the metrics.json of the given training runs
#
# Environment: PROBDML (default target/release/probdml), extra flags for every posthoc run in
# POSTHOC_FLAGS (e.g. "--threads 2", or "--data /path" for another data folder), rows not to
# compute in SKIP_ROWS (e.g. "posthoc-ours": the table then says the row has no metrics.json).
set -euo pipefail
if [[ $# -lt 3 || $# -gt 4 ]]; then
    echo "usage: $0 <det-checkpoint> <online-ours-run> <out> [online-reference-run]" >&2
    exit 2
fi
det="$1"; online="$2"; out="$3"; online_ref="${4:-}"
probdml="${PROBDML:-target/release/probdml}"
read -r -a extra <<< "${POSTHOC_FLAGS:-}"
[[ -x "$probdml" ]] || { echo "error: $probdml not built (bash scripts/cargo-tch.sh build --release --bin probdml)" >&2; exit 1; }
[[ -f "$det/config.json" ]] || { echo "error: $det holds no checkpoint (config.json)" >&2; exit 1; }
command -v jq >/dev/null || { echo "error: jq is needed to assemble the table" >&2; exit 1; }
mkdir -p "$out"

row() { # name, flags...
    local name="$1"; shift
    if [[ " ${SKIP_ROWS:-} " == *" $name "* ]]; then
        echo "== $name: skipped (SKIP_ROWS)" >&2
        return
    fi
    if [[ -f "$out/$name/metrics.json" ]]; then
        echo "== $name: already done ($out/$name)" >&2
        return
    fi
    echo "== $name: probdml posthoc $*" >&2
    "$probdml" posthoc --checkpoint "$det" --out "$out/$name" --force "$@" "${extra[@]}" > "$out/$name.log" 2>&1 \
        || { echo "error: row $name failed, see $out/$name.log" >&2; tail -5 "$out/$name.log" >&2; exit 1; }
}

# The rows without a Hessian pass first (they take an evaluation only).
row posthoc-h0 --protocol reference --hessian zero
row feature-norm --hessian zero --score feature-norm
row posthoc-reference --protocol reference
row posthoc-marglik --prior-precision marglik
row posthoc-ours
row output-variance --score output-variance
row marglik-output-variance --prior-precision marglik --score output-variance

# The table: one line per row, "—" where a metric does not exist (ECE needs samples).
fmt='def f: if . == null then "—" else (. * 1000 | round / 1000 | tostring) end;'
table="$out/table.md"
{
    echo "| row | AUROC | AUPRC | AUSC | ECE | mAP@1 | mAP@5 | mAP@10 | prior δ | samples | run |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    line() { # name, run folder
        local name="$1" dir="$2"
        [[ -f "$dir/metrics.json" ]] || { echo "| $name | (no metrics.json in $dir) |||||||||"; return; }
        local prior="—"
        [[ -f "$dir/config.json" ]] && prior="$(jq -r '.laplace.prior_precision // .prior_precision' "$dir/config.json")"
        jq -r --arg name "$name" --arg prior "$prior" --arg dir "$dir" "$fmt"'
            "| \($name) | \(.auroc|f) | \(.auprc|f) | \(.ausc|f) | \(.ece|f) | \(.map_at_1|f) | \(.map_at_5|f) | \(.map_at_10|f) | \($prior) | \(.samples) | \($dir) |"' \
            "$dir/metrics.json"
    }
    line "post-hoc, our protocol" "$out/posthoc-ours"
    line "post-hoc, reference protocol" "$out/posthoc-reference"
    line "post-hoc, H ≡ 0 (N(θ*, I))" "$out/posthoc-h0"
    line "‖x‖ alone" "$out/feature-norm"
    line "post-hoc, marglik prior" "$out/posthoc-marglik"
    line "post-hoc, our protocol, tr Cov(y) score" "$out/output-variance"
    line "post-hoc, marglik prior, tr Cov(y) score" "$out/marglik-output-variance"
    line "online, our protocol" "$online"
    [[ -n "$online_ref" ]] && line "online, reference protocol" "$online_ref"
    if [[ -f "$out/posthoc-marglik/posthoc.json" ]]; then
        echo
        echo "marglik: $(jq -c '{prior_precision, log_evidence_minus_fit, zero_curvature_entries, parameters}' "$out/posthoc-marglik/posthoc.json")"
    fi
} > "$table"
cat "$table"
