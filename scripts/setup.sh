#!/usr/bin/env bash
# Prepares a fresh machine for `bash scripts/test.sh`. Idempotent: safe to run any number of times.
#
# The Rust toolchain (cargo, rustc >= the `rust-version` in Cargo.toml) is expected to be
# installed already. Nothing else is needed by the tests yet: the crate is pure Rust and its
# dependencies come from crates.io through Cargo. Later steps (for example the reference-value
# generators' Python environment, or libtorch for the "tch" feature) go here, each guarded so
# that it does nothing when already done.
#
# This script does not build the docs site: that is `bash scripts/build-docs.sh`.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if ! command -v cargo >/dev/null 2>&1; then
    echo "setup: cargo not found; install Rust (https://rustup.rs) first" >&2
    exit 1
fi

# Fetch the locked dependencies once, so that a failing network shows up here with a clear
# message rather than in the middle of the test build. A no-op when they are already cached.
cargo fetch --locked --quiet
