//! `eˣ` for `x ∈ [−700, 0]` in straight-line code (no branch, no library call), so that a loop
//! over lanes vectorises: the batched `M = 3` normaliser (`vmf/normaliser_batch.rs`) needs
//! `e^{−2κ}` for many `κ`.
//!
//! Cody–Waite reduction: `k = round(x/ln 2)`, `r = x − k ln 2` with `ln 2 = LN2_HI + LN2_LO`,
//! `LN2_HI` having 32 significant bits so that `k·LN2_HI` is exact for `|k| ≤ 2²⁰` and `r`
//! is formed by two multiply-adds with an error below `2⁻⁵³|r| + |k|·2⁻⁸⁵`; `|r| ≤ ½ ln 2 + 2⁻⁴⁰`.
//! Then `e^r` by its Taylor polynomial to degree 13 (remainder `|r|¹⁴/14! < 5·10⁻¹⁸` relative)
//! in Horner form, and `2^k` assembled from its exponent bits (`−1010 ≤ k ≤ 0`: normal). The
//! relative error is a few ulps (checked against `f64::exp` below).

/// `ln 2` to 32 significant bits (fdlibm's `ln2_hi`, 0.69314718036912381649), and the rest
/// (fdlibm's `ln2_lo`, 1.90821492927058770002e-10; `ln 2 − hi − lo ≈ 5·10⁻²⁷`).
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);

/// `1.5·2⁵²`: adding it rounds a value of magnitude `< 2⁵¹` to an integer held in the low
/// mantissa bits (the rounding mode's ties-to-even).
const ROUNDING_SHIFTER: f64 = 6_755_399_441_055_744.0;

/// `eˣ` for `−700 ≤ x ≤ 0` (not checked; outside, the result is wrong, not NaN).
#[inline(always)]
pub(crate) fn exp_nonpositive(x: f64) -> f64 {
    let shifted = x.mul_add(std::f64::consts::LOG2_E, ROUNDING_SHIFTER);
    let k = shifted - ROUNDING_SHIFTER;
    let r = k.mul_add(-LN2_HI, x);
    let r = k.mul_add(-LN2_LO, r);
    // Σ_{j≤13} r^j/j! by Horner.
    let mut p: f64 = 1.0 / 6_227_020_800.0;
    for step in 0..13 {
        p = p.mul_add(r, INVERSE_FACTORIALS[12 - step]);
    }
    // The low bits of `shifted` are 2⁵¹ + k; 2^k = (k + 1023) << 52.
    let k_bits = (shifted.to_bits() as i64).wrapping_sub(ROUNDING_SHIFTER.to_bits() as i64);
    let scale = f64::from_bits(((k_bits + 1023) as u64) << 52);
    p * scale
}

/// `1/j!` for `j = 0..12`.
const INVERSE_FACTORIALS: [f64; 13] = [
    1.0,
    1.0,
    0.5,
    1.0 / 6.0,
    1.0 / 24.0,
    1.0 / 120.0,
    1.0 / 720.0,
    1.0 / 5_040.0,
    1.0 / 40_320.0,
    1.0 / 362_880.0,
    1.0 / 3_628_800.0,
    1.0 / 39_916_800.0,
    1.0 / 479_001_600.0,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_library_exponential() {
        let mut worst: f64 = 0.0;
        let mut x = -700.0_f64;
        while x <= 0.0 {
            for v in [x, x + 1e-7, x - 0.3466, x * 0.999_999_9] {
                if !(-700.0..=0.0).contains(&v) {
                    continue;
                }
                let (got, want) = (exp_nonpositive(v), v.exp());
                worst = worst.max((got / want - 1.0).abs());
            }
            x += 0.173;
        }
        for &v in &[0.0, -1e-300, -1e-16, -0.5, -1.0, -2.0, -50.0, -699.9] {
            let (got, want) = (exp_nonpositive(v), v.exp());
            worst = worst.max((got / want - 1.0).abs());
        }
        assert!(
            worst <= 4.0 * f64::EPSILON,
            "largest relative error {worst:e}"
        );
        assert_eq!(exp_nonpositive(0.0), 1.0);
    }
}
