//! The nivMF density: the exactly normalised change of variables and the paper's heuristic
//! (nivMF eq. (4), Supp. B).

use super::input::check_nivmf_args;
use crate::compensated::norm2;
use crate::error::Result;
use crate::vmf::log_norm_const;

/// The three pieces of `ln f` besides `ln C_M(κ̃)`.
pub(crate) struct NivmfTerms {
    /// `κ̃ = ‖Kμ‖`.
    pub(crate) kappa_tilde: f64,
    /// `κ̃ s(Kx, Kμ) = (Kx)ᵀ(Kμ)/‖Kx‖`, the exponent.
    pub(crate) exponent: f64,
    /// `ln det K − M ln‖Kx‖ = Σ_m ln(κ_m/‖Kx‖)`: the log Jacobian of `g(x) = Kx/‖Kx‖`.
    pub(crate) log_jacobian: f64,
}

impl NivmfTerms {
    /// Computes the terms. The log Jacobian is summed as `Σ ln(κ_m/‖Kx‖)`, so that
    /// `M ln κ` never appears on its own (at `K = cI` every term is exactly 0); outside
    /// `κ_m ∈ [10⁻¹⁴⁰, 10¹⁴⁰]` the norms are taken with the overflow-safe scaled sums.
    #[inline(always)]
    pub(crate) fn new(x: &[f64], mu: &[f64], kappas: &[f64]) -> Self {
        let (kmin, kmax) = kappas
            .iter()
            .fold((f64::INFINITY, 0.0_f64), |(lo, hi), &k| {
                (lo.min(k), hi.max(k))
            });
        let (norm_kx, kappa_tilde, exponent) = if kmin >= 1e-140 && kmax <= 1e140 {
            let (mut kx2, mut kmu2, mut cross) = (0.0_f64, 0.0_f64, 0.0_f64);
            for ((&xi, &mi), &k) in x.iter().zip(mu).zip(kappas) {
                let (a, b) = (k * xi, k * mi);
                kx2 = a.mul_add(a, kx2);
                kmu2 = b.mul_add(b, kmu2);
                cross = a.mul_add(b, cross);
            }
            let norm_kx = kx2.sqrt();
            (norm_kx, kmu2.sqrt(), cross / norm_kx)
        } else {
            let kx: Vec<f64> = x.iter().zip(kappas).map(|(a, k)| a * k).collect();
            let kmu: Vec<f64> = mu.iter().zip(kappas).map(|(a, k)| a * k).collect();
            let norm_kx = norm2(&kx);
            let cross = kx
                .iter()
                .zip(&kmu)
                .map(|(a, b)| (a / norm_kx) * b)
                .sum::<f64>();
            (norm_kx, norm2(&kmu), cross)
        };
        let ln_norm_kx = norm_kx.ln();
        let log_jacobian = kappas.iter().map(|k| k.ln() - ln_norm_kx).sum::<f64>();
        Self {
            kappa_tilde,
            exponent,
            log_jacobian,
        }
    }
}

/// The exactly normalised nivMF log density at `x ∈ S^{M−1}`, `K = diag(kappas)`.
///
/// # Formula
///
/// $$ f(x) = C_M(\tilde\kappa)\\,\frac{\det K}{\lVert Kx\rVert^M}\\,
///    \exp\\!\big(\tilde\kappa\\, s(Kx, K\mu)\big),\qquad \tilde\kappa = \lVert K\mu\rVert,\quad
///    s(a,b) = \frac{a^\top b}{\lVert a\rVert\lVert b\rVert} $$
///
/// (book chapter 06). `X = g⁻¹(Y)` with `Y ~ vMF(Kμ/κ̃, κ̃)` and `g(x) = Kx/‖Kx‖`, a bijection of the
/// sphere whose surface Jacobian is `det K/‖Kx‖^M` (for a linear map `A`, the push-forward of the
/// surface measure under `x ↦ Ax/‖Ax‖` has density `|det A|^{−1}‖A^{−1}y‖^{−M}`, the angular
/// central Gaussian computation). The paper's eq. (4) uses `D(K) = det K/κ̃` instead of the
/// Jacobian (Supp. B) and does not integrate to 1 ([`log_density_heuristic`]). `K = cI` gives
/// exactly `vMF(μ, c)`.
///
/// `ln det K − M ln‖Kx‖` is summed as `Σ ln(κ_m/‖Kx‖)`, so `det K` never overflows. Error budget: `|Δ| ≤ 4·10⁻¹⁵·max(1, |ln C_M(κ̃)| + |κ̃ s| +
/// |ln Jacobian|)` against [`exact::log_density`](super::exact::log_density); normalisation proved by
/// quadrature on `S¹`, `S²` and Monte Carlo up to `M = 64` (`proofs/nivmf_density.rs`).
///
/// # Errors
///
/// * [`Error::InvalidDimension`](crate::Error::InvalidDimension) if `len(μ) < 2`;
/// * [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if `len(x)` or `len(kappas)`
///   differs from `len(μ)`;
/// * [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) /
///   [`Error::OutOfDomain`](crate::Error::OutOfDomain) if a concentration is not finite or `≤ 0`;
/// * [`Error::NotFinite`](crate::Error::NotFinite) / [`Error::NotUnitVector`](crate::Error::NotUnitVector)
///   if `x` or `μ` has a non-finite entry or is not unit within
///   [`vmf::unit_norm_tolerance`](crate::vmf::unit_norm_tolerance)`(M)`.
///
/// # Examples
///
/// Called as a method of the distribution, [`NonIsotropicVmf::ln_pdf`](super::NonIsotropicVmf::ln_pdf),
/// the point `x` and the mean direction `μ` cannot be swapped (both are unit vectors of length
/// `M`: given by position, a swap returned a wrong density without an error).
///
/// ```
/// use probdml::nivmf::NonIsotropicVmf;
/// use probdml::vmf::{self, VonMisesFisher};
/// // K = cI is the vMF with κ = c.
/// let (x, mu) = ([0.6, 0.0, 0.8], [0.0, 0.0, 1.0]);
/// let iso = NonIsotropicVmf::new(&mu, &[7.0, 7.0, 7.0])?.ln_pdf(&x)?;
/// assert!((iso - VonMisesFisher::new(&mu, 7.0)?.ln_pdf(&x)?).abs() < 1e-14);
/// // A non-isotropic K: at the mode direction μ = e₃ the Jacobian is det K / κ₃³.
/// let law = NonIsotropicVmf::new(&mu, &[2.0, 5.0, 9.0])?;
/// let want = vmf::log_norm_const(3, 9.0) + (2.0_f64 * 5.0 / 81.0).ln() + 9.0;
/// assert!((law.ln_pdf(&mu)? - want).abs() < 1e-13);
/// assert!(NonIsotropicVmf::new(&mu, &[1.0, 0.0, 1.0]).is_err());
/// # Ok::<(), probdml::Error>(())
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
#[deprecated(
    since = "0.1.0",
    note = "name the arguments: `NonIsotropicVmf::new(mu, kappas)?.ln_pdf(x)`"
)]
pub fn log_density(x: &[f64], mu: &[f64], kappas: &[f64]) -> Result<f64> {
    ln_pdf_at(x, mu, kappas)
}

/// [`log_density`] itself: the kernel behind the deprecated positional form and
/// [`NonIsotropicVmf::ln_pdf`](super::NonIsotropicVmf::ln_pdf).
pub(crate) fn ln_pdf_at(x: &[f64], mu: &[f64], kappas: &[f64]) -> Result<f64> {
    let (dim, x, mu) = check_nivmf_args(x, mu, kappas)?;
    let t = crate::instruction_set::dispatch(
        #[inline(always)]
        || NivmfTerms::new(&x, &mu, kappas),
    );
    Ok(log_norm_const(dim, t.kappa_tilde) + t.log_jacobian + t.exponent)
}

/// The paper's nivMF "density" `f_h` (nivMF eq. (4), Supp. B eq. (22)), with the heuristic
/// normaliser `D(K) = Πκ_m/‖Kμ‖`. It is **not** a probability density: kept to reproduce the
/// paper.
///
/// # Formula
///
/// $$ f_h(x) = C_M(\tilde\kappa)\\,\frac{\prod_m \kappa_m}{\tilde\kappa}\\,
///    \exp\\!\big(\tilde\kappa\\, s(Kx, K\mu)\big),\qquad \frac{f_h(x)}{f(x)} =
///    \frac{\lVert Kx\rVert^M}{\tilde\kappa} $$
///
/// (nivMF eqs. (4), (19)–(22)). Its total mass is `E_f[‖Kx‖^M]/κ̃`, not 1: `27.75` at `M = 3`,
/// `K = diag(2, 5, 9)`, `μ = (1,1,1)/√3` (`proofs/nivmf_density.rs`), and `K = cI` gives
/// `c^{M−1}·vMF(μ, c)`, as the paper notes. The logarithm is computed without forming `det K`
/// (as [`log_density`]).
///
/// # Errors
///
/// As [`log_density`].
///
/// # Examples
///
/// Called as a method, [`NonIsotropicVmf::ln_pdf_heuristic`](super::NonIsotropicVmf::ln_pdf_heuristic),
/// `x` and `μ` cannot be swapped.
///
/// ```
/// use probdml::nivmf::NonIsotropicVmf;
/// use probdml::vmf::VonMisesFisher;
/// let (x, mu) = ([0.6, 0.0, 0.8], [0.0, 0.0, 1.0]);
/// let law = NonIsotropicVmf::new(&mu, &[2.0, 5.0, 9.0])?;
/// let norm_kx = ((2.0 * 0.6_f64).powi(2) + (9.0 * 0.8_f64).powi(2)).sqrt();
/// let ratio = law.ln_pdf_heuristic(&x)? - law.ln_pdf(&x)?;
/// assert!((ratio - (3.0 * norm_kx.ln() - 9.0_f64.ln())).abs() < 1e-13);
/// // K = cI: c^{M−1} times the vMF.
/// let iso = NonIsotropicVmf::new(&mu, &[7.0; 3])?.ln_pdf_heuristic(&x)?;
/// let vmf = VonMisesFisher::new(&mu, 7.0)?.ln_pdf(&x)?;
/// assert!((iso - vmf - 2.0 * 7.0_f64.ln()).abs() < 1e-13);
/// # Ok::<(), probdml::Error>(())
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
#[deprecated(
    since = "0.1.0",
    note = "name the arguments: `NonIsotropicVmf::new(mu, kappas)?.ln_pdf_heuristic(x)`"
)]
pub fn log_density_heuristic(x: &[f64], mu: &[f64], kappas: &[f64]) -> Result<f64> {
    ln_pdf_heuristic_at(x, mu, kappas)
}

/// [`log_density_heuristic`] itself: the kernel behind the deprecated positional form and
/// [`NonIsotropicVmf::ln_pdf_heuristic`](super::NonIsotropicVmf::ln_pdf_heuristic).
pub(crate) fn ln_pdf_heuristic_at(x: &[f64], mu: &[f64], kappas: &[f64]) -> Result<f64> {
    let (dim, x, mu) = check_nivmf_args(x, mu, kappas)?;
    let t = crate::instruction_set::dispatch(
        #[inline(always)]
        || NivmfTerms::new(&x, &mu, kappas),
    );
    // ln D(K) = ln det K − ln κ̃ = log_jacobian + M ln‖Kx‖ − ln κ̃, summed without forming
    // the large ln det K on its own: Σ ln(κ_m/κ̃) + (M − 1) ln κ̃.
    let ln_kt = t.kappa_tilde.ln();
    let log_d = kappas.iter().map(|k| k.ln() - ln_kt).sum::<f64>() + (dim as f64 - 1.0) * ln_kt;
    Ok(log_norm_const(dim, t.kappa_tilde) + log_d + t.exponent)
}
