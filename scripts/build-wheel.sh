#!/usr/bin/env bash
# Builds the wheel to hand to other Linux machines, and tests it in a fresh virtual environment:
#
#   dist/probdml-<version>-cp310-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl
#
# one abi3 wheel for every CPython >= 3.10 on x86-64 Linux with glibc >= 2.17 (CentOS 7, RHEL 8
# and 9, Debian 10 and later, Ubuntu 18.04 and later). The wheel of scripts/setup-python.sh is
# linked against the building machine's glibc and tagged with its version (manylinux_2_35 on
# Debian 12's toolchain), so it does not install on older systems; this one is linked by zig
# (`maturin build --zig`, zig from PyPI's `ziglang`) against glibc 2.17's symbols, and maturin
# refuses to tag it manylinux2014 if the library needs anything newer.
#
# The kernels are chosen at run time, as in every build of the crate: RUSTFLAGS naming
# target-cpu are refused. maturin and zig live in their own environment, .venv-wheel/
# (git-ignored), created once with the pinned versions below.
#
# After the build, python/tests/test_wheel.py installs the wheel with numpy (and nothing else)
# into a fresh virtual environment and runs the README's Python example there.
#
# Usage: bash scripts/build-wheel.sh   (a full release build of the extension: about 3 minutes
#        of two cores, 6 minutes of CPU; zig is a 90 MB download the first time)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv="$root/.venv-wheel"
PINNED=(maturin==1.16.0 ziglang==0.14.1)

for flags in "${RUSTFLAGS:-}" "${CARGO_ENCODED_RUSTFLAGS:-}"; do
    if [[ "$flags" == *target-cpu* ]]; then
        echo "build-wheel: RUSTFLAGS name target-cpu ($flags): the wheel must run on any x86-64; unset it" >&2
        exit 1
    fi
done

if [[ ! -x "$venv/bin/python" ]]; then
    python3 -m venv "$venv"
fi
missing=()
installed="$("$venv/bin/python" -m pip list --format=freeze --disable-pip-version-check 2>/dev/null | tr '[:upper:]' '[:lower:]')"
for pin in "${PINNED[@]}"; do
    grep -qx "$pin" <<<"$installed" || missing+=("$pin")
done
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "build-wheel: installing ${missing[*]} into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${missing[@]}"
fi

rm -rf dist
echo "build-wheel: maturin build --release --zig --compatibility manylinux2014" >&2
# maturin runs zig as `python -m ziglang` from the environment on PATH.
VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" "$venv/bin/maturin" build --release --locked --quiet \
    --zig --compatibility manylinux2014 --interpreter "$venv/bin/python" --out dist
wheel=(dist/probdml-*.whl)
echo "build-wheel: ${wheel[0]}" >&2

# The test reads the wheel named here instead of setup-python.sh's; it needs pytest and numpy,
# which .venv/ has (scripts/setup-python.sh --no-build installs them without building).
bash scripts/setup-python.sh --no-build
PROBDML_WHEEL="$root/${wheel[0]}" "$root/.venv/bin/python" -m pytest -q -p no:cacheprovider \
    python/tests/test_wheel.py -k fresh_venv
