//! The contrastive loss as a von Mises–Fisher likelihood (LAM App. D, eqs. (44)–(55)).
//!
//! Each embedding z_j induces an attractive density N^S(z | z_j, κ) = C_M(κ)e^{κz_jᵀz} and a
//! repulsive one N^S(z | −z_j, κ) (eqs. (46)–(47)). With κ_P = 1/|P| on positive pairs and
//! κ_N = 1/|N| on negatives, and ½d² = 1 − z_iᵀz_j on the sphere (eq. (41)):
//!
//! * positive pair: −ln N^S(z_i | z_j, κ_P) = κ_P·½d² − (ln C_M(κ_P) + κ_P);
//! * negative pair inside the margin: −ln N^S(z_i | −z_j, κ_N) = κ_N·½(m² − d²)
//!   − (ln C_M(κ_N) + κ_N(m²/2 − 1)).
//!
//! Summing, NLL = L_S + c with the closed-form constant of [`likelihood_constant`]. For m = 2
//! the repulsive constant is LAM App. D's ln C_M(κ_N) + κ_N and N_m = N, so c does not depend on
//! Z. For m < 2 the NLL keeps only the negatives inside the margin (the truncated repulsive
//! term), and the constant per such pair is ln C_M(κ_N) + κ_N(m²/2 − 1), **not** ln C_M(κ_N) +
//! κ_N with N replaced by N_m, the natural reading of LAM App. D's "arbitrary m"; c then
//! depends on Z through |N_m| and is
//! constant only where no negative crosses the margin (gradients agree almost everywhere).

use super::gram::dot;
use super::input::{
    check_batch, check_margin, check_pair_counts, row, ClassLikelihood, PairCounts,
};
use super::pairs::negative_inside;
use crate::error::{require_finite, require_nonnegative, require_sphere_dim, Result};
use crate::labels::IntoLabels;
use crate::vmf::log_norm_const;

/// The negative log-likelihood of the contrastive vMF model (LAM App. D eqs. (51)–(55)):
/// attractive vMFs with κ_P = 1/|P| on all positive pairs (trivial pairs included) and
/// repulsive vMFs with κ_N = 1/|N| on the negatives inside the margin (all negatives when m ≥ 2).
///
/// # Formula
///
/// $$ -\ln p(D\mid\theta) = -\sum_{(i,j)\in P}\ln N^S(z_i\mid z_j,\kappa_P) -
///    \sum_{(i,j)\in N_m}\ln N^S(z_i\mid -z_j,\kappa_N) $$
/// $$ = -|P|\ln C_M(\kappa_P) - \kappa_P\sum_P z_i^\top z_j - |N_m|\ln C_M(\kappa_N) +
///    \kappa_N\sum_{N_m} z_i^\top z_j $$
///
/// evaluated from one pass over the Gram matrix. It equals
/// [`loss`](super::loss)`(…, LossForm::Squared)` + [`likelihood_constant`].
///
/// # Errors
///
/// As [`loss`](super::loss), and [`Error::InvalidDimension`](crate::Error::InvalidDimension) if `dim < 2` (a vMF lives on
/// S^{M−1}, M ≥ 2).
///
/// # Examples
///
/// ```
/// use probdml::contrastive::negative_log_likelihood;
/// use std::f64::consts::PI;
/// // M = 2, z_0 ⟂ z_1, classes [0, 1]: |P| = |N| = 2, κ = ½, all Gram entries 1 (trivial) or 0.
/// // NLL = −2 ln C_2(½) − ½·2 − 2 ln C_2(½) + 0, with C_2(κ) = 1/(2π I_0(κ)).
/// let i0_half = 1.063_483_370_741_323_5_f64; // I_0(½)
/// let want = 4.0 * (2.0 * PI * i0_half).ln() - 1.0;
/// let z = [1.0, 0.0, 0.0, 1.0];
/// assert!((negative_log_likelihood(&z, 2, &[0, 1], 2.0).unwrap() - want).abs() < 1e-14);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn negative_log_likelihood<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    margin: f64,
) -> Result<f64> {
    require_sphere_dim("dim", dim)?;
    let batch = check_batch(z, dim, labels.into_labels())?;
    let (z, labels, counts) = (&*batch.z, &*batch.labels, batch.counts);
    check_margin(margin)?;
    let (mut positive_gram, mut negative_gram, mut inside) = (0.0, 0.0, 0usize);
    for i in 0..counts.n {
        let zi = row(z, dim, i);
        positive_gram += dot(zi, zi);
        for j in i + 1..counts.n {
            let zj = row(z, dim, j);
            let g = dot(zi, zj);
            if labels[i] == labels[j] {
                positive_gram += 2.0 * g;
            } else if negative_inside((2.0 - 2.0 * g).max(0.0), margin) {
                negative_gram += 2.0 * g;
                inside += 2;
            }
        }
    }
    let (kp, kn) = (1.0 / counts.positives as f64, 1.0 / counts.negatives as f64);
    Ok(-(counts.positives as f64) * log_norm_const(dim, kp)
        - kp * positive_gram
        - inside as f64 * log_norm_const(dim, kn)
        + kn * negative_gram)
}

/// The closed-form constant c = NLL − L_S of the contrastive vMF likelihood (LAM App. D,
/// eqs. (52)–(55); corrected for m ≠ 2).
///
/// # Formula
///
/// $$ c = -|P|\big(\ln C_M(\kappa_P) + \kappa_P\big)
///        - |N_m|\big(\ln C_M(\kappa_N) + \kappa_N(\tfrac{m^2}{2} - 1)\big),\qquad
///    \kappa_P = \tfrac{1}{|P|},\ \kappa_N = \tfrac{1}{|N|} $$
///
/// For m = 2, |N_m| = |N| and this is LAM App. D's −|P|(ln C_M(κ_P) + κ_P) − |N|(ln C_M(κ_N) + κ_N).
/// Take the counts from [`pair_counts`](super::pair_counts).
///
/// # Errors
///
/// [`Error::InvalidDimension`](crate::Error::InvalidDimension) if `counts`' dimension `dim < 2`; [`Error::TooFew`](crate::Error::TooFew) if |P| or
/// |N| is 0; [`Error::CountOutOfRange`](crate::Error::CountOutOfRange) if |N_m| > |N|; margin errors as [`loss`](super::loss).
///
/// # Examples
///
/// ```
/// use probdml::contrastive::{likelihood_constant, PairCounts};
/// use std::f64::consts::PI;
/// let counts = PairCounts { n: 2, positives: 2, negatives: 2, negatives_inside: 2 };
/// // C_2(½) = 1/(2π I_0(½)); c = −2(ln C + ½) − 2(ln C + ½) = 4 ln(2π I_0(½)) − 2.
/// let want = 4.0 * (2.0 * PI * 1.063_483_370_741_323_5_f64).ln() - 2.0;
/// assert!((likelihood_constant(2, &counts, 2.0).unwrap() - want).abs() < 1e-14);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn likelihood_constant(dim: usize, counts: &PairCounts, margin: f64) -> Result<f64> {
    require_sphere_dim("dim", dim)?;
    check_margin(margin)?;
    check_pair_counts(counts)?;
    let (p, n, inside) = (
        counts.positives as f64,
        counts.negatives as f64,
        counts.negatives_inside as f64,
    );
    // −|P|·κ_P = −1 and −|N_m|·κ_N = −|N_m|/|N| exactly as written.
    Ok(-p * log_norm_const(dim, 1.0 / p)
        - 1.0
        - inside * log_norm_const(dim, 1.0 / n)
        - (inside / n) * (0.5 * margin * margin - 1.0))
}

/// The class likelihood of LAM App. D eq. (48): the product of an attractive vMF around every
/// embedding of class `class` and a repulsive one around every other embedding, which is a vMF
/// with the summed natural parameter times a constant.
///
/// # Formula
///
/// $$ \prod_{c_j = c} N^S(x\mid z_j,\kappa_+)\prod_{c_j\ne c} N^S(x\mid -z_j,\kappa_-)
///    = e^{s}\\,N^S\\!\big(x\mid \nu/\Vert\nu\Vert, \Vert\nu\Vert\big),\quad
///    \nu = \kappa_+\\!\sum_{c_j=c} z_j - \kappa_-\\!\sum_{c_j\ne c} z_j $$
/// $$ s = n_c\ln C_M(\kappa_+) + (n - n_c)\ln C_M(\kappa_-) - \ln C_M(\Vert\nu\Vert) $$
///
/// ("the precision of which is the sum of the precisions": the natural parameters κμ add).
///
/// # Errors
///
/// As [`negative_log_likelihood`] (without the margin), and [`Error::NotFinite`](crate::Error::NotFinite) /
/// [`Error::OutOfDomain`](crate::Error::OutOfDomain) for a concentration that is not finite and ≥ 0.
///
/// # Examples
///
/// ```
/// use probdml::contrastive::class_likelihood;
/// // Class 0 = {(1, 0)}, class 1 = {(0, 1)}, κ± = 1: ν = (1, 0) − (0, 1) = (1, −1).
/// let like = class_likelihood(&[1.0, 0.0, 0.0, 1.0], 2, &[0, 1], 0, 1.0, 1.0).unwrap();
/// assert!((like.kappa - 2f64.sqrt()).abs() < 1e-15);
/// assert_eq!(like.natural, vec![1.0, -1.0]);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn class_likelihood<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    class: usize,
    kappa_positive: f64,
    kappa_negative: f64,
) -> Result<ClassLikelihood> {
    require_sphere_dim("dim", dim)?;
    let batch = check_batch(z, dim, labels.into_labels())?;
    let (z, labels, counts) = (&*batch.z, &*batch.labels, batch.counts);
    require_nonnegative("kappa_positive", kappa_positive)?;
    require_nonnegative("kappa_negative", kappa_negative)?;
    let mut natural = vec![0.0; dim];
    let mut members = 0usize;
    for (j, &c) in labels.iter().enumerate() {
        let weight = if c == class {
            members += 1;
            kappa_positive
        } else {
            -kappa_negative
        };
        for (v, &x) in natural.iter_mut().zip(row(z, dim, j)) {
            *v += weight * x;
        }
    }
    let kappa = dot(&natural, &natural).sqrt();
    require_finite("kappa", kappa)?;
    let log_norm = log_norm_const(dim, kappa);
    let log_scale = members as f64 * log_norm_const(dim, kappa_positive)
        + (counts.n - members) as f64 * log_norm_const(dim, kappa_negative)
        - log_norm;
    Ok(ClassLikelihood {
        natural,
        kappa,
        log_norm_const: log_norm,
        log_scale,
    })
}
