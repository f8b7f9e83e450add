//! The Stirling coefficients B₂ⱼ / (2j(2j−1)) from exact tangent numbers.
//!
//! The Bernoulli numbers are obtained from the tangent numbers Tⱼ (tan z = Σ Tⱼ z^{2j−1}/(2j−1)!,
//! T = 1, 2, 16, 272, …) by
//!
//! ```text
//! B₂ⱼ = (−1)^{j−1} · 2j · Tⱼ / (2^{2j} (2^{2j} − 1))
//! ```
//!
//! and the tangent numbers by the algorithm of Brent & Harvey ("Fast computation of Bernoulli,
//! Tangent and Secant numbers", 2011, Algorithm TangentNumbers): only additions and products
//! of non-negative integers, so there is no cancellation. The integers are held in `BigFloat`s
//! with enough bits that every intermediate is exact (every Tⱼ only grows during the algorithm,
//! so all intermediates are bounded by the final T_n, whose size is bounded below); the only
//! rounding is the final division, one correctly rounded operation per coefficient.

use astro_float::BigFloat;

use super::working_precision::RM;

/// Bits that hold every integer of the computation of T₁ … T_n exactly:
/// T_n < 2^{4n} (2n)! bounds the tangent numbers and (2^{2n} − 1)(2n − 1) 2^{2n} the
/// denominators; 128 bits of slack on top.
fn integer_bits(n: usize) -> usize {
    let log2_factorial: f64 = (2..=2 * n).map(|i| (i as f64).log2()).sum();
    let bits = log2_factorial.ceil() as usize + 4 * n + 128;
    bits.div_ceil(64) * 64
}

/// The tangent numbers T₁ … T_n, exactly (index 0 of the result is T₁).
fn tangent_numbers(n: usize) -> Vec<BigFloat> {
    let bits = integer_bits(n);
    let int = |i: usize| BigFloat::from_u64(i as u64, bits);
    // Integers below 2^bits are exact in `bits` bits: every operation below is exact.
    let mut t: Vec<BigFloat> = Vec::with_capacity(n + 1);
    t.push(int(0)); // unused slot T₀, so that t[j] = Tⱼ
    t.push(int(1));
    for k in 2..=n {
        let next = t[k - 1].mul(&int(k - 1), bits, RM);
        t.push(next);
    }
    for k in 2..=n {
        for j in k..=n {
            let updated = t[j - 1].mul(&int(j - k), bits, RM).add(
                &t[j].mul(&int(j - k + 2), bits, RM),
                bits,
                RM,
            );
            t[j] = updated;
        }
    }
    t.remove(0);
    t
}

/// cⱼ = B₂ⱼ / (2j(2j−1)) for j = 1 … `count`, rounded to `p` bits: the coefficients of the
/// Stirling series ln Γ(z) ~ (z−½) ln z − z + ½ ln 2π + Σⱼ cⱼ z^{1−2j} (DLMF 5.11.1).
///
/// cⱼ = (−1)^{j−1} Tⱼ / ((2^{2j} − 1)(2j − 1) 2^{2j}): an exact integer divided by an exact
/// integer, one rounding.
#[doc(hidden)]
pub fn stirling_coefficients(count: usize, p: usize) -> Vec<BigFloat> {
    let bits = integer_bits(count);
    let tangent = tangent_numbers(count);
    let four = BigFloat::from_u64(4, bits);
    let one = BigFloat::from_u64(1, bits);
    let mut four_pow = one.clone(); // 4^j, exact
    let mut coefficients = Vec::with_capacity(count);
    for (index, t_j) in tangent.iter().enumerate() {
        let j = index + 1;
        four_pow = four_pow.mul(&four, bits, RM);
        let denominator = four_pow
            .sub(&one, bits, RM)
            .mul(&BigFloat::from_u64((2 * j - 1) as u64, bits), bits, RM)
            .mul(&four_pow, bits, RM);
        let mut c = t_j.div(&denominator, p, RM);
        if j % 2 == 0 {
            c.inv_sign();
        }
        coefficients.push(c);
    }
    coefficients
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::special::exact::double_double::round_to_f64;

    #[test]
    fn tangent_numbers_match_oeis_a000182() {
        let t = tangent_numbers(8);
        let expected = [1u64, 2, 16, 272, 7936, 353792, 22368256, 1903757312];
        for (got, want) in t.iter().zip(expected) {
            assert_eq!(round_to_f64(got), want as f64);
        }
    }

    #[test]
    fn coefficients_are_bernoulli_over_2j_2j_minus_1() {
        // B₂ … B₁₂ = 1/6, −1/30, 1/42, −1/30, 5/66, −691/2730.
        let bernoulli = [
            1.0 / 6.0,
            -1.0 / 30.0,
            1.0 / 42.0,
            -1.0 / 30.0,
            5.0 / 66.0,
            -691.0 / 2730.0,
        ];
        let c = stirling_coefficients(6, 256);
        for (j, (got, b)) in c.iter().zip(bernoulli).enumerate() {
            let j = (j + 1) as f64;
            let want = b / (2.0 * j * (2.0 * j - 1.0));
            assert!(
                (round_to_f64(got) - want).abs() <= 4e-16 * want.abs(),
                "j = {j}"
            );
        }
    }
}
