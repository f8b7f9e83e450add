//! Coverage of the derivation registry (libm's `check_coverage.rs` pattern): every entry of
//! [`probdml::registry::DERIVATIONS`] must have
//!
//! * a proof `proofs/<proof>`, declared in Cargo.toml as a `[[test]]` with that path, containing
//!   the line `// derivation: <name>`;
//! * a bench `benches/<bench>`, declared in Cargo.toml as a `[[bench]]`, whose bench ids (string
//!   literals) name the derivation's function — the last segment of its path;
//! * a chapter `docs/src/<chapter>`, listed in `docs/src/SUMMARY.md`, that names the derivation
//!   by its registered path (`vmf::log_norm_const`), in prose or in a `rust` block;
//! * a finite, positive budget and a non-empty reason;
//! * a `fast` item that is `crate::` + its name, an `exact` twin at the same path under
//!   `exact::` (or a stated reason why there is none), and a `file` that defines the item.
//!
//! That every `fast` and `exact` item exists is checked by the compiler: the `registry!` macro of
//! `src/registry.rs` names them all in a function that must compile.
//!
//! Each test checks one of these for all derivations and reports every gap at once, each line
//! naming the derivation and what is missing.

use std::fs;
use std::path::{Path, PathBuf};

use probdml::registry::{Budget, Derivation, Twin, DERIVATIONS};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> Option<String> {
    fs::read_to_string(path).ok()
}

/// Panics with every gap found, one per line, or returns when there is none.
fn report(what: &str, gaps: Vec<String>) {
    assert!(
        gaps.is_empty(),
        "{} derivation(s) lack {what}:\n  - {}",
        gaps.len(),
        gaps.join("\n  - ")
    );
}

/// A `[[test]]` or `[[bench]]` table of Cargo.toml: its `name` and its `path`, the latter
/// defaulting as Cargo does (`tests/<name>.rs`, `benches/<name>.rs`).
#[derive(Debug)]
struct Target {
    name: String,
    path: String,
}

/// The `[[kind]]` tables of Cargo.toml, read line by line: enough for the flat
/// `name = "…"` / `path = "…"` tables a manifest declares targets with, and no TOML dependency.
fn cargo_targets(kind: &str) -> Vec<Target> {
    let manifest = read(&root().join("Cargo.toml")).expect("Cargo.toml is readable");
    let header = format!("[[{kind}]]");
    let default_dir = match kind {
        "test" => "tests",
        "bench" => "benches",
        other => panic!("unexpected target kind {other}"),
    };
    let mut targets = Vec::new();
    let mut current: Option<(Option<String>, Option<String>)> = None;
    let mut finish = |entry: Option<(Option<String>, Option<String>)>| {
        if let Some((Some(name), path)) = entry {
            let path = path.unwrap_or_else(|| format!("{default_dir}/{name}.rs"));
            targets.push(Target { name, path });
        }
    };
    for line in manifest.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.starts_with('[') {
            finish(current.take());
            if line == header {
                current = Some((None, None));
            }
            continue;
        }
        if let Some((name, path)) = current.as_mut() {
            if let Some((key, value)) = line.split_once('=') {
                let value = value.trim().trim_matches('"').to_string();
                match key.trim() {
                    "name" => *name = Some(value),
                    "path" => *path = Some(value),
                    _ => {}
                }
            }
        }
    }
    finish(current.take());
    targets
}

/// The string literals of a Rust source, by a plain scan (escapes skipped, raw strings and
/// char literals are not needed for bench ids).
fn string_literals(source: &str) -> Vec<String> {
    let mut literals = Vec::new();
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut literal = String::new();
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => break,
                c => literal.push(c),
            }
        }
        literals.push(literal);
    }
    literals
}

/// Whether `word` occurs in `text` with no identifier character (alphanumeric or `_`) on
/// either side: `sample` matches `vmf::sample/fast` but not `samples`.
fn contains_word(text: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(start, _)| {
        let before = text[..start].chars().next_back();
        let after = text[start + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// The function a derivation names: the last segment of its path.
fn function_name(derivation: &Derivation) -> &'static str {
    derivation
        .name
        .rsplit("::")
        .next()
        .unwrap_or(derivation.name)
}

#[test]
fn registry_is_not_empty_and_names_are_unique() {
    assert!(!DERIVATIONS.is_empty(), "the registry lists no derivation");
    let mut gaps = Vec::new();
    for (i, derivation) in DERIVATIONS.iter().enumerate() {
        if DERIVATIONS[..i].iter().any(|d| d.name == derivation.name) {
            gaps.push(format!("`{}`: registered more than once", derivation.name));
        }
        if probdml::registry::find(derivation.name).map(|d| d.name) != Some(derivation.name) {
            gaps.push(format!(
                "`{}`: registry::find does not return it",
                derivation.name
            ));
        }
    }
    report("a unique name", gaps);
}

#[test]
fn every_derivation_has_a_declared_proof() {
    let tests = cargo_targets("test");
    let mut gaps = Vec::new();
    for derivation in DERIVATIONS {
        let name = derivation.name;
        let relative = format!("proofs/{}", derivation.proof);
        let Some(source) = read(&root().join(&relative)) else {
            gaps.push(format!("`{name}`: proof file {relative} does not exist"));
            continue;
        };
        if !tests.iter().any(|t| t.path == relative) {
            gaps.push(format!(
                "`{name}`: {relative} is not declared in Cargo.toml as a [[test]] with \
                 path = \"{relative}\""
            ));
        }
        let marker = format!("// derivation: {name}");
        if !source.lines().any(|line| line.trim() == marker) {
            gaps.push(format!("`{name}`: {relative} has no line `{marker}`"));
        }
    }
    report("a proof", gaps);
}

#[test]
fn every_derivation_has_a_declared_bench() {
    let benches = cargo_targets("bench");
    let mut gaps = Vec::new();
    for derivation in DERIVATIONS {
        let name = derivation.name;
        let relative = format!("benches/{}", derivation.bench);
        let Some(source) = read(&root().join(&relative)) else {
            gaps.push(format!("`{name}`: bench file {relative} does not exist"));
            continue;
        };
        if !benches.iter().any(|b| b.path == relative) {
            gaps.push(format!(
                "`{name}`: {relative} is not declared in Cargo.toml as a [[bench]] \
                 (declared: {:?})",
                benches.iter().map(|b| &b.name).collect::<Vec<_>>()
            ));
        }
        let function = function_name(derivation);
        if !string_literals(&source)
            .iter()
            .any(|id| contains_word(id, function))
        {
            gaps.push(format!(
                "`{name}`: no bench id (string literal) in {relative} names `{function}`"
            ));
        }
    }
    report("a bench", gaps);
}

#[test]
fn every_derivation_has_a_listed_chapter() {
    let summary_path = root().join("docs/src/SUMMARY.md");
    let summary = read(&summary_path).expect("docs/src/SUMMARY.md is readable");
    let mut gaps = Vec::new();
    for derivation in DERIVATIONS {
        let name = derivation.name;
        let relative = format!("docs/src/{}", derivation.chapter);
        let Some(chapter) = read(&root().join(&relative)) else {
            gaps.push(format!("`{name}`: chapter {relative} does not exist"));
            continue;
        };
        if !summary.contains(&format!("({})", derivation.chapter)) {
            gaps.push(format!(
                "`{name}`: chapter {} is not linked from docs/src/SUMMARY.md",
                derivation.chapter
            ));
        }
        if !contains_word(&chapter, name) {
            gaps.push(format!(
                "`{name}`: {relative} never names `{name}` (in prose or a rust block)"
            ));
        }
    }
    report("a docs chapter", gaps);
}

#[test]
fn every_budget_is_finite_and_positive_with_a_reason() {
    let positive = |x: f64| x.is_finite() && x > 0.0;
    let mut gaps = Vec::new();
    for derivation in DERIVATIONS {
        let name = derivation.name;
        // Exhaustive on purpose: a new kind of budget must say here what "valid" means for it.
        let valid = match derivation.budget {
            Budget::AbsOrRel(tol) | Budget::Relative(tol) | Budget::Quadrature(tol) => {
                positive(tol)
            }
            Budget::Statistical { alpha, sigmas } => {
                positive(alpha) && alpha < 1.0 && positive(sigmas)
            }
        };
        if !valid {
            gaps.push(format!(
                "`{name}`: budget {:?} is not finite and positive",
                derivation.budget
            ));
        }
        if derivation.reason.trim().is_empty() {
            gaps.push(format!("`{name}`: the budget has no reason"));
        }
        if derivation.source.trim().is_empty() {
            gaps.push(format!("`{name}`: no source (paper and equation)"));
        }
    }
    report("a valid budget", gaps);
}

#[test]
fn contains_word_respects_identifier_boundaries() {
    assert!(contains_word("vmf::sample/fast", "sample"));
    assert!(contains_word("sample", "sample"));
    assert!(!contains_word("samples", "sample"));
    assert!(!contains_word("resample", "sample"));
    assert!(contains_word(
        "see vmf::log_norm_const(512, 50.0)",
        "vmf::log_norm_const"
    ));
    assert!(!contains_word(
        "exact_vmf::log_norm_const",
        "vmf::log_norm_const"
    ));
}

/// A registered path without a trailing turbofish (`…::sample::<StdRng>` → `…::sample`).
fn without_instantiation(path: &str) -> &str {
    path.find("::<").map_or(path, |i| &path[..i])
}

#[test]
fn every_derivation_names_its_fast_and_exact_items_consistently() {
    let mut gaps = Vec::new();
    for derivation in DERIVATIONS {
        let name = derivation.name;
        let fast = without_instantiation(derivation.fast).replace(' ', "");
        if fast != format!("crate::{name}") {
            gaps.push(format!(
                "`{name}`: fast item `{fast}` is not `crate::{name}`"
            ));
        }
        match derivation.exact {
            Twin::Exact(path) => {
                let path = without_instantiation(path).replace(' ', "");
                let (module, rest) = name.split_once("::").expect("names have a module");
                let expected = format!("crate::{module}::exact::{rest}");
                if path != expected {
                    gaps.push(format!("`{name}`: exact twin `{path}` is not `{expected}`"));
                }
            }
            Twin::NotNeeded(reason) => {
                if reason.trim().len() < 20 {
                    gaps.push(format!("`{name}`: no exact twin, and no real reason given"));
                }
            }
        }
    }
    report("consistent fast/exact paths", gaps);
}

#[test]
fn every_derivation_points_at_the_file_that_defines_it() {
    let mut gaps = Vec::new();
    for derivation in DERIVATIONS {
        let name = derivation.name;
        let function = function_name(derivation);
        match read(&root().join(derivation.file)) {
            None => gaps.push(format!("`{name}`: file {} does not exist", derivation.file)),
            Some(source) => {
                let defines = source.lines().map(str::trim_start).any(|line| {
                    line.strip_prefix("pub fn ").is_some_and(|rest| {
                        rest.starts_with(function) && rest[function.len()..].starts_with(['(', '<'])
                    })
                });
                if !defines {
                    gaps.push(format!(
                        "`{name}`: {} has no `pub fn {function}`",
                        derivation.file
                    ));
                }
            }
        }
    }
    report("a defining source file", gaps);
}
