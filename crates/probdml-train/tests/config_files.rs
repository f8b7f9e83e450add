//! The committed runs' `config.json` files (`docs/runs/`, which the results chapter's tables
//! read): every one reads and validates; a version-3 file, written back, is the same file byte
//! for byte; a version-2 file, written in the flat layout it has, reads back as the same
//! configuration (not as the same bytes: version 2 recorded options a method does not read as
//! given, where they are now at their defaults).

use probdml_train::config::TrainConfig;
use std::path::{Path, PathBuf};

/// Every `config.json` under `dir`.
fn configs(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            configs(&path, found);
        } else if path.file_name().is_some_and(|n| n == "config.json") {
            found.push(path);
        }
    }
}

#[test]
fn every_committed_config_reads_and_writes_back_as_it_was() {
    let runs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/runs");
    let mut found = Vec::new();
    configs(&runs, &mut found);
    found.sort();
    assert!(
        found.len() > 50,
        "{} config.json files under {}",
        found.len(),
        runs.display()
    );
    let mut versions = [0usize; 4];
    for path in &found {
        let text = std::fs::read_to_string(path).unwrap();
        let config =
            TrainConfig::read_json(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if text.starts_with("{\n  \"version\": 3,") {
            versions[3] += 1;
            assert_eq!(
                config.to_json_text(path).unwrap(),
                text,
                "{}",
                path.display()
            );
        } else if text.starts_with("{\n  \"version\": 2,") {
            versions[2] += 1;
            let flat = serde_json::to_string_pretty(&*config).unwrap();
            let back: TrainConfig = serde_json::from_str(&flat).unwrap();
            assert_eq!(back, *config, "{}", path.display());
        } else {
            panic!("{}: a version this test does not know", path.display());
        }
    }
    // Both layouts are there to be checked.
    assert!(versions[2] > 0 && versions[3] > 0, "{versions:?}");
}
