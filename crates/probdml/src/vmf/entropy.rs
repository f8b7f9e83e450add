//! Differential entropy of a vMF and its KL divergence to the uniform law on the sphere.
//!
//! Both follow from `E[μᵀX] = A_M(κ)` and `ln f = ln C_M(κ) + κ μᵀx`:
//!
//! `H = −E[ln f] = −ln C_M(κ) − κ A_M(κ)` and `KL(vMF ‖ U) = E[ln f] + ln|S^{M−1}|`.
//!
//! For `κ ≪ √M` the KL divergence is tiny (`≈ κ²/(2M)`) while `ln C_M(κ)` and `ln|S^{M−1}|`
//! are large and opposite (`≈ ∓4900` at `M = 2048`), so their sum would lose every digit.
//! There the KL is summed from the hypergeometric series of the normaliser instead (see
//! [`kl_to_uniform`]).

use super::sphere_area::log_sphere_area;
use super::{log_norm_const, mean_resultant_length};

/// `κ² ≤ SERIES_LIMIT·M` selects the series form of the KL divergence. There `y/b = κ²/(2M) ≤
/// 16` and the series needs at most ~70 terms; beyond it `KL ≳ 1` and the closed form has
/// relative error `≲ 4·10⁻¹⁵·|ln C_M|/KL`.
const SERIES_LIMIT: f64 = 32.0;

/// `true` when `(dim, kappa)` is inside the domain of the raw kernels.
#[inline(always)]
fn in_domain(dim: usize, kappa: f64) -> bool {
    dim >= 2 && kappa >= 0.0 && kappa.is_finite()
}

/// Differential entropy (nats, w.r.t. the surface measure) of `vMF(μ, κ)` on `S^{M−1}`.
///
/// # Formula
///
/// $$ H(\kappa) = -\ln C_M(\kappa) - \kappa A_M(\kappa),\qquad H(0) = \ln|S^{M-1}| $$
///
/// (book chapter 02). It does not depend on `μ`, decreases in `κ`, and behaves like
/// `((M−1)/2)·ln(2πe/κ)` as `κ → ∞`.
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
/// use probdml::vmf::entropy;
/// use std::f64::consts::PI;
/// // M = 3: H = ln(4π sinh κ / κ) − κ coth κ + 1.
/// let k = 2.0_f64;
/// let want = (4.0 * PI * k.sinh() / k).ln() - k / k.tanh() + 1.0;
/// assert!((entropy(3, k) - want).abs() < 1e-14);
/// assert!((entropy(3, 0.0) - (4.0 * PI).ln()).abs() < 1e-15);
/// assert!(entropy(1, 1.0).is_nan());
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn entropy(dim: usize, kappa: f64) -> f64 {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || {
            if !in_domain(dim, kappa) {
                return f64::NAN;
            }
            if kappa == 0.0 {
                return log_sphere_area(dim);
            }
            -log_norm_const(dim, kappa) - kappa * mean_resultant_length(dim, kappa)
        },
    )
}

/// `KL(vMF(μ, κ) ‖ U(S^{M−1}))`, the divergence from the uniform law on the sphere.
///
/// # Formula
///
/// $$ \mathrm{KL}(\kappa) = \ln C_M(\kappa) + \kappa A_M(\kappa) + \ln|S^{M-1}|,\qquad
///    |S^{M-1}| = \frac{2\pi^{M/2}}{\Gamma(M/2)} $$
///
/// (book chapter 02). This is the KL term the BTL listing means by `kl_div_vMF`; the listing's
/// `κ − D ln 2` is not it (it is negative for `κ < D ln 2`; see `proofs/vmf_density.rs`).
///
/// For `κ² ≤ 32M` the closed form cancels catastrophically; writing
/// `C_M(κ)/C_M(0) = 1/₀F₁(; b; y)` with `b = M/2`, `y = κ²/4`, and `κA_M = 2y·∂_y ln ₀F₁`,
///
/// $$ \mathrm{KL} = \frac{2y}{b}\\,\frac{{}_0F_1(;b+1;y)}{{}_0F_1(;b;y)} - \ln {}_0F_1(;b;y)
///    = \frac{\kappa^2}{2M} - \frac{3\kappa^4}{4M^2(M+2)} + O(\kappa^6), $$
///
/// summed from the positive series `₀F₁(; b; y) − 1 = Σ_{k≥1} yᵏ/(k!(b)_k)`. The two terms
/// differ by a factor ≤ 5, so the result keeps full relative accuracy as `κ → 0`.
///
/// Raw kernel: NaN for `dim < 2` or `κ` negative, NaN or infinite. The result is `≥ 0`.
///
/// # Errors
///
/// None (NaN outside the domain).
///
/// # Examples
///
/// ```
/// use probdml::vmf::kl_to_uniform;
/// // M = 3: KL = ln(κ / sinh κ) + κ coth κ − 1.
/// let k = 1.0_f64;
/// let want = (k / k.sinh()).ln() + k / k.tanh() - 1.0;
/// assert!((kl_to_uniform(3, k) - want).abs() < 1e-15);
/// assert!((kl_to_uniform(3, k) - 0.151_595_923_928_135_9).abs() < 1e-15);
/// // Small κ: KL ≈ κ²/(2M), with full relative accuracy.
/// let small = kl_to_uniform(2048, 1e-3);
/// assert!((small / (1e-6 / 4096.0) - 1.0).abs() < 1e-6);
/// assert_eq!(kl_to_uniform(10, 0.0), 0.0);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn kl_to_uniform(dim: usize, kappa: f64) -> f64 {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || {
            if !in_domain(dim, kappa) {
                return f64::NAN;
            }
            if kappa == 0.0 {
                return 0.0;
            }
            let m = dim as f64;
            if kappa * kappa <= SERIES_LIMIT * m {
                kl_series(m, kappa)
            } else {
                let kl = log_norm_const(dim, kappa)
                    + kappa * mean_resultant_length(dim, kappa)
                    + log_sphere_area(dim);
                kl.max(0.0)
            }
        },
    )
}

/// `₀F₁(; b; y) − 1` by its positive series.
#[inline(always)]
fn hypergeometric_0f1_minus_one(b: f64, y: f64) -> f64 {
    let mut term = y / b;
    let mut sum = term;
    let mut k = 1.0;
    while term > f64::EPSILON * 0.25 * sum && k < 1000.0 {
        term *= y / ((k + 1.0) * (b + k));
        sum += term;
        k += 1.0;
    }
    sum
}

/// The series form of the KL divergence, for `κ² ≤ 32M`.
#[inline(always)]
fn kl_series(m: f64, kappa: f64) -> f64 {
    let b = 0.5 * m;
    let y = 0.25 * kappa * kappa;
    let f0 = hypergeometric_0f1_minus_one(b, y);
    let f1 = hypergeometric_0f1_minus_one(b + 1.0, y);
    let kappa_a = (2.0 * y / b) * ((1.0 + f1) / (1.0 + f0));
    (kappa_a - f0.ln_1p()).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_leading_terms() {
        // KL = κ²/(2M) − 3κ⁴/(4M²(M+2)) + O(κ⁶).
        for &m in &[2.0_f64, 3.0, 10.0, 2048.0, 1e5] {
            for &k in &[1e-6_f64, 1e-3, 1e-2] {
                let two_terms = k * k / (2.0 * m) - 3.0 * k.powi(4) / (4.0 * m * m * (m + 2.0));
                let rel = (kl_series(m, k) / two_terms - 1.0).abs();
                assert!(rel < 1e-13 + 10.0 * k.powi(4), "M={m} κ={k}: rel {rel:e}");
            }
        }
    }

    #[test]
    fn series_matches_m3_closed_form() {
        // M = 3: KL = ln(κ / sinh κ) + κ coth κ − 1, well conditioned at κ ~ 1..9.
        for &k in &[0.5_f64, 1.0, 3.0, 9.0] {
            let want = (k / k.sinh()).ln() + k / k.tanh() - 1.0;
            assert!(
                (kl_series(3.0, k) - want).abs() < 4e-15 * want.max(1.0),
                "κ={k}"
            );
        }
    }
}
