//! # Batched ln C_M(κ) for one M and many κ (the training path of ProxyNCA++)
//!
//! Claim: `vmf::log_norm_const_batch` returns, bit for bit, the scalar `vmf::log_norm_const`
//! for every `M ≠ 3` (so it inherits that derivation's proof against the 256-bit reference); at
//! `M = 3`, where it evaluates the closed form `−ln 4π − ln(sinh κ/κ)` in vectorised lanes
//! instead of the scalar's double-double kernel, it is within `S2_ULPS` ulps of the scalar; and
//! it agrees with `vmf::exact::log_norm_const` within `LOG_SPECIAL·max(1, |·|)` on
//! `M ∈ {2, 3, 4, 41, 42, 128, 512}` and `κ ∈ [10⁻³, 10⁵]` plus `κ = 0` (and, at `M = 3`, on a
//! dense grid over `[0, 10¹⁵⁰]` and around the switch of its two formulas at `κ = ½`), and for
//! `M < 42` on unsorted concentrations that cover every regime of the scalar kernel. At `M = 3`
//! a value's bits do not depend on its neighbours: a chunk of lanes on one side of `κ = ½`
//! computes that side's formula alone, a mixed chunk both, with the same bits.

// derivation: vmf::log_norm_const_batch

use crate::support;
use probdml::vmf;
use proptest::prelude::*;

/// The largest distance in ulps between the `M = 3` lanes and the scalar kernel: the lanes'
/// error is `≤ 1.3·10⁻¹⁵` absolute plus an ulp (`crates/probdml/src/special/half_order.rs`), at most ~3 ulps
/// of `|ln C_3| ≥ ln 4π`, and the scalar's is about one ulp.
const S2_ULPS: u64 = 4;

/// The distance in ulps between two finite values of the same sign.
fn ulps(a: f64, b: f64) -> u64 {
    (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs()
}

/// The batch against the scalar: bit-identical, or within `S2_ULPS` at `M = 3`.
fn agrees_with_scalar(dim: usize, v: f64, k: f64) -> bool {
    let scalar = vmf::log_norm_const(dim, k);
    if dim == 3 {
        ulps(v, scalar) <= S2_ULPS
    } else {
        v.to_bits() == scalar.to_bits()
    }
}

const NAME: &str = "vmf::log_norm_const_batch";

#[test]
fn batch_equals_scalar_and_exact_on_a_grid() {
    let kappas: Vec<f64> = std::iter::once(0.0)
        .chain((-12..=20).map(|e| 10f64.powf(e as f64 / 4.0)))
        .collect();
    for dim in [2usize, 3, 4, 41, 42, 128, 512] {
        let mut out = vec![0.0; kappas.len()];
        vmf::log_norm_const_batch(dim, &kappas, &mut out).unwrap();
        for (&k, &v) in kappas.iter().zip(&out) {
            assert!(
                agrees_with_scalar(dim, v, k),
                "M = {dim}, κ = {k}: {v} vs {}",
                vmf::log_norm_const(dim, k)
            );
            let case = format!("M = {dim}, κ = {k}");
            support::check_at(NAME, case, v, vmf::exact::log_norm_const(dim, k));
        }
    }
}

/// `M = 3`: the lanes against the 256-bit reference and the scalar on a dense grid (every
/// octave from `2⁻³⁰` to `2⁵⁰⁰` in 16 steps, the switch at `κ = ½` and its neighbours, `κ = 0`,
/// `10¹⁵⁰` and beyond, where the scalar kernel takes over).
#[test]
fn s2_lanes_on_a_dense_grid() {
    let half = 0.5_f64;
    let mut kappas = vec![
        0.0,
        f64::from_bits(1),
        1e-300,
        f64::from_bits(half.to_bits() - 1),
        half,
        f64::from_bits(half.to_bits() + 1),
        1e150,
        1e200,
    ];
    for e in -30..500 {
        for j in 0..16 {
            kappas.push(2f64.powf(e as f64 + j as f64 / 16.0));
        }
    }
    let mut out = vec![0.0; kappas.len()];
    vmf::log_norm_const_batch(3, &kappas, &mut out).unwrap();
    let mut worst_ulps: u64 = 0;
    for (&k, &v) in kappas.iter().zip(&out) {
        let scalar = vmf::log_norm_const(3, k);
        worst_ulps = worst_ulps.max(ulps(v, scalar));
        assert!(
            ulps(v, scalar) <= S2_ULPS,
            "κ = {k}: {v} vs scalar {scalar}"
        );
        if k <= 1e8 && (k.to_bits() >> 48) % 4 == 0 {
            // A quarter of the points up to 10⁸ against the 256-bit reference (its series is
            // slow at large κ; the rest are tied to it through the scalar's proof).
            support::check_at(
                NAME,
                format!("M = 3, κ = {k}"),
                v,
                vmf::exact::log_norm_const(3, k),
            );
        }
    }
    println!("M = 3 lanes: {worst_ulps} ulps from the scalar at most");
}

proptest! {
    #![proptest_config(support::config(256, 0x0006_0600))]

    #[test]
    fn batch_equals_scalar(dim in support::dimension(), kappas in prop::collection::vec(support::log_uniform(1e-3, 1e5), 1..40)) {
        let mut out = vec![0.0; kappas.len()];
        vmf::log_norm_const_batch(dim, &kappas, &mut out).unwrap();
        for (&k, &v) in kappas.iter().zip(&out) {
            prop_assert!(agrees_with_scalar(dim, v, k), "M = {}, κ = {}", dim, k);
        }
    }
}

/// `M < 42`, `M ≠ 3`, unsorted concentrations of every regime of the scalar kernel (the series
/// below 32, the recurrence on `[32, ¾ν²)`, the Hankel expansion above, and beyond `10¹⁵⁰`),
/// shuffled with repeats and zeros: the batch visits them sorted by `κ`, each regime in its own
/// lanes, and writes each value back to its place — the scalar call's bits at every index, and
/// the 256-bit reference within the budget on a sample.
/// At `M = 3` each κ of a sorted grid (chunks of lanes all below ½, all above, one mixed) has
/// the bits of the same κ in a two-element call whose other κ lies across ½ (a mixed chunk):
/// the one-sided chunks compute the mixed chunk's formula, not a neighbour-dependent one.
#[test]
fn s2_lanes_do_not_depend_on_the_neighbours() {
    let grid: Vec<f64> = (0..4000)
        .map(|i| 10f64.powf(-4.0 + 9.0 * i as f64 / 3999.0))
        .collect();
    let mut sorted = vec![0.0; grid.len()];
    vmf::log_norm_const_batch(3, &grid, &mut sorted).unwrap();
    for (&k, &v) in grid.iter().zip(&sorted) {
        let across = if k < 0.5 { 0.75 } else { 0.25 };
        let mut pair = [0.0; 2];
        vmf::log_norm_const_batch(3, &[k, across], &mut pair).unwrap();
        assert_eq!(
            v.to_bits(),
            pair[0].to_bits(),
            "{NAME}: M = 3, κ = {k:e}: {v:e} in the grid, {:e} beside κ = {across}",
            pair[0]
        );
    }
}

#[test]
fn small_orders_unsorted_every_regime() {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut uniform = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    for dim in [2usize, 4, 5, 16, 17, 30, 41] {
        let nu = dim as f64 / 2.0 - 1.0;
        let recurrence_end = (0.75 * nu * nu).max(32.0);
        let mut kappas = vec![0.0, 32.0, recurrence_end, 1e151, 1e200, 31.999, 1e150];
        for _ in 0..300 {
            kappas.push(10f64.powf(-3.0 + 6.5 * uniform()));
            // Dense over the series' upper range and the recurrence's, where the regimes meet.
            kappas.push(20.0 + (recurrence_end + 20.0 - 20.0) * uniform());
        }
        kappas.push(kappas[5]);
        let mut out = vec![f64::NAN; kappas.len()];
        vmf::log_norm_const_batch(dim, &kappas, &mut out).unwrap();
        for (i, (&k, &v)) in kappas.iter().zip(&out).enumerate() {
            let scalar = vmf::log_norm_const(dim, k);
            assert_eq!(
                v.to_bits(),
                scalar.to_bits(),
                "M = {dim}, κ[{i}] = {k}: {v} vs scalar {scalar}"
            );
            if i % 16 == 0 && k <= 1e8 {
                support::check_at(
                    NAME,
                    format!("M = {dim}, unsorted κ = {k}"),
                    v,
                    vmf::exact::log_norm_const(dim, k),
                );
            }
        }
    }
}
