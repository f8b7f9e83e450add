#!/usr/bin/env bash
# The main command: prints a table of worked values of the vMF normaliser and the κ estimators,
# fast against exact (examples/worked_values.rs).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

cargo run --locked --release --example worked_values
