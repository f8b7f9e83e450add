//! Reference entropy and KL-to-uniform of a vMF, by quadrature over `θ = arccos μᵀx`.
//!
//! Nothing here uses a Bessel function or the closed forms: the entropy is
//! `−∫ f ln f` reduced to one dimension, so agreement with the closed forms of
//! [`crate::vmf::entropy`] and [`crate::vmf::kl_to_uniform`] checks `ln C_M`, `A_M` and the
//! algebra that combines them, all at once.
//!
//! With `w(θ) = sin^{M−2} θ`, `Z₀ = ∫_0^π w = |S^{M−1}|/|S^{M−2}|` and
//! `Z̃ = ∫_0^π e^{κ(cos θ − 1)} w`:
//!
//! * `H = ln|S^{M−2}| + ln Z̃ + κ E[1 − cos θ]` (every term is evaluated without
//!   cancellation against `κ`);
//! * `KL = ln Z₀ − ln Z̃ − κ E[1 − cos θ]` for `κ² > 32M`;
//! * `KL = κ A − ln(1 + D)` for `κ² ≤ 32M`, where `D = (Z − Z₀)/Z₀` and `A` are integrated on
//!   `[0, π/2]` after folding `θ ↦ π − θ`, so that their integrands `4 sinh²(κ cos θ / 2) w` and
//!   `2 cos θ sinh(κ cos θ) w` are positive: as `κ → 0` the KL (`≈ κ²/2M`) keeps its relative
//!   accuracy instead of being the difference of two numbers of size `κ`.

use super::marginal::{log_two_sinh, CosineMarginal, Kernel};
use super::quadrature::integrate_log;
use super::sphere_area::log_sphere_area;
use crate::compensated::Neumaier;
use std::f64::consts::{FRAC_PI_2, LN_2};

const SERIES_LIMIT: f64 = 32.0;

#[inline]
fn in_domain(dim: usize, kappa: f64) -> bool {
    dim >= 2 && (0.0..=super::marginal::KAPPA_MAX).contains(&kappa)
}

/// `ln ∫_0^{π/2} exp(ln_g(θ)) sin^{M−2} θ dθ` with hints around `π/2 − k/√M`.
fn log_half_integral<G: Fn(f64) -> f64>(dim: usize, ln_g: G) -> f64 {
    let width = ((dim.max(3) - 2) as f64).sqrt().recip();
    let hints: Vec<f64> = (-3..=12)
        .map(|k| FRAC_PI_2 - width * 2f64.powi(k))
        .filter(|&h| h > 0.0)
        .collect();
    // sin^{M−2} θ relative to θ = π/2, where it is 1 (accurate near the peak; see `Kernel`).
    let weight = Kernel::new(dim, 0.0, FRAC_PI_2);
    integrate_log(|t| ln_g(t) + weight.relative(t), 0.0, FRAC_PI_2, &hints).log_value()
}

/// Reference twin of `crate::vmf::entropy`, by quadrature.
///
/// # Formula
///
/// $$ H = -\int_{S^{M-1}} f\ln f = \ln|S^{M-2}| + \ln\\!\int_0^\pi e^{\kappa(\cos\theta-1)}\sin^{M-2}\theta\\,d\theta
///        + \kappa\\,\mathbb{E}[1-\cos\theta] $$
///
/// Raw kernel: NaN for `dim < 2` or `κ` negative, NaN or infinite.
///
/// # Errors
///
/// None (NaN outside the domain).
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::entropy;
/// use std::f64::consts::PI;
/// let k = 2.0_f64;
/// let want = (4.0 * PI * k.sinh() / k).ln() - k / k.tanh() + 1.0;
/// assert!((entropy(3, k) - want).abs() < 1e-13);
/// ```
pub fn entropy(dim: usize, kappa: f64) -> f64 {
    if !in_domain(dim, kappa) {
        return f64::NAN;
    }
    let law = CosineMarginal::new(dim, kappa).expect("domain checked");
    let mut acc = Neumaier::new();
    acc.add(log_sphere_area(dim - 1));
    acc.add(law.log_reduced_mass());
    acc.add(kappa * law.mean_complement());
    acc.total()
}

/// Reference twin of `crate::vmf::kl_to_uniform`, by quadrature.
///
/// # Formula
///
/// $$ \mathrm{KL} = \int_{S^{M-1}} f \ln\frac{f}{1/|S^{M-1}|}
///   = \ln Z_0 - \ln\tilde Z - \kappa\\,\mathbb{E}[1-\cos\theta]
///   = \kappa A - \ln(1 + D) $$
///
/// (the second form for `κ² ≤ 32M`; see the module docs). No `ln Γ` is needed:
/// `|S^{M−1}|/|S^{M−2}| = Z₀` is itself an integral.
///
/// Raw kernel: NaN for `dim < 2` or `κ` negative, NaN or infinite.
///
/// # Errors
///
/// None (NaN outside the domain).
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::kl_to_uniform;
/// let k = 1.0_f64;
/// let want = (k / k.sinh()).ln() + k / k.tanh() - 1.0;
/// assert!((kl_to_uniform(3, k) - want).abs() < 1e-14 * want);
/// // κ²/(2M) − 3κ⁴/(4M²(M+2)) at M = 2048, κ = 10⁻³.
/// let m = 2048.0_f64;
/// let series = 1e-6 / (2.0 * m) - 3e-12 / (4.0 * m * m * (m + 2.0));
/// assert!((kl_to_uniform(2048, 1e-3) / series - 1.0).abs() < 1e-12);
/// ```
pub fn kl_to_uniform(dim: usize, kappa: f64) -> f64 {
    if !in_domain(dim, kappa) {
        return f64::NAN;
    }
    if kappa == 0.0 {
        return 0.0;
    }
    let ln_half_z0 = log_half_integral(dim, |_| 0.0);
    if kappa * kappa <= SERIES_LIMIT * dim as f64 {
        // ∫_0^π (e^{κ cos θ} − 1) w = ∫_0^{π/2} 4 sinh²(κ cos θ / 2) w, and Z₀ = 2 ∫_0^{π/2} w.
        let ln_dz = log_half_integral(dim, |t| 2.0 * log_two_sinh(0.5 * kappa * t.cos()));
        let d = (ln_dz - LN_2 - ln_half_z0).exp();
        // ∫_0^π cos θ e^{κ cos θ} w = ∫_0^{π/2} cos θ · 2 sinh(κ cos θ) w;
        // A = that / Z, Z = Z₀ (1 + D).
        let ln_n = log_half_integral(dim, |t| {
            let c = t.cos();
            c.ln() + log_two_sinh(kappa * c)
        });
        let a = (ln_n - LN_2 - ln_half_z0 - d.ln_1p()).exp();
        (kappa * a - d.ln_1p()).max(0.0)
    } else {
        let law = CosineMarginal::new(dim, kappa).expect("domain checked");
        let mut acc = Neumaier::new();
        acc.add(LN_2 + ln_half_z0);
        acc.add(-law.log_reduced_mass());
        acc.add(-kappa * law.mean_complement());
        acc.total().max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z0_is_the_sphere_area_ratio() {
        for &m in &[2usize, 3, 4, 10, 128, 2048] {
            let ln_z0 = LN_2 + log_half_integral(m, |_| 0.0);
            let want = log_sphere_area(m) - log_sphere_area(m - 1);
            assert!(
                (ln_z0 - want).abs() < 1e-14 * want.abs().max(1.0),
                "M = {m}"
            );
        }
    }

    #[test]
    fn regimes_agree_at_the_switch() {
        // Both forms are valid on either side; compare them at κ² = 32M.
        for &m in &[2usize, 3, 10, 128] {
            let kappa = (SERIES_LIMIT * m as f64).sqrt();
            let series_form = kl_to_uniform(m, kappa);
            let law = CosineMarginal::new(m, kappa).unwrap();
            let direct = LN_2 + log_half_integral(m, |_| 0.0)
                - law.log_reduced_mass()
                - kappa * law.mean_complement();
            assert!((series_form - direct).abs() < 1e-13 * direct, "M = {m}");
        }
    }
}
