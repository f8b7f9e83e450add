#!/usr/bin/env bash
# Mutation testing of the math modules, one source file at a time (cargo-mutants).
#
#   bash scripts/mutants.sh crates/probdml/src/metrics/ood.rs crates/probdml/src/special/normal_cdf.rs
#   MUTANTS_SHARD=0/40 bash scripts/mutants.sh crates/probdml/src/vmf   (a sample of a whole module)
#
# A PATH is a file of the fast maths under crates/probdml/src/<module>/ or
# crates/probdml/src/<module>.rs, or a module folder crates/probdml/src/<module> (all its files;
# the exact twins, which the proofs use as references, are another crate). The mutants of that
# PATH are tested by the targets that cover its module: the unit tests of `probdml` (`--lib`),
# every [[test]] of the root Cargo.toml (the proofs package) whose path is proofs/<module>_*.rs
# or tests/<module>_*.rs, the proofs that src/registry.rs names for derivations defined in that
# file, and the targets named in
# MUTANTS_EXTRA_TESTS (space-separated; for a file whose proofs live under another module's
# prefix). Targets that need the `tch` feature are left out. Each mutant is built with the `mutants` profile of
# Cargo.toml (`--profile mutants`: release code, but incremental in many codegen units, so that a
# mutant rebuilds the one function it changed, a few seconds, where a release rebuild of the
# library and its test binaries takes about a minute).
#
# The per-file counts (caught / missed / unviable / timeout) and the missed mutants are written
# to proofs/mutants/<module>.md, one section per file, replacing an earlier section for the same
# file; the raw cargo-mutants output stays in target/mutants/<file>/ (not committed).
# Survivors that are equivalent to the original are listed with a reason in
# proofs/EQUIVALENT_MUTANTS.md; every other survivor needs a test that kills it. Each report
# section also states the score with the listed equivalent ones set aside
# (scripts/mutants-equivalents.py, which rewrites that line in every report).
#
# Not part of CI: a module has hundreds of mutants, each a rebuild and a test run (3–20 s on a
# 2-core machine, once the first build of the profile is done). Environment: MUTANTS_JOBS
# (parallel mutants, default 1), MUTANTS_TIMEOUT (seconds per mutant's tests; by default
# cargo-mutants sets it from the unmutated run, at least 20 s), MUTANTS_FILTER (a regex passed to
# `--re`: only the mutants whose names match, e.g. `in auroc`), MUTANTS_SHARD=k/n (a systematic
# sample: every n-th mutant of the file starting at the k-th, `--shard k/n --sharding round-robin`;
# the report then estimates the file's score from that sample), MUTANTS_NO_LIB=1 (leave out the
# library's unit tests), MUTANTS_IN_PLACE=1 (`--in-place`: mutate this tree and reuse its
# target/ instead of building all dependencies again in a scratch copy; do not edit crates/ while
# it runs, and check `git diff crates` afterwards).
set -euo pipefail

cd "$(dirname "$0")/.."

if [ "$#" -eq 0 ]; then
    echo "usage: bash scripts/mutants.sh PATH..." >&2
    exit 2
fi

if ! cargo mutants --version >/dev/null 2>&1; then
    cargo install --locked cargo-mutants
fi

# The modules of the two test binaries (proofs/main.rs, tests/main.rs) as "name path" lines.
test_targets() {
    for dir in proofs tests; do
        sed -nE 's|^#\[path = "([^"]*)\.rs"\]$|\1 '"$dir"'/\1.rs|p' "$dir/main.rs"
    done
}

for file in "$@"; do
    file="${file%/}"
    case "$file" in
        crates/probdml/src/*) ;;
        *)
            echo "not a path of the fast maths (crates/probdml/src/...): $file" >&2
            exit 2
            ;;
    esac
    if [ -d "$file" ]; then
        files=(--file "$file/**/*.rs")
        prefix="$file/"
    elif [ -f "$file" ]; then
        files=(--file "$file")
        prefix="$file"
    else
        echo "not a file or folder: $file" >&2
        exit 2
    fi
    module=$(echo "$file" | sed -E 's#^crates/probdml/src/([^/.]+).*#\1#')
    # Proof files the registry names for derivations whose `file:` is this file (or lies in this
    # folder).
    registry_proofs=$(awk -v f="file: \"$prefix" '
        index($0, f) { hit = 1 }
        hit && /proof: "/ { sub(/.*proof: "/, ""); sub(/".*/, ""); print "proofs/" $0; hit = 0 }
        /^    },/ { hit = 0 }
    ' src/registry.rs)
    # Which tests run: the unit tests of `probdml` under `<module>::` (unless MUTANTS_NO_LIB=1)
    # and the modules of the proofs and tests binaries that cover the module, as libtest name
    # filters. A filter matches by substring, so every other name that contains one (`vmf::` in
    # `nivmf::`, `vmf_density::` in `nivmf_density::`) is skipped.
    args=(--package probdml-proofs --test proofs --test tests)
    wanted=()
    if [ "${MUTANTS_NO_LIB:-0}" != 1 ]; then
        args=(--lib "${args[@]}")
        wanted+=("$module::")
    fi
    all=()
    while read -r name path; do
        all+=("$name::")
        case "$path" in
            proofs/"$module"_*.rs | tests/"$module"_*.rs) wanted+=("$name::") ;;
            *)
                if grep -qxF "$path" <<<"$registry_proofs" \
                    || [[ " ${MUTANTS_EXTRA_TESTS:-} " == *" $name "* ]]; then
                    wanted+=("$name::")
                fi
                ;;
        esac
    done < <(test_targets)
    for m in crates/probdml/src/*; do
        m="$(basename "${m%.rs}")"
        [ "$m" = lib.rs ] || [ "$m" = lib ] || all+=("$m::")
    done
    filters=("${wanted[@]}")
    for name in "${all[@]}"; do
        [[ " ${wanted[*]} " == *" $name "* ]] && continue
        for w in "${wanted[@]}"; do
            if [[ "$name" == *"$w"* ]]; then
                filters+=(--skip "$name")
                break
            fi
        done
    done
    out="target/mutants/$(echo "$file" | tr '/' '_')"
    mkdir -p "$out"
    echo "== $file (module $module): cargo test --profile mutants ${args[*]} -- ${filters[*]}"
    start=$(date +%s)
    # Exit status 2 means "some mutants survived", 3 "some timed out": both are results.
    # Mutants of `probdml`, tested by its unit tests and the proofs package's two binaries (added
    # to every cargo invocation with `--package`: cargo-mutants itself selects the mutated
    # package only), the libtest filters below choosing the tests that cover the module.
    options=("${files[@]}" --package probdml
        --profile mutants --minimum-test-timeout 20 --output "$out")
    [ -z "${MUTANTS_TIMEOUT:-}" ] || options+=(--timeout "$MUTANTS_TIMEOUT")
    [ -z "${MUTANTS_FILTER:-}" ] || options+=(--re "$MUTANTS_FILTER")
    [ -z "${MUTANTS_SHARD:-}" ] || options+=(--shard "$MUTANTS_SHARD" --sharding round-robin)
    # In place there is one tree, so one mutant at a time.
    if [ "${MUTANTS_IN_PLACE:-0}" = 1 ]; then
        options+=(--in-place)
        # An interrupted in-place run can leave a mutant compiled into target/mutants: cargo
        # judges freshness by modification times, and a build that read the mutated file but
        # finished after the file was put back looks newer than the source. (Seen: a killed run
        # left a mutated Debye ratio in the library, and the unmutated baseline failed
        # special_bessel by 10⁻¹¹.) So the crate itself is rebuilt from clean first, about 30 s.
        cargo clean --quiet --profile mutants --package probdml
    else
        options+=(--jobs "${MUTANTS_JOBS:-1}")
    fi
    status=0
    # The targets go to every cargo invocation (-C), so that each mutant builds only these
    # test binaries, not every target of the crate.
    for arg in "${args[@]}"; do options+=("--cargo-arg=$arg"); done
    options+=("--cargo-test-arg=--")
    for arg in "${filters[@]}"; do options+=("--cargo-test-arg=$arg"); done
    # A proptest failure is a caught mutant: no shrinking (it only costs time here). Proptest
    # records the failing seed in proofs/*.proptest-regressions; those records are of mutants,
    # not of the code, so the files are put back afterwards.
    regressions_before=$(git status --porcelain -- '*.proptest-regressions')
    PROPTEST_MAX_SHRINK_ITERS=0 cargo mutants "${options[@]}" || status=$?
    git status --porcelain -- '*.proptest-regressions' | while read -r state path; do
        grep -qF "$path" <<<"$regressions_before" && continue
        if [ "$state" = '??' ]; then rm -f -- "$path"; else git checkout -q -- "$path"; fi
    done
    case "$status" in 0 | 2 | 3) ;; *) exit "$status" ;; esac
    minutes=$(( ($(date +%s) - start + 59) / 60 ))
    dir="$out/mutants.out"
    count() { if [ -s "$dir/$1.txt" ]; then grep -c . "$dir/$1.txt"; else echo 0; fi; }
    caught=$(count caught) missed=$(count missed) unviable=$(count unviable) timeout=$(count timeout)
    viable=$((caught + missed + timeout))
    report="proofs/mutants/$module.md"
    [ -f "$report" ] || printf '# Mutation testing: `crates/probdml/src/%s`\n\nWritten by `scripts/mutants.sh`; one section per source file.\n' "$module" >"$report"
    # Replace this file's section (from its heading to the next one).
    awk -v head="## \`$file\`" '
        $0 == head { skip = 1; next }
        skip && /^## / { skip = 0 }
        !skip { print }
    ' "$report" >"$report.tmp" && mv "$report.tmp" "$report"
    {
        printf '\n## `%s`\n\n' "$file"
        printf 'Command: `%sbash scripts/mutants.sh %s` (cargo-mutants %s, `--profile mutants`), %s, %d min on %s.\n' \
            "${MUTANTS_FILTER:+MUTANTS_FILTER='$MUTANTS_FILTER' }${MUTANTS_SHARD:+MUTANTS_SHARD=$MUTANTS_SHARD }${MUTANTS_NO_LIB:+MUTANTS_NO_LIB=$MUTANTS_NO_LIB }" \
            "$file" "$(cargo mutants --version | awk '{print $2}')" \
            "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- crates || echo '+changes')" \
            "$minutes" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') ($(nproc) CPUs)"
        printf 'Tests: `cargo test --profile mutants %s -- %s`.\n\n' "${args[*]}" "${filters[*]}"
        printf '| caught | missed | unviable | timeout | caught / viable |\n|---|---|---|---|---|\n'
        if [ "$viable" -gt 0 ]; then
            printf '| %d | %d | %d | %d | %d %% |\n' "$caught" "$missed" "$unviable" "$timeout" $((100 * caught / viable))
        else
            printf '| %d | %d | %d | %d | – |\n' "$caught" "$missed" "$unviable" "$timeout"
        fi
        # A timeout counts as not caught. A sample estimates the share for all the file's
        # mutants: the 95 % Wilson score interval of caught / viable.
        if [ -n "${MUTANTS_SHARD:-}" ] && [ "$viable" -gt 0 ]; then
            list=("${files[@]}")
            [ -z "${MUTANTS_FILTER:-}" ] || list+=(--re "$MUTANTS_FILTER")
            total=$(cargo mutants --list --package probdml "${list[@]}" | grep -c .)
            awk -v c="$caught" -v n="$viable" -v t="$total" -v s="$MUTANTS_SHARD" 'BEGIN {
                z = 1.959964; p = c / n; d = 1 + z * z / n
                mid = (p + z * z / (2 * n)) / d; half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
                printf "\nA sample (shard %s, round-robin) of the %d mutants of this path. 95 %% Wilson interval for the caught share of all its viable mutants: %.0f %% to %.0f %%.\n", s, t, 100 * (mid - half), 100 * (mid + half)
            }'
        fi
        for outcome in missed timeout; do
            if [ -s "$dir/$outcome.txt" ]; then
                printf '\n%s:\n\n' "$([ "$outcome" = missed ] && echo Missed || echo 'Timed out')"
                sed 's/^/- `/; s/$/`/' "$dir/$outcome.txt"
            fi
        done
    } >>"$report"
    # The score with the survivors listed in proofs/EQUIVALENT_MUTANTS.md set aside, one line per
    # section of every report.
    python3 scripts/mutants-equivalents.py
    echo "   caught $caught, missed $missed, unviable $unviable, timeout $timeout -> $report"
done
