//! The epoch-time table: probdml's training epochs beside another program's on the same work
//! (the papers' own code, run on the same data, batch, network, threads and CPU), read from the
//! runs' files without libtorch. The book's results chapter holds one such table, regenerated
//! by `crates/probdml-train/tests/results_tables.rs` like the result tables.
//!
//! probdml's side is a run folder's `state.json` ([`crate::checkpoint::TrainingState`]: each
//! epoch's wall-clock seconds and steps). The other program's side is a folder with
//! [`PROGRAM_EPOCHS`], written by a timer inside that program: the wall-clock and process CPU
//! seconds between the start and the end of each training epoch, and the steps it took. An
//! epoch the other program was stopped in (a slow program timed over its first steps) says how
//! many steps the whole epoch has; the table then projects the epoch from the steps' mean time,
//! and says so.

use crate::checkpoint::{TrainingState, STATE};
use crate::error::{TrainError, TrainResult};
use crate::json;
use crate::results::parse_row;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::Path;

/// The file of the other program's epochs.
pub const PROGRAM_EPOCHS: &str = "epochs.json";

/// The rule of a row of [`epoch_time_table`].
pub const EPOCH_ROW_RULE: &str =
    "LABEL=PROBDML_RUN,OTHER_RUN: a label, `=`, a probdml run folder (its state.json) and a folder with the other program's epochs.json";

/// Another program's timed epochs ([`PROGRAM_EPOCHS`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProgramEpochs {
    /// The program: its code, version and settings, in one line.
    pub program: String,
    /// Each timed epoch.
    pub epochs: Vec<ProgramEpoch>,
}

/// One epoch of [`ProgramEpochs`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProgramEpoch {
    /// Epoch, from 1.
    pub epoch: usize,
    /// Training steps timed.
    pub steps: usize,
    /// The steps of the whole epoch, when the program was stopped before its end (`None`: the
    /// epoch ran to its end, `steps` is its length).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps_per_epoch: Option<usize>,
    /// Wall-clock seconds of the epoch's training steps.
    pub seconds: f64,
    /// CPU seconds of the whole process (all threads) over the same span.
    pub cpu_seconds: f64,
}

/// One side of a row: the length of its epochs, the steps timed and their seconds.
struct Timed {
    steps_per_epoch: usize,
    steps: usize,
    seconds: f64,
    /// Some epoch was stopped before its end (the steps may still sum to whole epochs).
    partial: bool,
}

impl Timed {
    /// Sums `(steps timed, steps per epoch, seconds)` over the epochs of `folder`, whose
    /// lengths must agree and whose times must be positive.
    fn sum(
        spec: &str,
        folder: &Path,
        epochs: impl Iterator<Item = (usize, usize, f64)>,
    ) -> TrainResult<Self> {
        let refuse = |rule: String| Err(TrainError::config("row", spec, rule));
        let mut timed: Option<Timed> = None;
        for (steps, length, seconds) in epochs {
            if steps == 0 || steps > length || !(seconds.is_finite() && seconds > 0.0) {
                return refuse(format!(
                    "{} holds an epoch of {steps} steps of {length} in {seconds} s; every epoch must time at least one step of its own, in a positive, finite time",
                    folder.display()
                ));
            }
            match &mut timed {
                Some(t) if t.steps_per_epoch != length => {
                    return refuse(format!(
                        "the epochs of {} have different lengths ({} and {length} steps)",
                        folder.display(),
                        t.steps_per_epoch
                    ))
                }
                Some(t) => {
                    (t.steps, t.seconds) = (t.steps + steps, t.seconds + seconds);
                    t.partial |= steps < length;
                }
                None => {
                    timed = Some(Timed {
                        steps_per_epoch: length,
                        steps,
                        seconds,
                        partial: steps < length,
                    })
                }
            }
        }
        match timed {
            Some(t) => Ok(t),
            None => refuse(format!("{} holds no timed epoch", folder.display())),
        }
    }

    /// Seconds per epoch: the mean step's time × the epoch's steps (the epochs' mean when every
    /// epoch ran to its end).
    fn per_epoch(&self) -> f64 {
        self.seconds / self.steps as f64 * self.steps_per_epoch as f64
    }

    /// What was timed: `n × steps` for whole epochs, `steps of length` otherwise.
    fn describe(&self) -> String {
        if self.partial {
            format!(
                "{} of {} (epoch projected)",
                self.steps, self.steps_per_epoch
            )
        } else {
            format!(
                "{} × {}",
                self.steps / self.steps_per_epoch,
                self.steps_per_epoch
            )
        }
    }
}

/// The table of probdml's epochs against another program's: for each row
/// `LABEL=PROBDML_RUN,OTHER_RUN`, the steps per epoch, the seconds per epoch of each side (the
/// mean step's wall-clock time over every step each folder timed, times the epoch's steps), their
/// ratio, and what each side timed; then each row's other program, as its file names it.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `row` for a malformed row (not two folders), a side with
/// no timed epoch, with epochs of different lengths or an impossible epoch, or sides whose epochs
/// have different lengths (not the same work); unreadable `state.json` or [`PROGRAM_EPOCHS`]
/// files.
pub fn epoch_time_table(rows: &[String]) -> TrainResult<String> {
    let mut table = String::from(
        "| row | steps per epoch | probdml (s per epoch) | other program (s per epoch) | other ÷ probdml | probdml timed | other program timed |\n|---|---:|---:|---:|---:|---|---|\n",
    );
    let mut programs = String::new();
    for spec in rows {
        let (label, runs) = parse_row(spec)?;
        let [ours, theirs] = runs.as_slice() else {
            return Err(TrainError::config("row", spec, EPOCH_ROW_RULE));
        };
        let state: TrainingState = json::read_json(&ours.join(STATE))?;
        let other: ProgramEpochs = json::read_json(&theirs.join(PROGRAM_EPOCHS))?;
        let ours_t = Timed::sum(
            spec,
            ours,
            state.history.iter().map(|e| (e.steps, e.steps, e.seconds)),
        )?;
        let theirs_t = Timed::sum(
            spec,
            theirs,
            other
                .epochs
                .iter()
                .map(|e| (e.steps, e.steps_per_epoch.unwrap_or(e.steps), e.seconds)),
        )?;
        if ours_t.steps_per_epoch != theirs_t.steps_per_epoch {
            return Err(TrainError::config(
                "row",
                spec,
                format!(
                    "probdml's epochs have {} steps and the other program's {}: not the same work",
                    ours_t.steps_per_epoch, theirs_t.steps_per_epoch
                ),
            ));
        }
        let (a, b) = (ours_t.per_epoch(), theirs_t.per_epoch());
        writeln!(
            table,
            "| {label} | {} | {a:.1} | {b:.1} | {:.1}× | {} | {} |",
            ours_t.steps_per_epoch,
            b / a,
            ours_t.describe(),
            theirs_t.describe()
        )
        .expect("writing to a String");
        writeln!(programs, "- {label}: {}", other.program).expect("writing to a String");
    }
    Ok(format!("{table}\nThe other programs:\n\n{programs}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkpoint::EpochLog;
    use std::path::PathBuf;

    /// A fresh folder for one test.
    fn fresh(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("probdml-epoch-times-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn run(dir: &Path, seconds: &[f64], steps: usize) {
        std::fs::create_dir_all(dir).unwrap();
        let history = seconds
            .iter()
            .enumerate()
            .map(|(i, &s)| EpochLog {
                seed: 0,
                epoch: i + 1,
                mean_loss: 0.5,
                seconds: s,
                steps,
                mean_pairs: 10.0,
                at_bound: None,
            })
            .collect();
        let state = TrainingState {
            epochs_done: seconds.len(),
            history,
            world_size: 1,
        };
        json::write_json(&dir.join(STATE), &state).unwrap();
    }

    fn other(dir: &Path, seconds: &[f64], steps: usize, steps_per_epoch: Option<usize>) {
        std::fs::create_dir_all(dir).unwrap();
        let epochs = seconds
            .iter()
            .enumerate()
            .map(|(i, &s)| ProgramEpoch {
                epoch: i + 1,
                steps,
                steps_per_epoch,
                seconds: s,
                cpu_seconds: 2.0 * s,
            })
            .collect();
        let p = ProgramEpochs {
            program: "peer 1.0, batch 64".into(),
            epochs,
        };
        json::write_json(&dir.join(PROGRAM_EPOCHS), &p).unwrap();
    }

    #[test]
    fn the_table_holds_each_sides_epoch_their_ratio_and_what_was_timed() {
        let d = fresh("table");
        run(&d.join("ours"), &[10.0, 14.0], 937);
        run(&d.join("ours400"), &[10.0], 400);
        other(&d.join("theirs"), &[60.0], 937, None);
        other(&d.join("partial"), &[100.0], 400, Some(937));
        // Two halves of a 400-step epoch: 400 steps timed, yet no whole epoch.
        other(&d.join("halves"), &[50.0, 50.0], 200, Some(400));
        let p = |n: &str| d.join(n).display().to_string();
        let rows = [
            format!("LAM online={},{}", p("ours"), p("theirs")),
            format!("stopped={},{}", p("ours"), p("partial")),
        ];
        let table = epoch_time_table(&rows).unwrap();
        // By hand: ours (10 + 14)/1874 s per step × 937 = 12.0 s; theirs 60 s, 60/12 = 5.0;
        // stopped after 400 steps in 100 s: 0.25 s × 937 = 234.25 s, 234.25/12 = 19.5.
        assert!(
            table.contains("| LAM online | 937 | 12.0 | 60.0 | 5.0× | 2 × 937 | 1 × 937 |"),
            "{table}"
        );
        assert!(
            table.contains(
                "| stopped | 937 | 12.0 | 234.2 | 19.5× | 2 × 937 | 400 of 937 (epoch projected) |"
            ),
            "{table}"
        );
        assert!(
            table.contains("- LAM online: peer 1.0, batch 64"),
            "{table}"
        );
        let halves = epoch_time_table(&[format!("halves={},{}", p("ours400"), p("halves"))]);
        assert!(
            halves
                .as_ref()
                .unwrap()
                .contains("| 400 of 400 (epoch projected) |"),
            "{halves:?}"
        );
    }

    #[test]
    fn rows_of_unequal_work_or_malformed_are_refused_naming_the_row() {
        let d = fresh("refused");
        run(&d.join("ours"), &[10.0], 937);
        other(&d.join("theirs"), &[60.0], 234, None);
        other(&d.join("overlong"), &[60.0], 950, Some(937));
        run(&d.join("empty"), &[], 937);
        let p = |n: &str| d.join(n).display().to_string();
        for (row, says) in [
            (
                format!("x={},{}", p("ours"), p("theirs")),
                "not the same work",
            ),
            (format!("x={}", p("ours")), "LABEL=PROBDML_RUN,OTHER_RUN"),
            (
                format!("x={},{}", p("empty"), p("theirs")),
                "no timed epoch",
            ),
            (
                format!("x={},{}", p("ours"), p("overlong")),
                "950 steps of 937",
            ),
        ] {
            let e = epoch_time_table(&[row]).unwrap_err().to_string();
            assert!(e.contains("row") && e.contains(says), "{e}");
        }
    }
}
