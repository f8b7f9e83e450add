#!/usr/bin/env bash
# Runs cargo with feature "tch" against the project's libtorch: `bash scripts/cargo-tch.sh build`,
# `bash scripts/cargo-tch.sh test --test train_ggn`, ... (arguments go to cargo; `--features tch`
# is added). Installs torch==2.11.0 into `.venv/` first when missing.
#
# torch-sys finds libtorch through the `python3` on PATH (LIBTORCH_USE_PYTORCH=1). We put the
# project's `.venv/bin` first; on a machine whose own python3 already holds torch 2.11.0 (the
# GPU machines, with the CUDA build) no venv is created and that installation is used.
# The resulting binaries carry an rpath to libtorch (build.rs): running them needs no variables.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

system_torch="$(python3 -c 'import torch, sys; sys.stdout.write(torch.__version__.split("+")[0])' 2>/dev/null || true)"
if [[ "$system_torch" != "2.11.0" ]]; then
    bash "$root/scripts/setup-torch.sh"
    export PATH="$root/.venv/bin:$PATH"
fi
export LIBTORCH_USE_PYTORCH=1
sub="$1"; shift
exec cargo "$sub" --features tch "$@"
