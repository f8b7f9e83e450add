//! Reference nivMF log densities: the 256-bit normaliser, the norms `‖Kx‖`, `‖Kμ‖` in 256-bit
//! arithmetic, and compensated sums.

use crate::compensated::exact::norm2;
use crate::compensated::{dot2, Neumaier};
use crate::error::Result;
use crate::nivmf::input::check_nivmf_args;
use crate::vmf::exact::log_norm_const;

/// `ln f(x) − ln C_M(κ̃)` (no checks): for integrands that evaluate the density many times with
/// one normaliser.
#[doc(hidden)]
pub fn log_density_without_norm_const(x: &[f64], mu: &[f64], kappas: &[f64]) -> f64 {
    let kx: Vec<f64> = x.iter().zip(kappas).map(|(a, k)| a * k).collect();
    let kmu: Vec<f64> = mu.iter().zip(kappas).map(|(a, k)| a * k).collect();
    let norm_kx = norm2(&kx);
    let mut acc = Neumaier::new();
    kappas.iter().for_each(|k| acc.add(k.ln()));
    acc.add(-(x.len() as f64) * norm_kx.ln());
    acc.add(dot2(&kx, &kmu) / norm_kx);
    acc.total()
}

/// `(ln C_M(κ̃), ln det K, M ln‖Kx‖, κ̃ s(Kx, Kμ), ln κ̃)` with compensated sums.
fn terms(x: &[f64], mu: &[f64], kappas: &[f64]) -> [f64; 5] {
    let kx: Vec<f64> = x.iter().zip(kappas).map(|(a, k)| a * k).collect();
    let kmu: Vec<f64> = mu.iter().zip(kappas).map(|(a, k)| a * k).collect();
    let kappa_tilde = norm2(&kmu);
    let norm_kx = norm2(&kx);
    let mut log_det = Neumaier::new();
    kappas.iter().for_each(|k| log_det.add(k.ln()));
    [
        log_norm_const(x.len(), kappa_tilde),
        log_det.total(),
        x.len() as f64 * norm_kx.ln(),
        dot2(&kx, &kmu) / norm_kx,
        kappa_tilde.ln(),
    ]
}

/// Reference for `nivmf::log_density`.
///
/// # Formula
///
/// $$ \ln f(x) = \ln C_M(\tilde\kappa) + \ln\det K - M\ln\lVert Kx\rVert + \tilde\kappa\\,s(Kx, K\mu) $$
///
/// (book chapter 06), with `ln C_M` from the 256-bit Bessel series, `‖Kx‖` and `κ̃ = ‖Kμ‖`
/// rounded once from 256-bit norms ([`compensated::exact::norm2`](crate::compensated::exact::norm2),
/// not the fast twin's compensated norm), and compensated sums.
///
/// # Errors
///
/// As `nivmf::log_density`.
///
/// # Examples
///
/// ```
/// use probdml::nivmf::exact::log_density;
/// let (x, mu) = ([0.6, 0.0, 0.8], [0.0, 0.0, 1.0]);
/// let iso = log_density(&x, &mu, &[7.0; 3]).unwrap();
/// assert!((iso - probdml::vmf::exact::log_density(&x, &mu, 7.0).unwrap()).abs() < 1e-14);
/// ```
pub fn log_density(x: &[f64], mu: &[f64], kappas: &[f64]) -> Result<f64> {
    let (_, x, mu) = check_nivmf_args(x, mu, kappas)?;
    let [ln_c, log_det, m_ln_kx, exponent, _] = terms(&x, &mu, kappas);
    let mut acc = Neumaier::new();
    [ln_c, log_det, -m_ln_kx, exponent]
        .iter()
        .for_each(|&v| acc.add(v));
    Ok(acc.total())
}

/// Reference for `nivmf::log_density_heuristic`.
///
/// # Formula
///
/// $$ \ln f_h(x) = \ln C_M(\tilde\kappa) + \ln\det K - \ln\tilde\kappa + \tilde\kappa\\,s(Kx, K\mu) $$
///
/// (nivMF eq. (4), Supp. B eq. (22)).
///
/// # Errors
///
/// As `nivmf::log_density`.
///
/// # Examples
///
/// ```
/// use probdml::nivmf::exact::log_density_heuristic;
/// let (x, mu) = ([0.6, 0.0, 0.8], [0.0, 0.0, 1.0]);
/// let iso = log_density_heuristic(&x, &mu, &[7.0; 3]).unwrap();
/// let vmf = probdml::vmf::exact::log_density(&x, &mu, 7.0).unwrap();
/// assert!((iso - vmf - 2.0 * 7.0_f64.ln()).abs() < 1e-13);
/// ```
pub fn log_density_heuristic(x: &[f64], mu: &[f64], kappas: &[f64]) -> Result<f64> {
    let (_, x, mu) = check_nivmf_args(x, mu, kappas)?;
    let [ln_c, log_det, _, exponent, ln_kappa_tilde] = terms(&x, &mu, kappas);
    let mut acc = Neumaier::new();
    [ln_c, log_det, -ln_kappa_tilde, exponent]
        .iter()
        .for_each(|&v| acc.add(v));
    Ok(acc.total())
}
