//! Coverage of the derivation registry (libm's `check_coverage.rs` pattern): every entry of
//! [`probdml_proofs::registry::DERIVATIONS`] must have
//!
//! * a proof `proofs/<proof>`, a module of the proofs binary (`proofs/main.rs`), containing the
//!   line `// derivation: <name>`;
//! * a bench `benches/<bench>`, declared in Cargo.toml as a `[[bench]]`, whose bench ids (string
//!   literals) name the derivation's function — the last segment of its path;
//! * a chapter `docs/src/<chapter>`, listed in `docs/src/SUMMARY.md`, that names the derivation
//!   by its registered path (`vmf::log_norm_const`), in prose or in a `rust` block;
//! * a finite, positive budget and a non-empty reason;
//! * a `fast` item that is `probdml::` + its name, an `exact` twin at the same path under
//!   `exact::` (or a stated reason why there is none), and a `file` that defines the item.
//!
//! And no exact twin imports fast code (the reference crate depends on the core alone, and
//! `scripts/check-imports.py` checks the rest of the layers on the import graph), so that an
//! exact twin cannot share the code it is meant to check.
//!
//! That every `fast` and `exact` item exists is checked by the compiler: the `registry!` macro of
//! `src/registry.rs` names them all in a function that must compile.
//!
//! Each test checks one of these for all derivations and reports every gap at once, each line
//! naming the derivation and what is missing.

use std::fs;
use std::path::{Path, PathBuf};

use probdml_proofs::registry::{Budget, Derivation, Twin, DERIVATIONS};

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
        if probdml_proofs::registry::find(derivation.name).map(|d| d.name) != Some(derivation.name)
        {
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
    let proofs = binary_modules("proofs");
    let mut gaps = Vec::new();
    for derivation in DERIVATIONS {
        let name = derivation.name;
        let relative = format!("proofs/{}", derivation.proof);
        let Some(source) = read(&root().join(&relative)) else {
            gaps.push(format!("`{name}`: proof file {relative} does not exist"));
            continue;
        };
        if !proofs.contains(&relative) {
            gaps.push(format!(
                "`{name}`: {relative} is not a module of the proofs binary (proofs/main.rs)"
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
        if fast != format!("probdml::{name}") {
            gaps.push(format!(
                "`{name}`: fast item `{fast}` is not `probdml::{name}`"
            ));
        }
        match derivation.exact {
            Twin::Exact(path) => {
                let path = without_instantiation(path).replace(' ', "");
                let (module, rest) = name.split_once("::").expect("names have a module");
                let expected = format!("probdml::{module}::exact::{rest}");
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

/// An exact twin cannot call the fast code it checks. The rule is the crates' layering: the
/// reference crate depends on the core alone, so such a call does not compile; what Cargo cannot
/// see, `scripts/check-imports.py` checks on the import graph: each file in the crate of its
/// layer (the core: the error type, input checks and each module's inputs under `<m>/input`,
/// error-free arithmetic, the instruction-set dispatch; the reference: every exact twin,
/// `quadrature`, `gaussian_quadratic_form`), no twin using the fast norm `compensated::norm2`, no
/// fast code leaning on a reference, and no module or file of the maths importing one that
/// imports it back. This test runs the script.
#[test]
fn exact_twins_import_no_fast_code_and_the_maths_has_no_import_cycle() {
    check_imports(&[]);
}

/// The checker itself, on small trees that each hold one import it must flag (an exact twin
/// naming fast code through a re-export, a `use` group, a full path, a glob, its own tests; the
/// core importing fast code; fast code importing the reference; a file cycle; a module cycle;
/// the fast norm in the reference; a method that fast code adds to a core type) or must not (a
/// comment, a doc link, a string; a fast file's tests).
#[test]
fn the_import_checker_flags_what_it_must_and_only_that() {
    check_imports(&["--self-test"]);
}

fn check_imports(args: &[&str]) {
    let script = root().join("scripts/check-imports.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .args(args)
        .output()
        .expect("python3 runs scripts/check-imports.py");
    assert!(
        out.status.success(),
        "{} {}:\n{}{}",
        script.display(),
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The names of the `registry::budget` constants that are some derivation's registered
/// fast-against-reference budget: every `budget::NAME` on a `budget: Budget::AbsOrRel(…)`,
/// `Relative(…)` or `Quadrature(…)` line of an entry in src/registry.rs. (A `Statistical`
/// budget is applied by the sampler's own goodness-of-fit test, not by `support::check`.)
fn registered_budget_constants() -> Vec<String> {
    let registry = read(&root().join("src/registry.rs")).expect("src/registry.rs is readable");
    let mut names: Vec<String> = Vec::new();
    for line in registry.lines().map(str::trim) {
        let Some(rest) = ["AbsOrRel(", "Relative(", "Quadrature("]
            .iter()
            .find_map(|kind| line.strip_prefix(&format!("budget: Budget::{kind}")))
        else {
            continue;
        };
        for piece in format!(" {rest}").split("budget::").skip(1) {
            let name: String = piece
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// The argument text of every `assert!(…)`/`prop_assert!(…)` in `source` (balanced
/// parentheses; string literals are not special-cased, which only makes the scan stricter).
fn assertions(source: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for macro_name in ["assert!(", "prop_assert!("] {
        for (start, _) in source.match_indices(macro_name) {
            let before = source[..start].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue; // debug_assert!, prop_assert! matched as assert!
            }
            let open = start + macro_name.len();
            let mut depth = 1usize;
            let mut end = open;
            for (i, c) in source[open..].char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    end = open + i;
                    break;
                }
            }
            found.push(&source[open..end]);
        }
    }
    found
}

/// Whether `text` names an exact twin or its value: an identifier `exact`, `exact_…` or `…_exact`
/// (which covers the paths `…::exact::…`).
fn names_exact(text: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|word| word == "exact" || word.starts_with("exact_") || word.ends_with("_exact"))
}

/// Whether `text` names a fast twin or its value: an identifier `fast`, `fast_…` or `…_fast`, or
/// a call of a registered item's function that is not the exact twin's (`log_norm_const(`,
/// `vmf::log_norm_const(`, `q.ln_cdf(`, but not `exact::log_norm_const(`).
fn names_fast(text: &str) -> bool {
    let word = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|word| word == "fast" || word.starts_with("fast_") || word.ends_with("_fast"));
    word || DERIVATIONS.iter().any(|d| {
        let function = function_name(d);
        text.match_indices(function).any(|(i, _)| {
            let before = &text[..i];
            let after = &text[i + function.len()..];
            !before.ends_with(|c: char| c.is_alphanumeric() || c == '_')
                && !before.ends_with("exact::")
                && (after.starts_with('(') || after.starts_with("::<"))
        })
    })
}

/// Whether `text` bounds an absolute difference from above: `.abs() <` or `.abs() <=`.
fn bounds_an_absolute_difference(text: &str) -> bool {
    text.match_indices(".abs()")
        .any(|(i, m)| text[i + m.len()..].trim_start().starts_with('<'))
}

/// One comparison of fast with exact. `proofs/support/check.rs` (`support::check` and its
/// forms) is the only code that applies a derivation's registered budget, read from the registry
/// with its kind; it records and prints the worst error. Precisely, no file under `proofs/` other
/// than `proofs/support/check.rs`
///
/// 1. names a `registry::budget` constant that is some derivation's registered budget (the
///    `budget::NAME`s of the `budget:` lines of src/registry.rs): a proof reaches a budget only
///    through `support::check` (to compare) or `support::tolerance(name)` (the slack of an
///    identity on the fast twin alone, such as a recurrence or a monotonicity);
/// 2. reads a registry entry's `.budget` or names the `Budget::` kinds, which would re-implement
///    what a kind means;
/// 3. asserts an upper bound on an absolute difference (`.abs() <` or `.abs() <=` inside
///    `assert!`/`prop_assert!`) in an assertion that names both an exact twin or its value (an
///    identifier `exact`, `exact_…`, `…_exact`, or a path through `exact::`) and a fast one (an
///    identifier `fast`, `fast_…`, `…_fast`, or a call of a registered item by its path): the
///    shape of a hand-written fast-versus-exact comparison. An exact twin pinned against an
///    independent number (mpmath, a closed form) or a Monte Carlo mean against the exact value
///    is not such a comparison.
///
/// Still allowed: bit equality (`assert_eq!`, the strongest comparison, used where the twins
/// agree exactly), refutations (a difference bounded from below), and claims against closed
/// forms, series and quadratures of the fast twin under constants that are no derivation's
/// budget (`QUADRATURE`, `MONTE_CARLO_SIGMAS`, …).
#[test]
fn proofs_compare_fast_with_exact_only_through_support_check() {
    let constants = registered_budget_constants();
    assert!(
        constants.iter().any(|c| c == "LOG_SPECIAL"),
        "no budget constant read from src/registry.rs: {constants:?}"
    );
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in ["proofs", "proofs/support"] {
        for entry in fs::read_dir(root().join(dir)).expect("proofs/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut gaps = Vec::new();
    for path in files {
        let relative = path
            .strip_prefix(root())
            .expect("under the crate root")
            .display()
            .to_string();
        if relative == "proofs/support/check.rs" {
            continue;
        }
        let source = read(&path).expect("a readable proof");
        // Comments say what a budget is; only code counts.
        let code: String = source
            .lines()
            .map(|line| line.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        for constant in &constants {
            if contains_word(&code, constant) {
                gaps.push(format!(
                    "{relative}: names the registered budget `{constant}` (compare through \
                     support::check, or take an identity's slack from support::tolerance)"
                ));
            }
        }
        if code.contains(".budget") || code.contains("Budget::") {
            gaps.push(format!(
                "{relative}: reads a registry budget itself (`.budget` or `Budget::`)"
            ));
        }
        for assertion in assertions(&code) {
            if names_exact(assertion)
                && names_fast(assertion)
                && bounds_an_absolute_difference(assertion)
            {
                let first_line = assertion.trim().lines().next().unwrap_or("");
                gaps.push(format!(
                    "{relative}: compares with an exact value by hand: `{first_line}`"
                ));
            }
        }
    }
    assert!(
        gaps.is_empty(),
        "{} comparison(s) of fast with exact outside proofs/support/check.rs:\n  - {}",
        gaps.len(),
        gaps.join("\n  - ")
    );
}

#[test]
fn the_comparison_rule_recognises_its_shapes() {
    assert!(names_exact("(fast - exact).abs() <= 1e-12"));
    assert!(names_exact("vmf::exact::log_norm_const(3, 1.0)"));
    assert!(names_exact("(got - want_exact).abs()"));
    assert!(!names_exact("(got - want).abs() <= tol"));
    assert!(!names_exact("inexact"));
    assert!(names_fast("(fast - want).abs()"));
    assert!(names_fast("(vmf::log_norm_const(3, 1.0) - want).abs()"));
    assert!(!names_fast(
        "(vmf::exact::log_norm_const(3, 1.0) - 2.5).abs()"
    ));
    assert!(!names_fast(
        "(mean - exact).abs() <= MONTE_CARLO_SIGMAS * se"
    ));
    assert!(names_fast("(bessel_i_ratio(2.0, 1.0) - want).abs()"));
    assert!(!names_fast(
        "(exact::bessel_i_ratio(2.0, 1.0) - want).abs()"
    ));
    assert!(bounds_an_absolute_difference("(a - b).abs() <= t"));
    assert!(bounds_an_absolute_difference("(a - b).abs()< t"));
    assert!(!bounds_an_absolute_difference("(a - b).abs() > 0.1"));
    let source = "assert!((f(x) - exact).abs() <= 1e-9, \"{}\", g(1));\ndebug_assert!(y);";
    assert_eq!(
        assertions(source),
        vec!["(f(x) - exact).abs() <= 1e-9, \"{}\", g(1)"]
    );
}

/// A pair of twins that differ in signature is listed in `registry::SIGNATURE_DIFFERENCES` with
/// its reason; each listed name must be a registered derivation with an exact twin, once.
#[test]
fn every_listed_signature_difference_is_a_registered_twin_pair() {
    use probdml_proofs::registry::SIGNATURE_DIFFERENCES;
    let mut gaps = Vec::new();
    for (i, difference) in SIGNATURE_DIFFERENCES.iter().enumerate() {
        let name = difference.name;
        match probdml_proofs::registry::find(name) {
            None => gaps.push(format!("`{name}`: listed but not registered")),
            Some(d) if !matches!(d.exact, Twin::Exact(_)) => {
                gaps.push(format!("`{name}`: listed but has no exact twin"))
            }
            Some(_) => {}
        }
        if SIGNATURE_DIFFERENCES[..i].iter().any(|d| d.name == name) {
            gaps.push(format!("`{name}`: listed twice"));
        }
        // Equal argument lists are listed only when the shapes differ, which the reason says.
        let same_arguments = difference.fast == difference.exact;
        if difference.reason.trim().is_empty()
            || (same_arguments && !difference.reason.contains("shapes"))
        {
            gaps.push(format!("`{name}`: no reason why the twins differ"));
        }
    }
    report(
        "a registered twin pair for a listed signature difference",
        gaps,
    );
}

/// The module lists of the two test binaries (proofs/main.rs, tests/main.rs) are what
/// `scripts/test-targets.sh` writes from the files of proofs/ and tests/ (`autotests = false`: a
/// proof left out of its binary would never run, and nothing would say so).
#[test]
fn the_test_modules_are_the_generated_ones() {
    let out = std::process::Command::new("bash")
        .arg(root().join("scripts/test-targets.sh"))
        .arg("--check")
        .output()
        .expect("bash runs scripts/test-targets.sh");
    assert!(
        out.status.success(),
        "a test binary's module list is stale (run `bash scripts/test-targets.sh`):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The files a test binary (`proofs/main.rs` or `tests/main.rs`) declares as its modules, as
/// paths from the repository root (`proofs/vmf_density.rs`).
fn binary_modules(dir: &str) -> Vec<String> {
    let main = read(&root().join(dir).join("main.rs")).expect("the binary's main.rs is readable");
    main.lines()
        .filter_map(|l| l.trim().strip_prefix("#[path = \"")?.strip_suffix("\"]"))
        .map(|f| format!("{dir}/{f}"))
        .collect()
}

/// Independently of the script: every file of proofs/ is a module of the proofs binary, unless
/// another proof includes it with `#[path = "…"]` (shared reference data).
#[test]
fn every_proof_file_is_in_the_proofs_binary() {
    let declared = binary_modules("proofs");
    let mut sources = Vec::new();
    for entry in fs::read_dir(root().join("proofs")).expect("proofs/ is readable") {
        let path = entry.expect("a proofs/ entry").path();
        if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("main.rs") {
            sources.push(path);
        }
    }
    let included: Vec<String> = sources
        .iter()
        .filter_map(|p| read(p))
        .flat_map(|text| {
            text.lines()
                .filter_map(|l| l.strip_prefix("#[path = \"")?.strip_suffix("\"]"))
                .map(|f| format!("proofs/{f}"))
                .collect::<Vec<_>>()
        })
        .collect();
    let gaps: Vec<String> = sources
        .iter()
        .map(|p| format!("proofs/{}", p.file_name().unwrap().to_string_lossy()))
        .filter(|rel| !included.contains(rel) && !declared.contains(rel))
        .collect();
    assert!(
        gaps.is_empty(),
        "proof file(s) not in the proofs binary (run `bash scripts/test-targets.sh`):\n  - {}",
        gaps.join("\n  - ")
    );
}
