//! `x − ln(1 + x)` without cancellation: the Bregman divergence of `−ln` that appears in every
//! Gaussian KL (`σ²/s² − 1 − ln(σ²/s²)`) and in the large-κ limit of the vMF log-partition's.

/// `x − ln(1 + x)` for `x > −1`, without the cancellation of the two terms near `x = 0` (there
/// it is `x²/2 − x³/3 + …`, summed as a series).
pub(crate) fn x_minus_ln1p(x: f64) -> f64 {
    if x.abs() < 0.25 {
        // Alternating series Σ_{n≥2} (−x)^n / n: terms fall by ≥ 4× each, 26 terms reach 2⁻⁵³.
        let mut sum = 0.0;
        let mut power = x * x;
        for n in 2..40 {
            let term = power / n as f64;
            sum += term;
            if term.abs() <= 1e-17 * sum.abs() {
                break;
            }
            power *= -x;
        }
        sum
    } else {
        x - x.ln_1p()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_and_direct_forms_meet_at_the_switch() {
        for x in [-0.25f64, -0.2499999, 0.2499999, 0.25] {
            let direct = x - x.ln_1p();
            assert!((x_minus_ln1p(x) - direct).abs() <= 1e-15 * direct);
        }
        // x = 1e−8: x²/2 − x³/3, where x − ln1p(x) in f64 keeps only ~8 digits.
        let x = 1e-8;
        assert!((x_minus_ln1p(x) - (0.5e-16 - 1e-24 / 3.0)).abs() <= 1e-31);
    }
}
