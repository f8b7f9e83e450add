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

/// Cody–Waite reduction of `x ∈ [−700, 0]`: `(r, 2^k)` with `x = k ln 2 + r`, `|r| ≤ ½ ln 2 + 2⁻⁴⁰`.
#[inline(always)]
fn reduce(x: f64) -> (f64, f64) {
    let shifted = x.mul_add(std::f64::consts::LOG2_E, ROUNDING_SHIFTER);
    let k = shifted - ROUNDING_SHIFTER;
    let r = k.mul_add(-LN2_HI, x);
    let r = k.mul_add(-LN2_LO, r);
    // The low bits of `shifted` are 2⁵¹ + k; 2^k = (k + 1023) << 52.
    let k_bits = (shifted.to_bits() as i64).wrapping_sub(ROUNDING_SHIFTER.to_bits() as i64);
    (r, f64::from_bits(((k_bits + 1023) as u64) << 52))
}

/// `eˣ` for `−700 ≤ x ≤ 0` (not checked; outside, the result is wrong, not NaN).
#[inline(always)]
pub(crate) fn exp_nonpositive(x: f64) -> f64 {
    let (r, scale) = reduce(x);
    // Σ_{j≤13} r^j/j! by Horner.
    let mut p: f64 = 1.0 / 6_227_020_800.0;
    for step in 0..13 {
        p = p.mul_add(r, INVERSE_FACTORIALS[12 - step]);
    }
    p * scale
}

/// `eˣ − 1` for `−700 ≤ x ≤ 0` (not checked), with a relative error of a few ulps also where
/// `eˣ − 1` is tiny (the cancellation-free complement `1 − A_M = −expm1(ln A_M)`,
/// `vmf/complement.rs`): `2^k (e^r − 1) + (2^k − 1)` from the reduction above, with
/// `e^r − 1 = r + r²(1/2! + r/3! + … + r¹¹/13!)`. For `k = 0` that is the polynomial alone,
/// relatively accurate to about an ulp; for `k ≤ −1` the result is at most `e^{−½ ln 2} − 1
/// ≈ −0.29` and `2^k − 1` is exact (`k ≥ −53`) or rounds to `−1` as the result does, so the
/// two roundings of the sum are an ulp or two of the result.
#[inline(always)]
pub(crate) fn exp_m1_nonpositive(x: f64) -> f64 {
    let (r, scale) = reduce(x);
    let mut p: f64 = 1.0 / 6_227_020_800.0;
    for step in 0..11 {
        p = p.mul_add(r, INVERSE_FACTORIALS[12 - step]);
    }
    let em1 = (r * r).mul_add(p, r);
    scale.mul_add(em1, scale - 1.0)
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

    /// Against the C library's `expm1` (within half an ulp): relative error of a few ulps from
    /// the tiny arguments, where `eˣ − 1 ≈ x`, to −700, across both sides of each reduction
    /// boundary `x = (k ± ½) ln 2`.
    #[test]
    fn exp_m1_matches_the_library() {
        let mut worst: f64 = 0.0;
        let mut check = |v: f64| {
            let (got, want) = (exp_m1_nonpositive(v), v.exp_m1());
            worst = worst.max((got / want - 1.0).abs());
        };
        let mut x = -700.0_f64;
        while x < 0.0 {
            for v in [x, x + 1e-7, x * 0.999_999_9] {
                if (-700.0..0.0).contains(&v) {
                    check(v);
                }
            }
            x += 0.0173;
        }
        for k in 0..40 {
            let b = -(k as f64 + 0.5) * std::f64::consts::LN_2;
            for v in [b, b.next_up(), b.next_down()] {
                check(v);
            }
        }
        let mut t = -1e-300_f64;
        while t > -0.5 {
            check(t);
            check(t * 1.234_567);
            t *= 3.7;
        }
        assert!(
            worst <= 3.0 * f64::EPSILON,
            "largest relative error {worst:e}"
        );
        assert_eq!(exp_m1_nonpositive(0.0), 0.0);
    }
}
