// Opens the built book and API docs in headless Chromium and checks what a reader without
// network access sees (run by scripts/check-docs.sh, which builds them first).
//
// Every book chapter (each link of the sidebar) and every API page with a formula is opened from
// file://. A page fails when
//   * it requests anything that is not a file of the build (http, https, ws, …): such requests
//     are aborted before they leave the machine and reported;
//   * a `.katex` element does not get KaTeX's font (computed font-family not KaTeX_*), or a
//     KaTeX font face it uses did not load (the CSS or the fonts are missing);
//   * a formula failed to render (`.katex-error`, or no `.katex` at all on an API page that
//     has `$…$` in its source);
//   * a numbered chapter's displayed number (sidebar entry and page title) is not its file
//     name's two-digit prefix.
// One full-page screenshot per chapter goes to docs/book/screenshots/<chapter>.png.
//
// Usage: node scripts/check-docs.js <book dir> <rustdoc dir|-> <chromium executable>
"use strict";

const fs = require("fs");
const path = require("path");
const { pathToFileURL } = require("url");

const [bookDir, docDir, executable] = process.argv.slice(2);
const root = path.resolve(__dirname, "..");
const { chromium } = require(path.join(root, "tools/node/node_modules/playwright-core"));

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
  for (const el of document.querySelectorAll(".katex-error")) {
    bad.push(`formula failed to render: ${el.getAttribute("title") || el.textContent.slice(0, 60)}`);
  }
  return { count: math.length, bad, loadedFaces: loadedFaces.length };
}

async function main() {
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
  const failures = [];
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
    const prefix = /^(\d{2})-/.exec(file);
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
    for (const p of pages) {
      const rel = path.relative(docDir, p);
      await page.goto(pathToFileURL(p).href, { waitUntil: "load" });
      // Rendering runs after two chained script loads; the header marks the page when done.
      const rendered = await page
        .waitForFunction(() => document.documentElement.dataset.katexRendered === "true", null, { timeout: 10000 })
        .then(() => true, () => false);
      // Redirect pages (rustdoc's re-export stubs) carry no header and no docs.
      const isRedirect = await page.evaluate(() => document.querySelector('meta[http-equiv="refresh"]') !== null || document.querySelector("#main-content") === null);
      if (isRedirect) continue;
      if (!rendered) {
        fail(rel, "KaTeX never finished rendering (scripts missing?)");
        continue;
      }
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      const result = await page.evaluate(inspectMath);
      // A `$` left in prose (outside code) is a formula that was not rendered.
      const leftover = await page.evaluate(() => {
        const found = [];
        for (const block of document.querySelectorAll(".docblock, .docblock-short")) {
          const copy = block.cloneNode(true);
          copy.querySelectorAll("code, pre, .katex").forEach((c) => c.remove());
          const m = /.{0,30}\$.{0,30}/.exec(copy.textContent);
          if (m) found.push(m[0]);
        }
        return found;
      });
      apiMath += result.count;
      for (const b of result.bad) fail(rel, b);
      for (const l of leftover) fail(rel, `unrendered math: ${l}`);
      if (process.env.CHECK_DOCS_VERBOSE) console.log(`check-docs: ${rel}: ${result.count} formulas`);
    }
    if (apiMath === 0) fail(docDir, "no formula rendered in the API docs");
    console.log(`check-docs: ${pages.length} API pages, ${apiMath} formulas rendered`);
  }
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
