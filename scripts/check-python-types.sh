#!/usr/bin/env bash
# The Python package's types, checked two ways (after scripts/setup-python.sh installed the
# package and the pinned mypy into .venv/):
#
#   1. `mypy --strict` over the package's sources (python/probdml, the stubs of the extension in
#      python/probdml/_probdml/ included) and python/tests/test_types.py, whose `assert_type`s
#      state what each kind of call returns (pytest checks the same calls at run time). All of
#      --strict's flags, none turned off. probdml/torch.py is checked when torch is installed
#      (scripts/setup-torch.sh; CI has it) and left out, with a note, when it is not.
#   2. `python -m mypy.stubtest probdml._probdml`: the stubs against the installed extension,
#      each submodule's functions by their run-time signatures (names, order, defaults) and
#      every public name both ways. MYPYPATH=python makes it read the stubs of the working tree
#      (the ones the wheel ships, as setup-python.sh rebuilds it when they change).
#
# mypy's cache lives in target/mypy-cache.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
py="$root/.venv/bin/python"
cache="${CARGO_TARGET_DIR:-$root/target}/mypy-cache"

exclude=()
if ! "$py" -c 'import torch' >/dev/null 2>&1; then
    echo "check-python-types: torch is not installed: python/probdml/torch.py is not checked (scripts/setup-torch.sh installs it)" >&2
    exclude=(--exclude 'probdml/torch\.py$')
fi
status=0
"$py" -m mypy --strict --cache-dir "$cache" ${exclude[@]+"${exclude[@]}"} python/probdml python/tests/test_types.py || status=$?
# Run from the root, where `import probdml` finds the installed package (python/ is not on the
# path): the run-time side is the extension the wheel installed. stubtest checks without a cache.
MYPYPATH="$root/python" "$py" -m mypy.stubtest probdml._probdml || status=$?
exit "$status"
