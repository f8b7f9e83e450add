#!/usr/bin/env bash
# Puts KaTeX's stylesheet, fonts and scripts into docs/src/katex/, from where the book (mdBook
# copies the folder; docs/theme/head.hbs links it) and the API docs (docs/katex-header.html finds
# it, see there) load them, so that both render without network access. (The API docs fall
# back to the same release on a CDN, hash-checked, only where no local copy exists: docs.rs and
# the `cargo doc` of a crate that depends on probdml.)
#
# The files come from the npm package `katex` at KATEX_VERSION — whose katex.min.js also renders
# the book's math when the book is built (docs/render-math.js), so that the HTML and the
# stylesheet always come from one release — fetched with `npm pack` and checked against
# KATEX_INTEGRITY (the registry's sha512) before anything is unpacked. The
# folder is git-ignored, not committed: it is a pinned, integrity-checked third-party release
# (1.2 MB, 60 binary font files) that this script re-creates exactly; committing it would put
# the fonts into the history and let the copy drift from the renderer's version unnoticed. A
# stamp file makes the script a no-op when the right version is already there; the loader's
# pinned version and hashes are checked against the copy on every run (check_loader below).
#
# Needs node and npm (and the registry once). Used by scripts/build-docs.sh; on its own it is
# all that `cargo doc` in this repository needs to render the formulas offline (a plain one: the
# crate, module and item pages of probdml that carry the loader; with the header: every page):
#
#   bash scripts/fetch-katex.sh
#   RUSTDOCFLAGS="--html-in-header $PWD/docs/katex-header.html" cargo doc --no-deps
set -euo pipefail

KATEX_VERSION="0.16.4"
KATEX_INTEGRITY="sha512-WudRKUj8yyBeVDI4aYMNxhx5Vhh2PjpzQw1GRu/LVGqL4m1AxwD1GcUp0IMbdJaf5zsjtj8ghP0DOQRYhroNkw=="

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
katex_dir="$root/docs/src/katex"
katex_stamp="$katex_dir/.version"

# The API docs' loader (docs/katex-header.html) falls back to this release on a CDN, each file
# checked by its sha384 (Subresource Integrity). Its version and hashes must be those of this
# copy: after a bump of KATEX_VERSION alone it would load the old release, and after a bump of
# its version alone the browser would refuse every file. Prints the right values when they differ.
check_loader() {
    node - "$root/docs/katex-header.html" "$katex_dir" "$KATEX_VERSION" <<'EOF'
const crypto = require("crypto");
const fs = require("fs");
const path = require("path");
const [loaderPath, dir, version] = process.argv.slice(2);
const loader = fs.readFileSync(loaderPath, "utf8");
const bad = [];
const got = /katexVersion = "([^"]*)"/.exec(loader);
if (!got || got[1] !== version) bad.push(`katexVersion = "${version}" (it has ${got ? got[1] : "none"})`);
for (const file of ["katex.min.js", "katex.min.css", "contrib/auto-render.min.js"]) {
  const want = "sha384-" + crypto.createHash("sha384").update(fs.readFileSync(path.join(dir, file))).digest("base64");
  const entry = loader.split("\n").find((line) => line.trim().startsWith(`"${file}": `));
  const has = entry ? entry.trim().slice(file.length + 4).replace(/^"|",?$/g, "") : "none";
  if (has !== want) bad.push(`"${file}": "${want}" (it has ${has})`);
}
if (bad.length > 0) {
  console.error(`fetch-katex: ${loaderPath} does not match KaTeX ${version} in ${dir}; set there:`);
  for (const b of bad) console.error(`  ${b}`);
  process.exit(1);
}
EOF
}

if [[ "$(cat "$katex_stamp" 2>/dev/null)" == "$KATEX_VERSION $KATEX_INTEGRITY" ]]; then
    check_loader
    exit 0
fi
echo "fetch-katex: fetching KaTeX $KATEX_VERSION (npm package katex) into $katex_dir" >&2
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
(cd "$scratch" && npm pack --silent "katex@$KATEX_VERSION" >/dev/null)
tarball="$scratch/katex-$KATEX_VERSION.tgz"
got="sha512-$(node -e 'const c=require("crypto"),f=require("fs");process.stdout.write(c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"))' "$tarball")"
if [[ "$got" != "$KATEX_INTEGRITY" ]]; then
    echo "fetch-katex: katex-$KATEX_VERSION.tgz has integrity $got, expected $KATEX_INTEGRITY" >&2
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
check_loader
