#!/usr/bin/env python3
"""The maths of the crate has no import cycle, between modules or between files; nor has the
training crate between its files.

    python3 scripts/check-imports.py          # exit 1 and print every cycle, if there is one
    python3 scripts/check-imports.py --graph  # print the module graph too
    python3 scripts/check-imports.py --train  # the training crate's files (--graph: its file graph)
    python3 scripts/check-imports.py --self-test  # the checker on small trees it must judge

What it reads: every `.rs` file of the three maths crates (crates/probdml-core/src,
crates/probdml-reference/src, crates/probdml/src) but their `lib.rs`; their module trees mirror
each other, so that together they read as one tree. What it counts as an import:
a path written in code (not in a comment, a string or a `#[cfg(test)]` module of the fast code
or the core) that starts with
`crate::`, `super::` or `self::`, including each name of a `use …::{a, b::c}` group (a glob
`m::*` imports the file of module `m` itself). A path that starts with a module the file
declares (`file::ConfigV3` beside `mod file;`) is read as `self::file::ConfigV3`, as Rust reads it,
one that starts with a module the file imports (`use crate::method::{self, btl};` then
`btl::gaussian::Options`) from that module, and a path inside an inline module (`mod libtorch { use super::Options; }`) from that module. A
path is
resolved to the file that defines its item; a `pub use` of a module root (`mod.rs`, or `m.rs` with
`m/`) is followed to the file it re-exports, so that a root is a namespace and not a hub through
which every sibling would seem to import every other.

Two graphs must be acyclic:

* **modules**: one node per top-level module and layer, `vmf` (the fast code), `vmf::input` (its
  inputs: `input.rs` or the files under `input/`) and `vmf::exact` (its reference twins, every
  file under an `exact/` folder or named `exact.rs`); an edge when a file of one node imports a
  file of another;
* **files**: one node per file; an edge when one file imports another.

And every file must sit in the crate of its layer, and every import respect the layers. Cargo
enforces most of it — the core depends on nothing of ours, the reference on the core only, so
that neither can even name the fast code — and this script what Cargo cannot:

* **core** (crates/probdml-core): the error type and input checks (`error`), error-free
  arithmetic (`compensated`), `gaussians`, `gauss_rule`, `instruction_set`, class `labels` (taken
  by the contrastive, metrics and nivMF inputs alike), `threads` (the retrieval task's pool), and
  every module's
  inputs (`<m>/input.rs`, `<m>/input/`): the types and checks both twins share.
* **reference** (crates/probdml-reference): every exact twin and the tools only they use
  (`quadrature`, `gaussian_quadratic_form`). One item of the core is kept from it
  (`NOT_FOR_THE_REFERENCE`: the fast norm `compensated::norm2`, which the core must hold because
  input checks use it), and so is the fast crate, which its tests could reach by the
  dev-dependency its documentation's examples need (a path `probdml::…` in its code).
* **fast** (crates/probdml): everything else. It may see the reference (its feature `reference`
  re-exports it), but no fast function leans on one: fast imports core and fast.

The training crate (crates/probdml-train/src, `--train`; its own tests run it) has one rule: no
file cycle. Its program (`bin/`) and `lib.rs` are left out, as the maths' `lib.rs` is.

A cycle is printed as its strongly connected component, with one import per edge as witness.
Only the standard library is used: the check runs before any Python package is installed.
"""

import os
import re
import sys

CRATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates")
# The maths crates, each with the layer its files must be; their module trees mirror each other,
# so together they read as one tree (`vmf/input.rs` in the core, `vmf/exact/` in the reference,
# `vmf/mod.rs` in probdml).
ROOTS = [
    (os.path.join(CRATES, "probdml-core", "src"), "core"),
    (os.path.join(CRATES, "probdml-reference", "src"), "reference"),
    (os.path.join(CRATES, "probdml", "src"), "fast"),
]
LEFT_OUT_DIRS = set()
LEFT_OUT_FILES = {"lib.rs"}
# The training crate (`--train`): one layer, checked for file cycles only.
TRAIN_ROOT = os.path.join(CRATES, "probdml-train", "src")
TRAIN_LEFT_OUT_DIRS = {"bin"}
CORE = {"error", "compensated", "display", "gaussians", "gauss_rule", "instruction_set", "labels", "threads"}
REFERENCE_TOOLS = {"quadrature", "gaussian_quadratic_form"}
# Items of the core that the reference must still not call, with the reason: the one computation
# of the core that a fast twin's result rests on.
NOT_FOR_THE_REFERENCE = {
    ("compensated", "norm2"): "the fast norm: a reference that shares the norm of the code it "
    "checks cannot see that norm's errors; use `compensated::exact::norm2`",
}
# Methods that fast code adds to a core type (an `impl` of a type defined in the core, written in a
# fast file). No import shows their use, so each is listed, and the reference may not call one.
def strip(text, keep_tests=False):
    """The code of a Rust file: comments, string and char literals blanked, test modules cut
    (kept with `keep_tests`)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            i = n if end < 0 else end + 1 + len(hashes)
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4]) or text.startswith("'\\u{", i):
            i = text.find("'", i + 2) + 1
            out.append("' '")
        else:
            out.append(c)
            i += 1
    code = "".join(out)
    # `#[cfg(test)] mod name { … }`: the fast code's tests may use anything (the reference
    # above all); they are not imports of the maths. A reference file's tests are kept: they
    # belong to the reference, which cannot see the fast code.
    while not keep_tests:
        m = re.search(r"#\[cfg\(test\)\]\s*(pub(\([a-z]+\))?\s+)?mod\s+\w+\s*\{", code)
        if not m:
            return code
        j = block_end(code, m.end())
        code = code[:m.start()] + code[j:]
    return code


def kind_of(rel):
    parts = rel[:-3].split("/")
    if parts[0] in REFERENCE_TOOLS or "exact" in parts[1:]:
        return "reference"
    if parts[0] in CORE or parts[-1] == "input" or "input" in parts[1:-1]:
        return "core"
    return "fast"


def block_end(code, start):
    """The index just past the `}` that closes the block whose body starts at `start`."""
    depth, j = 1, start
    while j < len(code) and depth:
        depth += {"{": 1, "}": -1}.get(code[j], 0)
        j += 1
    return j


def cut_inline_modules(code):
    """The code without the bodies of inline modules (`mod name { … }`)."""
    while True:
        m = re.search(r"\bmod\s+\w+\s*\{", code)
        if not m:
            return code
        j = block_end(code, m.end())
        code = code[:m.start()] + code[j:]


def module_path(rel):
    """`vmf/kl.rs` → ["vmf", "kl"]; `vmf/mod.rs` → ["vmf"]."""
    parts = rel[:-3].split("/")
    if parts[-1] == "mod":
        parts.pop()
    return parts


def expand_use_groups(code):
    """Every `prefix::{a, b::{c, d}}` written out as `prefix::a`, `prefix::b::c`, …"""
    paths = []

    def walk(prefix, body):
        depth, start, items = 0, 0, []
        for k, ch in enumerate(body + ","):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                items.append(body[start:k].strip())
                start = k + 1
        for item in items:
            if not item:
                continue
            m = re.match(r"([\w:]*?)::\{(.*)\}$", item, re.S)
            if m:
                walk(prefix + "::" + m.group(1), m.group(2))
            else:
                item = re.split(r"\s+as\s+", item)[0].strip()
                paths.append(prefix if item == "self" else prefix + "::" + item)

    for m in re.finditer(r"\b((?:crate|super|self)(?:::\w+)*)::\{", code):
        j = block_end(code, m.end())
        walk(m.group(1), code[m.end():j - 1])
    return paths


def child_modules(code):
    """The modules a piece of code declares in files of their own (`mod name;`) or inline
    (`mod name { … }`)."""
    return set(re.findall(r"\bmod\s+(\w+)\s*[;{]", code))


def module_segments(rel, code):
    """(module path, code) for the file's own module and for each inline `mod name { … }` in it,
    each without the bodies of the inline modules it holds: a path written in an inline module
    is read from that module (its `super` is the file's module)."""
    out = []

    def walk(here, text):
        own, rest = [], text
        while True:
            m = re.search(r"\bmod\s+(\w+)\s*\{", rest)
            if not m:
                own.append(rest)
                break
            j = block_end(rest, m.end())
            own.append(rest[:m.start()])
            walk(here + [m.group(1)], rest[m.end():j - 1])
            rest = rest[j:]
        out.append((here, "".join(own)))

    walk(module_path(rel), code)
    return out


def qualify_children(code, children):
    """Paths that start with a child module (`file::ConfigV3` in a file that declares `mod
    file;`) written as `self::file::ConfigV3`: Rust reads them from the current module."""
    for name in sorted(children):
        code = re.sub(rf"(?<![\w:]){name}::", f"self::{name}::", code)
    return code


def qualify_imported_modules(code, here, by_path):
    """Paths through a module the code imports (`use crate::method::{self, btl};` then
    `btl::gaussian::Options`, `method::build`) written from the crate root."""
    imported = expand_use_groups(code)
    imported += [m.group(1) for m in re.finditer(r"\buse\s+((?:crate|super|self)(?:::\w+)+)\s*;", code)]
    aliases = {}
    for path in imported:
        segs = absolute(here, path)
        if segs and tuple(segs) in by_path:
            aliases[segs[-1]] = "crate::" + "::".join(segs)
    for name, full in sorted(aliases.items()):
        code = re.sub(rf"(?<![\w:]){name}::", full + "::", code)
    return code


def absolute(here, path):
    """`super::x::y` written in module `here` (a list of names) → ["m", "x", "y"] from the crate
    root."""
    segs = path.split("::")
    if segs[0] == "crate":
        return segs[1:]
    base = list(here)
    while segs and segs[0] in ("super", "self"):
        if segs.pop(0) == "super":
            base.pop()
    return base + segs


def cycles(nodes, edges):
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def file_graph(files, roots, on_path=None):
    """The import graph of `files` (path relative to its crate's src/ → stripped code) read from
    `roots` (each a src/ folder and its layer): (edges, witness), `edges[a]` the files `a`
    imports, `witness[(a, b)]` one path by which it does. `on_path(rel, here, path)` sees every
    path written in `rel` (in its module `here`)."""
    by_path = {tuple(module_path(rel)): rel for rel in files}

    def is_root(rel):
        return rel.endswith("mod.rs") or any(os.path.isdir(os.path.join(root, rel[:-3])) for root, _ in roots)

    reexports = {}  # (root file, name) → absolute path it re-exports
    for rel, code in files.items():
        if is_root(rel):
            # Re-exports of the root itself: an inline `mod name { pub use super::…; }` (such as
            # `vmf::kernel`) re-exports for its own path, not for the root's.
            code = cut_inline_modules(code)
            for m in re.finditer(r"\bpub(?:\([\w ]+\))?\s+use\s+([^;]+);", code):
                body = m.group(1).strip()
                if not re.match(r"(crate|super|self)\b", body):
                    body = "self::" + body
                items = expand_use_groups(body) if "{" in body else [body]
                for item in items:
                    parts = re.split(r"\s+as\s+", item)
                    target = parts[0].strip()
                    if not re.match(r"(crate|super|self)::", target):
                        target = "self::" + target
                    alias = parts[1].strip() if len(parts) > 1 else target.split("::")[-1]
                    reexports[(rel, alias)] = absolute(module_path(rel), target)

    def resolve(segs, seen=0):
        """The file defining the item at `segs` (absolute), or None outside the tree."""
        for k in range(len(segs), 0, -1):
            rel = by_path.get(tuple(segs[:k]))
            if rel is None:
                continue
            rest = segs[k:]
            if rest and (rel, rest[0]) in reexports and seen < 16:
                return resolve(reexports[(rel, rest[0])] + rest[1:], seen + 1)
            return rel
        return None

    edges, witness = {}, {}
    for rel, code in files.items():
        if is_root(rel):
            # A name a root re-exports and also uses in its own code is an import of it.
            own = re.sub(r"\bpub(?:\([\w ]+\))?\s+use\s+[^;]+;", "", cut_inline_modules(code))
            own = re.sub(r"\bmod\s+\w+\s*;", "", own)
            for (root, alias), path in reexports.items():
                target = resolve(path) if root == rel else None
                if target and target != rel and re.search(rf"(?<![\w:]){alias}\b(?!\s*::)", own):
                    edges.setdefault(rel, set()).add(target)
                    witness.setdefault((rel, target), f"{alias} (re-exported from crate::{'::'.join(path)})")
        for here, seg in module_segments(rel, code):
            if is_root(rel):
                # A root's re-exports (its own, and those of an inline module in it such as
                # `vmf::kernel`) make it a namespace (`resolve` follows them), not an importer
                # of the files it re-exports.
                seg = re.sub(r"\bpub(?:\([\w ]+\))?\s+use\s+[^;]+;", "", seg)
            seg = qualify_children(seg, child_modules(seg))
            seg = qualify_imported_modules(seg, here, by_path)
            paths = expand_use_groups(seg)
            paths += [m.group(1) for m in re.finditer(r"\b((?:crate|super|self)(?:::\w+)+)", seg)]
            # A glob (`use super::*;`) imports everything its module holds: an edge to the
            # module's root file, which is then not a mere namespace.
            for m in re.finditer(r"\b((?:crate|super|self)(?:::\w+)*)::\*", seg):
                target = by_path.get(tuple(absolute(here, m.group(1))))
                if target and target != rel:
                    edges.setdefault(rel, set()).add(target)
                    witness.setdefault((rel, target), m.group(0))
            for path in paths:
                if on_path:
                    on_path(rel, here, path)
                if path.endswith("::self"):
                    path = path[: -len("::self")]
                segs = absolute(here, path)
                if tuple(segs) in by_path and is_root(by_path[tuple(segs)]):
                    continue  # the name of a module (`crate::vmf` before `::{…}`), not an item
                target = resolve(segs)
                if target and target != rel and not (is_root(target) and target.startswith(rel[:-3].replace("/mod", ""))):
                    edges.setdefault(rel, set()).add(target)
                    witness.setdefault((rel, target), path)
    return edges, witness


def print_file_cycles(files, edges, witness, out):
    """Appends every file cycle to `out`, each with one import per edge as witness; whether
    there was one."""
    found = False
    for comp in cycles(set(files), edges):
        found = True
        out.append(f"file cycle: {' ↔ '.join('src/' + c for c in comp)}")
        for a in comp:
            for b in sorted(edges.get(a, ())):
                if b in comp:
                    out.append(f"    src/{a} -> src/{b}: uses {witness[(a, b)]}")
    return found


def check(roots, graph=False):
    """Every check on the trees `roots` (each a crate's src/ and the layer of its files, or None
    for a tree that holds every layer): (failed, lines to print)."""
    out = []
    files = {}
    misplaced = []
    for root, crate_kind in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            rel_dir = os.path.relpath(dirpath, root)
            if rel_dir.split(os.sep)[0] in LEFT_OUT_DIRS:
                continue
            for name in filenames:
                rel = os.path.normpath(os.path.join(rel_dir, name)).replace(os.sep, "/")
                if name.endswith(".rs") and rel not in LEFT_OUT_FILES:
                    if crate_kind is not None and kind_of(rel) != crate_kind:
                        misplaced.append(f"    {rel}: a {kind_of(rel)} file in the {crate_kind} crate")
                    if rel in files:
                        misplaced.append(f"    {rel}: in two crates")
                    with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                        files[rel] = strip(f.read(), keep_tests=kind_of(rel) == "reference")
    if misplaced:
        out.append("files in the wrong crate (the core holds error, compensated, gaussians, gauss_rule, "
                   "instruction_set, labels, threads and every <module>/input; the reference every exact twin, quadrature "
                   "and gaussian_quadratic_form; probdml the rest):")
        out.append("\n".join(misplaced))
        return True, out

    def layer(rel):
        parts = rel[:-3].split("/")
        top = parts[0]
        if "exact" in parts[1:]:
            return top + "::exact"
        return top + "::input" if "input" in parts[1:] else top

    forbidden = []

    def reference_uses(rel, here, path):
        whole = absolute(here, path)
        for item, reason in NOT_FOR_THE_REFERENCE.items():
            if layer(rel).endswith("::exact") or rel.split("/")[0] in REFERENCE_TOOLS:
                if tuple(whole[-2:]) == item and "exact" not in whole:
                    forbidden.append(f"    src/{rel} uses {path}: {reason}")

    file_edges, witness = file_graph(files, roots, reference_uses)

    module_edges, module_witness = {}, {}
    for a, targets in file_edges.items():
        for b in targets:
            la, lb = layer(a), layer(b)
            if la != lb:
                module_edges.setdefault(la, set()).add(lb)
                module_witness.setdefault((la, lb), (a, witness[(a, b)]))

    # The reference crate depends on the core alone; `probdml` is only its dev-dependency, for
    # the examples of its documentation. A twin (or its tests) that names the fast crate would
    # still compile under `cargo test`: it is refused here.
    for rel, code in files.items():
        if kind_of(rel) == "reference":
            m = re.search(r"\bprobdml::[\w:]*", code)
            if m:
                forbidden.append(f"    src/{rel} names the fast crate: {m.group(0)}")

    # The layers of the crate's design, as they will be crates: the shared core (the error type,
    # input checks and input types, error-free arithmetic, the instruction-set dispatch); the
    # reference (every exact twin and the tools only they use); the fast maths.
    ALLOWED = {"core": {"core"}, "reference": {"core", "reference"}, "fast": {"core", "fast"}}
    violations = []
    for a, targets in sorted(file_edges.items()):
        for b in sorted(targets):
            if kind_of(b) not in ALLOWED[kind_of(a)]:
                violations.append(f"    {kind_of(a)} src/{a} -> {kind_of(b)} src/{b}: uses {witness[(a, b)]}")

    if graph:
        for a in sorted(module_edges):
            out.append(f"{a} -> {', '.join(sorted(module_edges[a]))}")

    failed = False
    for comp in cycles({layer(r) for r in files}, module_edges):
        failed = True
        out.append(f"module cycle: {' ↔ '.join(comp)}")
        for a in comp:
            for b in sorted(module_edges.get(a, ())):
                if b in comp:
                    f, path = module_witness[(a, b)]
                    out.append(f"    {a} -> {b}: src/{f} uses {path}")
    failed = print_file_cycles(files, file_edges, witness, out) or failed
    if forbidden:
        failed = True
        out.append("core items kept from the reference, and the fast crate named by the reference:")
        out.append("\n".join(sorted(set(forbidden))))
    if violations:
        failed = True
        out.append("layer rule broken (core imports core; reference imports core and reference; fast imports core and fast):")
        out.append("\n".join(violations))
    if failed:
        return True, out
    out.append(f"imports: no cycle among {len({layer(r) for r in files})} module layers and {len(files)} files of the maths")
    return False, out


def check_train(root, graph=False):
    """The training crate (`root`: its src/): no file imports a file that imports it back,
    directly or through others. Its program (`bin/`) and `lib.rs` are left out: they are the
    crate's users and its list of modules, not a layer of it. (failed, lines to print)."""
    files = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        if rel_dir.split(os.sep)[0] in TRAIN_LEFT_OUT_DIRS:
            continue
        for name in filenames:
            rel = os.path.normpath(os.path.join(rel_dir, name)).replace(os.sep, "/")
            if name.endswith(".rs") and rel not in LEFT_OUT_FILES:
                with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                    files[rel] = strip(f.read())
    edges, witness = file_graph(files, [(root, None)])
    out = []
    if graph:
        for a in sorted(edges):
            out.append(f"{a} -> {', '.join(sorted(edges[a]))}")
    if print_file_cycles(files, edges, witness, out):
        return True, out
    out.append(f"imports: no file cycle among the {len(files)} files of the training crate")
    return False, out


def self_test():
    """The checker on small trees, each with one thing it must see (or must not)."""
    import tempfile

    fast_vmf = {
        "vmf/mod.rs": "pub mod exact;\npub(crate) mod input;\nmod normaliser;\n"
        "pub use normaliser::log_norm_const;\npub mod kernel { pub use super::log_norm_const; }\n",
        "vmf/normaliser.rs": "use crate::vmf::input::check;\npub fn log_norm_const() {}\n",
        "vmf/input.rs": "use crate::error::Error;\npub(crate) struct Unit;\npub(crate) fn check() {}\n",
        "vmf/exact/mod.rs": "mod density;\n",
        "error.rs": "pub struct Error;\n",
    }
    cases = [
        ("clean tree", {}, None),
        ("an exact twin names a fast item through a re-export",
         {"vmf/exact/density.rs": "use crate::vmf::log_norm_const as planted;\n"}, "reference src/vmf/exact/density.rs -> fast src/vmf/normaliser.rs"),
        ("… inside a `use` group",
         {"vmf/exact/density.rs": "use crate::vmf::{input::check, log_norm_const};\n"}, "-> fast src/vmf/normaliser.rs"),
        ("… by a full path in an expression",
         {"vmf/exact/density.rs": "fn f() { crate::vmf::normaliser::log_norm_const(); }\n"}, "-> fast src/vmf/normaliser.rs"),
        ("… by a glob of the fast module",
         {"vmf/exact/density.rs": "use crate::vmf::*;\n"}, "-> fast src/vmf/mod.rs"),
        ("… in its own tests",
         {"vmf/exact/density.rs": "#[cfg(test)]\nmod tests { use crate::vmf::log_norm_const; }\n"}, "-> fast src/vmf/normaliser.rs"),
        ("a fast file's tests may use anything",
         {"vmf/exact/density.rs": "pub fn log_density() {}\n",
          "vmf/normaliser.rs": "pub fn log_norm_const() {}\n#[cfg(test)]\nmod tests { use crate::vmf::exact::density::log_density; }\n"}, None),
        ("a comment, a doc comment or a string is no import",
         {"vmf/exact/density.rs": "// crate::vmf::log_norm_const\n/// [`f`](crate::vmf::log_norm_const)\nconst S: &str = \"crate::vmf::log_norm_const\";\n"}, None),
        ("the core imports fast code",
         {"vmf/input.rs": "use crate::vmf::log_norm_const;\n"}, "core src/vmf/input.rs -> fast src/vmf/normaliser.rs"),
        ("fast code imports the reference",
         {"vmf/exact/density.rs": "pub fn log_density() {}\n",
          "vmf/normaliser.rs": "use crate::vmf::exact::density::log_density;\npub fn log_norm_const() {}\n"}, "fast src/vmf/normaliser.rs -> reference"),
        ("a cycle between two files",
         {"vmf/a.rs": "use super::b::g;\npub fn f() {}\n", "vmf/b.rs": "use super::a::f;\npub fn g() {}\n",
          "vmf/mod.rs": fast_vmf["vmf/mod.rs"] + "mod a;\nmod b;\n"}, "file cycle: src/vmf/a.rs ↔ src/vmf/b.rs"),
        ("a cycle between two modules",
         {"nivmf/mod.rs": "pub fn kl() { crate::vmf::log_norm_const(); }\n",
          "vmf/normaliser.rs": "pub fn log_norm_const() { crate::nivmf::kl(); }\n"}, "module cycle: nivmf ↔ vmf"),
        ("the reference calls the fast norm",
         {"compensated.rs": "pub fn norm2() {}\n", "vmf/exact/density.rs": "use crate::compensated::norm2;\n"}, "uses crate::compensated::norm2"),
        ("a twin's test names the fast crate through the dev-dependency",
         {"vmf/exact/density.rs": "#[cfg(test)]\nmod tests { fn f() { probdml::vmf::log_norm_const(); } }\n"},
         "names the fast crate: probdml::vmf::log_norm_const"),
        ("a twin's doctest may show the public path",
         {"vmf/exact/density.rs": "/// ```\n/// probdml::vmf::exact::log_density();\n/// ```\npub fn log_density() {}\n"}, None),
        ("a path through a module the file declares, without `self::`",
         {"vmf/a.rs": "mod c;\npub fn f() { c::g(); }\n", "vmf/a/c.rs": "pub fn g() { super::f(); }\n",
          "vmf/mod.rs": fast_vmf["vmf/mod.rs"] + "mod a;\n"}, "file cycle: src/vmf/a.rs ↔ src/vmf/a/c.rs"),
        ("a path in an inline module is read from that module",
         {"vmf/a.rs": "pub fn f() {}\nmod inner { pub fn g() { super::f(); } }\n",
          "vmf/mod.rs": fast_vmf["vmf/mod.rs"] + "mod a;\npub fn h() { a::f(); }\n"}, None),
        ("a path through a module the file imports",
         {"vmf/a.rs": "use crate::vmf::{self, b};\npub fn f() { b::g(); }\n", "vmf/b.rs": "pub fn g() { crate::vmf::a::f(); }\n",
          "vmf/mod.rs": fast_vmf["vmf/mod.rs"] + "mod a;\nmod b;\n"}, "file cycle: src/vmf/a.rs ↔ src/vmf/b.rs"),
        ("a name a root re-exports and uses is an import",
         {"vmf/mod.rs": fast_vmf["vmf/mod.rs"] + "pub fn helper() { log_norm_const(); }\n",
          "vmf/normaliser.rs": "use crate::vmf::input::check;\nuse super::helper;\npub fn log_norm_const() {}\n"},
         "file cycle: src/vmf/mod.rs ↔ src/vmf/normaliser.rs"),
        ("a root's re-export is no import of the file it re-exports",
         {"vmf/mod.rs": fast_vmf["vmf/mod.rs"] + "pub fn helper() {}\n",
          "vmf/normaliser.rs": "use crate::vmf::input::check;\nuse super::helper;\npub fn log_norm_const() {}\n"}, None),
    ]
    train_cases = [
        ("the training crate: a cycle between two files",
         {"a.rs": "use crate::b::g;\npub fn f() {}\n", "b.rs": "pub fn g() { crate::a::f(); }\n"},
         "file cycle: src/a.rs ↔ src/b.rs"),
        ("the training crate: through a module's re-export",
         {"m.rs": "mod a;\npub use a::f;\n", "m/a.rs": "pub fn f() { crate::b::g(); }\n",
          "b.rs": "use crate::m::f;\npub fn g() {}\n"}, "file cycle: src/b.rs ↔ src/m/a.rs"),
        ("the training crate: a test module, the program and lib.rs are left out",
         {"a.rs": "pub fn f() {}\n#[cfg(test)]\nmod tests { use crate::b::g; }\n",
          "b.rs": "use crate::a::f;\npub fn g() {}\n", "lib.rs": "pub mod a;\npub mod b;\nuse crate::b::g;\n",
          "bin/p.rs": "use crate::a::f;\n"}, None),
    ]
    failures = []
    for name, files, expect in cases:
        with tempfile.TemporaryDirectory() as tmp:
            for rel, text in {**fast_vmf, **files}.items():
                os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
                with open(os.path.join(tmp, rel), "w", encoding="utf-8") as f:
                    f.write(text)
            failed, lines = check([(tmp, None)])
            text = "\n".join(lines)
            if expect is None and failed:
                failures.append(f"{name}: flagged a clean tree:\n{text}")
            elif expect is not None and (not failed or expect not in text):
                failures.append(f"{name}: wanted a failure naming `{expect}`, got:\n{text}")
    for name, files, expect in train_cases:
        with tempfile.TemporaryDirectory() as tmp:
            for rel, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
                with open(os.path.join(tmp, rel), "w", encoding="utf-8") as f:
                    f.write(text)
            failed, lines = check_train(tmp)
            text = "\n".join(lines)
            if expect is None and failed:
                failures.append(f"{name}: flagged a clean tree:\n{text}")
            elif expect is not None and (not failed or expect not in text):
                failures.append(f"{name}: wanted a failure naming `{expect}`, got:\n{text}")
    cases += train_cases
    for failure in failures:
        print(failure)
    print(f"check-imports self-test: {len(cases) - len(failures)} of {len(cases)} cases as expected")
    return not failures


def main():
    if "--self-test" in sys.argv:
        sys.exit(0 if self_test() else 1)
    if "--train" in sys.argv:
        failed, lines = check_train(TRAIN_ROOT, graph="--graph" in sys.argv)
    else:
        failed, lines = check(ROOTS, graph="--graph" in sys.argv)
    print("\n".join(lines))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
