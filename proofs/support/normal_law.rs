//! The standard normal law as a reference for Gaussian samplers: `Φ` from `libm::erfc` (no
//! part of the crate), and the KS distance between `N(0, 1)` and `N(0, s²)` in closed form.
#![allow(dead_code)]

/// `Φ(z) = ½ erfc(−z/√2)`.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * libm::erfc(-z * std::f64::consts::FRAC_1_SQRT_2)
}

/// `sup_x |Φ(x) − Φ(x/s)|`, the KS distance between `N(0, 1)` and `N(0, s²)`: the densities
/// `φ(x)` and `φ(x/s)/s` cross at `x*² = 2s² ln s/(s² − 1)`, where the difference peaks.
pub fn scale_distance(s: f64) -> f64 {
    if s == 1.0 {
        return 0.0;
    }
    let x = (2.0 * s * s * s.ln() / (s * s - 1.0)).sqrt();
    (normal_cdf(x) - normal_cdf(x / s)).abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values() {
        // Φ(1) = 0.8413447460685429 (scipy.stats.norm.cdf(1)).
        assert!((normal_cdf(1.0) - 0.841_344_746_068_542_9).abs() < 1e-15);
        // The closed-form peak is the maximum of a fine scan.
        for s in [0.9, 1.025, 1.2] {
            let scan = (0..=40_000)
                .map(|i| i as f64 * 1e-4)
                .map(|x| (normal_cdf(x) - normal_cdf(x / s)).abs())
                .fold(0.0, f64::max);
            assert!((scale_distance(s) - scan).abs() < 1e-9, "s = {s}");
        }
    }
}
