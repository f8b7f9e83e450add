#!/usr/bin/env bash
# Usage: bash scripts/build-docs.sh [book|api|tools]   (book and api when no argument is given)
#
# `book`: the mdBook site in docs/ to docs/book/, with math rendered to HTML by KaTeX at build
#         time (docs/render-math.js, an mdBook preprocessor run with node).
# `tools`: only the installs (KaTeX, mdbook), so that scripts/test.sh can run them beside its
#         downloads.
# `api`:  the API reference (`cargo doc --no-deps`) to target/doc/, with the formulas of the doc
#         comments rendered in the browser by KaTeX (docs/katex-header.html), offline.
#
# mdbook is installed with `cargo install --locked` into the project-local root tools/
# (git-ignored), only when the pinned version is not already there, and only for `book`. The first
# run compiles it from crates.io (about 3.5 min on a 2-core CPU); later runs only build the book.
# `api` needs no mdbook: only cargo, node and npm. The book's two preprocessors are node scripts
# that speak mdbook 0.5's protocol (docs/render-math.js, docs/number-chapters.js).
#
# KaTeX's stylesheet, fonts and (for rustdoc, which renders in the browser) scripts are served
# from this machine, never from a CDN: scripts/fetch-katex.sh puts the npm package `katex`
# (pinned, integrity-checked) into docs/src/katex/, and the book's math is rendered with that
# package's katex.min.js, so the HTML and its stylesheet come from one release. mdBook copies that folder into the book (docs/theme/head.hbs
# links it on every page); the API docs get a copy in target/doc/katex/, found by
# docs/katex-header.html through rustdoc's root path.
#
# The chapter numbers are the file names' (docs/number-chapters.js, a preprocessor run with
# node). `bash scripts/check-docs.sh` opens every page in Chromium.
#
# The chapters are also doctests (src/lib.rs includes them), so `cargo test` checks every number
# the book shows; this script only renders them.
set -euo pipefail

MDBOOK_VERSION="0.5.3"

what="${1:-all}"
case "$what" in
    all | book | api | tools) ;;
    *)
        echo "usage: bash scripts/build-docs.sh [book|api|tools]" >&2
        exit 2
        ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/tools"
katex_dir="$root/docs/src/katex"
bash "$root/scripts/fetch-katex.sh"
export PATH="$tools/bin:$PATH"

# True when tools/bin/$1 exists and reports version $2.
installed() {
    [[ -x "$tools/bin/$1" ]] && "$tools/bin/$1" --version 2>/dev/null | grep -qF "$2"
}

if [[ "$what" != api ]]; then
    # `--no-default-features --features search`: the book is only built here, never served, so
    # mdbook's web server and file watcher (tokio, axum, notify) are left out; that halves the compile.
    if ! installed mdbook "$MDBOOK_VERSION"; then
        echo "build-docs: installing mdbook $MDBOOK_VERSION into $tools (first run: several minutes)" >&2
        cargo install --locked --root "$tools" --version "$MDBOOK_VERSION" \
            --no-default-features --features search mdbook
    fi
    if [[ "$what" == tools ]]; then
        exit 0
    fi
    mdbook build "$root/docs"
    echo "build-docs: book written to $root/docs/book/index.html" >&2
fi

# The API reference, with KaTeX for the formulas of the doc comments (as docs.rs builds it), and
# the KaTeX files next to it: the header loads them from <doc root>/katex/. A rustdoc warning (a
# link that does not resolve, or resolves to a private item) fails the build: such a link is
# plain text on the page. The maths crates and the proofs' registry are documented; the training
# crate's API is documented only with libtorch (feature "tch"), which this script does not need.
if [[ "$what" != book ]]; then
    RUSTDOCFLAGS="--html-in-header $root/docs/katex-header.html -D warnings" \
        cargo doc --no-deps --manifest-path "$root/Cargo.toml" \
        -p probdml -p probdml-core -p probdml-reference -p probdml-proofs
    rm -rf "$root/target/doc/katex"
    cp -r "$katex_dir" "$root/target/doc/katex"
    echo "build-docs: API docs written to $root/target/doc/probdml/index.html" >&2
fi
