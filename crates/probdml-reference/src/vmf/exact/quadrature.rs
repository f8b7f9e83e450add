//! Adaptive Gauss–Legendre quadrature of positive integrands given in log space.
//!
//! Why hand-written: the integrands of the vMF references (`e^{κ cos θ} sin^{M−2} θ` and its
//! moments) are positive, smooth and sharply peaked (width `~κ^{−1/2}` or `~M^{−1/2}`), and they
//! overflow `f64` long before they stop mattering (`e^{κ}` at `κ = 10⁵`). What is needed is
//! small and specific: evaluate `ln f`, subtract its maximum, integrate `exp(ln f − max)`, and
//! keep the accepted panels so that the samplers can invert the cumulative integral. The
//! well-kept Rust quadrature crates integrate `f` itself on a fixed error target and expose no
//! panels, so this file carries its own ~150 lines, all of them checked by the unit tests below
//! against closed forms.
//!
//! Method. The interval is cut at a uniform grid of 256 cells plus caller-supplied *hints* (the
//! peak and a ladder of peak ± 2ᵏ·width), so no peak can hide between two evaluations. On each
//! cell a 20-point Gauss–Legendre rule (exact for polynomials of degree 39) is compared with the
//! same rule on the two halves; a panel is accepted when the two agree to `2·10⁻¹⁵` of the whole
//! integral, otherwise both halves are refined. For analytic integrands the accepted estimate
//! (the halves) is far more accurate than the test: the Gauss–Legendre error on a panel `h`
//! shrinks like `(h/σ)⁴⁰`.
//!
//! The accuracy of the result is then that of the integrand values: callers pass `ln f`
//! relative to its value at the peak (see `marginal::Kernel`), because an absolute rounding
//! error in `ln f` is a relative error of the integral.

use crate::compensated::Neumaier;

/// Order of the Gauss–Legendre rule.
const ORDER: usize = 20;
/// Cells of the initial uniform grid.
const GRID_CELLS: usize = 256;
/// Acceptance threshold relative to the whole integral.
const RELATIVE_TOLERANCE: f64 = 2e-15;
/// Maximum bisection depth below an initial cell.
const MAX_DEPTH: u32 = 48;

/// The positive half of the symmetric 20-point Gauss–Legendre rule on `[−1, 1]`.
struct Rule {
    nodes: [f64; ORDER / 2],
    weights: [f64; ORDER / 2],
}

/// The 20-point rule (25-digit values, Abramowitz & Stegun Table 25.4). Newton's method on the
/// Legendre recurrence in `f64` reproduces these nodes to 1 ulp but the weights only to
/// ~10⁻¹⁵; the unit tests check that the table integrates `x^{2k}`, `2k ≤ 38`, to a few ulps.
fn rule() -> &'static Rule {
    // The digits beyond f64 are kept as published, for checking against the table.
    #[allow(clippy::excessive_precision)]
    const RULE: Rule = Rule {
        nodes: [
            0.076_526_521_133_497_333_754_640_4,
            0.227_785_851_141_645_078_080_496_2,
            0.373_706_088_715_419_560_672_548_2,
            0.510_867_001_950_827_098_004_364_1,
            0.636_053_680_726_515_025_452_836_7,
            0.746_331_906_460_150_792_614_305_1,
            0.839_116_971_822_218_823_394_529_1,
            0.912_234_428_251_325_905_867_752_4,
            0.963_971_927_277_913_791_267_666_1,
            0.993_128_599_185_094_924_786_122_4,
        ],
        weights: [
            0.152_753_387_130_725_850_698_084_3,
            0.149_172_986_472_603_746_787_828_7,
            0.142_096_109_318_382_051_329_298_3,
            0.131_688_638_449_176_626_898_494_5,
            0.118_194_531_961_518_417_312_377_4,
            0.101_930_119_817_240_435_036_750_1,
            0.083_276_741_576_704_748_724_758_1,
            0.062_672_048_334_109_063_569_506_5,
            0.040_601_429_800_386_941_331_040_0,
            0.017_614_007_139_152_118_311_862_0,
        ],
    };
    &RULE
}

/// `∫_a^b exp(ln_f(t) − shift) dt` by one application of the rule.
#[doc(hidden)]
pub fn gauss_legendre<F: Fn(f64) -> f64>(ln_f: &F, shift: f64, a: f64, b: f64) -> f64 {
    let r = rule();
    let c = 0.5 * (a + b);
    let h = 0.5 * (b - a);
    let mut acc = 0.0;
    for (&x, &w) in r.nodes.iter().zip(&r.weights) {
        let left = (ln_f(c - h * x) - shift).exp();
        let right = (ln_f(c + h * x) - shift).exp();
        acc = w.mul_add(left + right, acc);
    }
    acc * h
}

/// The largest of `ln_f` over the rule's nodes on `[a, b]`.
fn max_on_nodes<F: Fn(f64) -> f64>(ln_f: &F, a: f64, b: f64) -> f64 {
    let r = rule();
    let c = 0.5 * (a + b);
    let h = 0.5 * (b - a);
    r.nodes.iter().fold(f64::NEG_INFINITY, |m, &x| {
        m.max(ln_f(c - h * x)).max(ln_f(c + h * x))
    })
}

/// One accepted panel `[a, b]` and `∫_a^b exp(ln f − shift)`.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub struct Panel {
    pub a: f64,
    pub b: f64,
    pub value: f64,
}

/// The result of [`integrate_log`]: `∫ f = exp(shift) · total`, with the accepted panels in
/// increasing order.
#[derive(Debug, Clone)]
#[doc(hidden)]
pub struct Integral {
    pub shift: f64,
    pub total: f64,
    pub panels: Vec<Panel>,
}

impl Integral {
    /// `ln ∫ f`.
    #[doc(hidden)]
    pub fn log_value(&self) -> f64 {
        self.shift + self.total.ln()
    }
}

/// `∫_a^b f(t) dt` for a positive `f` given as `ln_f`, with optional interior `hints` where the
/// integrand changes on a short scale (peaks, edges of its bulk).
///
/// `ln_f` may return `−∞` (where `f = 0`) but never NaN on the open interval.
#[doc(hidden)]
pub fn integrate_log<F: Fn(f64) -> f64>(ln_f: F, a: f64, b: f64, hints: &[f64]) -> Integral {
    debug_assert!(a < b);
    let mut cuts: Vec<f64> = (0..=GRID_CELLS)
        .map(|i| {
            if i == GRID_CELLS {
                b
            } else {
                a + (b - a) * (i as f64 / GRID_CELLS as f64)
            }
        })
        .collect();
    cuts.extend(hints.iter().copied().filter(|&h| h > a && h < b));
    cuts.sort_by(f64::total_cmp);
    cuts.dedup();

    let shift = cuts.windows(2).fold(f64::NEG_INFINITY, |m, w| {
        m.max(max_on_nodes(&ln_f, w[0], w[1]))
    });
    if shift == f64::NEG_INFINITY {
        return Integral {
            shift: 0.0,
            total: 0.0,
            panels: vec![Panel { a, b, value: 0.0 }],
        };
    }

    let first: Vec<(f64, f64, f64)> = cuts
        .windows(2)
        .map(|w| (w[0], w[1], gauss_legendre(&ln_f, shift, w[0], w[1])))
        .collect();
    let estimate: f64 = first.iter().map(|p| p.2).sum();
    let tolerance = RELATIVE_TOLERANCE * estimate;

    let mut panels = Vec::with_capacity(first.len() * 2);
    // Depth-first, left child processed first, so panels come out sorted.
    let mut stack: Vec<(f64, f64, f64, u32)> = Vec::new();
    for &(pa, pb, whole) in first.iter().rev() {
        stack.push((pa, pb, whole, 0));
    }
    while let Some((pa, pb, whole, depth)) = stack.pop() {
        let m = 0.5 * (pa + pb);
        let left = gauss_legendre(&ln_f, shift, pa, m);
        let right = gauss_legendre(&ln_f, shift, m, pb);
        let halves = left + right;
        let converged = (whole - halves).abs() <= tolerance;
        if converged || depth >= MAX_DEPTH || m <= pa || m >= pb {
            panels.push(Panel {
                a: pa,
                b: pb,
                value: halves,
            });
        } else {
            stack.push((m, pb, right, depth + 1));
            stack.push((pa, m, left, depth + 1));
        }
    }
    let mut acc = Neumaier::new();
    for p in &panels {
        acc.add(p.value);
    }
    Integral {
        shift,
        total: acc.total(),
        panels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    #[test]
    fn rule_integrates_polynomials_exactly() {
        // ∫_{−1}^{1} x^{2k} dx = 2/(2k+1) for 2k ≤ 38 (odd powers vanish by symmetry).
        let r = rule();
        for k in 0..=19 {
            let v: f64 = r
                .nodes
                .iter()
                .zip(&r.weights)
                .map(|(x, w)| 2.0 * w * x.powi(2 * k))
                .sum();
            let want = 2.0 / (2.0 * k as f64 + 1.0);
            assert!(
                (v - want).abs() <= 4.0 * f64::EPSILON * want,
                "x^{}: {v} vs {want}",
                2 * k
            );
        }
    }

    #[test]
    fn bessel_i0_integral() {
        // ∫_0^π e^{κ cos θ} dθ = π I_0(κ); I_0(1) = 1.2660658777520083356.
        let q = integrate_log(|t: f64| t.cos(), 0.0, PI, &[]);
        let v = q.log_value().exp();
        assert!((v / (PI * 1.266_065_877_752_008_4) - 1.0).abs() < 1e-15);
    }

    #[test]
    fn sharp_peak_in_log_space() {
        // ∫_0^∞ e^{−κ t²/2} dt on [0, 1] at κ = 1e12: √(π/(2κ)); the integrand overflows nothing.
        let kappa = 1e12_f64;
        let sigma = kappa.powf(-0.5);
        let hints: Vec<f64> = (0..12).map(|k| sigma * 2f64.powi(k)).collect();
        let q = integrate_log(|t: f64| -0.5 * kappa * t * t, 0.0, 1.0, &hints);
        let want = (PI / (2.0 * kappa)).sqrt();
        assert!((q.log_value().exp() / want - 1.0).abs() < 1e-14);
        // Shifted far outside the exponent range.
        let q = integrate_log(|t: f64| 1e5 - 0.5 * kappa * t * t, 0.0, 1.0, &hints);
        assert!((q.log_value() - (1e5 + want.ln())).abs() < 1e-10);
    }

    #[test]
    fn panels_are_sorted_and_cover() {
        let q = integrate_log(|t: f64| -(t - 0.3).powi(2) * 1e4, 0.0, 1.0, &[0.3]);
        assert_eq!(q.panels.first().unwrap().a, 0.0);
        assert_eq!(q.panels.last().unwrap().b, 1.0);
        for w in q.panels.windows(2) {
            assert_eq!(w[0].b, w[1].a);
        }
    }
}
