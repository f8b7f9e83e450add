#!/usr/bin/env bash
# Prepares a fresh machine for `bash scripts/test.sh`. Idempotent: safe to run any number of times.
#
# The Rust toolchain (cargo, rustc >= the `rust-version` in Cargo.toml) is expected to be
# installed already. Nothing else is needed by the tests yet: the crate is pure Rust and its
# dependencies come from crates.io through Cargo. Later steps (for example the reference-value
# generators' Python environment, or libtorch for the "tch" feature) go here, each guarded so
# that it does nothing when already done.
#
# This script does not build the docs site: that is `bash scripts/build-docs.sh`. It does install
# two Debian packages with apt-get when they are missing (CI runs as root; elsewhere run it with
# sudo or install them yourself): `chromium`, the browser the docs check opens the site in, and
# `jq`.
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

# Debian packages the tests use, installed only when missing: chromium (the docs check; without
# it `scripts/test.sh` skips that check and says so) and jq (scripts/experiments/*.sh assemble
# their tables with it; crates/probdml-train/tests/train_protocol.rs runs one).
missing=()
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
command -v jq >/dev/null 2>&1 || missing+=(jq)
if (( ${#missing[@]} )); then
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
        echo "setup: installing Debian's ${missing[*]}" >&2
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "setup: ${missing[*]} missing and apt-get unavailable (not root?): install them;" \
            "without chromium scripts/test.sh skips the docs check" >&2
    fi
fi
