#!/usr/bin/env bash
# Regenerate scripts/reference/special_reference.csv (see scripts/reference/README.md).
#
# Usage (from anywhere):  scripts/reference/generate.sh [--jobs N] [--out PATH]
#
# Uses python3 directly when it already has mpmath 1.3.0; otherwise creates (once) a
# virtual environment at .venv-reference/ in the repository root and installs
# mpmath==1.3.0 into it.  Set PROBDML_REFERENCE_VENV=1 to always use the venv.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$root/.venv-reference"
python="${PYTHON:-python3}"

has_mpmath() {
    "$1" -c 'import mpmath, sys; sys.exit(0 if mpmath.__version__ == "1.3.0" else 1)' \
        >/dev/null 2>&1
}

if [[ -x "$venv/bin/python" ]] && has_mpmath "$venv/bin/python"; then
    py="$venv/bin/python"
elif [[ "${PROBDML_REFERENCE_VENV:-0}" != "1" ]] && has_mpmath "$python"; then
    py="$python"
else
    echo "creating $venv with mpmath==1.3.0" >&2
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet mpmath==1.3.0
    py="$venv/bin/python"
fi

# Pure-Python mpmath backend everywhere, so gmpy2 being present or not cannot matter.
export MPMATH_NOGMPY=1
exec "$py" "$here/gen_special_table.py" "$@"
