//! Reference KL divergence between vMFs: `E_ζ[ln ζ − ln ρ]` by sphere quadrature.

use super::log_norm_const_dd;
use super::sphere::SpherePair;
use crate::compensated::exact::norm2;
use crate::error::Result;
use crate::quadrature::Tolerance;
use crate::vmf::input::check_kl_args;

/// The angle between two unit vectors, `2 atan2(‖a − b‖, ‖a + b‖)`: accurate near 0 and π,
/// where `acos(aᵀb)` is not.
#[doc(hidden)]
pub fn angle_between(a: &[f64], b: &[f64]) -> f64 {
    let diff: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let sum: Vec<f64> = a.iter().zip(b).map(|(x, y)| x + y).collect();
    2.0 * norm2(&diff).atan2(norm2(&sum))
}

/// `e^v − 1 − v ≥ 0` without cancellation for small `|v|`.
fn exp_excess(v: f64) -> f64 {
    if v.abs() < 0.5 {
        // Σ_{k≥2} v^k/k!, 24 terms: 0.5^24/24! < 10⁻³⁰.
        let (mut term, mut sum) = (v, 0.0);
        for k in 2..=25 {
            term *= v / k as f64;
            sum += term;
        }
        sum
    } else {
        v.exp_m1() - v
    }
}

/// Reference for `nivmf::kl_vmf`: the defining integral, never the
/// closed form.
///
/// # Formula
///
/// $$ \mathrm{KL}(\zeta\Vert \rho) = \frac{\int_{S^{M-1}} e^{\kappa_z(\mu_z^\top x - 1)} h(x)\\,dx}
///    {\int_{S^{M-1}} e^{\kappa_z(\mu_z^\top x - 1)}\\,dx},\qquad
///    v(x) = \ln\frac{\rho(x)}{\zeta(x)} = \ln C_M(\kappa_p) - \ln C_M(\kappa_z)
///    {}+ \kappa_p\mu_p^\top x - \kappa_z\mu_z^\top x $$
///
/// (nivMF Supp. E eqs. (36)–(37)) with `h = −v` (the definition) or, where `v ≤ 2` on the whole
/// sphere (the two densities within a factor `e²` of each other), `h = e^v − 1 − v ≥ 0`, which has
/// the same integral because `∫ζ(e^v − 1) = ∫(ρ − ζ) = 0`, and no cancellation: this keeps the
/// reference accurate when KL is tiny (`KL ≈ 2.5·10⁻¹⁵` at `κ = 10⁻³`, angle `10⁻⁴`). Both
/// integrals by the two-coordinate reduction of [`SpherePair`] with the pole at `μ_z`; the
/// self-normalisation makes the result independent of `C_M(κ_z)` except through the difference of
/// normalisers, which comes from the 256-bit series as a double-double.
///
/// # Errors
///
/// As `nivmf::kl_vmf`, plus
/// [`Error::NoConvergence`](crate::Error::NoConvergence) if the quadrature fails.
///
/// # Examples
///
/// ```
/// use probdml::nivmf::exact::kl_vmf;
/// let (mu_z, mu_p) = ([1.0, 0.0, 0.0], [1f64.cos(), 1f64.sin(), 0.0]);
/// assert!((kl_vmf(&mu_z, 5.0, &mu_p, 2.0).unwrap() - 1.033723).abs() < 1e-6);
/// ```
pub fn kl_vmf(mu_z: &[f64], kappa_z: f64, mu_p: &[f64], kappa_p: f64) -> Result<f64> {
    let (dim, mu_z, mu_p) = check_kl_args(mu_z, kappa_z, mu_p, kappa_p)?;
    let omega = angle_between(&mu_z, &mu_p);
    let (cz_hi, cz_lo) = log_norm_const_dd(dim, kappa_z);
    let (cp_hi, cp_lo) = log_norm_const_dd(dim, kappa_p);
    // ln C_M(κ_p) − ln C_M(κ_z).
    let delta_c = (cp_hi - cz_hi) + (cp_lo - cz_lo);
    let frame = SpherePair::new(dim, 0.0, omega, kappa_z)?;
    let mass = frame
        .integrate(|_, _, _| 1.0, Tolerance::relative(1e-13))?
        .value;
    let v = |s: f64, t: f64| delta_c + kappa_p * t - kappa_z * s;
    // max_x v(x) = Δc + ‖ν_p − ν_z‖, with ‖ν_p − ν_z‖² = (κ_p − κ_z)² + 2κ_zκ_p(1 − cos ω).
    let spread = ((kappa_p - kappa_z).powi(2)
        + 4.0 * kappa_z * kappa_p * (0.5 * omega).sin().powi(2))
    .sqrt();
    // The integrand's values carry rounding errors of ~ε(|Δc| + κ_z + κ_p), and the driver's
    // floor is 50ε·∫|f| per integral (~2·10⁻¹³·scale·mass for the nested pair): ask for a small
    // multiple of that, on top of 10⁻¹³ relative.
    let scale = delta_c.abs() + kappa_z + kappa_p;
    let tol = Tolerance {
        absolute: 1e-12 * scale * mass,
        relative: 1e-13,
    };
    let value = if delta_c + spread <= 2.0 {
        frame.integrate(|s, t, _| exp_excess(v(s, t)), tol)?.value
    } else {
        -frame.integrate(|s, t, _| v(s, t), tol)?.value
    };
    Ok(value / mass)
}
