//! What every feature-`tch` integration test needs: one lock around libtorch's global generator,
//! a fresh scratch folder, and the `probdml` program run as a user would.
#![allow(dead_code)] // each test target uses a subset

use std::path::PathBuf;
use std::process::Command;

/// libtorch's random generator is process-global and the test harness runs tests on several
/// threads: without this lock one test's `manual_seed` would reseed another's draws mid-run.
static LIBTORCH_RNG: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Holds the libtorch generator for the rest of the test (a failed test does not poison it for
/// the others).
pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    LIBTORCH_RNG
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// An empty folder `probdml-<target>-<pid>-<name>` under the temporary directory.
pub fn scratch(target: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("probdml-{target}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// What one run of the program returned.
#[derive(Debug)]
pub struct Outcome {
    /// Exit code (−1 when killed by a signal).
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error (the log at `RUST_LOG=info`).
    pub stderr: String,
}

impl Outcome {
    /// Exit code 0.
    pub fn success(&self) -> bool {
        self.code == 0
    }
}

/// Runs the `probdml` program with `args` and the log at level info.
pub fn probdml(args: &[&str]) -> Outcome {
    let out = Command::new(env!("CARGO_BIN_EXE_probdml"))
        .args(args)
        .env("RUST_LOG", "info")
        .output()
        .expect("the probdml program runs");
    Outcome {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}
