#!/usr/bin/env bash
# Installs libtorch for the `tch` feature: PyPI's torch==2.11.0 wheel (the version tch 0.24.0
# binds) into the project-local, git-ignored virtual environment `.venv/`. Idempotent: does
# nothing when `.venv` already holds that version.
#
# Why PyPI and not a libtorch zip: the machines reach only the package registries. The Linux
# wheel on PyPI is the CUDA build; its libtorch_cpu.so itself needs libcudart/libcupti, which
# come from the nvidia-* / cuda-toolkit wheels it depends on, so the full dependency set is
# installed (about 4.6 GB) and found at run time through the wheel's own $ORIGIN rpaths.
#
# The build then uses LIBTORCH_USE_PYTORCH=1 with `.venv/bin` first on PATH (set by
# scripts/torch-env.sh); build.rs adds an rpath to torch/lib so binaries and tests run
# without LD_LIBRARY_PATH.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
want="2.11.0"

have="$("$venv/bin/python" -c 'import torch, sys; sys.stdout.write(torch.__version__.split("+")[0])' 2>/dev/null || true)"
if [[ "$have" == "$want" ]]; then
    exit 0
fi

# The install needs about 4.6 GB in .venv plus the downloaded wheels (about 3 GB) while pip
# unpacks them. `--no-cache-dir` keeps pip from also copying those wheels into ~/.cache/pip,
# which would double the peak; the check below turns a half-finished install ending in pip's
# "[Errno 28] No space left on device" into one clear message before anything is written.
need_gb=8
free_kb() { df -Pk "$1" | awk 'NR == 2 { print $4 }'; }
tmp="${TMPDIR:-/tmp}"
for where in "$root" "$tmp"; do
    have_kb="$(free_kb "$where")"
    if (( have_kb < need_gb * 1024 * 1024 )); then
        echo "setup-torch: $where has $((have_kb / 1024 / 1024)) GB free; installing torch==$want needs about $need_gb GB (wheels in \$TMPDIR while .venv is written). Free space or point TMPDIR elsewhere." >&2
        exit 1
    fi
done
bash "$root/scripts/setup-venv.sh"
echo "setup-torch: installing torch==$want from PyPI into $venv (one time, ~4.6 GB)" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-cache-dir "torch==$want"
"$venv/bin/python" -c "import torch; print('setup-torch: torch', torch.__version__, 'at', torch.__file__)" >&2
