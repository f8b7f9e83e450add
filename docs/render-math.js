// mdBook preprocessor: renders the book's math to HTML with KaTeX when the book is built, so that
// no JavaScript runs in the reader's browser. `$$…$$` is display math, `$…$` inline math.
//
// KaTeX is the npm package pinned and integrity-checked by scripts/fetch-katex.sh (docs/src/katex/,
// the same files whose stylesheet and fonts the pages load), so the HTML and the stylesheet always
// come from one KaTeX release. Options as the book has always been rendered: HTML output only (no
// MathML), `throwOnError`. A formula KaTeX cannot parse fails the build, naming the chapter, the
// line and KaTeX's message: a book never ships a raw `$…$`.
//
// Where math is (`formulas` below, also used by scripts/check-docs.js):
//   * a backslash skips the next character, so `\$` is a dollar sign, not a delimiter;
//   * a run of n backticks opens code that ends at the next run of exactly n backticks (a longer
//     run is skipped whole): code spans and fenced blocks hold no math;
//   * `$$` opens display math and `$` inline math; each ends at the next unescaped closing
//     delimiter of its kind (one preceded by an even number of backslashes).
// An opening delimiter without its closing one, or a code span without its end, ends the scan:
// the rest of the chapter stays text, as Markdown would show it.
//
// Markdown runs after this preprocessor, over the rendered HTML: it keeps the tags but parses the
// text between them. So the HTML has no newline (KaTeX's line breaks become spaces: Markdown keeps
// it inside its paragraph, list item or table row), and the characters Markdown would act on in
// KaTeX's text are written as character references (`markdownSafe`): the ASCII `~` that KaTeX
// draws for `\tilde` paired up with the next one as ~~strikethrough~~ across formulas (chapter 06
// showed κ̃ struck out), `|` would split a table cell, `*`, `_`, `[`, `]` and `\` could start
// emphasis, links or escapes.
//
// Protocol (mdBook 0.5): `node render-math.js supports <renderer>` exits 0 for every renderer;
// otherwise stdin holds `[context, book]` as JSON and stdout receives the book.
"use strict";

const path = require("path");

// The math of `text`: [{ start, end, tex, display }], `start`/`end` the byte range of the whole
// formula with its delimiters (JavaScript string indices).
function formulas(text) {
  const found = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\") {
      i += 2;
    } else if (c === "`") {
      let n = 0;
      while (text[i + n] === "`") n++;
      const fence = "`".repeat(n);
      let j = i + n;
      for (;;) {
        const k = text.indexOf(fence, j);
        if (k < 0) return found;
        j = k + n;
        if (text[j] !== "`") break;
        while (text[j] === "`") j++;
      }
      i = j;
    } else if (c === "$") {
      const display = text[i + 1] === "$";
      const delimiter = display ? "$$" : "$";
      const begin = i + delimiter.length;
      let k = begin;
      for (;;) {
        k = text.indexOf(delimiter, k);
        if (k < 0) return found;
        let backslashes = 0;
        while (text[k - 1 - backslashes] === "\\") backslashes++;
        if (backslashes % 2 === 0) break;
        k += delimiter.length;
      }
      found.push({ start: i, end: k + delimiter.length, tex: text.slice(begin, k), display });
      i = k + delimiter.length;
    } else {
      i++;
    }
  }
  return found;
}

// The options the book is rendered with (KaTeX's defaults otherwise).
function options(display) {
  return { displayMode: display, output: "html", throwOnError: true };
}

// `html` with every Markdown-active character of its text (not of its tags) as a character
// reference, which Markdown passes through as the character itself.
function markdownSafe(html) {
  return html
    .replace(/\n/g, " ")
    .replace(/>([^<]+)</g, (_, text) => `>${text.replace(/[\\`*_~|[\]]/g, (c) => `&#${c.charCodeAt(0)};`)}<`);
}

function renderChapter(katex, name, text) {
  let out = "";
  let at = 0;
  for (const f of formulas(text)) {
    let html;
    try {
      html = katex.renderToString(f.tex, options(f.display));
    } catch (e) {
      const line = text.slice(0, f.start).split("\n").length;
      throw new Error(`${name}, line ${line}: KaTeX cannot render ${JSON.stringify(f.tex.slice(0, 60))}: ${String(e.message).split("\n")[0]}`);
    }
    out += text.slice(at, f.start) + markdownSafe(html);
    at = f.end;
  }
  return out + text.slice(at);
}

function renderItems(katex, items) {
  for (const item of items) {
    if (!item || typeof item !== "object" || !item.Chapter) continue;
    const chapter = item.Chapter;
    chapter.content = renderChapter(katex, chapter.source_path || chapter.name, chapter.content);
    renderItems(katex, chapter.sub_items || []);
  }
}

module.exports = { formulas, options, markdownSafe };

if (require.main === module) {
  if (process.argv[2] === "supports") process.exit(0);
  const katex = require(path.join(__dirname, "src/katex/katex.min.js"));
  let input = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => (input += chunk));
  process.stdin.on("end", () => {
    const [, book] = JSON.parse(input);
    try {
      renderItems(katex, book.items || book.sections || []);
    } catch (e) {
      console.error(`render-math: ${e.message}`);
      process.exit(1);
    }
    process.stdout.write(JSON.stringify(book));
  });
}
