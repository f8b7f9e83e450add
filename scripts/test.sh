#!/usr/bin/env bash
# The test command: every check the crate has.
#
#   1. `cargo test --release` runs the library's unit tests, every [[test]] target (tests/ and
#      the executable proofs in proofs/) and all doctests — including the book's chapters,
#      which src/lib.rs includes as doctests. ([profile.test] has opt-level = 3 already;
#      --release gives the doctests the same optimised library.)
#   2. `cargo build --release --benches --examples` checks that the criterion benches and the
#      examples compile. Cargo cannot combine --doc with other target selectors, and
#      `--all-targets` would leave the doctests out, hence two invocations.
#
# `--no-fail-fast` lets every test target run and report, and the build of benches and examples
# runs even when a test failed; the script exits non-zero if either step failed.
#
# Any extra arguments go to `cargo test`, e.g. `bash scripts/test.sh -- --include-ignored` for
# the long "torture" runs.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash scripts/setup.sh

status=0
cargo test --locked --release --no-fail-fast "$@" || status=$?
cargo build --locked --release --benches --examples || status=$?
exit "$status"
