//! The lock of an output folder: one process writes a run folder at a time.
//!
//! Two `train` commands into one `--out` would interleave their checkpoints and metrics. The
//! first takes `<out>/.probdml.lock`, a file holding its process id, created atomically with its
//! content (written under a private name, then hard-linked into place: the link fails when the
//! lock exists, and a reader never sees it empty); the second finds it, sees that process alive
//! and is refused, naming the folder and the process. The lock goes when the first ends
//! ([`Drop`]); a process killed before that leaves it behind, and the next one finds its
//! process gone, removes the stale lock and takes its own.

use crate::checkpoint::layout::LOCK;
use crate::error::{TrainError, TrainResult};
use std::path::{Path, PathBuf};

/// The held lock of an output folder; released when dropped.
#[derive(Debug)]
pub struct OutputLock {
    path: PathBuf,
}

impl OutputLock {
    /// Takes the lock of `dir` (which must exist) for this process.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] naming `out` and the process id when a live process holds
    /// the lock; I/O failures naming the lock file.
    pub fn acquire(dir: &Path) -> TrainResult<Self> {
        let path = dir.join(LOCK);
        let pid = std::process::id();
        let private = dir.join(format!("{LOCK}.{pid}"));
        std::fs::write(&private, format!("{pid}\n")).map_err(|e| TrainError::io(&private, e))?;
        let taken = (|| {
            // Twice at most: a stale lock is removed once, then taken.
            for _ in 0..2 {
                match std::fs::hard_link(&private, &path) {
                    Ok(()) => return Ok(Self { path: path.clone() }),
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                        let holder = read_holder(&path);
                        match holder {
                            Some(other) if process_alive(other) => {
                                return Err(TrainError::config(
                                    "out",
                                    dir.display(),
                                    format!(
                                        "is being written by process {other} (lock file {}): wait for it to end, or use another --out",
                                        path.display()
                                    ),
                                ))
                            }
                            _ => {
                                // Its process is gone (killed before it could release the
                                // lock). Remove it only if it still names that process: a
                                // third process may have taken the folder meanwhile.
                                if read_holder(&path) == holder {
                                    tracing::warn!(lock = %path.display(), pid = ?holder, "removing the stale lock of a process that no longer runs");
                                    match std::fs::remove_file(&path) {
                                        Ok(()) => {}
                                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                                        Err(e) => return Err(TrainError::io(&path, e)),
                                    }
                                }
                            }
                        }
                    }
                    Err(e) => return Err(TrainError::io(&path, e)),
                }
            }
            Err(TrainError::config(
                "out",
                dir.display(),
                format!("its lock {} is contended: try again", path.display()),
            ))
        })();
        let _ = std::fs::remove_file(&private);
        taken
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        // Only our own lock: a folder whose lock was judged stale and taken by another process
        // while we ran must keep that process's lock.
        if read_holder(&self.path) == Some(std::process::id()) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The process id a lock file names (None: unreadable or not a number).
fn read_holder(path: &Path) -> Option<u32> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// Whether process `pid` runs: on Linux from `/proc` (a zombie, killed and not yet reaped,
/// counts as gone), elsewhere by `kill -0`.
fn process_alive(pid: u32) -> bool {
    if Path::new("/proc/self").exists() {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            // The state is the first field after the parenthesised command name.
            Ok(stat) => !matches!(
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.trim_start().chars().next()),
                Some('Z' | 'X')
            ),
            Err(_) => false,
        }
    } else {
        std::process::Command::new("kill")
            .args(["-0", &pid.to_string()])
            .stderr(std::process::Stdio::null())
            .status()
            .map(|s| s.success())
            .unwrap_or(true)
    }
}
