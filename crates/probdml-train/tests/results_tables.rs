//! The tables of the book's results chapter (`docs/src/10-results.md`) are `probdml summarise`
//! of the committed run files under `docs/runs/`: each table follows a comment
//!
//! ```text
//! <!-- probdml summarise
//! LABEL=RUN[,RUN...]
//! ...
//! -->
//! ```
//!
//! holding the rows, run folders relative to the repository root, and ends at
//! `<!-- end of probdml summarise -->`. This test regenerates every table from the runs'
//! `metrics.json` and `config.json` and fails on any difference, so no number in the chapter is
//! typed by hand. `PROBDML_WRITE_RESULTS=1 cargo test --release --features report --test
//! results_tables` writes the regenerated tables into the chapter instead (after new runs).

use probdml_train::results::summarise;
use std::path::Path;

const CHAPTER: &str = "docs/src/10-results.md";
const START: &str = "<!-- probdml summarise\n";
const END: &str = "<!-- end of probdml summarise -->";

/// The chapter with every table regenerated, and how many tables it holds.
fn regenerate(root: &Path, text: &str) -> (String, usize) {
    let mut out = String::new();
    let mut rest = text;
    let mut tables = 0;
    while let Some(start) = rest.find(START) {
        let rows_start = start + START.len();
        let rows_end = rows_start
            + rest[rows_start..]
                .find("-->")
                .unwrap_or_else(|| panic!("{CHAPTER}: a row list without its closing `-->`"));
        let end = rows_end
            + rest[rows_end..]
                .find(END)
                .unwrap_or_else(|| panic!("{CHAPTER}: a table without `{END}`"));
        let rows: Vec<String> = rest[rows_start..rows_end]
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|line| {
                let (label, runs) = line
                    .split_once('=')
                    .unwrap_or_else(|| panic!("{CHAPTER}: `{line}` is not LABEL=RUN[,RUN...]"));
                let runs: Vec<String> = runs
                    .split(',')
                    .map(|r| root.join(r.trim()).display().to_string())
                    .collect();
                format!("{label}={}", runs.join(","))
            })
            .collect();
        let table = summarise(&rows).unwrap_or_else(|e| panic!("{CHAPTER}: {e}"));
        out.push_str(&rest[..rows_end + "-->".len()]);
        out.push_str("\n\n");
        out.push_str(table.trim_end());
        out.push_str("\n\n");
        out.push_str(END);
        rest = &rest[end + END.len()..];
        tables += 1;
    }
    out.push_str(rest);
    (out, tables)
}

#[test]
fn every_results_table_is_summarise_of_its_committed_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = root.join(CHAPTER);
    let text = std::fs::read_to_string(&path).unwrap();
    let (regenerated, tables) = regenerate(&root, &text);
    assert!(tables > 0, "{CHAPTER} holds no generated table");
    if std::env::var_os("PROBDML_WRITE_RESULTS").is_some() {
        std::fs::write(&path, &regenerated).unwrap();
        return;
    }
    if regenerated != text {
        let first = text
            .lines()
            .zip(regenerated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(text.lines().count().min(regenerated.lines().count()));
        panic!(
            "{CHAPTER}: the tables differ from `probdml summarise` of their runs from line {}:\n  chapter:     {:?}\n  regenerated: {:?}",
            first + 1,
            text.lines().nth(first),
            regenerated.lines().nth(first)
        );
    }
}
