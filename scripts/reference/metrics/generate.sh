#!/usr/bin/env bash
# Regenerate scripts/reference/metrics/metrics_reference.tsv and scripts/reference/metrics/docs_values.txt
# (see README.md beside this script).
#
# Usage (from anywhere):  scripts/reference/metrics/generate.sh [--out PATH] [--docs PATH]
#
# Creates (once) a virtual environment at .venv-metrics/ in the repository root — or wherever
# PROBDML_METRICS_VENV points — and pip-installs the pinned versions below into it; the
# generator always runs in that venv, never in the system Python.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
venv="${PROBDML_METRICS_VENV:-$root/.venv-metrics}"
python="${PYTHON:-python3}"
pins=(scikit-learn==1.7.2 scipy==1.16.3 numpy==2.3.5)

has_pins() {
    "$1" - <<'PY' >/dev/null 2>&1
import sys, sklearn, scipy, numpy
ok = (sklearn.__version__, scipy.__version__, numpy.__version__) == ("1.7.2", "1.16.3", "2.3.5")
sys.exit(0 if ok else 1)
PY
}

if ! { [[ -x "$venv/bin/python" ]] && has_pins "$venv/bin/python"; }; then
    echo "creating $venv with ${pins[*]}" >&2
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet "${pins[@]}"
fi

exec "$venv/bin/python" "$here/gen_metrics_reference.py" "$@"
