//! Every Rust snippet of the book (`docs/src/*.md`), the README and the API docs (doc comments
//! under each crate's `src/`) compiles in a fresh crate that depends on `probdml` alone (or, for
//! training, `probdml-train`).
//!
//! The snippets are doctests, and `cargo test` compiles them; but a doctest also sees the
//! crate's own dependencies and dev-dependencies (`rand_chacha`, `proptest`, the crate's `rand`
//! …), so a snippet can pass here and fail for a user who pastes it into a program of their own.
//! This test closes that gap: a snippet may name no crate of `Cargo.toml` but `probdml`, whose
//! re-exports (`probdml::rand`) are the way to reach the others. Together with the doctests
//! that compile every snippet, that is "compiles in a fresh crate with only `probdml`".
use std::fs;
use std::path::{Path, PathBuf};

/// The manifests whose dependencies a snippet must not name.
const MANIFESTS: [&str; 5] = [
    "Cargo.toml",
    "crates/probdml-core/Cargo.toml",
    "crates/probdml-reference/Cargo.toml",
    "crates/probdml/Cargo.toml",
    "crates/probdml-train/Cargo.toml",
];

/// The source folders whose doc comments hold snippets.
const SOURCES: [&str; 5] = [
    "src",
    "crates/probdml-core/src",
    "crates/probdml-reference/src",
    "crates/probdml/src",
    "crates/probdml-train/src",
];

/// The crate names a snippet could reach through Cargo's extern prelude: every dependency and
/// dev-dependency of a package (and of the workspace), as Rust spells them (`-` → `_`).
fn dependency_names(manifest: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_deps = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]"
                || line == "[dev-dependencies]"
                || line == "[workspace.dependencies]";
            continue;
        }
        if !in_deps || line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some((name, _)) = line.split_once('=') {
            // `rand.workspace = true` names `rand`.
            let name = name.trim().split('.').next().unwrap_or_default();
            names.push(name.replace('-', "_"));
        }
    }
    names
}

enum Fence {
    Outside,
    Rust(Vec<(usize, String)>),
    Other,
}

/// The Rust code blocks of Markdown text, each line with its 1-based line number in the file.
/// A fence without an info string is Rust: the chapters and the README are rustdoc text too
/// (`src/lib.rs` includes them as doctests). `ignore` and `text` blocks are compiled by no one
/// and are skipped.
fn rust_blocks(lines: &[(usize, String)]) -> Vec<Vec<(usize, String)>> {
    let mut blocks = Vec::new();
    let mut state = Fence::Outside;
    for (number, line) in lines {
        let fence = line.trim_start().strip_prefix("```");
        state = match (state, fence) {
            (Fence::Outside, Some(info)) => {
                let mut tags = info.split(',').map(str::trim);
                let lang = tags.next().unwrap_or("");
                let rust = lang == "rust" || lang.is_empty();
                let skipped = info
                    .split(',')
                    .any(|t| matches!(t.trim(), "ignore" | "text"));
                if rust && !skipped {
                    Fence::Rust(Vec::new())
                } else {
                    Fence::Other
                }
            }
            (Fence::Rust(block), Some(_)) => {
                blocks.push(block);
                Fence::Outside
            }
            (Fence::Other, Some(_)) => Fence::Outside,
            (Fence::Rust(mut block), None) => {
                block.push((*number, line.clone()));
                Fence::Rust(block)
            }
            (other, None) => other,
        };
    }
    blocks
}

/// `name::` or `extern crate name` at the start of a path (not `probdml::name::`, not a field
/// or identifier that merely ends in `name`).
fn names_crate(code: &str, name: &str) -> bool {
    if code.contains(&format!("extern crate {name}")) {
        return true;
    }
    let needle = format!("{name}::");
    code.match_indices(&needle).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        !matches!(before, Some(c) if c.is_alphanumeric() || c == '_' || c == ':')
    })
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Doc-comment lines of a Rust file with the `///` or `//!` marker removed.
fn doc_lines(source: &str) -> Vec<(usize, String)> {
    source
        .lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let t = line.trim_start();
            let text = t.strip_prefix("///").or_else(|| t.strip_prefix("//!"))?;
            Some((i + 1, text.strip_prefix(' ').unwrap_or(text).to_string()))
        })
        .collect()
}

/// Every (file, line, crate) where a snippet names a crate other than `probdml`.
fn foreign_crates(root: &Path) -> Vec<String> {
    let mut deps: Vec<String> = Vec::new();
    for manifest in MANIFESTS {
        let manifest = fs::read_to_string(root.join(manifest)).unwrap();
        deps.extend(
            dependency_names(&manifest)
                .into_iter()
                .filter(|d| d != "probdml" && d != "probdml_train"),
        );
    }
    deps.sort();
    deps.dedup();
    let mut sources: Vec<(PathBuf, Vec<Vec<(usize, String)>>)> = Vec::new();
    let mut chapters: Vec<PathBuf> = fs::read_dir(root.join("docs/src"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    chapters.sort();
    chapters.push(root.join("README.md"));
    for chapter in chapters {
        let text = fs::read_to_string(&chapter).unwrap();
        let lines: Vec<(usize, String)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.to_string()))
            .collect();
        sources.push((chapter, rust_blocks(&lines)));
    }
    let mut files = Vec::new();
    for crate_root in SOURCES {
        rust_files(&root.join(crate_root), &mut files);
    }
    files.sort();
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        sources.push((file, rust_blocks(&doc_lines(&text))));
    }
    let mut found = Vec::new();
    for (file, blocks) in &sources {
        for (number, line) in blocks.iter().flatten() {
            // A hidden line (`# …`) is compiled too.
            let code = line.trim_start().trim_start_matches("# ");
            // The book's chapters are doctests of this package and read the error budgets from
            // its registry (`probdml_proofs::registry`), which the text says is the repository's.
            let is_chapter = file.extension().is_some_and(|e| e == "md");
            for dep in &deps {
                if is_chapter && dep == "probdml_proofs" {
                    continue;
                }
                if names_crate(code, dep) {
                    let shown = file.strip_prefix(root).unwrap_or(file).display();
                    found.push(format!("{shown}:{number}: names `{dep}`: {}", line.trim()));
                }
            }
        }
    }
    found
}

#[test]
fn every_snippet_names_only_probdml() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = foreign_crates(root);
    assert!(
        found.is_empty(),
        "snippets that would not compile in a crate depending only on probdml (use its \
         re-exports, e.g. probdml::rand):\n{}",
        found.join("\n")
    );
}

/// The scanner itself: it must see what it is meant to forbid, and only that.
#[test]
fn the_scanner_finds_foreign_crates_and_nothing_else() {
    assert!(names_crate(
        "let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);",
        "rand_chacha"
    ));
    assert!(names_crate("use rand::SeedableRng;", "rand"));
    assert!(names_crate("extern crate proptest;", "proptest"));
    assert!(!names_crate("use probdml::rand::SeedableRng;", "rand"));
    assert!(!names_crate("let x = operand::new();", "rand"));
    let lines: Vec<(usize, String)> = [
        "text",
        "```rust",
        "use rand::Rng;",
        "```",
        "```text",
        "rand::x",
        "```",
        "```",
        "rand::y",
        "```",
    ]
    .iter()
    .enumerate()
    .map(|(i, l)| (i + 1, l.to_string()))
    .collect();
    // The ```rust block and the bare one, not the ```text one.
    let blocks = rust_blocks(&lines);
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0], vec![(3, "use rand::Rng;".to_string())]);
    assert_eq!(blocks[1], vec![(9, "rand::y".to_string())]);
    let manifest = "[dependencies]\nrand = \"0.9\"\nnum-dual = { version = \"0.15\" }\n\
                    [dev-dependencies]\nrand_chacha = \"0.9\"\n[[test]]\nname = \"x\"\n";
    assert_eq!(
        dependency_names(manifest),
        ["rand", "num_dual", "rand_chacha"]
    );
}
