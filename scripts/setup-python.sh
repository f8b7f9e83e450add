#!/usr/bin/env bash
# Builds the Python package `probdml` (the extension probdml._probdml from probdml-py/ plus the
# pure-Python layer in python/probdml/) and installs it, with what its tests and its type check
# (mypy, for scripts/check-python-types.sh) need, into the project's virtual environment `.venv/` (made by scripts/setup-venv.sh when missing; torch is not
# installed: scripts/setup-torch.sh adds it).
#
# Idempotent and cheap when nothing changed:
#   * the pinned packages below are installed only when `pip` reports a different version;
#   * the wheel is rebuilt (`maturin build --release`) and reinstalled only when the sha256 of
#     its sources (the maths crates under crates/, probdml-py/, python/probdml/, the manifests)
#     differs from
#     the one recorded in .venv/probdml-python.sha256 at the last install.
#
# The wheel is built for x86-64 in general, never for this machine's CPU: RUSTFLAGS or
# CARGO_ENCODED_RUSTFLAGS naming `target-cpu` are refused (a wheel built with
# target-cpu=native stops with SIGILL on an older CPU); the AVX2/FMA kernels are chosen at run
# time (probdml::instruction_set). The wheel is left in target/wheels/ for
# python/tests/test_wheel.py.
#
# Usage: bash scripts/setup-python.sh [--no-build]   (--no-build: the pinned packages only; first run: ~1 min of downloads and ~2 min of build on a
# 2-core CPU; then under 2 s when nothing changed)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv="$root/.venv"
PINNED=(maturin==1.16.0 numpy==2.2.6 scipy==1.15.3 scikit-learn==1.6.1 pytest==8.4.2 hypothesis==6.136.6 mpmath==1.3.0 mypy==1.18.2)

for flags in "${RUSTFLAGS:-}" "${CARGO_ENCODED_RUSTFLAGS:-}"; do
    if [[ "$flags" == *target-cpu* ]]; then
        echo "setup-python: RUSTFLAGS name target-cpu ($flags): the wheel must run on any x86-64; unset it" >&2
        exit 1
    fi
done

# The package and its tests need no torch: `probdml.torch` and its tests (skipped without it)
# use the torch that scripts/setup-torch.sh installs for the training crate.
bash scripts/setup-venv.sh
py="$venv/bin/python"

missing=()
installed="$("$py" -m pip list --format=freeze --disable-pip-version-check 2>/dev/null | tr '[:upper:]' '[:lower:]')"
for pin in "${PINNED[@]}"; do
    grep -qx "$(tr '[:upper:]' '[:lower:]' <<<"$pin")" <<<"$installed" || missing+=("$pin")
done
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "setup-python: installing ${missing[*]} into $venv" >&2
    "$py" -m pip install --quiet --disable-pip-version-check "${missing[@]}"
fi

sources_hash() {
    find crates/probdml-core/src crates/probdml-reference/src crates/probdml/src probdml-py/src python/probdml -type f \( -name '*.rs' -o -name '*.py' -o -name '*.pyi' -o -name 'py.typed' \) -print0 \
        | sort -z | xargs -0 sha256sum
    sha256sum Cargo.toml Cargo.lock crates/probdml-core/Cargo.toml crates/probdml-reference/Cargo.toml \
        crates/probdml/Cargo.toml crates/workspace-hack/Cargo.toml probdml-py/Cargo.toml pyproject.toml
    # A wheel built without the lint pass (scripts/test.sh sets clippy-driver as the compiler of
    # the workspace's crates) is rebuilt with it, so that the test command lints the extension.
    echo "compiler wrapper: ${RUSTC_WORKSPACE_WRAPPER:-none}"
}
if [[ "${1:-}" == "--no-build" ]]; then
    exit 0
fi
want="$(sources_hash | sha256sum | cut -d' ' -f1)"
stamp="$venv/probdml-python.sha256"
wheels=(target/wheels/probdml-*.whl)
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" && -f "${wheels[0]}" ]] \
    && "$py" -c 'import probdml._probdml' >/dev/null 2>&1; then
    exit 0
fi

echo "setup-python: building the probdml wheel (maturin build --release)" >&2
rm -rf target/wheels
# maturin finds the interpreter for pyo3's build configuration in the venv; abi3-py310 makes one
# wheel for every CPython >= 3.10.
VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" "$venv/bin/maturin" build --release --locked --quiet \
    --interpreter "$py" --out target/wheels
wheel=(target/wheels/probdml-*.whl)
"$py" -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "${wheel[0]}"
echo "$want" >"$stamp"
"$py" -c 'import probdml; print("setup-python: probdml", probdml.__version__, "at", probdml.__file__)' >&2
