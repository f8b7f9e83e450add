// Opens the built book and API docs in headless Chromium and checks what a reader without
// network access sees (run by scripts/check-docs.sh, which builds them first).
//
// Every book chapter (each link of the sidebar) and every API page with a formula is opened from
// file://. A page fails when
//   * it requests anything that is not a file of the build (http, https, ws, …): such requests
//     are aborted before they leave the machine and reported;
//   * a `.katex` element does not get KaTeX's font (computed font-family not KaTeX_*), or a
//     KaTeX font face it uses did not load (the CSS or the fonts are missing);
//   * a formula failed to render (`.katex-error`, or a `$` left in the text outside code: raw
//     `$…$` on the page);
//   * a numbered chapter has no formula at all (its mathematics written in code font instead);
//   * a numbered chapter's displayed number (sidebar entry and page title) is not its file
//     name's two-digit prefix.
// One full-page screenshot per chapter goes to docs/book/screenshots/<chapter>.png.
//
// Before any page is opened, every formula of the book's chapters must parse in KaTeX (the
// copy in docs/src/katex/ that renders the book, found as docs/render-math.js finds them:
// bookMath below), every
// numbered chapter must hold formulas, and
// the doc sources (docs/src/**/*.md and the doc comments of src/**/*.rs and crates/*/src/**/*.rs) must hold no control character (controlCharacters below: the trace of a TeX
// command whose backslash became a string escape, `\t` in `\tfrac`, `\b` in `\bigl`), no formula
// of theirs may hold a line break where a `\n` was eaten the same way (`j_{⏎u,k}` for
// `j_{\nu,k}`, or a doc comment's line going on without its `///`: eatenNewline below), and the
// doc comments (`///`, `//!`) of src/**/*.rs and crates/*/src/**/*.rs are read the way
// rustdoc's Markdown reads them (docMathEscapes below). The check fails on a backslash inside
// `$…$` or `$$…$$` that Markdown eats with no error, so that KaTeX gets another formula than
// the one written:
//   * a single backslash before ASCII punctuation: `\,` `\;` `\!` `\{` `\}` `\|` `\#` `\&` …
//     reach KaTeX as `,` `;` `!` `{` `}` `|` … (thin spaces render as commas, set braces and norm
//     bars vanish). Write `\\,`, `\\!`, `\lbrace … \rbrace`, `\Vert`. `\_` and `\*` are
//     allowed: there they are Markdown escapes that keep `_`/`*` from pairing into emphasis,
//     and the `_`/`*` that KaTeX then gets (a subscript, a star) is what is meant — except
//     `\_` inside `\text{…}` (or `\mbox{…}`), where KaTeX needs `\_` itself: write `\\_`;
//   * a TeX line break `\\` before a space or the end of the line (rows of `pmatrix`, `cases`):
//     Markdown makes it `\`, a control space, and the rows merge into one. Write `\\\\`;
//   * a single backslash at the end of a line, which Markdown reads as a hard line break;
//   * a line of a formula that starts (after at most 3 spaces) like a list item (`+ `, `- `),
//     a block quote or a heading: Markdown ends the paragraph there and the formula is split.
// The book's chapters need no such care: docs/render-math.js renders their math before Markdown
// runs (and writes the characters Markdown would act on as character references).
//
// With a fourth argument, the `cargo doc` output of a crate that depends on probdml, built with
// no RUSTDOCFLAGS and where no local KaTeX copy can be found (checkUserDoc below), its probdml
// pages are opened too: the loader that the docs carry inline must fall back to the pinned KaTeX
// release on its CDN, which is served here from docs/src/katex/ so that the Subresource Integrity
// hashes are checked against the real files; every other request fails the page.
//
// Usage: node scripts/check-docs.js <book dir> <rustdoc dir|-> <chromium executable> [<user doc dir>]
//        node scripts/check-docs.js --doc-comments   (only the doc-comment check; no browser)
"use strict";

const fs = require("fs");
const path = require("path");
const { pathToFileURL } = require("url");
const renderMath = require(path.join(__dirname, "../docs/render-math.js"));

const [bookDir, docDir, executable, userDocDir] = process.argv.slice(2);
const root = path.resolve(__dirname, "..");

// ASCII punctuation: what CommonMark lets a backslash escape.
const ASCII_PUNCTUATION = /[!-\/:-@\[-`{-~]/;
// The start of a line that opens a Markdown block (up to 3 spaces of indentation): a list item
// (`+ `, `- `, `* `, `1. `, `1) `), a block quote or an ATX heading.
const BLOCK_START = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?: |$)|^ {0,3}(?:>|#{1,6}(?: |$))/;
// The string escapes whose letter also starts TeX commands, by the character they leave: a tool
// that reads the `\n` of `\nu` as an escape writes a newline and `u`, the `\t` of `\tau` a tab
// and `au`, `\r` (`\rho`) a carriage return, `\b` (`\beta`) a backspace, `\f` (`\frac`) a form
// feed, `\a` (`\alpha`) a bell, `\v` (`\vec`) a vertical tab.
const STRING_ESCAPES = { "\n": "n", "\t": "t", "\r": "r", "\b": "b", "\f": "f", "\x07": "a", "\x0b": "v" };

// Whether `\name` is a command of the KaTeX that renders the docs (`katex` may be null: then
// none is). Asking KaTeX itself, rather than keeping a list, covers every command a formula could
// have held: `\nu`, `\nabla`, `\ne`, `\ni`, `\not`, `\notin`, `\newline`, `\nleq`, …
function texCommands(katex) {
  const known = new Map();
  return (name) => {
    if (!katex) return false;
    if (!known.has(name)) {
      let defined = true;
      try {
        katex.renderToString(`\\${name}`, renderMath.options(false));
      } catch (e) {
        // `\frac` alone is a command missing its arguments, `\nuk` is no command at all.
        defined = !/Undefined control sequence/.test(String(e.message));
      }
      known.set(name, defined);
    }
    return known.get(name);
  };
}

// The trace of a `\n` eaten inside a formula, `before` and `after` being the formula's text on
// either side of one of its line breaks: `j_{⏎u,k}` (from `j_{\nu,k}`), `(⏎abla f)`. A line that
// ends in the middle of a formula right after a character that is neither a letter, a space nor
// a backslash (`{`, `(`, `_`, `^`, an operator, a digit, a closing bracket), followed by a line
// that starts, unindented, with letters that make a KaTeX command once an `n` is put in front:
// reflowed text breaks lines at spaces, so it never leaves that shape, and a legitimate line
// break after a letter (`\delta⏎u` from `\delta u`) or a `\\` row break is not taken for one.
// An empty `before` counts in inline math only (`$⏎u$`): display math often opens on a line of
// its own. Returns the formula's text around the break with `\n` put back, or null.
function eatenNewline(before, after, isCommand, display) {
  if (before === "" ? display : /[\sA-Za-z\\]/.test(before.slice(-1))) return null;
  const tail = /^[A-Za-z]+/.exec(after);
  if (!tail || !isCommand(`n${tail[0]}`)) return null;
  return { command: `\\n${tail[0]}`, near: visible(`${before.slice(-20).trimStart()}\\n${after.slice(0, 20).trimEnd()}`) };
}

// The finding for an eaten `\n` at `line`.
function eatenNewlineFinding(line, eaten) {
  return {
    line,
    what: `a line break where ${eaten.command} should be (its \\n read as a newline escape; KaTeX renders another formula)`,
    near: eaten.near,
  };
}

// The backslashes in the math of one file's doc comments that Markdown changes (see the header),
// and the `\n`s eaten in it (eatenNewline), as { line, what, near } (`near`: the text around
// it). A doc comment is a run of consecutive `///` (or `//!`) lines; fenced
// code blocks and code spans in it are skipped; a `$` that never closes is prose, not math.
// `isCommand` tells KaTeX's commands (texCommands).
function docMathEscapes(source, isCommand = () => false) {
  const blocks = [];
  let block = null;
  source.split("\n").forEach((line, index) => {
    const m = /^\s*(\/\/\/|\/\/!)(?![\/!]) ?(.*)$/.exec(line);
    if (!m) {
      // A `\n` eaten in a doc comment leaves the rest of the line without its `///`: the comment
      // goes on there for this check, so that the formula it cut is seen whole.
      const tail = /^[A-Za-z]+/.exec(line);
      if (block && block.last === index - 1 && tail && isCommand(`n${tail[0]}`)) {
        block.lines.push([index + 1, line, true]);
        block.last = index;
      }
      return;
    }
    if (!block || block.kind !== m[1] || block.last !== index - 1) {
      block = { kind: m[1], lines: [] };
      blocks.push(block);
    }
    block.lines.push([index + 1, m[2], false]);
    block.last = index;
  });
  const found = [];
  for (const { lines } of blocks) {
    const cut = new Set(lines.filter(([, , raw]) => raw).map(([number]) => number));
    // The comment's text without the `///`, with each character's line number.
    let text = "";
    const lineOf = [];
    let fenced = false;
    for (const [number, content] of lines) {
      if (/^\s*(```|~~~)/.test(content)) fenced = !fenced;
      else if (!fenced) {
        text += content;
        for (let k = 0; k < content.length; k++) lineOf.push(number);
      }
      text += "\n";
      lineOf.push(number);
    }
    let math = null; // { delimiter, start, pending }
    for (let i = 0; i < text.length; ) {
      const c = text[i];
      if (!math && c === "`") {
        let n = 0;
        while (text[i + n] === "`") n++;
        const close = text.indexOf("`".repeat(n), i + n);
        i = close < 0 ? i + n : close + n;
        continue;
      }
      if (c === "\\") {
        let n = 0;
        while (text[i + n] === "\\") n++;
        const next = text[i + n];
        if (math && next !== undefined) {
          const finding = (what) =>
            math.pending.push({ line: lineOf[i], what, near: text.slice(Math.max(math.start, i - 30), i + n + 12).replace(/\s+/g, " ") });
          if (n % 2 === 1 && next === "\n") {
            finding("a backslash at the end of a line is a Markdown hard line break");
          } else if (n % 2 === 1 && next === "_" && inTextMode(text.slice(math.start, i))) {
            finding("\\_ inside \\text{} reaches KaTeX as _, a parse error there (write \\\\_)");
          } else if (n % 2 === 1 && ASCII_PUNCTUATION.test(next) && next !== "_" && next !== "*") {
            const instead = { "{": "\\lbrace", "}": "\\rbrace", "|": "\\Vert" }[next] || `\\\\${next}`;
            finding(`\\${next} reaches KaTeX as ${next} (write ${instead})`);
          } else if (n === 2 && /\s/.test(next)) {
            finding("the line break \\\\ reaches KaTeX as \\ (write \\\\\\\\)");
          }
        }
        // An odd run escapes the character after it, which then is no delimiter.
        i += n % 2 === 1 ? n + 1 : n;
        continue;
      }
      if (math && c === "\n") {
        const end = text.indexOf("\n", i + 1);
        const next = text.slice(i + 1, end < 0 ? text.length : end);
        const from = Math.max(text.lastIndexOf("\n", i - 1) + 1, math.start + math.delimiter.length);
        if (cut.has(lineOf[i + 1])) {
          // A line that lost its `///` inside a formula is never right: reported whatever the
          // line before ends with (`$$ ⏎abla`), and whether or not the formula closes.
          const tail = /^[A-Za-z]+/.exec(next)[0];
          const near = visible(`${text.slice(from, i).slice(-20).trimStart()}\\n${next.slice(0, 20).trimEnd()}`);
          found.push(eatenNewlineFinding(lineOf[i], { command: `\\n${tail}`, near }));
        } else {
          const eaten = eatenNewline(text.slice(from, i), next, isCommand, math.delimiter === "$$");
          if (eaten) math.pending.push(eatenNewlineFinding(lineOf[i], eaten));
        }
        if (BLOCK_START.test(next)) {
          math.pending.push({
            line: lineOf[i + 1],
            what: "a line of a formula that starts like a list item, block quote or heading ends the paragraph, and the formula with it (move the operator to the end of the previous line)",
            near: next.trim().slice(0, 40),
          });
        }
        i++;
        continue;
      }
      if (c === "$") {
        const delimiter = text[i + 1] === "$" ? "$$" : "$";
        if (!math) {
          math = { delimiter, start: i, pending: [] };
        } else if (math.delimiter === "$$" && delimiter === "$") {
          i += 1;
          continue;
        } else {
          found.push(...math.pending);
          math = null;
        }
        i += delimiter.length;
        continue;
      }
      i++;
    }
  }
  return found;
}

// Whether the end of `before` (a formula's source up to some point) lies inside the argument of
// \text, \textrm, \textit, … or \mbox: the innermost `{` not yet closed follows one of them.
function inTextMode(before) {
  let depth = 0;
  for (let k = before.length - 1; k >= 0; k--) {
    if (before[k] === "}") depth++;
    else if (before[k] === "{" && depth > 0) depth--;
    else if (before[k] === "{") return /\\(text[a-z]*|mbox)\s*$/.test(before.slice(0, k));
  }
  return false;
}

// The control characters (C0 and DEL, except the newline) in `text`, as { line, what, near }. A
// TeX command whose backslash was read as a string escape turns into one: `\tfrac` becomes a tab
// and `frac`, `\bigl` a backspace and `igl`, `\r` a carriage return. KaTeX then renders another
// formula ("frac12" as text) or none (the formula stays raw `$…$` on the page), and nothing else
// complains, so a doc source holds none of them: not even a tab, which no chapter needs. Where
// the letters after one make a KaTeX command with the escape's letter (`isCommand`), the finding
// names the command that was meant: a tab and `au` are `\tau`.
function controlCharacters(text, firstLine = 1, isCommand = () => false) {
  const found = [];
  text.split("\n").forEach((line, index) => {
    for (const m of line.matchAll(/[\x00-\x09\x0b-\x1f\x7f]/g)) {
      const code = m[0].charCodeAt(0).toString(16).padStart(2, "0").toUpperCase();
      const near = visible(line.slice(Math.max(0, m.index - 20), m.index + 20));
      const letter = STRING_ESCAPES[m[0]];
      const tail = /^[A-Za-z]+/.exec(line.slice(m.index + 1));
      const what =
        letter && tail && isCommand(letter + tail[0])
          ? `control character U+00${code} where \\${letter}${tail[0]} should be (its \\${letter} read as a string escape)`
          : `control character U+00${code} (a lost \\ before a TeX command?)`;
      found.push({ line: firstLine + index, what, near });
    }
  });
  return found;
}

// `text` with its control characters spelled out (`\x08`), so that a report shows them.
function visible(text) {
  return text.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

// A Rust file's lines with every line that is not a doc comment (`///`, `//!`) blanked, so that
// line numbers stay those of the file.
function docCommentLines(source) {
  return source.split("\n").map((line) => (/^\s*(\/\/\/|\/\/!)(?![\/!])/.test(line) ? line : ""));
}

// Every finding of docMathEscapes in src/**/*.rs and crates/*/src/**/*.rs and of controlCharacters in their doc comments and
// in the book's sources (docs/src/**/*.md), and of bookMath in the latter, as failure lines.
function checkDocComments() {
  const failures = [];
  const walk = (dir, visit) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p, visit);
      else visit(p);
    }
  };
  const report = (p, f) => failures.push(`${path.relative(root, p)}:${f.line}: ${f.what}, near "${f.near}"`);
  const katexScript = path.join(root, "docs/src/katex/katex.min.js");
  const katex = fs.existsSync(katexScript) ? require(katexScript) : null;
  if (!katex) failures.push(`${path.relative(root, katexScript)}: missing (bash scripts/fetch-katex.sh)`);
  const isCommand = texCommands(katex);
  for (const dir of ["src", "crates"]) {
    walk(path.join(root, dir), (p) => {
      if (!p.endsWith(".rs")) return;
      const source = fs.readFileSync(p, "utf8");
      for (const f of docMathEscapes(source, isCommand)) report(p, f);
      for (const f of controlCharacters(docCommentLines(source).join("\n"), 1, isCommand)) report(p, f);
    });
  }
  walk(path.join(root, "docs/src"), (p) => {
    if (!p.endsWith(".md") || p.startsWith(path.join(root, "docs/src/katex"))) return;
    const text = fs.readFileSync(p, "utf8");
    for (const f of controlCharacters(text, 1, isCommand)) report(p, f);
    if (katex) {
      const { count, errors } = bookMath(text, katex, isCommand);
      for (const f of errors) report(p, f);
      // A numbered chapter states equations; written in Unicode in code font instead, they
      // escape every check here.
      if (count === 0 && /^\d{2}-/.test(path.basename(p))) {
        report(p, { line: 1, what: "no formula: write the chapter's mathematics as $…$ / $$…$$", near: path.basename(p) });
      }
    }
  });
  return failures;
}

// The number of formulas of a book chapter and those that KaTeX refuses or that lost a `\n`
// (eatenNewline; KaTeX takes `j_{⏎u,k}` without a complaint) ({ count, errors }, each error as
// { line, what, near }), found where the book's renderer (docs/render-math.js) finds them and
// parsed with its options, before anything is built.
function bookMath(text, katex, isCommand) {
  const found = [];
  const all = renderMath.formulas(text);
  for (const f of all) {
    const lines = f.tex.split("\n");
    const first = text.slice(0, f.start).split("\n").length;
    for (let k = 0; k + 1 < lines.length; k++) {
      const eaten = eatenNewline(lines[k], lines[k + 1], isCommand, f.display);
      if (eaten) found.push(eatenNewlineFinding(first + k, eaten));
    }
    try {
      katex.renderToString(f.tex, renderMath.options(f.display));
    } catch (e) {
      const line = text.slice(0, f.start).split("\n").length;
      found.push({
        line,
        what: `KaTeX cannot render this formula (${visible(String(e.message).split("\n")[0].slice(0, 90))}); the book would not build`,
        near: visible(f.tex.slice(0, 50)),
      });
    }
  }
  return { count: all.length, errors: found };
}

if (bookDir === "--doc-comments") {
  const failures = checkDocComments();
  for (const f of failures) console.error(`check-docs: FAIL ${f}`);
  if (failures.length > 0) {
    console.error(`check-docs: ${failures.length} places in the doc sources that change the rendered math`);
    process.exit(1);
  }
  console.log("check-docs: doc sources: no control character, no formula cut where a \\n was eaten, every book formula parses in KaTeX, no doc-comment math that Markdown changes");
  process.exit(0);
}

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// Runs in the page: the KaTeX findings.
function inspectMath() {
  const bad = [];
  const math = Array.from(document.querySelectorAll(".katex"));
  for (const el of math) {
    const family = getComputedStyle(el).fontFamily;
    if (!/KaTeX_/.test(family)) {
      bad.push(`.katex without KaTeX's font (font-family: ${family}): ${el.textContent.slice(0, 40)}`);
      if (bad.length > 5) break;
    }
  }
  const faces = [];
  document.fonts.forEach((f) => {
    if (f.family.replace(/"/g, "").startsWith("KaTeX_")) faces.push([f.family, f.weight, f.style, f.status]);
  });
  const failedFaces = faces.filter(([, , , status]) => status === "error");
  const loadedFaces = faces.filter(([, , , status]) => status === "loaded");
  if (math.length > 0 && loadedFaces.length === 0) bad.push("no KaTeX font face loaded");
  for (const [family, weight, style] of failedFaces) bad.push(`font face ${family} ${weight} ${style} failed to load`);
  // KaTeX writes spans (and SVG) only: an element of Markdown inside a formula means Markdown parsed
  // the rendered HTML's text (a `\tilde`'s "~" paired with the next one as strikethrough).
  for (const el of document.querySelectorAll(".katex :is(del, s, em, strong, a, code, img)")) {
    bad.push(`Markdown inside a formula (<${el.tagName.toLowerCase()}>): ${el.closest(".katex").textContent.slice(0, 60)}`);
  }
  for (const el of document.querySelectorAll(".katex-error")) {
    bad.push(`formula failed to render: ${el.getAttribute("title") || el.textContent.slice(0, 60)}`);
  }
  return { count: math.length, bad, loadedFaces: loadedFaces.length };
}

// Runs in the page: a `$` left in the text of `selector`'s elements outside code and rendered
// math is a formula that was not rendered (KaTeX gave up on it, or a delimiter
// lost its partner), as the text around each.
function leftoverDollars(selector) {
  const found = [];
  for (const block of document.querySelectorAll(selector)) {
    const copy = block.cloneNode(true);
    copy.querySelectorAll("code, pre, .katex, .katex-display").forEach((c) => c.remove());
    // One finding per raw formula: a `$`, up to its partner when there is one.
    for (const m of copy.textContent.matchAll(/.{0,30}\$(?:[^$]{0,160}\$)?.{0,20}/g)) {
      found.push(m[0].replace(/\s+/g, " "));
    }
  }
  return found;
}

// Whether a rustdoc page's own text (not its scripts, comments, code or metadata) holds a `$`:
// a formula, rendered or not.
function pageHasFormula(html) {
  const text = html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<pre[\s\S]*?<\/pre>/g, "")
    .replace(/<code[\s\S]*?<\/code>/g, "")
    .replace(/<(meta|title)[^>]*>[^<]*/g, "");
  return text.includes("$");
}

// The rustdoc pages under `dir` (recursively), without redirect stubs, as [path, html].
function rustdocPages(dir) {
  const pages = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".html")) {
        const html = fs.readFileSync(p, "utf8");
        if (!/http-equiv="refresh"/.test(html) && /id="main-content"/.test(html)) pages.push([p, html]);
      }
    }
  };
  walk(dir);
  return pages;
}

// Runs `work(page, item)` for every item with a few pages of `context` open at once: a page
// spends most of its time waiting (on the renderer, on fonts), so pages in flight overlap that
// waiting with another's rendering. Two more pages than cores: this whole script took 214 s with
// one page at a time, 103 s with 4 and 105 s with 8 (2-core Intel Xeon, ~510 API and user pages).
async function inPagePool(context, items, work) {
  const width = Math.min(items.length, require("os").cpus().length + 2);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      const page = await context.newPage();
      while (next < items.length) await work(page, items[next++]);
      await page.close();
    }),
  );
}

// Opens `url` in `page` and waits for the loader's mark (docs/katex-header.html): "true" when it
// is done, "missing <file>" when no copy of KaTeX could be loaded, "" when it never finished.
async function katexState(page, url) {
  let state = "";
  // A page that is merely slow (a loaded CI machine once took over 10 s for one) is reloaded
  // once before it counts as a failure, with a generous wait each time.
  for (let attempt = 0; attempt < 2 && state === ""; attempt++) {
    await page.goto(url, { waitUntil: "load" });
    state = await page
      .waitForFunction(() => document.documentElement.dataset.katexRendered || null, null, { timeout: 45000 })
      .then((h) => h.jsonValue(), () => "");
  }
  return state;
}

// probdml's pages in `dir/probdml` as a user's plain `cargo doc` writes them: no header, no
// KaTeX next to them. Each page of probdml's own (its heading links to a file of src/probdml/)
// that is the crate root, a module or shows a formula must carry the loader inline, and is
// opened: it must render with KaTeX fetched from the CDN.
// The CDN is played by a route that serves docs/src/katex/ for exactly the pinned release's URLs
// (with the CORS header that Subresource Integrity needs), so the committed hashes are checked
// against the files; any other request that leaves the machine fails. One more load, with
// katex.min.js altered in transit, must be refused. Pages with formulas that come from the other
// crates (the exact twins of probdml-reference, some inputs of probdml-core) carry no loader;
// they are counted, not failed: they render with the header (docs.rs, build-docs.sh).
async function checkUserDoc(browser, dir, fail) {
  const loader = fs.readFileSync(path.join(root, "docs/katex-header.html"), "utf8");
  const version = /katexVersion = "([^"]+)"/.exec(loader)[1];
  const cdn = `https://cdn.jsdelivr.net/npm/katex@${version}/dist/`;
  const katexDir = path.join(root, "docs/src/katex");
  const types = { ".js": "text/javascript", ".css": "text/css", ".woff2": "font/woff2", ".woff": "font/woff", ".ttf": "font/ttf" };
  const served = new Set();
  const elsewhere = [];
  const newContext = async (alter) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith("file://") || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
      if (url.startsWith(cdn)) {
        const rel = decodeURIComponent(url.slice(cdn.length).split(/[?#]/)[0]);
        const file = path.join(katexDir, rel);
        if (!file.startsWith(katexDir + path.sep) || !fs.existsSync(file)) {
          elsewhere.push(`${url} (no such file in the release)`);
          return route.fulfill({ status: 404, headers: { "Access-Control-Allow-Origin": "*" }, body: "" });
        }
        let body = fs.readFileSync(file);
        if (alter && rel === "katex.min.js") body = Buffer.concat([body, Buffer.from("\n/* altered */\n")]);
        served.add(rel.startsWith("fonts/") ? "fonts/" : rel);
        return route.fulfill({
          status: 200,
          headers: { "Access-Control-Allow-Origin": "*", "Content-Type": types[path.extname(rel)] || "application/octet-stream" },
          body,
        });
      }
      let from = "?";
      try {
        from = route.request().frame().url();
      } catch (_) {}
      elsewhere.push(`${from} -> ${url}`);
      return route.abort("blockedbyclient");
    });
    return context;
  };

  const pages = rustdocPages(path.join(dir, "probdml"));
  const context = await newContext(false);
  let math = 0;
  let elsewhereMath = 0;
  const toOpen = [];
  for (const [p, html] of pages) {
    const rel = path.relative(dir, p);
    const own = /class="sub-heading"><a class="src" href="[^"]*\bsrc\/probdml\//.test(html);
    const formula = pageHasFormula(html);
    if (!own) {
      if (formula) elsewhereMath++;
      continue;
    }
    if (!formula && !rel.endsWith("index.html")) continue;
    if (!html.includes("probdmlKatexLoader")) {
      fail(`user doc ${rel}`, "no KaTeX loader in the docs: end them with #[cfg_attr(doc, doc = include_str!(\"…/docs/katex-header.html\"))]");
      continue;
    }
    toOpen.push({ p, rel, formula });
  }
  await inPagePool(context, toOpen, async (page, { p, rel, formula }) => {
    const state = await katexState(page, pathToFileURL(p).href);
    if (state !== "true") {
      fail(`user doc ${rel}`, state === "" ? "KaTeX did not finish rendering within 45 s, twice" : `KaTeX not rendered: ${state}`);
      return;
    }
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const result = await page.evaluate(inspectMath);
    math += result.count;
    if (formula && result.count === 0) fail(`user doc ${rel}`, "a formula in the page, none rendered");
    for (const b of result.bad) fail(`user doc ${rel}`, b);
    for (const l of await page.evaluate(leftoverDollars, ".docblock, .docblock-short")) fail(`user doc ${rel}`, `unrendered math: ${l}`);
    if (process.env.CHECK_DOCS_VERBOSE) console.log(`check-docs: user doc ${rel}: ${result.count} formulas`);
  });
  const opened = toOpen.length;
  await context.close();
  if (!pages.some(([p]) => path.relative(dir, p) === "probdml/index.html")) fail(dir, "no probdml/index.html");
  if (math === 0) fail(dir, "no formula rendered in the user's docs");
  for (const want of ["katex.min.js", "katex.min.css", "contrib/auto-render.min.js", "fonts/"]) {
    if (!served.has(want)) fail(dir, `KaTeX's ${want} was never fetched from the CDN: the CDN fallback went unused`);
  }

  // Subresource Integrity at work: a katex.min.js that is not the pinned one is refused.
  const altered = await newContext(true);
  const state = await katexState(await altered.newPage(), pathToFileURL(path.join(dir, "probdml/index.html")).href);
  await altered.close();
  if (state !== "missing katex.min.js") fail(`user doc probdml/index.html`, `an altered katex.min.js from the CDN was not refused (state "${state}")`);

  for (const r of elsewhere) fail(dir, `request that is neither a file nor the pinned KaTeX on its CDN: ${r}`);
  console.log(
    `check-docs: user's cargo doc: ${opened} probdml pages opened, ${math} formulas rendered with KaTeX ${version} from the CDN (hashes checked, an altered file refused); ${elsewhereMath} pages with formulas from probdml-reference/probdml-core render with the header only`,
  );
}

async function main() {
  const { chromium } = require(path.join(root, "tools/node/node_modules/playwright-core"));
  const browser = await chromium.launch({
    executablePath: executable,
    headless: true,
    args: FLAGS,
  });
  // A fresh profile (Playwright's persistent context would reuse one): launch() gives each run
  // its own temporary --user-data-dir.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const offHost = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("file://") || url.startsWith("data:") || url.startsWith("blob:")) {
      return route.continue();
    }
    let from = "?";
    try {
      from = route.request().frame().url();
    } catch (_) {}
    offHost.push(`${from} -> ${url}`);
    return route.abort("blockedbyclient");
  });
  const failures = checkDocComments();
  const fail = (page, what) => failures.push(`${page}: ${what}`);

  // The chapters, in sidebar order, from the table of contents mdBook writes.
  const toc = fs.readFileSync(path.join(bookDir, "toc.html"), "utf8");
  const entries = [...toc.matchAll(/<a href="([^"#]+\.html)"[^>]*>(.*?)<\/a>/g)].map((m) => ({
    file: m[1],
    label: m[2].replace(/<[^>]+>/g, "").trim(),
  }));
  if (entries.length === 0) fail("toc.html", "no chapter links found");
  const shots = path.join(bookDir, "screenshots");
  fs.mkdirSync(shots, { recursive: true });

  const page = await context.newPage();
  let mathTotal = 0;
  for (const { file, label } of entries) {
    const url = pathToFileURL(path.join(bookDir, file)).href;
    await page.goto(url, { waitUntil: "load" });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const result = await page.evaluate(inspectMath);
    mathTotal += result.count;
    for (const b of result.bad) fail(file, b);
    for (const l of await page.evaluate(leftoverDollars, "main")) fail(file, `unrendered math: ${l}`);
    const prefix = /^(\d{2})-/.exec(file);
    // Every numbered chapter states equations; written in Unicode in code font they escape all
    // of the checks above.
    if (prefix && result.count === 0) fail(file, "no formula: write the chapter's mathematics as $…$ / $$…$$");
    const title = await page.evaluate(() => {
      const h = document.querySelector("main h1");
      return h ? h.textContent.trim() : "";
    });
    if (prefix) {
      const want = `${prefix[1]}. `;
      if (!label.startsWith(want)) fail(file, `sidebar shows "${label}", want it to start with "${want}"`);
      if (!title.startsWith(want)) fail(file, `page title is "${title}", want it to start with "${want}"`);
    } else if (/^\d/.test(label)) {
      fail(file, `unnumbered file shown with a number: "${label}"`);
    }
    await page.screenshot({ path: path.join(shots, file.replace(/\.html$/, ".png").replace(/\//g, "_")), fullPage: true });
    console.log(`check-docs: ${file}: ${result.count} formulas, ${result.loadedFaces} KaTeX faces loaded, "${label}"`);
  }
  if (mathTotal === 0) fail(bookDir, "no formula anywhere in the book");

  // The API docs: every page of the crate, rendered client-side by docs/katex-header.html.
  if (docDir !== "-") {
    const pages = [];
    const walk = (dir) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith(".html")) pages.push(p);
      }
    };
    walk(path.join(docDir, "probdml"));
    let apiMath = 0;
    // Redirect pages (rustdoc's re-export stubs) carry no header and no docs: read from disk,
    // so that no time goes into waiting for a render that never comes.
    const rendered = pages.filter((p) => {
      const html = fs.readFileSync(p, "utf8");
      return !/http-equiv="refresh"/.test(html) && /id="main-content"/.test(html);
    });
    await inPagePool(context, rendered, async (page, p) => {
      const rel = path.relative(docDir, p);
      // Rendering runs after two chained script loads; the header marks the page "true" when
      // done and "missing <file>" when a script fails to load. A page that is merely slow (a
      // loaded CI machine once took over 10 s for one) is reloaded once before it counts as a
      // failure, with a generous wait each time.
      const state = await katexState(page, pathToFileURL(p).href);
      if (state !== "true") {
        fail(rel, state === "" ? "KaTeX did not finish rendering within 45 s, twice" : `KaTeX not rendered: ${state}`);
        return;
      }
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      const result = await page.evaluate(inspectMath);
      const leftover = await page.evaluate(leftoverDollars, ".docblock, .docblock-short");
      apiMath += result.count;
      for (const b of result.bad) fail(rel, b);
      for (const l of leftover) fail(rel, `unrendered math: ${l}`);
      if (process.env.CHECK_DOCS_VERBOSE) console.log(`check-docs: ${rel}: ${result.count} formulas`);
    });
    if (apiMath === 0) fail(docDir, "no formula rendered in the API docs");
    console.log(`check-docs: ${pages.length} API pages, ${apiMath} formulas rendered`);
  }
  if (userDocDir) await checkUserDoc(browser, userDocDir, fail);
  await browser.close();

  for (const r of offHost) failures.push(`request to another host: ${r}`);
  if (failures.length > 0) {
    for (const f of failures) console.error(`check-docs: FAIL ${f}`);
    console.error(`check-docs: ${failures.length} failures`);
    process.exit(1);
  }
  console.log(`check-docs: ${entries.length} chapters, ${mathTotal} book formulas, no request left the machine; screenshots in ${shots}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
