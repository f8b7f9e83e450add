//! Run-time choice of the instruction set for the hot kernels.
//!
//! The crate is compiled for the baseline of its target (x86-64: SSE2, no fused multiply-add),
//! so that a binary or a Python wheel runs on any CPU of that target. The kernels that gain
//! from wider vectors and fused multiply-add — the double-double arithmetic of
//! [`crate::special`], the lanes of the batched normalisers and Bessel functions, the one-pass
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
//! AVX2+FMA and AVX-512 copies, the C library's `fma` in the portable one (itself one instruction on a CPU
//! that has FMA, an exact software emulation on one that does not). Vectorisation across lanes
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
//! `mul_add` becomes a call into the C library. A kernel too large to inline into every caller
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
    /// The target's baseline (x86-64: SSE2); fused multiply-adds through the C library's `fma`.
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
    pub(crate) fn has_avx2(self) -> bool {
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
pub(crate) fn dispatch<R>(kernel: impl FnOnce() -> R) -> R {
    dispatch_on(InstructionSet::active(), kernel)
}

/// [`dispatch`] on a given instruction set (a worker thread's, passed on by its caller).
/// `isa` must be available on this CPU ([`InstructionSet::active`] always is).
#[inline(always)]
pub(crate) fn dispatch_on<R>(isa: InstructionSet, kernel: impl FnOnce() -> R) -> R {
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `active()` or a caller that checked `is_available()`, so the
        // CPU has AVX2 and FMA.
        InstructionSet::Avx2Fma => unsafe { avx2_fma(kernel) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has AVX-512 F, DQ, VL, BW, AVX2 and FMA.
        InstructionSet::Avx512 => unsafe { avx512(kernel) },
        _ => kernel(),
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
    kernel()
}
