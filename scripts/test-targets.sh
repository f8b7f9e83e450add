#!/usr/bin/env bash
# Writes the `[[test]]` targets of Cargo.toml: one per file of tests/*.rs and proofs/*.rs, named
# after the file's stem, between the two marker lines
#
#   # BEGIN generated [[test]] targets (bash scripts/test-targets.sh)
#   # END generated [[test]] targets
#
# `bash scripts/test-targets.sh` rewrites that block; `bash scripts/test-targets.sh --check`
# changes nothing and exits 1, printing the difference, when the block is not what the script
# writes (tests/registry_coverage.rs runs it, so a proof without a target fails `cargo test`).
#
# Cargo.toml sets `autotests = false`: without a target a proof would silently never run.
#
# The block keeps its order (cargo's own order of the test binaries does not depend on it);
# a target for a new file goes at its end, a target whose file is gone leaves it. A `[[test]]`
# written by hand outside the block (after its end, say) is left alone, and the block holds no
# second target for its file.
#
# A file another target includes with `#[path = "…"]` (shared test data, a reference reader) is a
# module of that target, not a target itself.
#
# The features a target needs follow one rule: tests/train_*.rs need "tch" (libtorch); the
# table `features_of` below lists the exceptions.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

begin='# BEGIN generated [[test]] targets (bash scripts/test-targets.sh)'
end='# END generated [[test]] targets'
manifest=Cargo.toml

check=false
case "${1:-}" in
    --check) check=true ;;
    "") ;;
    *) echo "usage: bash scripts/test-targets.sh [--check]" >&2; exit 2 ;;
esac

# The required features of a test target, from its path.
features_of() {
    case "$1" in
        tests/train_evaluate.rs | tests/results_tables.rs) echo report ;;
        tests/train_distributed.rs | tests/distributed_group.rs) echo distributed ;;
        tests/train_*.rs) echo tch ;;
        *) echo "" ;;
    esac
}

[[ "$(grep -cxF "$begin" "$manifest")" == 1 && "$(grep -cxF "$end" "$manifest")" == 1 ]] || {
    echo "test-targets: $manifest must hold each marker line exactly once:" >&2
    echo "  $begin" >&2
    echo "  $end" >&2
    exit 1
}

# Paths of the [[test]] tables inside the block (in order), and outside it.
paths_of_tests() { # inside: 1 for the block, 0 for the rest of the file
    awk -v begin="$begin" -v end="$end" -v inside="$1" '
        $0 == begin { in_block = 1; next }
        $0 == end { in_block = 0; next }
        /^\[/ { table = $0 }
        table == "[[test]]" && in_block == inside && /^path *= *"/ {
            sub(/^path *= *"/, ""); sub(/".*$/, ""); print
        }' "$manifest"
}

mapfile -t in_block < <(paths_of_tests 1)
mapfile -t outside < <(paths_of_tests 0)
# Files included by another target through `#[path = "<file>"]`, relative to the includer.
mapfile -t modules < <(
    grep -o '^#\[path = "[^"/]*\.rs"\]' tests/*.rs proofs/*.rs \
        | sed -E 's|^([^:]*)/[^/:]*:#\[path = "([^"]*)"\]$|\1/\2|' | LC_ALL=C sort -u
)
mapfile -t files < <(LC_ALL=C ls -1 tests/*.rs proofs/*.rs | grep -vxF -f <(printf '%s\n' "${modules[@]}"))

declare -A present=() handwritten=() kept=()
for f in "${files[@]}"; do present[$f]=1; done
for p in "${outside[@]}"; do handwritten[$p]=1; done

order=()
for p in "${in_block[@]}"; do
    if [[ -n "${present[$p]:-}" && -z "${handwritten[$p]:-}" && -z "${kept[$p]:-}" ]]; then
        order+=("$p")
        kept[$p]=1
    fi
done
for f in "${files[@]}"; do
    if [[ -z "${kept[$f]:-}" && -z "${handwritten[$f]:-}" ]]; then
        order+=("$f")
        kept[$f]=1
    fi
done

block="$(mktemp)"
new="$(mktemp)"
trap 'rm -f "$block" "$new"' EXIT
{
    for p in "${order[@]}"; do
        stem="$(basename "$p" .rs)"
        printf '[[test]]\nname = "%s"\npath = "%s"\n' "$stem" "$p"
        features="$(features_of "$p")"
        [[ -z "$features" ]] || printf 'required-features = ["%s"]\n' "$features"
        printf '\n'
    done
} >"$block"
awk -v begin="$begin" -v end="$end" -v block="$block" '
    $0 == begin { print; print ""; while ((getline line < block) > 0) print line; skip = 1; next }
    $0 == end { skip = 0 }
    !skip' "$manifest" >"$new"

if $check; then
    if cmp -s "$manifest" "$new"; then
        exit 0
    fi
    declare -A declared=()
    for p in "${in_block[@]}" "${outside[@]}"; do declared[$p]=1; done
    for f in "${files[@]}"; do
        [[ -n "${declared[$f]:-}" ]] || echo "test-targets: $f has no [[test]] target in $manifest" >&2
    done
    echo "test-targets: the generated block of $manifest is stale; run \`bash scripts/test-targets.sh\`:" >&2
    diff -u "$manifest" "$new" >&2 || true
    exit 1
fi
cp "$new" "$manifest"
