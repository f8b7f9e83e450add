//! A deadline for a test whose code under test could loop for ever: a rejection sampler whose
//! acceptance test can never pass (a wrong constant, a flipped comparison) does not fail, it
//! hangs, and a hung suite reports nothing. [`Deadline::start`] starts a watchdog thread that
//! ends the whole test process with a message naming the test if the returned guard is still
//! alive after `seconds`; dropping the guard (the test returning or panicking) stops it.
#![allow(dead_code)]

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The guard of one test's deadline.
pub struct Deadline {
    done: Arc<AtomicBool>,
}

impl Deadline {
    /// Ends the process (exit code 101, as a failed test binary) unless dropped within
    /// `seconds`.
    pub fn start(label: &'static str, seconds: u64) -> Self {
        let done = Arc::new(AtomicBool::new(false));
        let watch = Arc::clone(&done);
        let start = Instant::now();
        std::thread::spawn(move || {
            while !watch.load(Ordering::Relaxed) {
                if start.elapsed() > Duration::from_secs(seconds) {
                    // Written to the file descriptor itself: `eprintln!` in a test is captured,
                    // and the capture is lost when the process exits.
                    let _ = writeln!(
                        std::io::stderr(),
                        "{label}: not finished after {seconds} s (it takes a few seconds): \
                         a loop that never ends, such as a rejection step that never accepts"
                    );
                    std::process::exit(101);
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        Self { done }
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
    }
}
