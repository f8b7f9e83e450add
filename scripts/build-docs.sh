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
# KaTeX's stylesheet, fonts and (for rustdoc, which renders in the browser) scripts are served
# from this machine, never from a CDN: the script fetches the npm package `katex` at
# KATEX_VERSION — the KaTeX that mdbook-katex 0.10.0 embeds and renders with (its `katex` crate
# 0.4.6 bundles KaTeX 0.16.4; checked below against the installed binary) — with `npm pack`,
# checks the tarball against KATEX_INTEGRITY (the registry's sha512), and unpacks the files into
# docs/src/katex/. That folder is git-ignored, not committed: it is a pinned, integrity-checked
# third-party release (1.2 MB, 60 binary font files) that this script re-creates exactly, as it
# re-creates mdbook itself from crates.io; committing it would put the fonts into the history
# and let the copy drift from the renderer's version unnoticed. A stamp file makes the step a
# no-op when the right version is already there. mdBook copies docs/src/katex/ into the book
# (docs/theme/head.hbs links it on every page); the API docs get a copy in target/doc/katex/,
# found by docs/katex-header.html through rustdoc's root path.
#
# The chapter numbers are the specification's, from the file names (docs/number-chapters.js, a
# preprocessor run with node). `bash scripts/check-docs.sh` opens every page in Chromium.
#
# The chapters are also doctests (src/lib.rs includes them), so `cargo test` checks every number
# the book shows; this script only renders them.
set -euo pipefail

MDBOOK_VERSION="0.5.3"
MDBOOK_KATEX_VERSION="0.10.0"
KATEX_VERSION="0.16.4"
KATEX_INTEGRITY="sha512-WudRKUj8yyBeVDI4aYMNxhx5Vhh2PjpzQw1GRu/LVGqL4m1AxwD1GcUp0IMbdJaf5zsjtj8ghP0DOQRYhroNkw=="

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

# The stylesheet must match the HTML the renderer writes: the binary names its KaTeX version
# in the CDN link it would have injected (turned off by `no-css` in book.toml).
if ! grep -aqF "katex@$KATEX_VERSION/dist/katex.min.css" "$tools/bin/mdbook-katex"; then
    echo "build-docs: mdbook-katex $MDBOOK_KATEX_VERSION does not render with KaTeX $KATEX_VERSION;" \
        "update KATEX_VERSION and KATEX_INTEGRITY" >&2
    exit 1
fi

katex_dir="$root/docs/src/katex"
katex_stamp="$katex_dir/.version"
if [[ "$(cat "$katex_stamp" 2>/dev/null)" != "$KATEX_VERSION $KATEX_INTEGRITY" ]]; then
    echo "build-docs: fetching KaTeX $KATEX_VERSION (npm package katex) into $katex_dir" >&2
    scratch="$(mktemp -d)"
    trap 'rm -rf "$scratch"' EXIT
    (cd "$scratch" && npm pack --silent "katex@$KATEX_VERSION" >/dev/null)
    tarball="$scratch/katex-$KATEX_VERSION.tgz"
    got="sha512-$(node -e 'const c=require("crypto"),f=require("fs");process.stdout.write(c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"))' "$tarball")"
    if [[ "$got" != "$KATEX_INTEGRITY" ]]; then
        echo "build-docs: katex-$KATEX_VERSION.tgz has integrity $got, expected $KATEX_INTEGRITY" >&2
        exit 1
    fi
    tar -xzf "$tarball" -C "$scratch" package/dist package/LICENSE
    rm -rf "$katex_dir"
    mkdir -p "$katex_dir/contrib"
    cp "$scratch/package/dist/katex.min.css" "$scratch/package/dist/katex.min.js" \
        "$scratch/package/LICENSE" "$katex_dir/"
    cp "$scratch/package/dist/contrib/auto-render.min.js" "$katex_dir/contrib/"
    cp -r "$scratch/package/dist/fonts" "$katex_dir/"
    echo "$KATEX_VERSION $KATEX_INTEGRITY" >"$katex_stamp"
fi

mdbook build "$root/docs"
echo "build-docs: book written to $root/docs/book/index.html" >&2

# The API reference, with KaTeX for the `# Formula` sections (as docs.rs builds it), and the
# KaTeX files next to it: the header loads them from <doc root>/katex/.
RUSTDOCFLAGS="--html-in-header $root/docs/katex-header.html" cargo doc --no-deps --manifest-path "$root/Cargo.toml"
rm -rf "$root/target/doc/katex"
cp -r "$katex_dir" "$root/target/doc/katex"
echo "build-docs: API docs written to $root/target/doc/probdml/index.html" >&2
