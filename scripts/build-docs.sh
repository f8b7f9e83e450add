#!/usr/bin/env bash
# Builds the mdBook site in docs/ to docs/book/, with math pre-rendered by KaTeX at build time.
#
# mdbook and mdbook-katex are installed with `cargo install --locked` into the project-local root
# tools/ (git-ignored), only when the pinned version is not already there. The first run compiles
# both from crates.io and takes several minutes; later runs only build the book.
#
# The versions are pinned as a pair: mdbook-katex 0.10.0's lock file builds it on
# mdbook-preprocessor 0.5.3, so it speaks the preprocessor protocol of mdbook 0.5.x (not 0.4.x)
# and warns unless the calling mdbook is exactly 0.5.3.
#
# The chapters are also doctests (src/lib.rs includes them), so `cargo test` checks every number
# the book shows; this script only renders them.
set -euo pipefail

MDBOOK_VERSION="0.5.3"
MDBOOK_KATEX_VERSION="0.10.0"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/tools"
export PATH="$tools/bin:$PATH"

# True when tools/bin/$1 exists and reports version $2.
installed() {
    [[ -x "$tools/bin/$1" ]] && "$tools/bin/$1" --version 2>/dev/null | grep -qF "$2"
}

# `--no-default-features --features search`: the book is only built here, never served, so
# mdbook's web server and file watcher (tokio, axum, notify) are left out; that halves the compile.
if ! installed mdbook "$MDBOOK_VERSION"; then
    echo "build-docs: installing mdbook $MDBOOK_VERSION into $tools (first run: several minutes)" >&2
    cargo install --locked --root "$tools" --version "$MDBOOK_VERSION" \
        --no-default-features --features search mdbook
fi
# mdbook-katex's default feature pre-renders with KaTeX running in an embedded QuickJS (it needs
# a C compiler to build, nothing at run time).
if ! installed mdbook-katex "$MDBOOK_KATEX_VERSION"; then
    echo "build-docs: installing mdbook-katex $MDBOOK_KATEX_VERSION into $tools (first run: several minutes)" >&2
    cargo install --locked --root "$tools" --version "$MDBOOK_KATEX_VERSION" mdbook-katex
fi

mdbook build "$root/docs"
echo "build-docs: book written to $root/docs/book/index.html" >&2

# The API reference, with KaTeX for the `# Formula` sections (as docs.rs builds it).
RUSTDOCFLAGS="--html-in-header $root/docs/katex-header.html" cargo doc --no-deps --manifest-path "$root/Cargo.toml"
echo "build-docs: API docs written to $root/target/doc/probdml/index.html" >&2
