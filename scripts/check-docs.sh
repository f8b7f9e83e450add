#!/usr/bin/env bash
# Builds the book and the API docs (scripts/build-docs.sh) and opens them in headless Chromium,
# as a reader without network access would: fails if any page requests something from another
# host, if a `.katex` element lacks KaTeX's font, if a formula failed to render, or if a
# chapter's displayed number is not its file's prefix (01 … 09). Writes one screenshot per
# chapter to docs/book/screenshots/. Then it opens probdml's pages as the plain `cargo doc` of a
# crate that depends on probdml writes them (no header, no local KaTeX): they must render with
# the pinned KaTeX release from its CDN, played by a route that serves docs/src/katex/, so that
# the loader's Subresource Integrity hashes are checked. The checks are in scripts/check-docs.js.
#
# First, in about a second and before anything is built, it reads the doc sources: it fails on
# a control character in docs/src/**/*.md or in a doc comment (a tab where `\tfrac` lost its
# backslash to a string escape, a backspace from `\bigl`), on a formula in either cut by a line
# break where a `\n` went the same way (`j_{⏎u,k}` for `j_{\nu,k}`), and on a backslash in the doc
# comments' `$…$` math that rustdoc's Markdown would eat without an error (`\,` reaching KaTeX
# as `,`, `\{` as `{`, a `\\` row break as `\`): KaTeX renders the wrong formula then, so no
# browser check could see it; and every formula of the book must parse in KaTeX (the
# renderer, docs/render-math.js, fails the build on one too, but only after mdbook has started). In the browser, a `$` left in a
# page's text outside code (a formula left raw) fails, and so does a numbered chapter without
# a single formula.
#
# Needs Debian's `chromium` (scripts/setup.sh installs it) and node/npm; drives the browser with
# the npm package playwright-core (pinned below), installed into tools/node/ (git-ignored) only
# when missing. Playwright starts Chromium with a fresh temporary --user-data-dir; the flags
# below keep the browser itself from calling home.
#
# Time: about 2.2 min on a 2-core CPU shared with other jobs once mdbook is installed (the first
# run compiles it: about 3.5 min more); `bash scripts/test.sh` runs this when
# /usr/bin/chromium exists.
set -euo pipefail

PLAYWRIGHT_CORE_VERSION="1.65.1"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/fetch-katex.sh
node scripts/check-docs.js --doc-comments
chromium="${CHROMIUM:-/usr/bin/chromium}"
if [[ ! -x "$chromium" ]]; then
    echo "check-docs: $chromium not found (bash scripts/setup.sh installs Debian's chromium)" >&2
    exit 1
fi

node_dir="$root/tools/node"
installed="$(node -p "require('$node_dir/node_modules/playwright-core/package.json').version" 2>/dev/null || true)"
if [[ "$installed" != "$PLAYWRIGHT_CORE_VERSION" ]]; then
    echo "check-docs: installing playwright-core $PLAYWRIGHT_CORE_VERSION into $node_dir" >&2
    mkdir -p "$node_dir"
    npm install --silent --no-audit --no-fund --prefix "$node_dir" \
        "playwright-core@$PLAYWRIGHT_CORE_VERSION" >/dev/null
fi

# probdml's pages as a user's plain `cargo doc` writes them (scripts/check-docs.js,
# checkUserDoc): documented as a dependency of crates/probdml-examples, which depends on probdml
# and rand only, with no RUSTDOCFLAGS (so without the header), then moved to a directory of their
# own, from which neither target/doc/katex/ nor docs/src/katex/ is found, so that the loader the
# docs carry inline has to fetch KaTeX from its CDN. `--no-deps` with `-p probdml`: probdml's
# pages are the same, and the other dependencies' docs are not needed. Built first, in the
# project's target directory, so that the project's docs below reuse the dependencies' metadata
# (a target directory of its own compiled them twice: 1.5 min on a 2-core CPU).
user_doc="$root/target/user-doc"
rm -rf "$root/target/doc" "$user_doc"
env -u RUSTDOCFLAGS -u CARGO_ENCODED_RUSTDOCFLAGS \
    cargo doc --no-deps -p probdml-examples -p probdml
mkdir -p "$user_doc"
mv "$root/target/doc" "$user_doc/doc"

bash scripts/build-docs.sh

rm -rf docs/book/screenshots
node scripts/check-docs.js "$root/docs/book" "$root/target/doc" "$chromium" "$user_doc/doc"
