//! Shared harness for the proofs: reproducible proptest configuration, input strategies by
//! category (edges, grids, random — libm's `generate/` pattern), and the one comparison of a
//! fast twin with its reference ([`check`], in `check.rs`).
#![allow(dead_code)]

mod check;
#[allow(unused_imports)] // not every proof compares fast with exact
pub use check::*;

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, RngAlgorithm, RngSeed};

/// The environment variable that rotates every property's seed: unset, each property runs with
/// the seed written in its proof (the same run every time); set to an integer `s`, with that seed
/// mixed with `s`, so a long campaign can try fresh inputs and still replay any failure.
pub const SEED_VARIABLE: &str = "PROBDML_PROOF_SEED";

/// The seed a property runs with: `seed` itself, or `seed` mixed with `$PROBDML_PROOF_SEED`
/// (SplitMix64's finaliser, so neighbouring rotations give unrelated seeds).
pub fn rotated_seed(seed: u64) -> u64 {
    let Some(rotation) = std::env::var(SEED_VARIABLE).ok() else {
        return seed;
    };
    let rotation: u64 = rotation.trim().parse().unwrap_or_else(|_| {
        panic!("{SEED_VARIABLE}={rotation:?} is not an unsigned 64-bit integer")
    });
    let mut z = seed ^ rotation.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A proptest configuration with a fixed seed (the proof is the same run every time, unless
/// [`SEED_VARIABLE`] rotates it) and failures persisted next to the proof file, to be committed.
/// The seed is printed into the test's captured output, which the harness shows when the
/// property fails.
pub fn config(cases: u32, seed: u64) -> Config {
    let rng_seed = rotated_seed(seed);
    println!(
        "proptest seed {rng_seed:#018x} (written {seed:#x}, {SEED_VARIABLE}={}), {cases} cases",
        std::env::var(SEED_VARIABLE).unwrap_or_default()
    );
    Config {
        cases,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(rng_seed),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..Config::default()
    }
}

/// log-uniform in [lo, hi].
pub fn log_uniform(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    let (a, b) = (lo.ln(), hi.ln());
    (0.0..=1.0f64).prop_map(move |t| (a + t * (b - a)).exp().clamp(lo, hi))
}

/// Orders ν across the domain [0, 5·10⁴]: the edges and regime switches of the fast
/// implementation (`crates/probdml/src/special/log_bessel_i.rs`: Debye from ν = 20, more terms below
/// ν = 50, 100, 250, 1000; the closed form at ν = ½), half-integers (every vMF order
/// M/2 − 1), and reals, uniform and log-uniform.
pub fn order() -> impl Strategy<Value = f64> {
    let below_20 = f64::from_bits(20f64.to_bits() - 1);
    let above_20 = f64::from_bits(20f64.to_bits() + 1);
    let edges = prop::sample::select(vec![
        0.0, 0.5, 1.0, 1.5, 19.5, below_20, 20.0, above_20, 20.5, 49.5, 50.0, 99.5, 100.0, 249.5,
        250.0, 999.5, 1000.0, 4095.0, 49_999.0, 50_000.0,
    ]);
    let half_integers = (0u32..=2 * 2048).prop_map(|k| k as f64 / 2.0);
    prop_oneof![
        1 => edges,
        2 => half_integers,
        1 => 0.0..25.0f64,
        2 => log_uniform(1e-3, 5e4),
    ]
}

/// Arguments x across (0, 10⁸]: edges (the smallest subnormal, the switch at x = 32 and its
/// neighbours, the domain end), a decade grid, and log-uniform reals.
pub fn argument() -> impl Strategy<Value = f64> {
    let below_32 = f64::from_bits(32f64.to_bits() - 1);
    let edges = prop::sample::select(vec![f64::from_bits(1), 1e-300, 1e-8, below_32, 32.0, 1e8]);
    let grid = (-32i32..=32).prop_map(|k| 10f64.powf(k as f64 / 4.0));
    prop_oneof![1 => edges, 1 => grid, 3 => log_uniform(1e-8, 1e8)]
}

/// Sphere dimensions M ∈ [2, 10⁵].
pub fn dimension() -> impl Strategy<Value = usize> {
    let edges = prop::sample::select(vec![2usize, 3, 4, 41, 42, 43, 128, 512, 2048, 100_000]);
    let log_dims = log_uniform(2.0, 1e5).prop_map(|m| m.round() as usize);
    prop_oneof![1 => edges, 2 => 2usize..200, 2 => log_dims]
}

/// Concentrations κ ∈ [0, 10⁸].
pub fn concentration() -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => prop::sample::select(vec![0.0, 1e-300, 1e-8, 32.0, 1e8]),
        1 => (-32i32..=32).prop_map(|k| 10f64.powf(k as f64 / 4.0)),
        3 => log_uniform(1e-8, 1e8),
    ]
}

/// `|got − want| ≤ tol · max(1, |want|)`: the registry's `AbsOrRel` budget.
pub fn within_abs_or_rel(got: f64, want: f64, tol: f64) -> bool {
    got == want || (got - want).abs() <= tol * want.abs().max(1.0)
}

/// `|got − want| ≤ tol · |want|`: the registry's `Relative` budget.
pub fn within_rel(got: f64, want: f64, tol: f64) -> bool {
    got == want || (got - want).abs() <= tol * want.abs()
}
