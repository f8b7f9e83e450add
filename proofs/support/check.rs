//! The one comparison of a fast twin with its reference: [`check`] and its forms.
//!
//! Every proof that compares a fast item with its `exact` twin (or a closed form with its
//! quadrature) calls one of these with the derivation's registered name. The budget — its kind
//! and value — is read from [`probdml_proofs::registry`], never written in the proof, so tightening a
//! budget in the registry tightens every proof that uses it, and a proof cannot check a
//! derivation against a budget other than the registered one. `tests/registry_coverage.rs`
//! fails when a proof compares fast with exact any other way.
//!
//! The kinds, as [`probdml_proofs::registry::Budget`] defines them, for a scalar with reference value
//! `e`:
//!
//! * `AbsOrRel(tol)`: `|fast − e| ≤ tol · max(1, |e|)`;
//! * `Relative(tol)` and `Quadrature(tol)`: `|fast − e| ≤ tol · |e|`.
//!
//! A vector or matrix is compared entrywise against one scale, its max norm `‖e‖∞` in place of
//! `|e|` (the GGN's "relative 10⁻¹² after scaling by the matrix norm"). Where the registry's
//! reason names another magnitude — the sum of the magnitudes of the terms a result is a
//! difference of, as for a likelihood or `E τ` — the `_with_magnitude` forms take it in place of
//! `|e|` (and of `‖e‖∞`); the kind's floor of 1 for `AbsOrRel` still applies.
//!
//! Each call records the error in units of that scale (the quantity the budget bounds); the
//! worst per derivation is printed when the proof's process exits, as
//! `worst error for <name>: <error> (budget <tol> <kind>, <n> comparisons)`, so the margin of
//! every budget is visible on every run (`cargo test --release --test <proof>`).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Display;
use std::io::Write;
use std::sync::{Mutex, Once};

use probdml_proofs::registry::{self, Budget};

/// The worst error seen for one derivation, in units of its scale.
struct Worst {
    error: f64,
    tol: f64,
    kind: &'static str,
    comparisons: u64,
}

static WORST: Mutex<BTreeMap<&'static str, Worst>> = Mutex::new(BTreeMap::new());
static PRINT_AT_EXIT: Once = Once::new();

extern "C" {
    /// C's `atexit` (ISO C, in every libc Rust links): the test harness has no teardown hook,
    /// and the summary must come after the last comparison of every test thread.
    fn atexit(callback: extern "C" fn()) -> i32;
}

extern "C" fn print_worst_errors() {
    let worst = WORST
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut out = std::io::stdout().lock();
    for (name, w) in worst.iter() {
        let _ = writeln!(
            out,
            "worst error for {name}: {:.2e} (budget {:e} {}, {} comparisons)",
            w.error, w.tol, w.kind, w.comparisons
        );
    }
    let _ = out.flush();
}

/// `fast` against the reference `exact` of the derivation `name`, within its registered budget.
/// Panics (a proptest failure inside a property) naming the derivation, both values, the error
/// and the budget.
pub fn check(name: &str, fast: f64, exact: f64) {
    compare(name, &"", &[fast], &[exact], None);
}

/// [`check`] with a description of the case (inputs, index) for the failure message.
pub fn check_at(name: &str, case: impl Display, fast: f64, exact: f64) {
    compare(name, &case, &[fast], &[exact], None);
}

/// [`check`] with the registered magnitude in place of `|exact|` (see the module docs).
pub fn check_with_magnitude(name: &str, case: impl Display, fast: f64, exact: f64, magnitude: f64) {
    compare(name, &case, &[fast], &[exact], Some(magnitude));
}

/// Entrywise, against one scale: the max norm of `exact`.
pub fn check_slice(name: &str, case: impl Display, fast: &[f64], exact: &[f64]) {
    compare(name, &case, fast, exact, None);
}

/// Entrywise, against the registered magnitude of the terms summed.
pub fn check_slice_with_magnitude(
    name: &str,
    case: impl Display,
    fast: &[f64],
    exact: &[f64],
    magnitude: f64,
) {
    compare(name, &case, fast, exact, Some(magnitude));
}

/// The registered tolerance of `name`, for the slack of an identity on the fast twin alone (a
/// recurrence, a bound, a monotonicity) that inherits one budget of its error per term. Never
/// for comparing fast with exact: that is [`check`].
pub fn tolerance(name: &str) -> f64 {
    budget_of(name).1
}

/// The registered budget of `name` as (tolerance, floor of the scale, kind).
fn budget_of(name: &str) -> (&'static str, f64, f64, &'static str) {
    let derivation = registry::find(name)
        .unwrap_or_else(|| panic!("`{name}` is not a registered derivation (src/registry.rs)"));
    let (tol, floor, kind) = match derivation.budget {
        Budget::AbsOrRel(tol) => (tol, 1.0, "AbsOrRel"),
        Budget::Relative(tol) => (tol, 0.0, "Relative"),
        Budget::Quadrature(tol) => (tol, 0.0, "Quadrature"),
        Budget::Statistical { .. } => panic!(
            "`{name}` has a statistical budget: a sampler is judged by its goodness-of-fit test, \
             not by check"
        ),
    };
    (derivation.name, tol, floor, kind)
}

fn compare(name: &str, case: &dyn Display, fast: &[f64], exact: &[f64], magnitude: Option<f64>) {
    let (name, tol, floor, kind) = budget_of(name);
    assert_eq!(
        fast.len(),
        exact.len(),
        "{name} {case}: fast has {} entries, exact {}",
        fast.len(),
        exact.len()
    );
    let reference = magnitude.unwrap_or_else(|| exact.iter().fold(0.0f64, |m, e| m.max(e.abs())));
    let scale = reference.max(floor);
    // Equal values (infinities included) have no error; a NaN on either side is an infinite one.
    let (error, worst_index) = fast
        .iter()
        .zip(exact)
        .map(|(f, e)| {
            if f == e {
                0.0
            } else {
                let error = (f - e).abs() / scale;
                if error.is_nan() {
                    f64::INFINITY
                } else {
                    error
                }
            }
        })
        .enumerate()
        .fold(
            (0.0f64, 0usize),
            |(m, at), (i, err)| if err > m { (err, i) } else { (m, at) },
        );
    record(name, error, tol, kind);
    assert!(
        error <= tol,
        "{name} {case}: fast {:e} vs exact {:e} (entry {worst_index} of {}), error {error:.3e} of \
         scale {scale:e}, budget {tol:e} ({kind})",
        fast.get(worst_index).copied().unwrap_or(f64::NAN),
        exact.get(worst_index).copied().unwrap_or(f64::NAN),
        fast.len(),
    );
}

fn record(name: &'static str, error: f64, tol: f64, kind: &'static str) {
    PRINT_AT_EXIT.call_once(|| {
        // SAFETY: registers a plain `extern "C" fn()` that only locks a static and writes to
        // stdout; `atexit` has no other precondition.
        unsafe {
            atexit(print_worst_errors);
        }
    });
    let mut worst = WORST
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let entry = worst.entry(name).or_insert(Worst {
        error: 0.0,
        tol,
        kind,
        comparisons: 0,
    });
    entry.comparisons += 1;
    entry.error = entry.error.max(error);
}
