//! The seed-to-seed spread of a schedule, measured once and quoted beside a run of it.
//!
//! The main command trains one seed per protocol, and one seed's AUROC is not a number a reader
//! can compare: under the same commit and machine, seeds 0–4 of LAM online move it by up to
//! 0.12 (book chapter 10, "the main command over five seeds"). Training every seed on every
//! run of the main command would multiply its time by five, so the spread is measured once, by
//! `probdml reproduce --seeds N --out DIR` with the same schedule, and its run folders are
//! committed. [`measured_spread`] finds there the runs of exactly this run's configuration
//! (every option equal but the seed) and prints their mean ± std and their range beside the
//! run's own table; a row whose configuration was not measured says so instead of quoting
//! another configuration's numbers.

use crate::checkpoint::layout::{CONFIG, METRICS};
use crate::config::{TrainConfig, ValidConfig};
use crate::error::TrainResult;
use crate::evaluate::{mean_std, Metrics};
use crate::json;
use crate::report::{format_table, PaperMethod, TableRow};
use std::fmt::Write as _;
use std::path::Path;

/// One row of this run's table whose spread is looked up: its label, its paper row, and how to
/// name and configure its run of seed `k` (the folder name inside the measured folder, and the
/// configuration that run must have).
pub struct SpreadRow<'a> {
    /// The row's label in the run's table.
    pub label: String,
    /// The paper row printed beside it.
    pub method: Option<PaperMethod>,
    /// The folder name of seed `k`'s run (as `probdml reproduce` names it).
    pub folder: &'a dyn Fn(u64) -> String,
    /// The configuration of seed `k`'s run.
    pub config: &'a dyn Fn(u64) -> TrainResult<ValidConfig>,
    /// The OOD set this run was evaluated on ([`Metrics::ood_set`]).
    pub ood_set: &'a str,
}

/// The measured runs of `row` in `dir`, by seed: every folder whose name is the row's folder
/// name of some seed `k`, each with its metrics; `Ok(Err(reason))` when a folder's
/// configuration is not the row's at that seed, or its OOD set not this run's (its numbers
/// belong to another experiment). A missing `dir` has no runs.
fn measured_runs(
    dir: &Path,
    row: &SpreadRow<'_>,
) -> TrainResult<Result<Vec<(u64, Metrics)>, String>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Ok(Vec::new()));
    };
    let mut seeds: Vec<u64> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| {
            let seed = name.rsplit_once("seed")?.1.parse::<u64>().ok()?;
            (name == (row.folder)(seed)).then_some(seed)
        })
        .collect();
    seeds.sort_unstable();
    let mut metrics = Vec::new();
    for seed in seeds {
        let run = dir.join((row.folder)(seed));
        if !run.join(METRICS).is_file() {
            continue;
        }
        let found = TrainConfig::read_json(&run.join(CONFIG))?;
        if found != (row.config)(seed)? {
            return Ok(Err(format!(
                "{} was trained with another configuration than this run's (compare its {CONFIG})",
                run.display()
            )));
        }
        let m = json::read_json::<Metrics>(&run.join(METRICS))?;
        if m.ood_set != row.ood_set {
            return Ok(Err(format!(
                "{} was evaluated on another OOD set ({:?}, not {:?})",
                run.display(),
                m.ood_set,
                row.ood_set
            )));
        }
        metrics.push((seed, m));
    }
    Ok(Ok(metrics))
}

/// `min–max` of one metric over the runs, three decimals.
fn range(runs: &[Metrics], f: fn(&Metrics) -> Option<f64>) -> String {
    let values: Option<Vec<f64>> = runs.iter().map(f).collect();
    match values {
        Some(v) if !v.is_empty() => {
            let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            format!("{lo:.3}–{hi:.3}")
        }
        _ => "—".to_string(),
    }
}

/// The spread of the rows measured once in `dir`: a table of their mean ± std over seeds
/// (beside the paper's rows, as the run's own table), then each row's range (min–max) of
/// mAP@1, AUROC, AUPRC and ECE. A row with fewer than two measured seeds, or whose runs in
/// `dir` were made with another configuration, is named with the reason instead.
///
/// # Errors
///
/// Unreadable `config.json` or `metrics.json` files of the measured runs, and measured runs
/// evaluated on different sets ([`mean_std`]).
pub fn measured_spread(dir: &Path, rows: &[SpreadRow<'_>]) -> TrainResult<String> {
    let mut table = Vec::new();
    let mut ranges = String::new();
    let mut missing = String::new();
    let mut dataset = None;
    for row in rows {
        let (seeds, runs): (Vec<u64>, Vec<Metrics>) = match measured_runs(dir, row)? {
            Ok(runs) if runs.len() >= 2 => runs.into_iter().unzip(),
            Ok(runs) => {
                let _ = writeln!(
                    missing,
                    "  {}: {} measured seed(s) of this configuration in {}; no spread quoted",
                    row.label,
                    runs.len(),
                    dir.display()
                );
                continue;
            }
            Err(reason) => {
                let _ = writeln!(missing, "  {}: {reason}; no spread quoted", row.label);
                continue;
            }
        };
        dataset.get_or_insert((row.config)(0)?.data.dataset);
        let _ = writeln!(
            ranges,
            "  {} (seeds {}): mAP@1 {}, AUROC {}, AUPRC {}, ECE {}",
            row.label,
            seeds
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            range(&runs, |m| Some(m.map_at_1)),
            range(&runs, |m| m.auroc),
            range(&runs, |m| m.auprc),
            range(&runs, |m| m.ece),
        );
        table.push(TableRow {
            method: row.method,
            label: row.label.clone(),
            summary: mean_std(&runs)?,
        });
    }
    let mut text = format!(
        "\nThe same configuration over seeds, measured once (the runs in {}):\n",
        dir.display()
    );
    if let Some(dataset) = dataset {
        text.push_str(&format_table(&table, dataset));
        text.push_str("\nRange over those seeds (min–max):\n");
        text.push_str(&ranges);
    }
    text.push_str(&missing);
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::OptimiserOptions;
    use crate::report::MNIST_TEST_OOD_SET;
    use std::path::PathBuf;

    fn config(seed: u64, epochs: usize) -> TrainResult<ValidConfig> {
        ValidConfig::new(TrainConfig {
            seed,
            optimiser: OptimiserOptions {
                epochs,
                ..OptimiserOptions::DEFAULT
            },
            ..TrainConfig::default()
        })
    }

    fn metrics(map_at_1: f64, auroc: f64, ood_set: &str) -> Metrics {
        Metrics {
            map_at_1,
            map_at_5: 0.75,
            map_at_10: 0.74,
            recall_at_1: map_at_1,
            recall_at_5: 0.95,
            recall_at_10: 0.97,
            map_at_r: 0.6,
            auroc: Some(auroc),
            auprc: Some(0.9),
            ausc: Some(0.88),
            ausc_oracle: Some(0.95),
            ece: Some(0.02),
            id_count: 100,
            excluded_queries: 0,
            ood_count: 100,
            samples: 16,
            dim: 3,
            ood_set: ood_set.into(),
        }
    }

    /// A fresh folder holding one run per `(seed, epochs, mAP@1, AUROC, OOD set)`, named
    /// `run-seed<k>`.
    fn measured(name: &str, runs: &[(u64, usize, f64, f64, &str)]) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("probdml-seed-spread-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for &(seed, epochs, map, auroc, ood) in runs {
            let run = dir.join(format!("run-seed{seed}"));
            std::fs::create_dir_all(&run).unwrap();
            json::write_json(&run.join(CONFIG), &config(seed, epochs).unwrap()).unwrap();
            json::write_json(&run.join(METRICS), &metrics(map, auroc, ood)).unwrap();
        }
        dir
    }

    fn spread(dir: &Path) -> String {
        let folder = |seed: u64| format!("run-seed{seed}");
        let config = |seed: u64| config(seed, 5);
        let row = SpreadRow {
            label: "LAM online".into(),
            method: Some(PaperMethod::LamOnline),
            folder: &folder,
            config: &config,
            ood_set: MNIST_TEST_OOD_SET,
        };
        measured_spread(dir, &[row]).unwrap()
    }

    #[test]
    fn quotes_the_mean_std_and_range_of_the_measured_seeds() {
        let t = MNIST_TEST_OOD_SET;
        // Any seeds, not only 0, 1, …: a schedule's seeds may be sharded (`--first-seed`).
        let dir = measured(
            "three",
            &[
                (0, 5, 0.80, 0.90, t),
                (7, 5, 0.84, 0.96, t),
                (2, 5, 0.82, 0.93, t),
            ],
        );
        let text = spread(&dir);
        // AUROC 0.90, 0.96, 0.93: mean 0.93, sample std √((0.03² + 0.03² + 0)/2) = 0.03.
        assert!(
            text.contains("| ours (3 seeds) | 0.820 ± 0.020 |"),
            "{text}"
        );
        assert!(text.contains("| 0.930 ± 0.030 |"), "{text}");
        assert!(
            text.contains("0.98 ± 0.01"),
            "the paper's row beside it: {text}"
        );
        assert!(
            text.contains("LAM online (seeds 0, 2, 7): mAP@1 0.800–0.840, AUROC 0.900–0.960, AUPRC 0.900–0.900"),
            "{text}"
        );
    }

    #[test]
    fn refuses_to_quote_another_configuration_or_ood_set() {
        let t = MNIST_TEST_OOD_SET;
        // Seed 1 was trained for 20 epochs, not this run's 5.
        let dir = measured("epochs", &[(0, 5, 0.80, 0.90, t), (1, 20, 0.84, 0.96, t)]);
        let text = spread(&dir);
        assert!(
            text.contains("run-seed1 was trained with another configuration"),
            "{text}"
        );
        assert!(
            !text.contains("ours (") && !text.contains("AUROC 0."),
            "{text}"
        );

        let dir = measured("ood", &[(0, 5, 0.80, 0.90, t), (1, 5, 0.84, 0.96, "npm")]);
        let text = spread(&dir);
        assert!(
            text.contains("was evaluated on another OOD set (\"npm\""),
            "{text}"
        );
        assert!(!text.contains("AUROC 0."), "{text}");
    }

    #[test]
    fn one_seed_or_none_is_no_spread() {
        let t = MNIST_TEST_OOD_SET;
        let dir = measured("one", &[(3, 5, 0.80, 0.90, t)]);
        let text = spread(&dir);
        assert!(text.contains("LAM online: 1 measured seed(s)"), "{text}");
        assert!(!text.contains("ours ("), "{text}");
        let text = spread(&dir.join("absent"));
        assert!(text.contains("LAM online: 0 measured seed(s)"), "{text}");
    }
}
