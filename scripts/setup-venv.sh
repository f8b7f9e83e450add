#!/usr/bin/env bash
# The project's virtual environment `.venv/` (git-ignored): made with `${PYTHON:-python3} -m
# venv` when `.venv/bin/python` is missing or does not run, with a current pip. Shared by
# scripts/setup-python.sh (the Python package, which does not need torch) and
# scripts/setup-torch.sh (libtorch for the training crate, which installs torch into it).
# Idempotent: does nothing when the environment's Python runs.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"

if "$venv/bin/python" -c 'import sys' >/dev/null 2>&1; then
    exit 0
fi
py="${PYTHON:-python3}"
if ! command -v "$py" >/dev/null 2>&1; then
    echo "setup-venv: $py not found; install CPython >= 3.10 with venv and pip" >&2
    exit 1
fi
echo "setup-venv: creating $venv with $py" >&2
rm -rf "$venv"
"$py" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-cache-dir --upgrade pip
