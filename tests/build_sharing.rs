//! The Python wheel's build reuses the crates that the test build compiled.
//!
//! `scripts/test.sh` compiles the workspace's default members once, with the training crate's
//! features "tch" and "distributed", then builds the wheel (`maturin build --release`, which
//! compiles the extension `probdml-py` alone). Cargo resolves features per invocation, and a
//! crate whose features differ between two invocations is compiled twice, with every crate that
//! depends on it: the wheel's build compiled `probdml` and all of its dependencies again (225 s
//! of a 2-core CPU's CI run) until both builds depended on `crates/workspace-hack`, which asks for
//! the union of their features. This test compares the two resolutions, with `cargo tree`, on `probdml` and every crate
//! below it and names each crate whose features differ and the features each side gives it.
//!
//! Scope: `cargo tree -e normal` prints each crate's features as resolved, proc-macros and their
//! dependencies included; the dependencies of build scripts are left out on both sides (a
//! build-only dependency of the test build, such as an older `rand_core` that a build script
//! uses, is a separate compilation that `probdml` does not link).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::Command;

/// The test build's selection and features: `scripts/test.sh` through `scripts/cargo-tch.sh`
/// builds the workspace's default members (no `-p`), as `cargo tree` without `-p` selects them.
const TEST_BUILD: &[&str] = &["--features", "tch,distributed", "-e", "normal,dev"];

/// The wheel's build: the extension alone.
const WHEEL_BUILD: &[&str] = &["-p", "probdml-py", "-e", "normal"];

/// One invocation's resolution: "name vX.Y.Z" → the feature lists with which it is compiled (one
/// per compilation: a crate built for the host and for the target appears with two), and the
/// crates that `probdml` depends on in it, itself included.
struct Resolution {
    features: BTreeMap<String, BTreeSet<String>>,
    below_probdml: BTreeSet<String>,
}

/// `cargo tree` over the workspace with `args`.
fn resolution(args: &[&str]) -> Resolution {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(&cargo)
        .current_dir(&root)
        .args([
            "tree",
            "--locked",
            "--offline",
            "--prefix",
            "depth",
            "--no-dedupe",
        ])
        .args(["-f", "{p}|{f}"])
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("running {cargo} tree: {e}"));
    assert!(
        output.status.success(),
        "cargo tree {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut features: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut below_probdml = BTreeSet::new();
    // Depth of the `probdml` node whose subtree the lines are in, if any.
    let mut inside: Option<usize> = None;
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let Ok(depth) = line[..digits].parse::<usize>() else {
            continue;
        };
        let Some((package, list)) = line[digits..].split_once('|') else {
            continue;
        };
        // "name v1.2.3 (/path) (proc-macro)" → "name v1.2.3".
        let id = package
            .split_whitespace()
            .take(2)
            .collect::<Vec<_>>()
            .join(" ");
        if inside.is_some_and(|d| depth <= d) {
            inside = None;
        }
        if inside.is_none() && id.starts_with("probdml v") {
            inside = Some(depth);
        }
        if inside.is_some() {
            below_probdml.insert(id.clone());
        }
        // "(*)" marks a repeat of a subtree printed before.
        let list = list.trim_end_matches(" (*)").trim().to_owned();
        features.entry(id).or_default().insert(list);
    }
    Resolution {
        features,
        below_probdml,
    }
}

#[test]
fn the_wheel_resolves_every_crate_below_probdml_as_the_test_build_does() {
    let (test, wheel) = (resolution(TEST_BUILD), resolution(WHEEL_BUILD));
    assert!(
        wheel.below_probdml.iter().any(|k| k.starts_with("rand v")),
        "cargo tree showed no dependency of probdml: {:?}",
        wheel.below_probdml
    );
    let differ: Vec<String> = wheel
        .below_probdml
        .iter()
        .filter(|id| test.features.get(*id) != wheel.features.get(*id))
        .map(|id| {
            format!(
                "{id}: test build {:?}, wheel {:?}",
                test.features.get(id),
                wheel.features.get(id)
            )
        })
        .collect();
    assert!(
        differ.is_empty(),
        "the wheel's build would compile these crates (and everything above them, `probdml` \
         included) again; ask for the missing features in crates/workspace-hack/Cargo.toml:\n{}",
        differ.join("\n")
    );
}
