//! Claim: `compensated::norm2(x)` is within its stated bound of `‖x‖₂` (the doc comment of
//! `crates/probdml-core/src/compensated.rs`): with `u = 2⁻⁵³` and `n = len(x)`,
//!
//! ```text
//! |norm2(x) − ‖x‖₂| ≤ (3u/2 + 2(n+1)²u²)·‖x‖₂   (+ 2⁻¹⁰⁷⁵ where the result is subnormal),
//! ```
//!
//! one rounding of the sum of squares (Ogita, Rump & Oishi 2005, `Dot2`, whose terms are all
//! positive here), half of it through the square root, and the root's own rounding.
//!
//! The reference is `compensated::exact::norm2_dd`: the squares summed and the root taken in
//! 256-bit arithmetic (astro-float), rounded to a double-double `hi + lo`, which is within
//! `2⁻¹⁰⁵‖x‖₂` of the norm (and within `2⁻¹⁰⁷⁵` in the subnormal range); it shares no code
//! with `norm2` (`tests/registry_coverage.rs` keeps every `exact` module off the fast code).
//! The reference is checked first on its own, against integer arithmetic: for integer vectors
//! `k` with `S = Σkᵢ² < 2¹¹⁰`, `hi` must be the correctly rounded `√S`, decided exactly in
//! `u128` by `(2M − 1)²·4ᵗ < 4S < (2M + 1)²·4ᵗ` for `hi = M·2ᵗ`, and the same vector scaled by
//! `2ᵉ`, from subnormal entries to a norm near 2¹⁰¹⁵, must give `2ᵉ·hi` exactly.
//!
//! `norm2` is no registered derivation (it is arithmetic beneath them, with an a-priori bound,
//! not a paper's formula with a measured budget), so the bound is its own, stated with it, not
//! a registry budget applied by `support::check`; the worst error is printed in units of
//! `u‖x‖₂`, as `support::check` prints a budget's margin.
//!
//! Inputs by category, each vector of length 1 to 4096:
//!
//! * **wide dynamic range**: entries `±m·2ᵉ`, `m ∈ [1, 2)`, exponents spread over a window of up
//!   to 2100 binades anywhere from the subnormals to the top of the range (entries whose
//!   squares overflow or underflow `f64`, both paths of `norm2`: the unscaled `Dot2` for a
//!   largest entry in `[10⁻¹⁴⁰, 10¹⁴⁰]`, the power-of-two scaling outside);
//! * **many equal entries**: up to 4096 copies of one value (a sequential sum of equal terms
//!   rounds the same way at every step), with up to three others;
//! * **one large entry and many small ones**, whose squares sit near half an ulp of the large
//!   square: a sum without the compensation term drops them (the planted bugs below);
//! * **squares that all round up** by almost half an ulp, with a norm whose mantissa is just
//!   above 1: a sum of the rounded squares is `u` high however it is summed, which the error
//!   terms of the exact squares correct;
//! * **edges**: the path switch at `10⁻¹⁴⁰` and `10¹⁴⁰` and its neighbours, the scaling clamp at
//!   `2^±1000`, the smallest subnormal, `f64::MIN_POSITIVE`, entries near `f64::MAX` with a
//!   norm below it, zeros mixed in;
//! * **integer vectors at every binary scale** (the reference's own check above).
//!
//! Planted bugs this proof catches (each planted, the proof run, then reverted): the
//! compensation term of `dot2` dropped (`c[l] += e + e2` removed), the product errors of the
//! scaled path dropped (`acc.add_pair((p, e))` as `acc.add(p)`: only the squares that round up
//! together expose it), and the scaled path summed naively.

use crate::support;
use std::cell::Cell;

use probdml::compensated::{exact, norm2};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use support::config;

/// The unit roundoff `u = 2⁻⁵³`.
const U: f64 = f64::EPSILON / 2.0;

/// `2ᵏ` for `k ∈ [−1074, 1023]`, exactly (two normal factors below `2⁻¹⁰²²`).
fn pow2(k: i32) -> f64 {
    let normal = |e: i32| f64::from_bits(((1023 + e) as u64) << 52);
    if k >= -1022 {
        normal(k)
    } else {
        normal(-1022) * normal(k + 1022)
    }
}

/// The largest entry exponent for `n` entries that keeps `‖x‖₂ < 2¹⁰²³` (each entry `< 2ᵉ⁺¹`).
fn max_exponent(n: usize) -> i32 {
    1021 - (n as f64).log2().ceil() as i32 / 2 - 1
}

/// `±m·2ᵉ` for `m ∈ [1, 2)`; below the normal range the product rounds onto the subnormal grid,
/// which is just another input.
fn entry(negative: bool, m: f64, e: i32) -> f64 {
    let v = if e >= -1022 {
        m * pow2(e)
    } else {
        m * pow2(-1022) * pow2(e + 1022)
    };
    if negative {
        -v
    } else {
        v
    }
}

fn mantissa() -> impl Strategy<Value = f64> {
    1.0..2.0f64
}

/// Entries spread over a window of binades, anywhere in the exponent range.
fn wide_range() -> impl Strategy<Value = Vec<f64>> {
    (1usize..=512, -1074i32..=1020, 0i32..=2100).prop_flat_map(|(n, centre, width)| {
        let hi = (centre + width / 2).min(max_exponent(n));
        let lo = (centre - width / 2).max(-1074).min(hi);
        prop::collection::vec((any::<bool>(), mantissa(), lo..=hi), n)
            .prop_map(|v| v.into_iter().map(|(s, m, e)| entry(s, m, e)).collect())
    })
}

/// Up to 4096 copies of one value and up to three others of nearby magnitude.
fn equal_entries() -> impl Strategy<Value = Vec<f64>> {
    (1usize..=4096, mantissa(), -1074i32..=1000).prop_flat_map(|(n, m, e)| {
        let e = e.min(max_exponent(n + 3));
        let lo = (e - 30).max(-1074);
        prop::collection::vec((any::<bool>(), mantissa(), lo..=e), 0..=3).prop_map(move |others| {
            let mut v = vec![entry(false, m, e); n];
            v.extend(others.into_iter().map(|(s, m, e)| entry(s, m, e)));
            v
        })
    })
}

/// One entry `m·2ᵉ` and up to 4096 entries near `2^(e−27)`, whose squares are about half an ulp
/// of the large square: each is lost to a sum that keeps no compensation term.
fn large_and_small() -> impl Strategy<Value = Vec<f64>> {
    (1usize..=4096, mantissa(), -1000i32..=1000, -2i32..=1).prop_flat_map(|(k, m, e, shift)| {
        let e = e.min(max_exponent(k + 1));
        let small = (e - 27 + shift).max(-1074);
        prop::collection::vec((any::<bool>(), mantissa()), k).prop_map(move |tail| {
            let mut v = vec![entry(false, m, e)];
            v.extend(tail.into_iter().map(|(s, m)| entry(s, m, small)));
            v
        })
    })
}

/// `4ʲ` entries `±(1 + k·2⁻²⁹)·2ᵉ` with `k ≡ 15 or 17 (mod 32)`, so `k² ≡ 33 (mod 64)`: every
/// square `1 + k·2⁻²⁸ + (k²/64)·2⁻⁵²` rounds up by `31/64` of its ulp, about `u` of itself, and
/// the norm, near `2ʲ⁺ᵉ`, has a mantissa just above 1, where an error of `u‖x‖₂` is half an
/// ulp. A sum of the rounded squares, however well compensated, is then `u` high, and the norm
/// half an ulp off before its own two roundings: beyond the bound in a good part of the cases,
/// which the exact squares (TwoProduct's error terms) never are.
fn half_ulp_squares() -> impl Strategy<Value = Vec<f64>> {
    (1u32..=6, -1000i32..=1000).prop_flat_map(|(j, e)| {
        let n = 4usize.pow(j);
        let e = e.min(max_exponent(n));
        prop::collection::vec((any::<bool>(), 0u32..(1 << 19), any::<bool>()), n).prop_map(
            move |v| {
                v.into_iter()
                    .map(|(negative, t, fifteen)| {
                        let k = 32.0 * f64::from(t) + if fifteen { 15.0 } else { 17.0 };
                        entry(negative, 1.0 + k * pow2(-29), e)
                    })
                    .collect()
            },
        )
    })
}

/// The edges of `norm2`'s two paths and of the `f64` range, alone, repeated and mixed.
fn edges() -> impl Strategy<Value = Vec<f64>> {
    let up = |x: f64| f64::from_bits(x.to_bits() + 1);
    let down = |x: f64| f64::from_bits(x.to_bits() - 1);
    let values = vec![
        0.0,
        f64::from_bits(1),
        f64::from_bits(3),
        f64::MIN_POSITIVE,
        down(f64::MIN_POSITIVE),
        pow2(-1000),
        up(pow2(-1000)),
        down(pow2(-1000)),
        1e-154,
        1e-140,
        up(1e-140),
        down(1e-140),
        1.0,
        1e140,
        up(1e140),
        down(1e140),
        1e154,
        pow2(1000),
        up(pow2(1000)),
        down(pow2(1000)),
        f64::MAX / 4.0,
        f64::MAX / 8.0,
    ];
    (1usize..=64).prop_flat_map(move |n| {
        prop::collection::vec((any::<bool>(), prop::sample::select(values.clone())), n).prop_map(
            |v| {
                let x: Vec<f64> = v.into_iter().map(|(s, x)| if s { -x } else { x }).collect();
                // Keep ‖x‖ below f64::MAX: the largest edges are few enough in a short vector.
                let huge = x.iter().filter(|v| v.abs() >= f64::MAX / 8.0).count();
                if huge > 3 {
                    x.into_iter().map(|v| v / 16.0).collect()
                } else {
                    x
                }
            },
        )
    })
}

/// Integer vectors (their first entry in `[2⁵², 2⁵³)`, so `√S ≥ 2⁵²`; the rest below `2⁵³`; at
/// most 16 entries, so `S < 2¹¹⁰`), with a binary scale `e` that keeps the norm normal and
/// finite.
fn integer_vectors() -> impl Strategy<Value = (Vec<i64>, i32)> {
    (
        (1i64 << 52)..(1i64 << 53),
        prop::collection::vec(-(1i64 << 53) + 1..(1i64 << 53), 0..=15),
        -1074i32..=960,
    )
        .prop_map(|(first, rest, e)| {
            let mut k = vec![first];
            k.extend(rest);
            (k, e)
        })
}

/// `hi = M·2ᵗ` with `M` its 53-bit integer mantissa (`hi > 0`, normal).
fn integer_mantissa(hi: f64) -> (u128, i32) {
    let bits = hi.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    let m = (bits & ((1 << 52) - 1)) | (1 << 52);
    (u128::from(m), exponent - 1075)
}

/// Whether `hi` is the correctly rounded `√S` (ties to even), decided in integers:
/// `(2M − 1)²·4ᵗ ≤ 4S ≤ (2M + 1)²·4ᵗ`, strict unless `M` is even. Needs `t ≥ 0` and
/// `(2M + 1)²·4ᵗ < 2¹²⁸`.
fn is_rounded_root(hi: f64, s: u128) -> bool {
    let (m, t) = integer_mantissa(hi);
    assert!(
        (0..=4).contains(&t),
        "t = {t} outside the range the test data keep"
    );
    let below = (2 * m - 1).pow(2) << (2 * t);
    let above = (2 * m + 1).pow(2) << (2 * t);
    let four_s = 4 * s;
    let even = m % 2 == 0;
    (below < four_s || (even && below == four_s)) && (four_s < above || (even && four_s == above))
}

/// `norm2(x)` against the reference within the bound; returns the error in units of `u‖x‖₂`
/// (0 where the norm is 0 or subnormal, whose bound is absolute).
fn check_norm(x: &[f64]) -> Result<f64, TestCaseError> {
    let n = x.len();
    let (hi, lo) = exact::norm2_dd(x);
    let got = norm2(x);
    prop_assert!(
        hi.is_finite(),
        "the strategies keep ‖x‖ finite: {hi:e}, n = {n}"
    );
    // got and hi are within a factor of two, so got − hi is exact (Sterbenz).
    let error = ((got - hi) - lo).abs();
    let norm = hi + lo;
    let subnormal = if norm < f64::MIN_POSITIVE {
        pow2(-1074)
    } else {
        0.0
    };
    // The stated bound, and the reference's own error: 2⁻¹⁰⁵ relative for a double-double of a
    // 256-bit value, 2⁻¹⁰⁷⁵ absolute in the subnormal range (inside the 2⁻¹⁰⁷⁴ added there).
    let n1 = (n + 1) as f64;
    let bound = (1.5 * U + 2.0 * n1 * n1 * U * U + pow2(-105)) * norm + subnormal;
    let in_units = if norm >= f64::MIN_POSITIVE {
        error / (U * norm)
    } else {
        0.0
    };
    let amax = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    prop_assert!(
        error <= bound,
        "n = {n}, max |xᵢ| = {amax:e}: norm2 = {got:e}, reference {hi:e} + {lo:e}, error \
         {error:e} = {in_units:.3} u‖x‖ > bound {bound:e}"
    );
    Ok(in_units)
}

/// 256 cases with the proofs' seeded configuration. A runner outside `proptest!` knows no
/// source file to keep failures next to; the printed seed replays them.
fn runner(seed: u64) -> TestRunner {
    TestRunner::new(Config {
        failure_persistence: None,
        ..config(256, seed)
    })
}

/// Runs `check_norm` on 256 cases of `strategy` and prints the worst error, as
/// `support::check` prints a budget's margin.
fn run(name: &str, seed: u64, strategy: impl Strategy<Value = Vec<f64>>) {
    let worst = Cell::new((0.0f64, 0usize));
    runner(seed)
        .run(&strategy, |x| {
            let error = check_norm(&x)?;
            if error > worst.get().0 {
                worst.set((error, x.len()));
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let (error, n) = worst.get();
    println!(
        "worst error of compensated::norm2 on {name}: {error:.3} u‖x‖₂ at n = {n} (bound \
         1.5 u‖x‖₂ + 2(n+1)²u²‖x‖₂)"
    );
}

#[test]
fn the_reference_is_the_correctly_rounded_root_of_integer_vectors_at_every_scale() {
    runner(0x0c0_4e01)
        .run(&integer_vectors(), |(k, e)| {
            let s: u128 = k
                .iter()
                .map(|&v| (i128::from(v) * i128::from(v)) as u128)
                .sum();
            let x: Vec<f64> = k.iter().map(|&v| v as f64).collect();
            let (hi, lo) = exact::norm2_dd(&x);
            prop_assert!(is_rounded_root(hi, s), "√{s}: reference {hi:e}");
            // lo is the rounded remainder: below half an ulp of hi, and zero exactly when √S is
            // an integer that hi represents.
            prop_assert!(lo.abs() <= 0.5 * (f64::from_bits(hi.to_bits() + 1) - hi));
            // hi ≥ 2⁵² is an integer; √S is irrational unless S is its square, and then
            // |√S − hi| ≥ 1/(2√S + 1) > 0.
            let root = hi as u128;
            prop_assert_eq!(lo == 0.0, root * root == s);
            // kᵢ·2ᵉ is a multiple of 2⁻¹⁰⁷⁴ with at most 53 bits: exact, subnormal or not.
            let scale = |v: f64| v * pow2(e.max(-1022)) * pow2((e + 1022).min(0));
            let scaled: Vec<f64> = x.iter().map(|&v| scale(v)).collect();
            let (shi, slo) = exact::norm2_dd(&scaled);
            prop_assert_eq!(shi, scale(hi), "2^{} · √{}", e, s);
            // The remainder scales too, down to where it becomes subnormal.
            if scale(lo).abs() >= f64::MIN_POSITIVE || lo == 0.0 {
                prop_assert_eq!(slo, scale(lo));
            }
            check_norm(&scaled).map(|_| ())
        })
        .unwrap();
}

#[test]
fn the_reference_at_its_edges() {
    assert_eq!(exact::norm2_dd(&[]), (0.0, 0.0));
    assert_eq!(exact::norm2(&[f64::MAX]), f64::MAX);
    assert_eq!(exact::norm2(&[f64::MAX, f64::MAX]), f64::INFINITY);
    // ‖(3, 4)·2⁻¹⁰⁷⁴‖ = 5·2⁻¹⁰⁷⁴: the squares are far below f64's range.
    assert_eq!(
        exact::norm2(&[pow2(-1074) * 3.0, pow2(-1074) * 4.0]),
        pow2(-1074) * 5.0
    );
    assert!(exact::norm2(&[f64::NAN, 1.0]).is_nan());
    assert_eq!(exact::norm2(&[f64::NEG_INFINITY, 1.0]), f64::INFINITY);
}

#[test]
fn norm2_across_a_wide_dynamic_range() {
    run("wide range", 0x0c0_4e02, wide_range());
}

#[test]
fn norm2_on_many_equal_entries() {
    run("equal entries", 0x0c0_4e03, equal_entries());
}

#[test]
fn norm2_on_one_large_entry_and_many_half_ulp_squares() {
    run("large and small", 0x0c0_4e04, large_and_small());
}

#[test]
fn norm2_on_squares_that_all_round_up() {
    run("squares rounding up", 0x0c0_4e06, half_ulp_squares());
}

#[test]
fn norm2_at_the_edges_of_its_paths_and_of_the_range() {
    run("edges", 0x0c0_4e05, edges());
}

/// Outside the finite range: overflow of the norm itself, and non-finite entries, which
/// `f64::max` alone would let through (a NaN next to zeros would give 0).
#[test]
fn norm2_outside_the_finite_range() {
    assert_eq!(norm2(&[f64::MAX]), f64::MAX);
    assert_eq!(norm2(&[f64::MAX, f64::MAX]), f64::INFINITY);
    assert_eq!(norm2(&[]), 0.0);
    assert_eq!(norm2(&[0.0, -0.0]), 0.0);
    for x in [
        [f64::NAN, 0.0],
        [0.0, f64::NAN],
        [f64::NAN, f64::INFINITY],
        [1.0, f64::NAN],
        [1e300, f64::NAN],
    ] {
        assert!(norm2(&x).is_nan(), "{x:?}");
        assert!(exact::norm2(&x).is_nan(), "{x:?}");
    }
    assert_eq!(norm2(&[f64::NEG_INFINITY, 1.0]), f64::INFINITY);
}
