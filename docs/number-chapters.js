// mdBook preprocessor: numbers every chapter by its file name, so that the book's numbers are
// the file names' (01 … 09) whichever chapters exist. `05-triplet.md` is shown as
// "05. <its title>" in the sidebar, the page title and its first heading; files without a
// two-digit prefix (the introduction) stay unnumbered. mdBook's own section labels ("1.", "2.",
// counted by position in SUMMARY.md) are turned off in book.toml (`no-section-label`), so a
// chapter added to SUMMARY.md needs no number of its own and cannot shift the others.
//
// Protocol (mdBook 0.5): `node number-chapters.js supports <renderer>` exits 0 for every
// renderer; otherwise stdin holds `[context, book]` as JSON and stdout receives the book.
"use strict";

if (process.argv[2] === "supports") {
  process.exit(0);
}

const PREFIX = /^(\d{2})-[^/]*\.md$/;

function number(items) {
  for (const item of items) {
    if (!item || typeof item !== "object" || !item.Chapter) continue;
    const chapter = item.Chapter;
    const file = (chapter.source_path || chapter.path || "").split("/").pop();
    const match = PREFIX.exec(file);
    if (match) {
      const label = `${match[1]}. `;
      if (!chapter.name.startsWith(label)) chapter.name = label + chapter.name;
      // The page's title (its first line, `# …`) carries the same number as the sidebar. Only
      // the very first line: later `# ` lines may be hidden lines of a doctest.
      chapter.content = chapter.content.replace(/^(\s*)# (?!\d{2}\. )/, `$1# ${label}`);
    }
    number(chapter.sub_items || []);
  }
}

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const [, book] = JSON.parse(input);
  number(book.items || book.sections || []);
  process.stdout.write(JSON.stringify(book));
});
