//! The 21-point Gauss–Kronrod rule and its embedded 10-point Gauss rule on one panel.
//!
//! The Kronrod extension of the n-point Gauss rule adds n + 1 nodes and integrates polynomials of
//! degree 3n + 1 exactly (31 for n = 10), against 2n − 1 = 19 for the Gauss rule; the two share
//! the Gauss nodes, so the pair costs 21 evaluations and their difference estimates the error.
//! Nodes and weights are QUADPACK's `qk21` (Piessens et al. 1983, 33 digits); the unit tests
//! check them by their exactness degrees.

/// One panel's result.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub struct PanelRule {
    /// The 21-point Kronrod estimate of `∫_a^b f`.
    pub kronrod: f64,
    /// The error estimate (QUADPACK's scaling of |Kronrod − Gauss|, floored at rounding level).
    pub error: f64,
    /// `∫_a^b |f|` by the Kronrod rule (for the rounding floor of the whole integral).
    pub absolute: f64,
    /// Whether every evaluation was finite.
    pub finite: bool,
}

// The digits beyond f64 are kept as published, for checking against QUADPACK.
#[allow(clippy::excessive_precision)]
const KRONROD_NODES: [f64; 11] = [
    0.995_657_163_025_808_080_735_527_280_689_003,
    0.973_906_528_517_171_720_077_964_012_084_452,
    0.930_157_491_355_708_226_001_207_180_059_508,
    0.865_063_366_688_984_510_732_096_688_423_493,
    0.780_817_726_586_416_897_063_717_578_345_042,
    0.679_409_568_299_024_406_234_327_365_114_874,
    0.562_757_134_668_604_683_339_000_099_272_694,
    0.433_395_394_129_247_190_799_265_943_165_784,
    0.294_392_862_701_460_198_131_126_603_103_866,
    0.148_874_338_981_631_210_884_826_001_129_720,
    0.0,
];

#[allow(clippy::excessive_precision)]
const KRONROD_WEIGHTS: [f64; 11] = [
    0.011_694_638_867_371_874_278_064_396_062_192,
    0.032_558_162_307_964_727_478_818_972_459_390,
    0.054_755_896_574_351_996_031_381_300_244_580,
    0.075_039_674_810_919_952_767_043_140_916_190,
    0.093_125_454_583_697_605_535_065_465_083_366,
    0.109_387_158_802_297_641_899_210_590_325_805,
    0.123_491_976_262_065_851_077_208_463_853_278,
    0.134_709_217_311_473_325_928_054_001_771_707,
    0.142_775_938_577_060_080_797_094_273_138_717,
    0.147_739_104_901_338_491_374_841_515_972_068,
    0.149_445_554_002_916_905_664_936_468_389_821,
];

/// Weights of the 10-point Gauss rule, at the Kronrod nodes of odd index 1, 3, …, 9.
#[allow(clippy::excessive_precision)]
const GAUSS_WEIGHTS: [f64; 5] = [
    0.066_671_344_308_688_137_593_568_809_893_332,
    0.149_451_349_150_580_593_145_776_339_657_697,
    0.219_086_362_515_982_043_995_534_934_228_163,
    0.269_266_719_309_996_355_091_226_921_569_469,
    0.295_524_224_714_752_870_173_892_994_651_338,
];

/// Applies the G10K21 pair to `f` on `[a, b]` (finite, `a < b`).
///
/// The error estimate is QUADPACK's: with `I_K`, `I_G` the two estimates and
/// `R = ∫|f − I_K/(b−a)|` (by the Kronrod rule), `E = R·min(1, (200|I_K − I_G|/R)^{3/2})`, and
/// never below `50 ε ∫|f|`, the rounding level of the panel. The power 3/2 reflects that the
/// Kronrod estimate converges much faster than the Gauss estimate it is compared with, so the raw
/// difference would overstate the error by orders of magnitude on smooth integrands.
#[doc(hidden)]
pub fn gauss_kronrod_21<F: FnMut(f64) -> f64>(f: &mut F, a: f64, b: f64) -> PanelRule {
    let centre = 0.5 * (a + b);
    let half = 0.5 * (b - a);
    let mut values = [0.0_f64; 21];
    values[10] = f(centre);
    for k in 0..10 {
        let dx = half * KRONROD_NODES[k];
        values[k] = f(centre - dx);
        values[20 - k] = f(centre + dx);
    }
    let finite = values.iter().all(|v| v.is_finite());
    let mut kronrod = KRONROD_WEIGHTS[10] * values[10];
    let mut gauss = 0.0;
    let mut absolute = KRONROD_WEIGHTS[10] * values[10].abs();
    for k in 0..10 {
        let pair = values[k] + values[20 - k];
        kronrod += KRONROD_WEIGHTS[k] * pair;
        absolute += KRONROD_WEIGHTS[k] * (values[k].abs() + values[20 - k].abs());
        if k % 2 == 1 {
            gauss += GAUSS_WEIGHTS[k / 2] * pair;
        }
    }
    let mean = 0.5 * kronrod;
    let mut deviation = KRONROD_WEIGHTS[10] * (values[10] - mean).abs();
    for k in 0..10 {
        deviation +=
            KRONROD_WEIGHTS[k] * ((values[k] - mean).abs() + (values[20 - k] - mean).abs());
    }
    let (kronrod, gauss, absolute, deviation) = (
        kronrod * half,
        gauss * half,
        absolute * half.abs(),
        deviation * half.abs(),
    );
    let mut error = (kronrod - gauss).abs();
    if deviation > 0.0 && error > 0.0 {
        error = deviation * (200.0 * error / deviation).powf(1.5).min(1.0);
    }
    let floor = 50.0 * f64::EPSILON * absolute;
    PanelRule {
        kronrod,
        error: error.max(floor),
        absolute,
        finite,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Kronrod rule integrates x^k on [−1, 1] exactly for k ≤ 31, the Gauss rule for k ≤ 19:
    /// a wrong digit in any node or weight shows up as a defect far above rounding.
    #[test]
    fn exactness_degrees_check_the_tables() {
        for k in 0..=31_i32 {
            let exact = if k % 2 == 1 {
                0.0
            } else {
                2.0 / f64::from(k + 1)
            };
            let mut f = |x: f64| x.powi(k);
            let panel = gauss_kronrod_21(&mut f, -1.0, 1.0);
            assert!(
                (panel.kronrod - exact).abs() <= 4.0 * f64::EPSILON,
                "Kronrod degree {k}: {} vs {exact}",
                panel.kronrod
            );
        }
        // The Gauss rule alone: reconstruct it from the same nodes.
        for k in (0..=19_i32).step_by(2) {
            let exact = 2.0 / f64::from(k + 1);
            let gauss: f64 = (0..5)
                .map(|j| 2.0 * GAUSS_WEIGHTS[j] * KRONROD_NODES[2 * j + 1].powi(k))
                .sum();
            assert!(
                (gauss - exact).abs() <= 4.0 * f64::EPSILON,
                "Gauss degree {k}"
            );
        }
        // Degree 20 is beyond the Gauss rule: the difference is visible.
        let gauss20: f64 = (0..5)
            .map(|j| 2.0 * GAUSS_WEIGHTS[j] * KRONROD_NODES[2 * j + 1].powi(20))
            .sum();
        assert!((gauss20 - 2.0 / 21.0).abs() > 1e-8);
    }

    #[test]
    fn weights_sum_to_the_interval_length() {
        let kronrod: f64 = 2.0 * KRONROD_WEIGHTS[..10].iter().sum::<f64>() + KRONROD_WEIGHTS[10];
        let gauss: f64 = 2.0 * GAUSS_WEIGHTS.iter().sum::<f64>();
        assert!((kronrod - 2.0).abs() <= 2.0 * f64::EPSILON);
        assert!((gauss - 2.0).abs() <= 2.0 * f64::EPSILON);
    }
}
