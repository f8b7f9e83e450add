#!/usr/bin/env bash
# Writes the module lists of the proofs package's two test binaries: `proofs/main.rs` (every
# file of proofs/) and `tests/main.rs` (every file of tests/), one module per file, between the
# two marker lines of each
#
#   // BEGIN generated modules (bash scripts/test-targets.sh)
#   // END generated modules
#
# A file that another file of its folder includes with `#[path = "<file>"]`, or that the
# hand-written part of main.rs loads once for every file (shared reference data, support code),
# is not listed. Each file is a module with
# `#[path]`, so that its own `mod support;` still resolves beside it, as it did when every file
# was a binary of its own.
#
# `bash scripts/test-targets.sh` rewrites the lists; `bash scripts/test-targets.sh --check`
# changes nothing and exits 1, printing the difference, when a list is not what the script
# writes (tests/registry_coverage.rs runs it, so a proof left out of its binary fails
# `cargo test`).
#
# Why two binaries and not one per file: each test binary links the whole maths library and its
# dependencies; 60 binaries spent most of the first `cargo test` linking. Cargo.toml sets
# `autotests = false` and declares the two.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

begin='// BEGIN generated modules (bash scripts/test-targets.sh)'
end='// END generated modules'

check=false
case "${1:-}" in
    --check) check=true ;;
    "") ;;
    *) echo "usage: bash scripts/test-targets.sh [--check]" >&2; exit 2 ;;
esac

status=0
for dir in proofs tests; do
    main="$dir/main.rs"
    [[ "$(grep -cxF "$begin" "$main")" == 1 && "$(grep -cxF "$end" "$main")" == 1 ]] || {
        echo "test-targets: $main must hold each marker line exactly once:" >&2
        echo "  $begin" >&2
        echo "  $end" >&2
        exit 1
    }
    # Files included by another file of the folder, or by the hand-written part of main.rs
    # (code shared by several files, loaded once), through `#[path = "<file>"]`.
    mapfile -t included < <(
        {
            grep -ho '^#\[path = "[^"/]*\.rs"\]' $(ls -1 "$dir"/*.rs | grep -vxF "$main") || true
            awk -v begin="$begin" -v end="$end" '
                $0 == begin { skip = 1 } !skip { print } $0 == end { skip = 0 }' "$main" \
                | grep -o '^#\[path = "[^"/]*\.rs"\]' || true
        } | sed -E 's|^#\[path = "([^"]*)"\]$|'"$dir"'/\1|' | LC_ALL=C sort -u
    )
    mapfile -t files < <(LC_ALL=C ls -1 "$dir"/*.rs | grep -vxF "$main" \
        | grep -vxF -f <(printf '%s\n' "${included[@]:-}"))
    block="$(mktemp)"
    new="$(mktemp)"
    for f in "${files[@]}"; do
        stem="$(basename "$f" .rs)"
        printf '#[path = "%s.rs"]\nmod %s;\n' "$stem" "$stem"
    done >"$block"
    awk -v begin="$begin" -v end="$end" -v block="$block" '
        $0 == begin { print; while ((getline line < block) > 0) print line; skip = 1; next }
        $0 == end { skip = 0 }
        !skip' "$main" >"$new"
    if $check; then
        if ! cmp -s "$main" "$new"; then
            echo "test-targets: the module list of $main is stale; run \`bash scripts/test-targets.sh\`:" >&2
            diff -u "$main" "$new" >&2 || true
            status=1
        fi
    else
        cp "$new" "$main"
    fi
    rm -f "$block" "$new"
done
exit "$status"
