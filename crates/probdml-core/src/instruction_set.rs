//! Run-time choice of the instruction set for the hot kernels.
//!
//! The crate is compiled for the baseline of its target (x86-64: SSE2, no fused multiply-add),
//! so that a binary or a Python wheel runs on any CPU of that target. The kernels that gain
//! from wider vectors and fused multiply-add — the double-double arithmetic of
//! `crate::special`, the lanes of the batched normalisers and Bessel functions, the one-pass
//! sums of the nivMF divergences and the nivMF proxy losses, the Gram entries of the contrastive
//! losses, the last-layer GGN diagonals, the retrieval scans of [`crate::metrics`] — are
//! compiled twice
//! more: with AVX2 and FMA enabled, and with
//! AVX-512 (F, DQ, VL, BW) on top of those, whose 512-bit registers hold eight `f64` lanes
//! (the batched kernels run sixteen, two registers). Each call picks one of the three copies
//! by what the CPU reports (`is_x86_feature_detected!`, cached by the standard library after
//! the first query).
//!
//! # Why the copies give the same bits
//!
//! Every copy runs the same source: the same IEEE-754 operations in the same order, and Rust
//! never contracts `a·b + c` into a fused operation on its own. Every fused multiply-add is
//! written as `f64::mul_add`, which is correctly rounded in every copy: one instruction in the
//! AVX2+FMA and AVX-512 copies, a call to compiler-builtins' `fma` in the portable one (which runs
//! the FMA instruction on a CPU that has it, an exact software emulation on one that does not). Vectorisation across lanes
//! changes which register holds a value, never the operations on it. So the results are the
//! same bits, and `proofs/dispatch_bit_identity.rs` checks that they are, on every dispatched
//! entry point, by running every copy that the CPU has on the same inputs
//! ([`InstructionSet::run`]).
//!
//! # How a kernel is dispatched
//!
//! A public entry point hands its body, as an `#[inline(always)]` closure, to `dispatch`; the
//! body calls `#[inline(always)]` kernels, so that the whole call tree is compiled into the
//! trampoline of each instruction set (without the attribute on the closure, LLVM keeps a large
//! body out of line, compiled for the baseline, and the trampoline only jumps to it). A kernel
//! that is not inlined there is compiled for the baseline only: correct, but each of its
//! `mul_add` becomes a call to compiler-builtins' `fma`. A kernel too large to inline into every caller
//! (the per-pair kernels of the nivMF divergences and proxy losses) stays out of line and hands
//! its own body to `dispatch`: compiled once per instruction set rather than into every caller's
//! copy, and, called from a copy that is already dispatched, it only chooses the same copy
//! again.

use std::cell::Cell;
use std::sync::OnceLock;

/// An instruction set that the dispatched kernels are compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum InstructionSet {
    /// The target's baseline (x86-64: SSE2); fused multiply-adds through calls to compiler-builtins' `fma`.
    Portable,
    /// x86-64 with AVX2 and FMA (Haswell, 2013, and Zen, 2017, onwards).
    Avx2Fma,
    /// [`Avx2Fma`](Self::Avx2Fma) plus AVX-512 F, DQ, VL and BW (x86-64-v4: Skylake-SP, 2017,
    /// and Zen 4, 2022, onwards): eight `f64` lanes per register.
    Avx512,
}

thread_local! {
    /// The instruction set forced on this thread by [`InstructionSet::run`], if any.
    static FORCED: Cell<Option<InstructionSet>> = const { Cell::new(None) };
}

impl InstructionSet {
    /// The widest instruction set that this CPU supports.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::instruction_set::InstructionSet;
    /// assert!(InstructionSet::detected().is_available());
    /// ```
    pub fn detected() -> Self {
        // Queried once: `active()` runs on every dispatched call, including scalar ones.
        static DETECTED: OnceLock<InstructionSet> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            Self::ALL
                .into_iter()
                .rev()
                .find(|isa| isa.is_available())
                .unwrap_or(Self::Portable)
        })
    }

    /// Every instruction set that kernels are compiled for, narrowest first.
    pub const ALL: [Self; 3] = [Self::Portable, Self::Avx2Fma, Self::Avx512];

    /// The name used in reports and by the Python package: `"portable"`, `"avx2-fma"` or
    /// `"avx512"`.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::instruction_set::InstructionSet;
    /// assert_eq!(InstructionSet::Avx2Fma.name(), "avx2-fma");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Self::Portable => "portable",
            Self::Avx2Fma => "avx2-fma",
            Self::Avx512 => "avx512",
        }
    }

    /// Whether the kernels compiled for `self` may use AVX2 (the retrieval scans' intrinsics).
    #[doc(hidden)]
    pub fn has_avx2(self) -> bool {
        matches!(self, Self::Avx2Fma | Self::Avx512)
    }

    /// Whether this CPU can run the kernels compiled for `self`.
    pub fn is_available(self) -> bool {
        match self {
            Self::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Self::Avx2Fma => {
                std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
            }
            #[cfg(target_arch = "x86_64")]
            Self::Avx512 => {
                Self::Avx2Fma.is_available()
                    && std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512dq")
                    && std::is_x86_feature_detected!("avx512vl")
                    && std::is_x86_feature_detected!("avx512bw")
            }
            #[cfg(not(target_arch = "x86_64"))]
            Self::Avx2Fma | Self::Avx512 => false,
        }
    }

    /// The instruction set that a dispatched kernel called from this thread uses now: the one
    /// forced by an enclosing [`run`](Self::run), else [`detected`](Self::detected).
    #[inline]
    pub fn active() -> Self {
        FORCED.with(Cell::get).unwrap_or_else(Self::detected)
    }

    /// Runs `f` with every dispatched kernel that it calls on this thread compiled for `self`,
    /// and returns its result; `None`, without running `f`, when this CPU lacks `self`.
    ///
    /// For proofs and benchmarks that compare the copies: the results are the same bits (see
    /// the module docs). Kernels that spread over threads (the retrieval metrics) pass the
    /// choice on to their workers.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::instruction_set::InstructionSet;
    /// use probdml::special::log_bessel_i;
    /// let portable = InstructionSet::Portable.run(|| log_bessel_i(63.0, 10.0)).unwrap();
    /// let detected = InstructionSet::detected().run(|| log_bessel_i(63.0, 10.0)).unwrap();
    /// assert_eq!(portable.to_bits(), detected.to_bits());
    /// ```
    pub fn run<T>(self, f: impl FnOnce() -> T) -> Option<T> {
        if !self.is_available() {
            return None;
        }
        let previous = FORCED.with(|c| c.replace(Some(self)));
        // Restores the previous choice even if `f` unwinds.
        struct Restore(Option<InstructionSet>);
        impl Drop for Restore {
            fn drop(&mut self) {
                FORCED.with(|c| c.set(self.0));
            }
        }
        let _restore = Restore(previous);
        Some(f())
    }
}

/// Runs `kernel` compiled for the [active](InstructionSet::active) instruction set.
///
/// The closure and the `#[inline(always)]` kernels it calls are inlined into each copy; the
/// choice costs one thread-local read and one cached CPU-feature test per call.
#[inline(always)]
#[doc(hidden)]
pub fn dispatch<R>(kernel: impl FnOnce() -> R) -> R {
    dispatch_on(InstructionSet::active(), kernel)
}

/// [`dispatch`] on a given instruction set (a worker thread's, passed on by its caller).
/// `isa` must be available on this CPU ([`InstructionSet::active`] always is).
#[inline(always)]
#[doc(hidden)]
pub fn dispatch_on<R>(isa: InstructionSet, kernel: impl FnOnce() -> R) -> R {
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `active()` or a caller that checked `is_available()`, so the
        // CPU has AVX2 and FMA.
        InstructionSet::Avx2Fma => unsafe { avx2_fma(kernel) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has AVX-512 F, DQ, VL, BW, AVX2 and FMA.
        InstructionSet::Avx512 => unsafe { avx512(kernel) },
        _ => {
            #[cfg(test)]
            tests::record_copy(InstructionSet::Portable);
            kernel()
        }
    }
}

/// The AVX2+FMA copy of `kernel`: the target features apply to everything inlined here.
///
/// # Safety
///
/// The CPU must support AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn avx2_fma<R>(kernel: impl FnOnce() -> R) -> R {
    #[cfg(test)]
    tests::record_copy(InstructionSet::Avx2Fma);
    kernel()
}

/// The AVX-512 copy of `kernel` (with AVX2 and FMA): the target features apply to everything
/// inlined here.
///
/// # Safety
///
/// The CPU must support AVX-512 F, DQ, VL and BW, AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,avx512f,avx512dq,avx512vl,avx512bw")]
#[inline]
unsafe fn avx512<R>(kernel: impl FnOnce() -> R) -> R {
    #[cfg(test)]
    tests::record_copy(InstructionSet::Avx512);
    kernel()
}

#[cfg(test)]
mod tests {
    //! The choice of a copy, checked against the CPU's own report: `detected()` against
    //! `is_x86_feature_detected!` on exactly the features that each copy is compiled with (read
    //! from this file's `#[target_feature]` attributes, not restated), `active()` and `run`
    //! against their contract, and `dispatch` against the copy it actually entered.

    use super::*;
    use std::path::Path;

    thread_local! {
        /// The copy whose trampoline `dispatch_on` entered last on this thread.
        static ENTERED: Cell<Option<InstructionSet>> = const { Cell::new(None) };
    }

    /// Called by each arm of `dispatch_on` (test builds only).
    #[doc(hidden)]
    pub fn record_copy(isa: InstructionSet) {
        ENTERED.with(|c| c.set(Some(isa)));
    }

    /// The features of every `target_feature` attribute in `source` (a line that starts with
    /// one, so that prose about them is not read), each with the function it is attached to.
    fn target_feature_attributes(source: &str) -> Vec<(String, Vec<String>)> {
        const OPEN: &str = "#[target_feature(enable = \"";
        let mut found = Vec::new();
        let mut lines = source.lines();
        while let Some(line) = lines.next() {
            let Some(rest) = line.trim_start().strip_prefix(OPEN) else {
                continue;
            };
            let features = rest[..rest.find('"').expect("a closed string")]
                .split(',')
                .map(|f| f.trim().to_owned())
                .collect();
            let signature = lines
                .by_ref()
                .find(|l| l.contains("fn "))
                .expect("an attributed function");
            let after_fn = &signature[signature.find("fn ").expect("found above") + 3..];
            let name = after_fn[..after_fn.find(['<', '(']).expect("a signature")].to_owned();
            found.push((name, features));
        }
        found
    }

    /// The features of the trampoline `name` in this file.
    fn copy_features(name: &str) -> Vec<String> {
        let attributes = target_feature_attributes(include_str!("instruction_set.rs"));
        let mut of_name = attributes.into_iter().filter(|(n, _)| n == name);
        let (_, features) = of_name
            .next()
            .unwrap_or_else(|| panic!("no trampoline {name}"));
        assert!(of_name.next().is_none(), "two trampolines named {name}");
        features
    }

    /// What this CPU (and the OS, for the wide registers' state) reports for `feature`, asked
    /// directly; a feature without an arm here fails the test, so that a copy compiled with a
    /// new feature cannot go unchecked.
    #[cfg(target_arch = "x86_64")]
    fn cpu_has(feature: &str) -> bool {
        match feature {
            "avx2" => std::is_x86_feature_detected!("avx2"),
            "fma" => std::is_x86_feature_detected!("fma"),
            "avx512f" => std::is_x86_feature_detected!("avx512f"),
            "avx512dq" => std::is_x86_feature_detected!("avx512dq"),
            "avx512vl" => std::is_x86_feature_detected!("avx512vl"),
            "avx512bw" => std::is_x86_feature_detected!("avx512bw"),
            "avx512cd" => std::is_x86_feature_detected!("avx512cd"),
            "avx512vbmi" => std::is_x86_feature_detected!("avx512vbmi"),
            "bmi1" => std::is_x86_feature_detected!("bmi1"),
            "bmi2" => std::is_x86_feature_detected!("bmi2"),
            "lzcnt" => std::is_x86_feature_detected!("lzcnt"),
            "popcnt" => std::is_x86_feature_detected!("popcnt"),
            "f16c" => std::is_x86_feature_detected!("f16c"),
            other => panic!("no check for target feature {other:?}: add an arm to cpu_has"),
        }
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn cpu_has(_: &str) -> bool {
        false
    }

    /// The copies with the features their trampolines are compiled with (the portable copy
    /// has none beyond the target's baseline).
    fn copies() -> [(InstructionSet, Vec<String>); 3] {
        [
            (InstructionSet::Portable, vec![]),
            (InstructionSet::Avx2Fma, copy_features("avx2_fma")),
            (InstructionSet::Avx512, copy_features("avx512")),
        ]
    }

    #[test]
    fn each_copy_is_available_exactly_when_the_cpu_has_its_compiled_features() {
        for (isa, features) in copies() {
            let missing: Vec<&String> = features.iter().filter(|f| !cpu_has(f)).collect();
            assert_eq!(
                isa.is_available(),
                missing.is_empty(),
                "{} is compiled with {features:?}; this CPU lacks {missing:?}",
                isa.name()
            );
        }
    }

    #[test]
    fn detected_is_the_widest_copy_whose_compiled_features_the_cpu_has() {
        let widest = copies()
            .into_iter()
            .rev()
            .find(|(_, features)| features.iter().all(|f| cpu_has(f)))
            .map(|(isa, _)| isa)
            .expect("the portable copy needs no feature");
        assert_eq!(InstructionSet::detected(), widest);
    }

    #[test]
    fn copies_are_listed_narrowest_first_each_a_superset_of_the_one_before() {
        assert_eq!(
            InstructionSet::ALL,
            copies().map(|(isa, _)| isa),
            "ALL lists the copies of dispatch_on, narrowest first"
        );
        for pair in copies().windows(2) {
            let (narrow, wide) = (&pair[0], &pair[1]);
            for f in &narrow.1 {
                assert!(
                    wide.1.contains(f),
                    "{} lacks {f}, which {} has: a CPU could run the narrow copy and not \
                     the wide one, and detected() would skip to the narrow one silently",
                    wide.0.name(),
                    narrow.0.name()
                );
            }
        }
    }

    /// Every hand-written kernel with its own `#[target_feature]` (the ziggurat's AVX-512 fast
    /// path, the AVX2 retrieval scans and Gram tiles), in this crate and in the workspace's
    /// others, is called from inside a dispatched copy: each needs no feature beyond the widest
    /// copy's, or a CPU that passes `is_available` could still fault — unless its own file
    /// checks that feature at run time (the retrieval's VNNI tile, `is_x86_feature_detected!`).
    #[test]
    fn no_kernel_needs_a_feature_beyond_the_widest_copy() {
        let widest = copy_features("avx512");
        let crates = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("the crate lies in crates/");
        let mut files: Vec<_> = std::fs::read_dir(crates)
            .expect("a readable crates/")
            .map(|entry| entry.expect("a directory entry").path())
            .filter(|dir| {
                dir.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("probdml"))
            })
            .map(|dir| dir.join("src"))
            .filter(|src| src.is_dir())
            .collect();
        let mut checked = 0;
        while let Some(path) = files.pop() {
            if path.is_dir() {
                for entry in std::fs::read_dir(&path).expect("a readable src/") {
                    files.push(entry.expect("a directory entry").path());
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let source = std::fs::read_to_string(&path).expect("a readable source file");
            for (name, features) in target_feature_attributes(&source) {
                for f in &features {
                    let checked_here =
                        source.contains(&format!("std::is_x86_feature_detected!(\"{f}\")"));
                    // SSE and SSE2 are part of the x86-64 baseline: every copy has them.
                    let baseline = ["sse", "sse2"].contains(&f.as_str());
                    assert!(
                        widest.contains(f) || baseline || checked_here,
                        "{}: fn {name} needs {f}, which neither is_available(Avx512) nor its \
                         file checks",
                        path.display()
                    );
                }
                checked += 1;
            }
        }
        assert!(
            checked >= 2,
            "the two trampolines at least: found {checked} attributes"
        );
    }

    #[test]
    fn active_is_detected_outside_run_and_the_forced_copy_inside() {
        assert_eq!(InstructionSet::active(), InstructionSet::detected());
        for isa in InstructionSet::ALL {
            let mut ran = false;
            let inside = isa.run(|| {
                ran = true;
                InstructionSet::active()
            });
            assert_eq!(inside, isa.is_available().then_some(isa), "{}", isa.name());
            assert_eq!(ran, isa.is_available(), "run({}) ran f", isa.name());
            assert_eq!(
                InstructionSet::active(),
                InstructionSet::detected(),
                "after run({})",
                isa.name()
            );
        }
        // Nested: the inner choice holds inside, the outer one is restored after it.
        let (inner, outer) = InstructionSet::Portable
            .run(|| {
                let inner = InstructionSet::detected()
                    .run(InstructionSet::active)
                    .expect("detected is available");
                (inner, InstructionSet::active())
            })
            .expect("portable is available");
        assert_eq!(inner, InstructionSet::detected());
        assert_eq!(outer, InstructionSet::Portable);
        // Restored when `f` unwinds.
        let unwound = std::panic::catch_unwind(|| {
            InstructionSet::Portable.run(|| panic!("unwinds through run"))
        });
        assert!(unwound.is_err());
        assert_eq!(InstructionSet::active(), InstructionSet::detected());
        // The choice is per thread: a thread started inside `run` uses the detected copy.
        let spawned = InstructionSet::Portable
            .run(|| std::thread::spawn(InstructionSet::active).join())
            .expect("portable is available")
            .expect("the thread returns");
        assert_eq!(spawned, InstructionSet::detected());
    }

    #[test]
    fn dispatch_enters_the_active_copy() {
        let entered = || {
            ENTERED.with(|c| c.set(None));
            dispatch(|| ());
            ENTERED.with(Cell::get)
        };
        assert_eq!(entered(), Some(InstructionSet::detected()));
        for isa in InstructionSet::ALL {
            assert_eq!(
                isa.run(entered),
                isa.is_available().then_some(Some(isa)),
                "{}",
                isa.name()
            );
        }
    }
}
